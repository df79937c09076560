package analysistest

import (
	"fmt"
	"math/bits"
	"passlens/compiler/analysis"
	"slices"
	"strings"
)

// This file holds deliberately simple, slow (quadratic or worse) oracles for
// the fast analyses. They share no code with them beyond Graph, and are
// meant for tests on small graphs.

// bitset is a fixed-size set of small integers.
type bitset []uint64

func newBitset(n int) bitset    { return make(bitset, (n+63)/64) }
func (s bitset) has(i int) bool { return s[i/64]&(1<<(uint(i)%64)) != 0 }
func (s bitset) add(i int)      { s[i/64] |= 1 << (uint(i) % 64) }
func (s bitset) count() (c int) {
	for _, w := range s {
		c += bits.OnesCount64(w)
	}
	return c
}
func (s bitset) equal(t bitset) bool { return slices.Equal(s, t) }
func (s bitset) intersect(t bitset) {
	for i := range s {
		s[i] &= t[i]
	}
}
func (s bitset) fill(n int) {
	for i := 0; i < n; i++ {
		s.add(i)
	}
}

// NaiveReach returns the nodes reachable from the entry by a plain
// worklist search.
func NaiveReach(g *analysis.Graph) []bool {
	seen := make([]bool, g.Len())
	seen[0] = true
	work := []int{0}
	for len(work) > 0 {
		u := work[0]
		work = work[1:]
		for _, v := range g.Succs[u] {
			if !seen[v] {
				seen[v] = true
				work = append(work, v)
			}
		}
	}
	return seen
}

// NaiveIDoms computes immediate dominators with the classic iterative
// dataflow over dominator sets: Dom(entry) = {entry}, Dom(v) = {v} ∪
// ⋂ Dom(p) over reachable predecessors p. The immediate dominator of v is the
// strict dominator of v with the largest dominator set. The result is -1 for
// the entry and for unreachable nodes.
func NaiveIDoms(g *analysis.Graph) []int {
	n := g.Len()
	reach := NaiveReach(g)
	preds := make([][]int, n)
	for u, ss := range g.Succs {
		for _, v := range ss {
			preds[v] = append(preds[v], u)
		}
	}
	dom := make([]bitset, n)
	for v := range dom {
		dom[v] = newBitset(n)
		if v == 0 {
			dom[v].add(0)
		} else {
			dom[v].fill(n)
		}
	}
	for changed := true; changed; {
		changed = false
		for v := 1; v < n; v++ {
			if !reach[v] {
				continue
			}
			nd := newBitset(n)
			nd.fill(n)
			for _, p := range preds[v] {
				if reach[p] {
					nd.intersect(dom[p])
				}
			}
			nd.add(v)
			if !nd.equal(dom[v]) {
				dom[v] = nd
				changed = true
			}
		}
	}
	idom := make([]int, n)
	for v := range idom {
		idom[v] = -1
		if v == 0 || !reach[v] {
			continue
		}
		best, bestCount := -1, -1
		for d := 0; d < n; d++ {
			if d != v && dom[v].has(d) && dom[d].count() > bestCount {
				best, bestCount = d, dom[d].count()
			}
		}
		idom[v] = best
	}
	return idom
}

// NaivePostIDoms computes immediate post-dominators by brute force for the
// given roots: node a post-dominates b iff b cannot reach the virtual exit
// (index g.Len(), with an edge from every root) once a is removed. Every node
// must reach the exit. The result has g.Len()+1 entries: the virtual exit
// for the roots' idom and -1 for the exit itself.
func NaivePostIDoms(g *analysis.Graph, roots []int) []int {
	n := g.Len()
	exit := n
	preds := make([][]int, n+1)
	for u, ss := range g.Succs {
		for _, v := range ss {
			preds[v] = append(preds[v], u)
		}
	}
	preds[exit] = append(preds[exit], roots...)
	// reachesExitWithout returns the nodes that reach the exit avoiding a.
	reachesExitWithout := func(a int) []bool {
		r := make([]bool, n+1)
		if a == exit {
			return r
		}
		r[exit] = true
		work := []int{exit}
		for len(work) > 0 {
			u := work[len(work)-1]
			work = work[:len(work)-1]
			for _, p := range preds[u] {
				if p != a && !r[p] {
					r[p] = true
					work = append(work, p)
				}
			}
		}
		return r
	}
	pdom := make([]bitset, n+1) // pdom[b] = post-dominators of b
	for b := range pdom {
		pdom[b] = newBitset(n + 1)
		pdom[b].add(b)
	}
	for a := 0; a <= n; a++ {
		r := reachesExitWithout(a)
		for b := 0; b <= n; b++ {
			if b != a && !r[b] {
				pdom[b].add(a)
			}
		}
	}
	ipdom := make([]int, n+1)
	for b := range ipdom {
		ipdom[b] = -1
		best, bestCount := -1, -1
		for a := 0; a <= n; a++ {
			if a != b && pdom[b].has(a) && pdom[a].count() > bestCount {
				best, bestCount = a, pdom[a].count()
			}
		}
		ipdom[b] = best
	}
	return ipdom
}

// CheckPostDomRoots verifies the structural properties LLVM's post-dominator
// roots have: every block without successors is a root; every other root
// cannot reach a block without successors (it lies in an infinite loop);
// every block reaches some root; and no root with successors reaches another
// root (LLVM removes such redundant roots).
func CheckPostDomRoots(g *analysis.Graph, roots []int) error {
	n := g.Len()
	isRoot := make([]bool, n)
	for _, r := range roots {
		if isRoot[r] {
			return fmt.Errorf("root %s listed twice", g.Name(r))
		}
		isRoot[r] = true
	}
	forward := func(s int) []bool {
		seen := make([]bool, n)
		work := []int{s}
		seen[s] = true
		for len(work) > 0 {
			u := work[len(work)-1]
			work = work[:len(work)-1]
			for _, v := range g.Succs[u] {
				if !seen[v] {
					seen[v] = true
					work = append(work, v)
				}
			}
		}
		return seen
	}
	reachesRoot := make([]bool, n)
	for v := 0; v < n; v++ {
		if len(g.Succs[v]) == 0 && !isRoot[v] {
			return fmt.Errorf("exit block %s is not a root", g.Name(v))
		}
		f := forward(v)
		for w := 0; w < n; w++ {
			if !f[w] {
				continue
			}
			if isRoot[w] {
				reachesRoot[v] = true
			}
			if isRoot[v] && len(g.Succs[v]) > 0 {
				if len(g.Succs[w]) == 0 {
					return fmt.Errorf("non-trivial root %s reaches exit block %s", g.Name(v), g.Name(w))
				}
				if w != v && isRoot[w] {
					return fmt.Errorf("root %s reaches root %s", g.Name(v), g.Name(w))
				}
			}
		}
		if !reachesRoot[v] {
			return fmt.Errorf("block %s reaches no root", g.Name(v))
		}
	}
	return nil
}

// NaiveCycle is a cycle as computed by NaiveCycles.
type NaiveCycle struct {
	Header  int
	Depth   int
	Parent  int   // index into the NaiveCycles result, -1 if top-level
	Entries []int // sorted
	Blocks  []int // sorted
}

// Key returns a canonical string for set comparisons.
func (c NaiveCycle) Key() string {
	return fmt.Sprintf("d=%d h=%d e=%v b=%v", c.Depth, c.Header, c.Entries, c.Blocks)
}

// NaivePreorder returns the DFS preorder numbers (-1 if unreachable) of a
// DFS that visits successors in reverse terminator order, written as the
// "push all successors, visit on pop" traversal LLVM's cycle analysis was
// originally written as.
func NaivePreorder(g *analysis.Graph) []int {
	pre := make([]int, g.Len())
	for i := range pre {
		pre[i] = -1
	}
	next := 0
	stack := []int{0}
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if pre[u] >= 0 {
			continue
		}
		pre[u] = next
		next++
		stack = append(stack, g.Succs[u]...)
	}
	return pre
}

// NaiveCycles computes the cycle forest from its definition: the top-level
// cycles are the non-trivial strongly connected components of the reachable
// subgraph; the header of a cycle is its first block in DFS preorder (DFS
// visiting successors in reverse order); the children of a cycle C are the
// cycles of C without its header; the entries of C are its header and the
// blocks of C with a reachable predecessor outside C. SCCs are found by
// quadratic mutual reachability. Cycles are returned parents first.
func NaiveCycles(g *analysis.Graph) []NaiveCycle {
	n := g.Len()
	pre := NaivePreorder(g)
	preds := make([][]int, n)
	for u, ss := range g.Succs {
		for _, v := range ss {
			preds[v] = append(preds[v], u)
		}
	}
	type region struct {
		in     []bool
		parent int
		depth  int
	}
	all := make([]bool, n)
	for v := range all {
		all[v] = pre[v] >= 0
	}
	var out []NaiveCycle
	work := []region{{all, -1, 1}}
	for len(work) > 0 {
		r := work[0]
		work = work[1:]
		reachFrom := func(s int) []bool {
			seen := make([]bool, n)
			seen[s] = true
			st := []int{s}
			for len(st) > 0 {
				u := st[len(st)-1]
				st = st[:len(st)-1]
				for _, v := range g.Succs[u] {
					if r.in[v] && !seen[v] {
						seen[v] = true
						st = append(st, v)
					}
				}
			}
			return seen
		}
		reach := make([][]bool, n)
		for v := 0; v < n; v++ {
			if r.in[v] {
				reach[v] = reachFrom(v)
			}
		}
		done := make([]bool, n)
		for v := 0; v < n; v++ {
			if !r.in[v] || done[v] {
				continue
			}
			var scc []int
			for w := 0; w < n; w++ {
				if r.in[w] && reach[v][w] && reach[w][v] {
					scc = append(scc, w)
					done[w] = true
				}
			}
			nontrivial := len(scc) > 1 || slices.Contains(g.Succs[v], v)
			if !nontrivial {
				continue
			}
			inC := make([]bool, n)
			header := scc[0]
			for _, w := range scc {
				inC[w] = true
				if pre[w] < pre[header] {
					header = w
				}
			}
			entries := []int{}
			for _, w := range scc {
				isEntry := w == header
				for _, p := range preds[w] {
					if !inC[p] && pre[p] >= 0 {
						isEntry = true
					}
				}
				if isEntry {
					entries = append(entries, w)
				}
			}
			out = append(out, NaiveCycle{Header: header, Depth: r.depth, Parent: r.parent, Entries: entries, Blocks: scc})
			sub := slices.Clone(inC)
			sub[header] = false
			work = append(work, region{sub, len(out) - 1, r.depth + 1})
		}
	}
	return out
}

// CheckCycleInfo verifies the structural properties of ci on g without
// recomputing it: block/cycle maps are consistent, every cycle is strongly
// connected, its header is its first block in DFS preorder, its entries are
// exactly the header and the blocks with a reachable predecessor outside
// the cycle, children are nested with depth+1 and disjoint, exits are the
// outside successors, and every reachable block on a non-trivial SCC is in
// some cycle. It runs in O(sum of cycle sizes + edges) per cycle level and is
// usable on large graphs.
func CheckCycleInfo(g *analysis.Graph, ci *analysis.CycleInfo) error {
	n := g.Len()
	pre := NaivePreorder(g)
	preds := make([][]int, n)
	for u, ss := range g.Succs {
		for _, v := range ss {
			preds[v] = append(preds[v], u)
		}
	}
	mark := make([]int, n)  // mark[b] == c+1: b is in cycle c (scratch)
	stamp := make([]int, n) // visit marks for searches and exit dedup
	cur := 0
	deepest := make([]int, n) // deepest cycle listing b
	for b := range deepest {
		deepest[b] = -1
	}
	var errs []string
	fail := func(format string, args ...any) {
		if len(errs) < 10 {
			errs = append(errs, fmt.Sprintf(format, args...))
		}
	}
	for c := 0; c < ci.Len(); c++ {
		blocks := ci.Blocks(c)
		if len(blocks) == 0 || blocks[0] != ci.Header(c) {
			fail("cycle %d: blocks do not start with the header", c)
			continue
		}
		h := ci.Header(c)
		for _, b := range blocks {
			if mark[b] == c+1 {
				fail("cycle %d: block %s listed twice", c, g.Name(b))
			}
			mark[b] = c + 1
			if pre[b] < 0 {
				fail("cycle %d: unreachable block %s", c, g.Name(b))
			}
			if pre[b] < pre[h] {
				fail("cycle %d: block %s precedes header in preorder", c, g.Name(b))
			}
			if !ci.Contains(c, b) {
				fail("cycle %d: Contains(%s) false", c, g.Name(b))
			}
			if d := deepest[b]; d < 0 || ci.Depth(d) < ci.Depth(c) {
				deepest[b] = c
			}
		}
		// Strongly connected: the header reaches every block and every block
		// reaches the header, within the cycle.
		for dir := 0; dir < 2; dir++ {
			cur++
			stamp[h] = cur
			seen := 1
			st := []int{h}
			for len(st) > 0 {
				u := st[len(st)-1]
				st = st[:len(st)-1]
				adj := g.Succs[u]
				if dir == 1 {
					adj = preds[u]
				}
				for _, v := range adj {
					if mark[v] == c+1 && stamp[v] != cur {
						stamp[v] = cur
						seen++
						st = append(st, v)
					}
				}
			}
			if seen != len(blocks) {
				fail("cycle %d: not strongly connected", c)
			}
		}
		if len(blocks) == 1 && !slices.Contains(g.Succs[h], h) {
			fail("cycle %d: single block without self loop", c)
		}
		var want []int
		for _, b := range blocks {
			isEntry := b == h
			for _, p := range preds[b] {
				if mark[p] != c+1 && pre[p] >= 0 {
					isEntry = true
				}
			}
			if isEntry {
				want = append(want, b)
			}
		}
		got := slices.Clone(ci.Entries(c))
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			fail("cycle %d: entries %v, want %v", c, got, want)
		}
		if ci.IsReducible(c) != (len(want) == 1) {
			fail("cycle %d: reducible flag wrong", c)
		}
		var wantExits, wantExiting []int
		cur++
		for _, b := range blocks {
			exiting := false
			for _, s := range g.Succs[b] {
				if mark[s] != c+1 {
					exiting = true
					if stamp[s] != cur {
						stamp[s] = cur
						wantExits = append(wantExits, s)
					}
				}
			}
			if exiting {
				wantExiting = append(wantExiting, b)
			}
		}
		if !slices.Equal(ci.ExitBlocks(c), wantExits) {
			fail("cycle %d: exits %v, want %v", c, ci.ExitBlocks(c), wantExits)
		}
		if !slices.Equal(ci.ExitingBlocks(c), wantExiting) {
			fail("cycle %d: exiting blocks %v, want %v", c, ci.ExitingBlocks(c), wantExiting)
		}
		if p := ci.Parent(c); p >= 0 {
			if ci.Depth(c) != ci.Depth(p)+1 {
				fail("cycle %d: depth %d, parent depth %d", c, ci.Depth(c), ci.Depth(p))
			}
			if !ci.ContainsCycle(p, c) || !slices.Contains(ci.Children(p), c) {
				fail("cycle %d: not nested in parent %d", c, p)
			}
			for _, b := range blocks {
				if !ci.Contains(p, b) || b == ci.Header(p) {
					fail("cycle %d: block %s not in parent's non-header blocks", c, g.Name(b))
				}
			}
		} else if ci.Depth(c) != 1 {
			fail("top-level cycle %d has depth %d", c, ci.Depth(c))
		}
	}
	// The innermost cycle of each block is the deepest cycle listing it,
	// and reachable blocks with self loops are in some cycle.
	for b := 0; b < n; b++ {
		if ci.CycleOf(b) != deepest[b] {
			fail("CycleOf(%s) = %d, want %d", g.Name(b), ci.CycleOf(b), deepest[b])
		}
		if deepest[b] >= 0 && ci.BlockDepth(b) != ci.Depth(deepest[b]) {
			fail("BlockDepth(%s) wrong", g.Name(b))
		}
		if deepest[b] < 0 && pre[b] >= 0 && slices.Contains(g.Succs[b], b) {
			fail("block %s has a self loop but is in no cycle", g.Name(b))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

// IterativeIDoms computes immediate dominators of the graph given by succs
// (node count len(succs)) from root with the Cooper–Harvey–Kennedy
// iterative algorithm ("A Simple, Fast Dominance Algorithm", 2001). It is an
// independent oracle for large graphs, where the set-based oracles are too
// slow. The result is -1 for the root and for unreachable nodes.
func IterativeIDoms(succs [][]int, root int) []int {
	n := len(succs)
	preds := make([][]int, n)
	for u, ss := range succs {
		for _, v := range ss {
			preds[v] = append(preds[v], u)
		}
	}
	// Postorder numbers by an explicit-stack DFS.
	po := make([]int, n)
	for i := range po {
		po[i] = -1
	}
	seen := make([]bool, n)
	var post []int
	type frame struct{ n, i int }
	seen[root] = true
	stack := []frame{{root, 0}}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.i < len(succs[f.n]) {
			v := succs[f.n][f.i]
			f.i++
			if !seen[v] {
				seen[v] = true
				stack = append(stack, frame{v, 0})
			}
			continue
		}
		po[f.n] = len(post)
		post = append(post, f.n)
		stack = stack[:len(stack)-1]
	}
	idom := make([]int, n)
	for i := range idom {
		idom[i] = -1
	}
	idom[root] = root
	intersect := func(a, b int) int {
		for a != b {
			for po[a] < po[b] {
				a = idom[a]
			}
			for po[b] < po[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for i := len(post) - 1; i >= 0; i-- {
			b := post[i]
			if b == root {
				continue
			}
			nd := -1
			for _, p := range preds[b] {
				if idom[p] < 0 {
					continue
				}
				if nd < 0 {
					nd = p
				} else {
					nd = intersect(p, nd)
				}
			}
			if nd != idom[b] {
				idom[b] = nd
				changed = true
			}
		}
	}
	idom[root] = -1
	return idom
}
