package uniformity

import (
	"math/bits"
	"passlens/compiler/analysis"
)

// cfgCtx bundles the CFG analyses the uniformity engines share: the graph,
// its dominator tree and cycle hierarchy, the modified post-order of the
// sync-dependence propagation, and cached cycle exit lists.
type cfgCtx struct {
	g    *analysis.Graph
	succ csr
	dt   *analysis.DomTree
	ci   *analysis.CycleInfo

	// mpo is LLVM's ModifiedPostOrder: mpoOrder[i] is the block with index
	// i and mpoIndex[b] the index of block b (-1 if unreachable).
	mpoOrder []int32
	mpoIndex []int32
	// redHeader[b]: b heads a reducible cycle (its label is propagated to
	// the cycle's exits instead of its successors).
	redHeader []bool
	// inIrreducible[b]: some cycle containing b is irreducible.
	inIrreducible []bool
	// irrUp[c]: the innermost irreducible cycle around (or equal to) c, -1.
	irrUp []int32

	up    [][]int32 // binary lifting over the cycle tree, built on demand
	jump  *jumpInfo // dominator-subtree jumps, built on demand
	exits [][]int32 // per cycle (computeAllExits)
	stamp []uint32  // scratch marks for exit de-duplication
	gen   uint32
}

// newCfgCtx builds the context of graph g, whose dominator tree and cycle
// hierarchy are dt and ci (the function's cached ones, see ir.CFG).
func newCfgCtx(g *analysis.Graph, dt *analysis.DomTree, ci *analysis.CycleInfo) *cfgCtx {
	c := &cfgCtx{g: g, succ: buildSuccs(g), dt: dt, ci: ci}
	m := c.ci.Len()
	c.exits = make([][]int32, m)
	c.stamp = make([]uint32, g.Len())
	irr := make([]bool, m) // cycle or one of its ancestors is irreducible
	c.irrUp = make([]int32, m)
	for cy := 0; cy < m; cy++ { // parents are numbered before children
		p := c.ci.Parent(cy)
		irr[cy] = !c.ci.IsReducible(cy) || (p >= 0 && irr[p])
		switch {
		case !c.ci.IsReducible(cy):
			c.irrUp[cy] = int32(cy)
		case p >= 0:
			c.irrUp[cy] = c.irrUp[p]
		default:
			c.irrUp[cy] = -1
		}
	}
	c.inIrreducible = make([]bool, g.Len())
	for b := range c.inIrreducible {
		if cy := c.ci.CycleOf(b); cy >= 0 {
			c.inIrreducible[b] = irr[cy]
		}
	}
	c.computeAllExits()
	c.computeMPO()
	return c
}

// cycleExits returns the exit blocks of cycle cy (blocks outside cy with a
// predecessor in cy) in LLVM's order: by block in the cycle's block order,
// then by successor order, without duplicates (see computeAllExits).
func (c *cfgCtx) cycleExits(cy int) []int32 { return c.exits[cy] }

// computeMPO computes LLVM's ModifiedPostOrder (GenericUniformityImpl.h):
// a post-order of the reachable blocks in which every cycle occupies an
// interval whose lowest index is its header, the blocks after a cycle come
// before the header, and within a cycle the blocks form a DAG order with
// the header as the sole sink. Each cycle's blocks are numbered by a DFS
// from the header's successors inside the cycle, and a nested cycle is
// entered only after all of its exits inside the current cycle are
// finalized. The traversal visits successors and exits in LLVM's order, so
// the numbering is LLVM's; it matters because the propagation over
// irreducible cycles depends on it.
func (c *cfgCtx) computeMPO() {
	n := c.g.Len()
	c.mpoIndex = make([]int32, n)
	for i := range c.mpoIndex {
		c.mpoIndex[i] = -1
	}
	c.redHeader = make([]bool, n)
	c.mpoOrder = make([]int32, 0, n)
	finalized := make([]bool, n)
	appendBlock := func(b int32, redHeader bool) {
		c.mpoIndex[b] = int32(len(c.mpoOrder))
		c.mpoOrder = append(c.mpoOrder, b)
		if redHeader {
			c.redHeader[b] = true
		}
	}
	ci := c.ci
	// Each frame is one computeStackPO call: a DFS stack restricted to
	// cycle cy (-1 for the whole function). A nested cycle whose exits are
	// finalized is numbered by pushing a new frame (computeCyclePO).
	type frame struct {
		cy    int
		stack []int32
	}
	var frames []frame
	startCycle := func(cy int) {
		h := int32(ci.Header(cy))
		finalized[h] = true
		appendBlock(h, ci.IsReducible(cy))
		var st []int32
		for _, s := range c.succ.of(int(h)) {
			if !ci.Contains(cy, int(s)) || s == h || finalized[s] {
				continue
			}
			st = append(st, s)
		}
		frames = append(frames, frame{cy: cy, stack: st})
	}
	frames = append(frames, frame{cy: -1, stack: []int32{0}})
	for len(frames) > 0 {
		f := &frames[len(frames)-1]
		if len(f.stack) == 0 {
			frames = frames[:len(frames)-1]
			continue
		}
		next := f.stack[len(f.stack)-1]
		if finalized[next] {
			f.stack = f.stack[:len(f.stack)-1]
			continue
		}
		nested := ci.CycleOf(int(next))
		if nested != f.cy && nested >= 0 && (f.cy < 0 || ci.ContainsCycle(f.cy, nested)) {
			for ci.Parent(nested) != f.cy {
				nested = ci.Parent(nested)
			}
			pushed := false
			for _, e := range c.cycleExits(nested) {
				if f.cy >= 0 && !ci.Contains(f.cy, int(e)) {
					continue
				}
				if finalized[e] {
					continue
				}
				pushed = true
				f.stack = append(f.stack, e)
			}
			if !pushed {
				f.stack = f.stack[:len(f.stack)-1]
				startCycle(nested) // may reallocate frames; f is not used after
			}
			continue
		}
		pushed := false
		for _, s := range c.succ.of(int(next)) {
			if f.cy >= 0 && !ci.Contains(f.cy, int(s)) {
				continue
			}
			if finalized[s] {
				continue
			}
			pushed = true
			f.stack = append(f.stack, s)
		}
		if !pushed {
			f.stack = f.stack[:len(f.stack)-1]
			finalized[next] = true
			appendBlock(next, false)
		}
	}
}

// irreducibleAncestor returns the largest cycle containing block b that is
// reached from b's innermost cycle through irreducible cycles only (LLVM's
// IrreducibleAncestor in computeJoinPoints), or -1 if b's innermost cycle is
// reducible or b is in no cycle. Propagation for a branch in b does not stop
// early while it is inside this cycle.
func (c *cfgCtx) irreducibleAncestor(b int) int {
	cy := c.ci.CycleOf(b)
	if cy < 0 || c.ci.IsReducible(cy) {
		return -1
	}
	for {
		p := c.ci.Parent(cy)
		if p < 0 || c.ci.IsReducible(p) {
			return cy
		}
		cy = p
	}
}

// outermostDivergentCycle returns the cycle that a divergent branch in block
// br makes divergent as a whole because two of its diverged paths join in
// block j, or -1 (LLVM's getOutermostDivergentCycle). It is the largest
// cycle containing j whose convergence is not determined once paths that
// diverged at br reach j:
//
//   - external: the outermost cycle containing j but not br, if it is
//     irreducible (diverged paths entered it through different entries);
//   - internal: for the smallest cycle containing both, if it is irreducible
//     and neither br nor its header dominates j (the diverged entry
//     criterion fails), that cycle and every parent whose header does not
//     dominate j either.
func (c *cfgCtx) outermostDivergentCycle(br, j int) int {
	cy := c.ci.CycleOf(j)
	if cy < 0 {
		return -1
	}
	ext := c.extDivCycle(cy, br)
	if in := c.intDivCycle(cy, br, j); in >= 0 {
		return in
	}
	return ext
}

func (c *cfgCtx) extDivCycle(cy, br int) int {
	ci := c.ci
	if ci.Contains(cy, br) {
		return -1
	}
	// The outermost cycle containing cy but not br is cy's ancestor just
	// below the smallest cycle containing both (binary lifting: cycles
	// nest thousands deep in irreducible regions).
	cy = c.ancestorAtDepth(cy, c.lcaDepth(cy, ci.CycleOf(br))+1)
	if ci.IsReducible(cy) {
		return -1
	}
	return cy
}

func (c *cfgCtx) intDivCycle(cy, br, j int) int {
	ci, dt := c.ci, c.dt
	if dt.StrictlyDominates(br, j) {
		return -1
	}
	d := c.lcaDepth(cy, ci.CycleOf(br))
	if d == 0 {
		return -1
	}
	cy = c.ancestorAtDepth(cy, d)
	if ci.IsReducible(cy) {
		return -1
	}
	if dt.StrictlyDominates(ci.Header(cy), j) {
		return -1
	}
	for p := ci.Parent(cy); p >= 0 && !dt.StrictlyDominates(ci.Header(p), j); p = ci.Parent(p) {
		cy = p
	}
	return cy
}

// exitCycle returns the cycle that a divergent exit to block exit from a
// branch whose innermost cycle is inner makes a cycle with divergent exit:
// the outermost cycle around inner that is deeper than exit's innermost
// cycle (LLVM's propagateCycleExitDivergence), found by binary lifting
// because irreducible regions nest cycles thousands deep.
func (c *cfgCtx) exitCycle(exit, inner int) int {
	d := c.ci.BlockDepth(exit)
	if c.ci.Depth(inner) <= d+1 {
		return inner
	}
	return c.ancestorAtDepth(inner, d+1)
}

// ancestorAtDepth returns the ancestor of cycle cy (or cy itself) at depth
// d (1 <= d <= Depth(cy)).
func (c *cfgCtx) ancestorAtDepth(cy, d int) int {
	if c.up == nil {
		m := c.ci.Len()
		maxDepth := 0
		for i := 0; i < m; i++ {
			maxDepth = max(maxDepth, c.ci.Depth(i))
		}
		levels := 1
		for 1<<levels < maxDepth {
			levels++
		}
		c.up = make([][]int32, levels)
		c.up[0] = make([]int32, m)
		for i := 0; i < m; i++ {
			c.up[0][i] = int32(c.ci.Parent(i))
		}
		for k := 1; k < levels; k++ {
			c.up[k] = make([]int32, m)
			for i := 0; i < m; i++ {
				if p := c.up[k-1][i]; p >= 0 {
					c.up[k][i] = c.up[k-1][p]
				} else {
					c.up[k][i] = -1
				}
			}
		}
	}
	for k := c.ci.Depth(cy) - d; k > 0; k &= k - 1 {
		cy = int(c.up[bits.TrailingZeros(uint(k))][cy])
	}
	return cy
}
