package uniformity

import (
	"passlens/compiler/analysis"
	"passlens/compiler/graph"
)

// liveness tracks which blocks could still be affected by a divergent
// branch, so that the engine can skip branches and prune propagation that
// cannot change the result.
//
// A divergent branch acts on its join blocks: it makes their phis divergent
// (unless a whole cycle is assumed divergent instead), and it may make a
// cycle containing the join assumed divergent. A join block is "live" while
// one of these can still happen:
//
//   - it has a phi that is not yet divergent and is not a constant-or-undef
//     phi (such phis are never tainted by sync dependence), or
//   - one of its cycles is irreducible and the outermost irreducible cycle
//     around it (maxRes) is not yet inside a cycle assumed divergent. Every
//     cycle getOutermostDivergentCycle can name for a join J lies between
//     J's innermost and outermost irreducible cycles: above the outermost
//     one every cycle is reducible and headed by another block, whose
//     header strictly dominates J and stops the climb.
//
// Both conditions only ever turn false. A block is "done" when no live block
// is reachable from it in the CFG; a branch all of whose successors are done
// has no effect through its joins, and labels pushed into done blocks cannot
// reach a block that matters. (A branch also acts on cycles with divergent
// exits; the engine only prunes when every cycle around the branch is
// settled, see uengine.settled.) Done-ness is maintained over the strongly connected components
// of the reachable CFG with counters: a component is done when it has no
// live block and every component it has an edge to is done. The total work
// over a whole analysis is linear in the size of the CFG.
type liveness struct {
	g        *analysis.Graph
	scc      []int32 // component of each reachable block, -1 otherwise
	members  csr     // blocks of each component
	preds    csr
	sccLive  []int32 // live blocks per component
	sccPend  []int32 // edges to components that are not done
	done     []bool  // per block
	sccDone  []bool
	livePhis []int32 // per block: phis that can still be tainted
	liveIrr  []bool  // per block: may still make a new cycle divergent
	maxRes   []int32 // per block: largest cycle a join there can make divergent, -1
	ci       *analysis.CycleInfo
	queue    []int32
}

func newLiveness(c *cfgCtx, p *uprog) *liveness {
	g := c.g
	n := g.Len()
	lv := &liveness{g: g, ci: c.ci, preds: buildPreds(g)}
	lv.computeSCCs(c)
	ns := len(lv.members.start) - 1
	lv.sccLive = make([]int32, ns)
	lv.sccPend = make([]int32, ns)
	lv.sccDone = make([]bool, ns)
	lv.done = make([]bool, n)
	lv.livePhis = make([]int32, n)
	lv.liveIrr = make([]bool, n)
	lv.maxRes = make([]int32, n)
	ci := c.ci
	// maxRes(b) is the outermost irreducible cycle around b: every cycle
	// above it is reducible and headed by another block (a block's
	// innermost cycle is the one it heads), so the climb stops there.
	outIrr := make([]int32, ci.Len()) // parents are numbered before children
	for cy := 0; cy < ci.Len(); cy++ {
		outIrr[cy] = -1
		if p := ci.Parent(cy); p >= 0 && outIrr[p] >= 0 {
			outIrr[cy] = outIrr[p]
		} else if !ci.IsReducible(cy) {
			outIrr[cy] = int32(cy)
		}
	}
	for b := 0; b < n; b++ {
		lv.maxRes[b] = -1
		if cy := ci.CycleOf(b); cy >= 0 {
			lv.maxRes[b] = outIrr[cy]
		}
	}
	for b := 0; b < n; b++ {
		s := lv.scc[b]
		if s < 0 {
			continue
		}
		lo, hi := p.phiRange(b)
		for id := lo; id < hi; id++ {
			if !p.trivial[id] {
				lv.livePhis[b]++
			}
		}
		lv.liveIrr[b] = lv.maxRes[b] >= 0
		if lv.livePhis[b] > 0 || lv.liveIrr[b] {
			lv.sccLive[s]++
		}
		for _, v := range c.succ.of(b) {
			if lv.scc[v] != s {
				lv.sccPend[s]++
			}
		}
	}
	for s := 0; s < ns; s++ {
		lv.check(int32(s))
	}
	lv.flush()
	return lv
}

// computeSCCs finds the strongly connected components of the reachable
// blocks (iterative Tarjan).
func (lv *liveness) computeSCCs(c *cfgCtx) {
	n := c.g.Len()
	lv.scc = make([]int32, n)
	for i := range lv.scc {
		lv.scc[i] = -1
	}
	nscc := int32(0)
	var order []int32 // blocks grouped by component
	var starts []int32
	graph.Tarjan(n, []int32{0}, func(v int32) []int32 { return c.succ.of(int(v)) }, nil, func(comp []int32) {
		starts = append(starts, int32(len(order)))
		for _, w := range comp {
			lv.scc[w] = nscc
			order = append(order, w)
		}
		nscc++
	})
	starts = append(starts, int32(len(order)))
	lv.members = csr{start: starts, list: order}
}

// check marks component s done if it qualifies and queues it.
func (lv *liveness) check(s int32) {
	if !lv.sccDone[s] && lv.sccLive[s] == 0 && lv.sccPend[s] == 0 {
		lv.sccDone[s] = true
		lv.queue = append(lv.queue, s)
	}
}

// flush propagates done-ness to predecessor components.
func (lv *liveness) flush() {
	for len(lv.queue) > 0 {
		s := lv.queue[len(lv.queue)-1]
		lv.queue = lv.queue[:len(lv.queue)-1]
		for _, b := range lv.members.of(int(s)) {
			lv.done[b] = true
			for _, p := range lv.preds.of(int(b)) {
				if ps := lv.scc[p]; ps >= 0 && ps != s {
					lv.sccPend[ps]--
					lv.check(ps)
				}
			}
		}
	}
}

func (lv *liveness) isLive(b int) bool { return lv.livePhis[b] > 0 || lv.liveIrr[b] }

// blockDied records that reachable block b stopped being live.
func (lv *liveness) blockDied(b int) {
	s := lv.scc[b]
	lv.sccLive[s]--
	lv.check(s)
	lv.flush()
}

// phiTainted records that a non-trivial phi of reachable block b became
// divergent.
func (lv *liveness) phiTainted(b int) {
	if lv.scc[b] < 0 || lv.livePhis[b] == 0 {
		return
	}
	lv.livePhis[b]--
	if lv.livePhis[b] == 0 && !lv.liveIrr[b] {
		lv.blockDied(b)
	}
}

// cycleAssumed records that cycle cy is assumed divergent.
func (lv *liveness) cycleAssumed(cy int) {
	for _, b := range lv.ci.Blocks(cy) {
		if lv.liveIrr[b] && lv.ci.ContainsCycle(cy, int(lv.maxRes[b])) {
			lv.liveIrr[b] = false
			if lv.livePhis[b] == 0 {
				lv.blockDied(b)
			}
		}
	}
}
