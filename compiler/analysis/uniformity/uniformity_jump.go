package uniformity

import "passlens/compiler/analysis"

// This file lets the sync-dependence propagation jump over dominator
// subtrees: the DJ-graph idea behind linear-time iterated dominance
// frontiers, applied to LLVM's label propagation.
//
// The propagation for a divergent branch B assigns each block the label of
// the nearest definition reaching it (a successor of B, or a join). If a
// block S does not dominate B, every path from B to a block dominated by S
// passes through S, so every block S dominates gets S's label and none of
// them is a join; the labels leaving S's subtree are S's label, pushed into
// S's dominance frontier. Processing S can therefore push its label straight
// into DF(S) instead of walking its subtree, and a branch costs the
// dominance-frontier steps between it and the point where its labels
// converge rather than every block in between.
//
// Dominance is taken in G'': the CFG plus an edge from every reducible
// cycle header to each exit of its cycle (LLVM's propagation sends a
// reducible header's label to the exits, so a block inside the body does
// not dominate them for this purpose). Every propagation graph is a
// subgraph of G'', so G'' dominance implies dominance in it.
//
// The jump reproduces LLVM's result exactly under conditions checked per
// block and per branch:
//
//   - S is not in an irreducible cycle: there, labels are repropagated and a
//     block's label can change after it was processed (inside S's subtree
//     every label is S's, so cycles there do not matter). B may be: the
//     blocks whose labels decide B's divergent cycle exits (headers and
//     exits of the cycles around B) are never inside a subtree that may be
//     jumped over, and a jumped subtree pushes into an irreducible cycle
//     only from outside every cycle containing the target, before that
//     cycle is processed, where the order of pushes does not matter;
//   - S is not a reducible header (it sends its label to its cycle's exits)
//     and does not dominate B;
//   - S's subtree does not leave a cycle that contains B: LLVM's result at
//     the exits of such a cycle depends on whether a label arrives before
//     or after the cycle's header sends its own, and a jump moves pushes
//     from after to before;
//   - LLVM stops early when one fresh block is left, and a jump changes the
//     number of fresh blocks. Stopping or not at a block outside every
//     irreducible cycle gives the same result (no further join is possible
//     from a single label there); if the decision falls on a block inside an
//     irreducible cycle, the propagation is repeated without jumps.

// jumpInfo holds the per-function data for jumps.
type jumpInfo struct {
	g2  *analysis.Graph
	dt2 *analysis.DomTree
	// ok[s]: s is neither a reducible header nor in an irreducible cycle.
	ok []bool
	// esc[s]: the outermost cycle around s whose blocks do not include
	// everything s dominates (-1 if none).
	esc []int32

	df     [][]int32 // dominance frontiers in G'', computed on demand
	dfDone []bool
	dfSize int // entries cached so far
	dfCap  int // budget; beyond it, no new frontiers are computed
	stamp  []uint32
	gen    uint32
}

// jumps returns the jump data, building it on first use.
func (c *cfgCtx) jumps() *jumpInfo {
	if c.jump != nil {
		return c.jump
	}
	g, ci := c.g, c.ci
	n := g.Len()
	j := &jumpInfo{
		g2:     &analysis.Graph{Succs: make([][]int, n)},
		ok:     make([]bool, n),
		esc:    make([]int32, n),
		df:     make([][]int32, n),
		dfDone: make([]bool, n),
		stamp:  make([]uint32, n),
		dfCap:  16 * (n + int(c.succ.start[n])),
	}
	for b := 0; b < n; b++ {
		s := g.Succs[b]
		if c.redHeader[b] {
			s = append([]int(nil), s...)
			for _, e := range c.cycleExits(ci.CycleOf(b)) {
				s = append(s, int(e))
			}
		}
		j.g2.Succs[b] = s
	}
	j.dt2 = analysis.Dominators(j.g2)
	dt := j.dt2
	// minDepth[s] is the smallest depth of the smallest cycle containing s
	// and a block s dominates (the depth of a block's own innermost cycle
	// counts for s itself). Cycle-tree LCA depths form an ultrametric, so
	// it composes over dominator-tree children.
	minDepth := make([]int32, n)
	order := dt.Preorder()
	for k := len(order) - 1; k >= 0; k-- { // children before parents
		s := order[k]
		cs := ci.CycleOf(s)
		md := int32(ci.BlockDepth(s))
		for _, ch := range dt.Children(s) {
			d := int32(c.lcaDepth(cs, ci.CycleOf(ch)))
			md = min(md, d, minDepth[ch])
		}
		minDepth[s] = md
		j.esc[s] = -1
		if cs >= 0 && int(md) < ci.Depth(cs) {
			j.esc[s] = int32(c.ancestorAtDepth(cs, int(md)+1))
		}
		j.ok[s] = !c.inIrreducible[s] && !c.redHeader[s]
	}
	c.jump = j
	return j
}

// lcaDepth returns the depth of the smallest cycle containing cycles a and
// b (0 if there is none; -1 stands for "no cycle").
func (c *cfgCtx) lcaDepth(a, b int) int {
	if a < 0 || b < 0 {
		return 0
	}
	ci := c.ci
	da, db := ci.Depth(a), ci.Depth(b)
	if da > db {
		a, da = c.ancestorAtDepth(a, db), db
	} else if db > da {
		b = c.ancestorAtDepth(b, da)
	}
	if a == b {
		return da
	}
	c.ancestorAtDepth(a, da) // builds the lifting table
	for k := len(c.up) - 1; k >= 0; k-- {
		if pa, pb := c.up[k][a], c.up[k][b]; pa != pb {
			a, b = int(pa), int(pb)
		}
	}
	a = int(c.up[0][a])
	if a < 0 {
		return 0
	}
	return ci.Depth(a)
}

// canJump reports whether the propagation for the branch in block br may
// jump over the subtree of block s.
func (j *jumpInfo) canJump(c *cfgCtx, s, br int) bool {
	if !j.ok[s] || j.dt2.Dominates(s, br) {
		return false
	}
	if e := j.esc[s]; e >= 0 && c.ci.Contains(int(e), br) {
		return false
	}
	return j.frontier(s) != nil || j.dfDone[s]
}

// frontier returns DF(s) in G” (nil if it is empty or over budget; then
// dfDone[s] tells which).
func (j *jumpInfo) frontier(s int) []int32 {
	if j.dfDone[s] {
		return j.df[s]
	}
	if j.dfSize > j.dfCap {
		return nil
	}
	dt := j.dt2
	// Post-order over the part of s's subtree whose frontiers are missing.
	type frame struct {
		v    int
		next int
	}
	stack := []frame{{s, 0}}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		ch := dt.Children(f.v)
		if f.next < len(ch) {
			x := ch[f.next]
			f.next++
			if !j.dfDone[x] {
				stack = append(stack, frame{x, 0})
			}
			continue
		}
		v := f.v
		stack = stack[:len(stack)-1]
		j.gen++
		if j.gen == 0 {
			clear(j.stamp)
			j.gen = 1
		}
		var out []int32
		add := func(y int) {
			if dt.IDom(y) != v && j.stamp[y] != j.gen {
				j.stamp[y] = j.gen
				out = append(out, int32(y))
			}
		}
		for _, y := range j.g2.Succs[v] {
			add(y)
		}
		for _, x := range ch {
			for _, y := range j.df[x] {
				add(int(y))
			}
		}
		j.df[v], j.dfDone[v] = out, true
		j.dfSize += len(out) + 1
		if j.dfSize > j.dfCap && v != s {
			// Keep what is computed; s itself stays unknown.
			return nil
		}
	}
	return j.df[s]
}
