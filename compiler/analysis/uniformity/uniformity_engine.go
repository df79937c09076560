package uniformity

import (
	"container/heap"
	"slices"
)

// ureason is the compact internal form of Reason (ids instead of objects;
// -1 for unused fields).
type ureason struct {
	kind   DivergenceKind
	val    int32 // value id
	branch int32 // block
	join   int32 // block (join or exit)
	cycle  int32
}

func srcReason() ureason { return ureason{kind: DivSource, val: -1, branch: -1, join: -1, cycle: -1} }

// temporalTuple is one temporal divergence entry (value ids and a cycle).
type temporalTuple struct{ val, user, cycle int32 }

// uresult is what both engines produce.
type uresult struct {
	div     []bool // per value id
	why     []ureason
	divTerm []bool // per block
	termWhy []ureason

	assumed    []int32 // cycles assumed divergent, LLVM's list semantics
	divExit    []int32 // cycles with a divergent exit, discovery order
	divExitWhy []ureason
	temporal   []temporalTuple
}

func newUresult(p *uprog, nBlocks int) *uresult {
	n := p.numVals()
	return &uresult{
		div:     make([]bool, n),
		why:     make([]ureason, n),
		divTerm: make([]bool, nBlocks),
		termWhy: make([]ureason, nBlocks),
	}
}

// uengine is the fast engine: the same fixed point as LLVM's
// GenericUniformityAnalysisImpl, computed with value propagation run to
// completion before each divergent branch is analysed, branches analysed in
// an order that lets later ones be skipped or pruned, and LLVM's
// propagation run on arrays (uniformity_sync.go).
type uengine struct {
	p   *uprog
	c   *cfgCtx
	sp  *syncProp
	lv  *liveness // nil without pruning
	res *uresult

	wl       []int32
	bq       blockHeap
	recorded []bool  // per cycle: has a divergent exit
	nu       []int32 // nearest unsettled ancestor-or-self (compressed), see unrecorded
	// settled[c]: c has a divergent exit, or (once the step budget is
	// spent) is inside a cycle assumed divergent, where a divergent exit
	// changes nothing but the printed list.
	settled []bool
	budget  int  // propagation steps before cycles inside assumed ones are settled
	spent   bool // the budget is spent
	stats   *UniformityStats

	divCycles []divCycle
	scratch   []int32
	crossing  [][]usePair // per cycle: uses leaving it (crossingUses)
	exitIn    []int32
	pending   []pendingExit // divergent-exit cycles whose exits are not analysed yet
	phiCycles map[int32][]int32
	allExits  bool
	domStamp  []uint32
}

type divCycle struct{ cycle, join int32 }

// pendingExit is a cycle with a divergent exit whose uses outside the cycle
// are still to be marked (branch and exit are for the reasons).
type pendingExit struct{ cycle, branch, exit int32 }

func runEngine(p *uprog, c *cfgCtx, cfg *uniformityConfig, stats *UniformityStats) *uresult {
	n := c.g.Len()
	e := &uengine{
		p:        p,
		c:        c,
		sp:       newSyncProp(c),
		res:      newUresult(p, n),
		recorded: make([]bool, c.ci.Len()),
		settled:  make([]bool, c.ci.Len()),
		nu:       make([]int32, c.ci.Len()),
		stats:    stats,
		domStamp: make([]uint32, n),
		allExits: cfg.allExits,
	}
	for i := range e.nu {
		e.nu[i] = int32(i)
	}
	e.sp.jumps = !cfg.noJumps
	e.budget = cfg.stepBudget
	if e.budget == 0 {
		e.budget = 8*(n+int(c.succ.start[n])) + 1<<16
	}
	e.bq.key = c.mpoIndex
	e.bq.upstream = cfg.order == branchesUpstreamFirst
	if !cfg.noPrune {
		e.lv = newLiveness(c, p)
	}
	// LLVM's initialize(): instruction sources, then parameters.
	for id := p.nParams; id < p.numVals(); id++ {
		if p.source[id] {
			e.mark(int32(id), srcReason())
		}
	}
	for id := 0; id < p.nParams; id++ {
		if p.source[id] {
			e.mark(int32(id), srcReason())
		}
	}
	e.run()
	stats.Steps = e.sp.steps
	return e.res
}

// mark makes value or terminator id divergent for reason r (LLVM's
// markDivergent): always-uniform instructions are never divergent; a
// terminator makes its block a divergent branch to analyse.
func (e *uengine) mark(id int32, r ureason) {
	p := e.p
	if p.override[id] {
		return
	}
	if p.isTerm[id] {
		b := p.block[id]
		if e.res.divTerm[b] {
			return
		}
		e.res.divTerm[b], e.res.termWhy[b] = true, r
		heap.Push(&e.bq, b)
		e.immediateExits(int(b))
		return
	}
	if e.res.div[id] {
		return
	}
	e.res.div[id], e.res.why[id] = true, r
	e.wl = append(e.wl, id)
	if e.lv != nil && p.isPhi[id] && !p.trivial[id] {
		e.lv.phiTainted(int(p.block[id]))
	}
}

func (e *uengine) run() {
	p := e.p
	for {
		for len(e.wl) > 0 {
			v := e.wl[len(e.wl)-1]
			e.wl = e.wl[:len(e.wl)-1]
			r := ureason{kind: DivOperand, val: v, branch: -1, join: -1, cycle: -1}
			for _, u := range p.users.of(int(v)) {
				e.mark(u, r)
			}
		}
		if e.bq.Len() > 0 {
			b := heap.Pop(&e.bq).(int32)
			e.analyzeControl(int(b))
			continue
		}
		if len(e.pending) == 0 {
			return
		}
		pe := e.pending[0]
		e.pending = e.pending[1:]
		if !e.allExits && e.inAssumed(int(pe.cycle)) {
			continue
		}
		e.analyzeCycleExit(int(pe.cycle), int(pe.branch), int(pe.exit))
	}
}

// immediateExits records the divergent cycle exits of the divergent
// terminator of block b that need no propagation: its successors outside
// its innermost cycle. Doing it as soon as the terminator is known to be
// divergent (rather than when it is analysed) lets more branches skip the
// exit bookkeeping; the recorded set is the same.
func (e *uengine) immediateExits(b int) {
	c := e.c
	inner := c.ci.CycleOf(b)
	if inner < 0 || c.mpoIndex[b] < 0 || len(c.succ.of(b)) <= 1 {
		return
	}
	for _, s := range c.succ.of(b) {
		if !c.ci.Contains(inner, int(s)) {
			e.propagateCycleExit(int(s), inner, b)
		}
	}
}

// unrecorded returns the innermost cycle around (or equal to) cy that is
// not settled (see settled), or -1. Path compression makes the walks
// amortized near-constant although irreducible regions nest cycles very
// deeply.
func (e *uengine) unrecorded(cy int) int {
	r := cy
	for r >= 0 && e.settled[r] {
		if n := int(e.nu[r]); n != r {
			r = n
		} else {
			r = e.c.ci.Parent(r)
		}
	}
	for cy >= 0 && cy != r {
		next := int(e.nu[cy])
		if next == cy {
			next = e.c.ci.Parent(cy)
		}
		e.nu[cy] = int32(r)
		cy = next
	}
	return r
}

// analyzeControl handles the divergent terminator of block b (LLVM's
// analyzeControlDivergence).
func (e *uengine) analyzeControl(b int) {
	c := e.c
	if c.mpoIndex[b] < 0 || len(c.succ.of(b)) <= 1 {
		return // unreachable, or no disjoint paths
	}
	e.stats.Branches++
	if !e.spent && e.sp.steps > e.budget {
		// Large irreducible regions: stop working out which cycles nested
		// in a cycle assumed divergent get a divergent exit (it only
		// changes the printed list), so that branches inside them can be
		// skipped and pruned. See docs/analyses.md.
		e.spent = true
		e.stats.BudgetSpent = true
		for _, a := range e.res.assumed {
			e.settleInside(int(a))
		}
	}
	var done []bool
	// Exits of any cycle around b can make a cycle around b a cycle with
	// divergent exit (LLVM maps an exit to a cycle by depth, not by
	// containment), so they are all compared unless every cycle around b
	// is settled.
	settled := e.unrecorded(c.ci.CycleOf(b)) < 0
	exitTop := -1
	if settled {
		exitTop = -2
	}
	if e.lv != nil && settled {
		done = e.lv.done
		all := true
		for _, s := range c.succ.of(b) {
			if !done[s] {
				all = false
				break
			}
		}
		if all {
			e.stats.Skipped++
			return
		}
		e.stats.Pruned++
	}
	// A pruned or jumping run that cannot tell where LLVM would stop is
	// repeated without pruning, then without jumps.
	if !e.sp.compute(b, done, exitTop) {
		e.stats.Fallbacks++
		if done == nil || !e.sp.compute(b, nil, exitTop) {
			jumps := e.sp.jumps
			e.sp.jumps = false
			e.sp.compute(b, nil, exitTop)
			e.sp.jumps = jumps
		}
	}
	joins := append(e.scratch[:0], e.sp.joins...)
	exits := append([]int32(nil), e.sp.exits...)
	br := int32(b)

	e.divCycles = e.divCycles[:0]
	for _, j := range joins {
		if e.lv != nil && !e.lv.isLive(int(j)) {
			continue // all its phis are divergent and no new cycle can result
		}
		if cy := c.outermostDivergentCycle(b, int(j)); cy >= 0 {
			e.divCycles = append(e.divCycles, divCycle{int32(cy), j})
			continue
		}
		e.taintPhis(int(j), ureason{kind: DivSync, val: -1, branch: br, join: j, cycle: -1})
	}
	e.scratch = joins
	slices.SortStableFunc(e.divCycles, func(x, y divCycle) int {
		return c.ci.Depth(int(y.cycle)) - c.ci.Depth(int(x.cycle))
	})
	for _, dc := range e.divCycles {
		if !e.insertAssumed(dc.cycle) {
			continue
		}
		r := ureason{kind: DivCycle, val: -1, branch: br, join: dc.join, cycle: dc.cycle}
		for _, blk := range c.ci.Blocks(int(dc.cycle)) {
			e.taintAllDefs(blk, r)
		}
		if e.lv != nil {
			e.lv.cycleAssumed(int(dc.cycle))
		}
		if e.spent {
			e.settleInside(int(dc.cycle))
		}
	}
	if len(exits) > 0 {
		inner := c.ci.CycleOf(b)
		for _, x := range exits {
			e.propagateCycleExit(int(x), inner, b)
		}
	}
}

func (e *uengine) taintPhis(j int, r ureason) {
	lo, hi := e.p.phiRange(j)
	for id := lo; id < hi; id++ {
		if !e.p.trivial[id] {
			e.mark(id, r)
		}
	}
}

func (e *uengine) taintAllDefs(b int, r ureason) {
	lo, hi := e.p.blockInstrs(b)
	for id := lo; id < hi; id++ {
		if e.p.isTerm[id] {
			break
		}
		e.mark(id, r)
	}
}

// insertAssumed adds cy to the assumed-divergent cycles unless one of them
// contains it (LLVM's insertIfNotContained).
func (e *uengine) insertAssumed(cy int32) bool {
	for _, a := range e.res.assumed {
		if e.c.ci.ContainsCycle(int(a), int(cy)) {
			return false
		}
	}
	e.res.assumed = append(e.res.assumed, cy)
	return true
}

// propagateCycleExit handles a divergent exit to block x from a branch in
// block br whose innermost cycle is inner (LLVM's
// propagateCycleExitDivergence). The cycle is recorded at once; its uses
// outside are marked when all other work is done, and only if it is not
// inside a cycle assumed divergent by then. (LLVM marks them immediately
// unless the cycle is inside a cycle assumed divergent at that moment,
// which depends on its worklist order; the difference only matters for
// always-uniform values in such cycles, see docs/analyses.md.)
func (e *uengine) propagateCycleExit(x, inner, br int) {
	outer := e.c.exitCycle(x, inner)
	if e.recorded[outer] {
		return
	}
	e.recorded[outer] = true
	e.settled[outer] = true
	e.res.divExit = append(e.res.divExit, int32(outer))
	e.res.divExitWhy = append(e.res.divExitWhy, ureason{kind: DivTemporal, val: -1, branch: int32(br), join: int32(x), cycle: int32(outer)})
	e.pending = append(e.pending, pendingExit{int32(outer), int32(br), int32(x)})
}

// settleInside settles every cycle inside cycle a (assumed divergent).
func (e *uengine) settleInside(a int) {
	for cy := a; cy < e.c.ci.Len() && e.c.ci.ContainsCycle(a, cy); cy++ { // a's subtree is a..subEnd-1
		e.settled[cy] = true
	}
}

// inAssumed reports whether cycle cy is inside a cycle assumed divergent.
func (e *uengine) inAssumed(cy int) bool {
	for _, a := range e.res.assumed {
		if e.c.ci.ContainsCycle(int(a), cy) {
			return true
		}
	}
	return false
}

// analyzeCycleExit marks the uses outside cycle cy of values defined in it
// (LLVM's analyzeCycleExitDivergence): phis in exit blocks with an operand
// from the cycle, and every user outside the cycle of an instruction in a
// block that dominates an exit.
func (e *uengine) analyzeCycleExit(cy, br, x int) {
	c, p := e.c, e.p
	ci := c.ci
	exits := c.cycleExits(cy)
	for _, ex := range exits {
		lo, hi := p.phiRange(int(ex))
		for id := lo; id < hi; id++ {
			if e.res.div[id] || !e.phiUsesCycle(id, cy) {
				continue
			}
			for _, o := range p.operandIDs(id) {
				if ob := p.block[o]; ob >= 0 && ci.Contains(cy, int(ob)) {
					e.mark(id, ureason{kind: DivTemporal, val: o, branch: int32(br), join: int32(x), cycle: int32(cy)})
					break
				}
			}
		}
	}
	// Uses outside the cycle of values defined in a block that dominates an
	// exit: of the uses leaving the cycle, those whose definition's block
	// is a dominator-tree ancestor of an exit. Exits are sorted by their
	// preorder number, so the test is a binary search in the definition
	// block's subtree interval.
	dt := c.dt
	e.exitIn = e.exitIn[:0]
	for _, ex := range exits {
		if dt.Contains(int(ex)) {
			e.exitIn = append(e.exitIn, dt.DFSIn(int(ex)))
		}
	}
	slices.Sort(e.exitIn)
	for _, up := range e.crossingUses()[cy] {
		d := int(p.block[up.def])
		i, _ := slices.BinarySearch(e.exitIn, dt.DFSIn(d))
		if i == len(e.exitIn) || e.exitIn[i] > dt.DFSOut(d) {
			continue
		}
		e.mark(up.user, ureason{kind: DivTemporal, val: up.def, branch: int32(br), join: int32(x), cycle: int32(cy)})
		e.res.temporal = append(e.res.temporal, temporalTuple{up.def, up.user, int32(cy)})
	}
}

// phiUsesCycle reports whether phi id has an operand defined in cycle cy
// (LLVM's usesValueFromCycle). An exit block shared by many cycles may have
// phis with thousands of operands, so each phi's operand cycles are kept
// as a sorted list (computed once) and searched: cy contains exactly the
// cycles numbered cy .. cycleEnd(cy)-1.
func (e *uengine) phiUsesCycle(id int32, cy int) bool {
	if e.phiCycles == nil {
		e.phiCycles = map[int32][]int32{}
	}
	cs, ok := e.phiCycles[id]
	if !ok {
		for _, o := range e.p.operandIDs(id) {
			if ob := e.p.block[o]; ob >= 0 {
				if oc := e.c.ci.CycleOf(int(ob)); oc >= 0 {
					cs = append(cs, int32(oc))
				}
			}
		}
		slices.Sort(cs)
		cs = slices.Compact(cs)
		e.phiCycles[id] = cs
	}
	i, _ := slices.BinarySearch(cs, int32(cy))
	return i < len(cs) && e.c.ci.ContainsCycle(cy, int(cs[i]))
}

// blockHeap orders divergent branches by modified post-order index: lowest
// first (downstream first) by default.
type blockHeap struct {
	items    []int32
	key      []int32
	upstream bool
}

func (h *blockHeap) Len() int { return len(h.items) }
func (h *blockHeap) Less(i, j int) bool {
	a, b := h.key[h.items[i]], h.key[h.items[j]]
	if h.upstream {
		return a > b
	}
	return a < b
}
func (h *blockHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *blockHeap) Push(x any)    { h.items = append(h.items, x.(int32)) }
func (h *blockHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}
