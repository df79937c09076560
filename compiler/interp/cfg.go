package interp

import (
	"slices"
	"sort"

	"passlens/compiler/graph"
	"passlens/compiler/ir"
)

// This file computes the control-flow facts the lane-group scheduler needs
// (see doc.go for the rule they implement): dominators, post-dominators, the
// cycle hierarchy, convergence regions (cycles, widened to loop constructs
// where a loop_merge annotation says so), and a schedule number for every
// block. Orders and (post-)dominator trees come from compiler/graph; the
// cycles here are the interpreter's own (strongly connected regions with
// headers in its DFS preorder, which the schedule numbering is defined
// by). It works on reachable blocks only.

// cfg holds per-function control-flow facts, blocks numbered in layout order.
type cfg struct {
	n      int
	succ   [][]int        // deduplicated successors
	pred   [][]int        // deduplicated predecessors
	rpo    []int          // blocks in reverse post-order from the entry
	rpoNum []int          // position in rpo, -1 if unreachable
	pre    []int          // DFS preorder number, -1 if unreachable
	dom    *graph.DomTree // dominator tree (compiler/graph)
	ipdom  []int          // immediate post-dominator, -1 for none (exit or no path to an exit)

	regions []region // regions[0] is the root: the whole function
	inner   []int    // innermost region of each block (0 for none / unreachable)
	path    [][]int  // regions containing each block, outermost first, root excluded
	num     []int    // schedule number of each reachable block
}

// region is a convergence region: a cycle of the CFG, or the loop construct
// of an annotated loop header (which also contains its break paths).
type region struct {
	header int
	parent int
	end    int // schedule number of "pending at the header for the next iteration"
	blocks []int
}

func newCFG(f *ir.Function, bindex map[*ir.Block]int) *cfg {
	n := len(f.Blocks)
	c := &cfg{n: n, succ: make([][]int, n), pred: make([][]int, n)}
	for i, b := range f.Blocks {
		seen := map[int]bool{}
		for _, s := range b.Successors() {
			j, ok := bindex[s]
			if !ok || seen[j] {
				continue
			}
			seen[j] = true
			c.succ[i] = append(c.succ[i], j)
			c.pred[j] = append(c.pred[j], i)
		}
	}
	if n > 0 {
		// Orders, dominators and post-dominators come from the shared CFG
		// layer; duplicate edges (removed above) do not change them.
		g := &graph.Graph{Succs: c.succ}
		o := graph.DepthFirst(g)
		c.pre = o.PreNum
		c.rpo = o.RPO()
		c.rpoNum = make([]int, n)
		for i := range c.rpoNum {
			c.rpoNum[i] = -1
		}
		for i, b := range c.rpo {
			c.rpoNum[b] = i
		}
		c.dom = graph.Dominators(g)
		// Immediate post-dominators relative to the real exits: a virtual
		// exit that every block without successors (ret, discard,
		// unreachable) branches to; -1 for blocks whose immediate
		// post-dominator is that exit, that cannot reach it, or that are
		// unreachable.
		pd := graph.ExitPostDominators(g)
		c.ipdom = make([]int, n)
		for b := range c.ipdom {
			c.ipdom[b] = -1
			if c.rpoNum[b] >= 0 && pd.Contains(b) && pd.IDom(b) < n {
				c.ipdom[b] = pd.IDom(b)
			}
		}
	}
	c.buildRegions(f, bindex)
	return c
}

// dominates reports whether a dominates b (reflexive); false for
// unreachable blocks.
func (c *cfg) dominates(a, b int) bool {
	return a >= 0 && b >= 0 && c.dom.Dominates(a, b)
}

// cycles returns the cycle hierarchy (LLVM GenericCycleInfo shape): the
// maximal strongly connected components of the reachable subgraph, each
// with the header it was first entered by in DFS preorder; the children of
// a cycle are the cycles of its blocks with the header removed.
func (c *cfg) cycles() []cycleInfo {
	var out []cycleInfo
	var rec func(members []int, parent int)
	rec = func(members []int, parent int) {
		for _, scc := range c.sccs(members) {
			if len(scc) == 1 && !c.selfLoop(scc[0]) {
				continue
			}
			h := scc[0]
			for _, b := range scc {
				if c.pre[b] < c.pre[h] {
					h = b
				}
			}
			id := len(out)
			out = append(out, cycleInfo{header: h, blocks: scc, parent: parent})
			var rest []int
			for _, b := range scc {
				if b != h {
					rest = append(rest, b)
				}
			}
			rec(rest, id)
		}
	}
	var all []int
	for b := 0; b < c.n; b++ {
		if c.rpoNum[b] >= 0 {
			all = append(all, b)
		}
	}
	rec(all, -1)
	return out
}

type cycleInfo struct {
	header int
	blocks []int
	parent int
}

func (c *cfg) selfLoop(b int) bool {
	for _, s := range c.succ[b] {
		if s == b {
			return true
		}
	}
	return false
}

// sccs gives the strongly connected components of the subgraph of
// members (graph.Tarjan), each sorted.
func (c *cfg) sccs(members []int) [][]int {
	in := make([]bool, c.n)
	for _, b := range members {
		in[b] = true
	}
	var out [][]int
	graph.Tarjan(c.n, members, func(b int) []int { return c.succ[b] }, func(b int) bool { return in[b] }, func(comp []int) {
		scc := slices.Clone(comp)
		sort.Ints(scc)
		out = append(out, scc)
	})
	return out
}

// loopConstruct returns the SPIR-V loop construct of an annotated header h
// with merge block m: the blocks dominated by h and not dominated by m.
func (c *cfg) construct(h, m int) []int {
	var out []int
	for b := 0; b < c.n; b++ {
		if c.rpoNum[b] < 0 || !c.dominates(h, b) {
			continue
		}
		if m >= 0 && c.dominates(m, b) {
			continue
		}
		out = append(out, b)
	}
	return out
}

// buildRegions forms the convergence regions and the schedule numbering.
//
// Candidate regions are the cycles of the CFG; a cycle whose header carries
// a valid loop_merge annotation is widened to the loop construct (so lanes
// that break out in the same iteration stay together until the merge), and
// an annotated loop header that heads no cycle (do { } while (false)) gets
// its construct as a region too. An annotation is valid when the construct
// contains the header and the whole cycle. Regions are nested by placing
// them largest first, each inside the innermost region already holding its
// header; a block shared by two unrelated regions stays in the first placed,
// so the regions always form a tree.
func (c *cfg) buildRegions(f *ir.Function, bindex map[*ir.Block]int) {
	cyc := c.cycles()
	type cand struct {
		header int
		blocks []int
	}
	var cands []cand
	byHeader := map[int]int{}
	annotated := map[int][]int{}
	for b, blk := range f.Blocks {
		if c.rpoNum[b] < 0 {
			continue
		}
		t := blk.Terminator()
		if t == nil || t.MergeKind != ir.MergeLoop {
			continue
		}
		m := -1
		if t.Merge != nil {
			if j, ok := bindex[t.Merge]; ok {
				m = j
			}
		}
		if m >= 0 && c.dominates(m, b) {
			continue // nonsense annotation: the merge comes first
		}
		annotated[b] = c.construct(b, m)
	}
	for _, cy := range cyc {
		blocks := cy.blocks
		if con, ok := annotated[cy.header]; ok && containsAll(con, cy.blocks) {
			blocks = con
		}
		byHeader[cy.header] = len(cands)
		cands = append(cands, cand{cy.header, blocks})
	}
	for h, con := range annotated {
		if _, ok := byHeader[h]; ok {
			continue
		}
		cands = append(cands, cand{h, con})
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if len(cands[i].blocks) != len(cands[j].blocks) {
			return len(cands[i].blocks) > len(cands[j].blocks)
		}
		return c.pre[cands[i].header] < c.pre[cands[j].header]
	})

	c.regions = []region{{header: 0, parent: -1}}
	c.inner = make([]int, c.n)
	isHeader := map[int]bool{0: true}
	for _, cd := range cands {
		parent := c.inner[cd.header]
		id := len(c.regions)
		c.regions = append(c.regions, region{header: cd.header, parent: parent})
		c.inner[cd.header] = id
		isHeader[cd.header] = true
		for _, b := range cd.blocks {
			if b != cd.header && c.inner[b] == parent && !isHeader[b] {
				c.inner[b] = id
			}
		}
	}
	c.path = make([][]int, c.n)
	for b := 0; b < c.n; b++ {
		if c.rpoNum[b] < 0 {
			continue
		}
		var p []int
		for r := c.inner[b]; r > 0; r = c.regions[r].parent {
			p = append(p, r)
		}
		for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
			p[i], p[j] = p[j], p[i]
		}
		c.path[b] = p
		c.regions[c.inner[b]].blocks = append(c.regions[c.inner[b]].blocks, b)
	}
	c.number()
}

func containsAll(set, sub []int) bool {
	m := make(map[int]bool, len(set))
	for _, b := range set {
		m[b] = true
	}
	for _, b := range sub {
		if !m[b] {
			return false
		}
	}
	return true
}

// childOf returns the node of region r that contains block b: the block
// itself (as a non-negative id) or a child region (as -1-regionID).
func (c *cfg) childOf(r, b int) int {
	x := c.inner[b]
	if x == r {
		return b
	}
	for c.regions[x].parent != r {
		x = c.regions[x].parent
		if x <= 0 {
			return b // not inside r (cannot happen for callers)
		}
	}
	return -1 - x
}

// lca returns the innermost region containing both regions a and b.
func (c *cfg) lca(a, b int) int {
	da, db := c.depth(a), c.depth(b)
	for da > db {
		a = c.regions[a].parent
		da--
	}
	for db > da {
		b = c.regions[b].parent
		db--
	}
	for a != b {
		a, b = c.regions[a].parent, c.regions[b].parent
	}
	return a
}

func (c *cfg) depth(r int) int {
	d := 0
	for r > 0 {
		r = c.regions[r].parent
		d++
	}
	return d
}

// number orders the nodes of every region topologically (edges into the
// region's own header are back edges and ignored; child regions are
// collapsed into one node) and assigns schedule numbers depth first: a
// region's blocks are contiguous, and after them comes the region's end
// number, where lanes wait to start the next iteration. Ties are broken by
// reverse post-order; a cycle left in a malformed CFG is broken the same way.
func (c *cfg) number() {
	nr := len(c.regions)
	kids := make([][]int, nr) // child region ids
	for r := 1; r < nr; r++ {
		kids[c.regions[r].parent] = append(kids[c.regions[r].parent], r)
	}
	edges := make([]map[[2]int]bool, nr)
	for u := 0; u < c.n; u++ {
		if c.rpoNum[u] < 0 {
			continue
		}
		for _, v := range c.succ[u] {
			l := c.lca(c.inner[u], c.inner[v])
			if l > 0 && v == c.regions[l].header {
				continue // back edge of region l
			}
			cu, cv := c.childOf(l, u), c.childOf(l, v)
			if cu == cv {
				continue
			}
			if edges[l] == nil {
				edges[l] = map[[2]int]bool{}
			}
			edges[l][[2]int{cu, cv}] = true
		}
	}
	key := func(node int) int {
		if node >= 0 {
			return c.rpoNum[node]
		}
		return c.rpoNum[c.regions[-1-node].header]
	}
	c.num = make([]int, c.n)
	for i := range c.num {
		c.num[i] = -1
	}
	counter := 0
	var visit func(r int)
	visit = func(r int) {
		nodes := append([]int(nil), c.regions[r].blocks...)
		for _, k := range kids[r] {
			nodes = append(nodes, -1-k)
		}
		indeg := map[int]int{}
		out := map[int][]int{}
		for e := range edges[r] {
			indeg[e[1]]++
			out[e[0]] = append(out[e[0]], e[1])
		}
		done := map[int]bool{}
		hdr := c.regions[r].header
		for len(done) < len(nodes) {
			best := -1
			pick := func(ready bool) {
				for _, nd := range nodes {
					if done[nd] || (ready && indeg[nd] > 0) {
						continue
					}
					if best == -1 || key(nd) < key(best) {
						best = nd
					}
				}
			}
			if !done[hdr] && r > 0 {
				best = hdr // the header always comes first in its region
			} else {
				pick(true)
				if best == -1 {
					pick(false) // break a cycle of a malformed region
				}
			}
			done[best] = true
			for _, s := range out[best] {
				indeg[s]--
			}
			if best >= 0 {
				c.num[best] = counter
				counter++
			} else {
				visit(-1 - best)
			}
		}
		c.regions[r].end = counter
		counter++
	}
	visit(0)
}
