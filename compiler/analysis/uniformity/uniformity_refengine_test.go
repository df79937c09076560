package uniformity

import (
	"math/bits"
	"slices"
)

// This file is the reference engine, the tests' oracle (compiled into the
// test binary only; WithReferenceAlgorithm selects it): a literal
// transcription of LLVM's GenericUniformityAnalysisImpl and
// DivergencePropagator
// (llvm/ADT/GenericUniformityImpl.h, llvm/lib/Analysis/UniformityAnalysis.cpp)
// with maps and a plain bitmap, no pruning, no skipping, a LIFO worklist
// seeded like LLVM's. It shares only the CFG analyses and the modified
// post-order with the fast engine. Tests check that both engines give the
// same result on thousands of random functions; it is too slow for large
// functions with dense divergence (that is the point of the fast engine).

type refEngine struct {
	p   *uprog
	c   *cfgCtx
	res *uresult

	worklist []int32
	recorded map[int]bool
	pending  []int // cycles with divergent exits, analysed when the worklist is empty
	allExits bool
}

func runReference(p *uprog, c *cfgCtx, cfg *uniformityConfig) *uresult {
	e := &refEngine{p: p, c: c, res: newUresult(p, c.g.Len()), recorded: map[int]bool{}, allExits: cfg.allExits}
	// initialize()
	for id := p.nParams; id < p.numVals(); id++ {
		if p.source[id] {
			e.markInstr(int32(id))
		}
	}
	var seeds []int32
	for id := 0; id < p.nParams; id++ {
		if p.source[id] {
			e.res.div[id] = true
			e.res.why[id] = srcReason()
			seeds = append(seeds, int32(id))
		}
	}
	// compute(): push the users of every value divergent so far.
	for id := 0; id < p.numVals(); id++ {
		if e.res.div[id] && !p.isTerm[id] {
			seeds = append(seeds, int32(id))
		}
	}
	for _, v := range seeds {
		e.pushUsers(v)
	}
	for {
		for len(e.worklist) > 0 {
			v := e.worklist[len(e.worklist)-1]
			e.worklist = e.worklist[:len(e.worklist)-1]
			if p.isTerm[v] {
				e.analyzeControlDivergence(int(p.block[v]))
				continue
			}
			e.pushUsers(v)
		}
		if len(e.pending) == 0 {
			return e.res
		}
		cy := e.pending[0]
		e.pending = e.pending[1:]
		e.analyzeCycleExitDivergence(cy)
	}
}

func (e *refEngine) markInstr(id int32) {
	p := e.p
	if p.override[id] {
		return
	}
	marked := false
	if p.isTerm[id] {
		b := p.block[id]
		if !e.res.divTerm[b] {
			e.res.divTerm[b] = true
			marked = true
		}
	} else if !e.res.div[id] {
		e.res.div[id] = true
		marked = true
	}
	if marked {
		e.worklist = append(e.worklist, id)
	}
}

func (e *refEngine) pushUsers(v int32) {
	for _, u := range e.p.users.of(int(v)) {
		e.markInstr(u)
	}
}

func (e *refEngine) analyzeControlDivergence(b int) {
	c := e.c
	ci := c.ci
	e.res.divTerm[b] = true
	if c.mpoIndex[b] < 0 {
		return
	}
	if len(c.succ.of(b)) <= 1 {
		return
	}
	joins, exits := refJoinPoints(c, b)
	var divCycles []int
	for _, j := range joins {
		if cy := c.outermostDivergentCycle(b, j); cy >= 0 {
			divCycles = append(divCycles, cy)
			continue
		}
		lo, hi := e.p.phiRange(j)
		for id := lo; id < hi; id++ {
			if !e.p.trivial[id] {
				e.markInstr(id)
			}
		}
	}
	slices.SortStableFunc(divCycles, func(x, y int) int { return ci.Depth(y) - ci.Depth(x) })
	for _, cy := range divCycles {
		contained := false
		for _, a := range e.res.assumed {
			if ci.ContainsCycle(int(a), cy) {
				contained = true
				break
			}
		}
		if contained {
			continue
		}
		e.res.assumed = append(e.res.assumed, int32(cy))
		for _, blk := range ci.Blocks(cy) {
			lo, hi := e.p.blockInstrs(blk)
			for id := lo; id < hi; id++ {
				if e.p.isTerm[id] {
					break
				}
				e.markInstr(id)
			}
		}
	}
	branchCycle := ci.CycleOf(b)
	for _, x := range exits {
		e.propagateCycleExitDivergence(x, branchCycle)
	}
}

func (e *refEngine) propagateCycleExitDivergence(x, inner int) {
	ci := e.c.ci
	divCycle, outer := inner, inner
	exitDepth := 0
	if ec := ci.CycleOf(x); ec >= 0 {
		exitDepth = ci.Depth(ec)
	}
	for divCycle >= 0 && ci.Depth(divCycle) > exitDepth {
		outer = divCycle
		divCycle = ci.Parent(divCycle)
	}
	if e.recorded[outer] {
		return
	}
	e.recorded[outer] = true
	e.res.divExit = append(e.res.divExit, int32(outer))
	e.res.divExitWhy = append(e.res.divExitWhy, ureason{kind: DivTemporal, val: -1, branch: -1, join: int32(x), cycle: int32(outer)})
	// Deviation from LLVM's literal order (shared with the fast engine):
	// the exits are analysed once the worklist is empty, unless the cycle
	// is inside a cycle assumed divergent by then. See propagateCycleExit.
	e.pending = append(e.pending, outer)
}

func (e *refEngine) analyzeCycleExitDivergence(outer int) {
	ci := e.c.ci
	if !e.allExits {
		for _, a := range e.res.assumed {
			if ci.ContainsCycle(int(a), outer) {
				return
			}
		}
	}
	exits := e.c.cycleExits(outer)
	for _, ex := range exits {
		lo, hi := e.p.phiRange(int(ex))
		for id := lo; id < hi; id++ {
			for _, o := range e.p.operandIDs(id) {
				if ob := e.p.block[o]; ob >= 0 && ci.Contains(outer, int(ob)) {
					e.markInstr(id)
					break
				}
			}
		}
	}
	for _, bb := range ci.Blocks(outer) {
		dominatesExit := false
		for _, ex := range exits {
			if e.c.dt.Dominates(bb, int(ex)) {
				dominatesExit = true
				break
			}
		}
		if !dominatesExit {
			continue
		}
		lo, hi := e.p.blockInstrs(bb)
		for id := lo; id < hi; id++ {
			for _, u := range e.p.users.of(int(id)) {
				if ci.Contains(outer, int(e.p.block[u])) {
					continue
				}
				e.markInstr(u)
				e.res.temporal = append(e.res.temporal, temporalTuple{id, u, int32(outer)})
			}
		}
	}
}

// refJoinPoints is DivergencePropagator::computeJoinPoints for the branch in
// block br: the join blocks and the divergent cycle exits.
func refJoinPoints(c *cfgCtx, br int) (joins, exits []int) {
	ci := c.ci
	labels := map[int]int{} // block -> label block
	fresh := make([]uint64, (len(c.mpoOrder)+63)/64+1)
	joinSet, exitSet := map[int]bool{}, map[int]bool{}
	addJoin := func(b int) {
		if !joinSet[b] {
			joinSet[b] = true
			joins = append(joins, b)
		}
	}
	addExit := func(b int) {
		if !exitSet[b] {
			exitSet[b] = true
			exits = append(exits, b)
		}
	}
	setFresh := func(i int) { fresh[i/64] |= 1 << (uint(i) % 64) }
	resetFresh := func(i int) { fresh[i/64] &^= 1 << (uint(i) % 64) }
	findLast := func() int {
		for w := len(fresh) - 1; w >= 0; w-- {
			if fresh[w] != 0 {
				return w*64 + bits.Len64(fresh[w]) - 1
			}
		}
		return -1
	}
	count := func() int {
		n := 0
		for _, w := range fresh {
			n += bits.OnesCount64(w)
		}
		return n
	}
	computeJoin := func(succ, pushed int) bool {
		old, has := labels[succ]
		if has && old == pushed {
			return false
		}
		if !has || old != succ {
			setFresh(int(c.mpoIndex[succ]))
		}
		if !has {
			labels[succ] = pushed
			return false
		}
		labels[succ] = succ
		return true
	}
	visitEdge := func(succ, l int) {
		if computeJoin(succ, l) {
			addJoin(succ)
		}
	}
	visitCycleExitEdge := func(succ, l int) {
		if computeJoin(succ, l) {
			addExit(succ)
		}
	}

	divTermIdx := int(c.mpoIndex[br])
	divTermCycle := ci.CycleOf(br)
	irr := -1
	if divTermCycle >= 0 && !ci.IsReducible(divTermCycle) {
		irr = divTermCycle
		for p := ci.Parent(irr); p >= 0 && !ci.IsReducible(p); p = ci.Parent(irr) {
			irr = p
		}
	}
	for _, s := range c.succ.of(br) {
		if divTermCycle >= 0 && !ci.Contains(divTermCycle, int(s)) {
			addExit(int(s))
		}
		visitEdge(int(s), int(s))
	}
	for {
		idx := findLast()
		if idx < 0 {
			break
		}
		blk := int(c.mpoOrder[idx])
		if count() == 1 && (irr < 0 || !ci.Contains(irr, blk)) {
			break
		}
		resetFresh(idx)
		if idx == divTermIdx {
			continue
		}
		l := labels[blk]
		if c.redHeader[blk] {
			cy := ci.CycleOf(blk)
			inside := ci.Contains(cy, br)
			for _, x := range c.cycleExits(cy) {
				if inside {
					visitCycleExitEdge(int(x), l)
				} else {
					visitEdge(int(x), l)
				}
			}
		} else {
			for _, s := range c.succ.of(blk) {
				visitEdge(int(s), l)
			}
		}
	}
	for cy := divTermCycle; cy >= 0; cy = ci.Parent(cy) {
		if ci.IsReducible(cy) {
			continue
		}
		hl, hok := labels[ci.Header(cy)]
		for _, x := range c.cycleExits(cy) {
			xl, xok := labels[int(x)]
			if xok != hok || xl != hl {
				addExit(int(x))
			}
		}
	}
	return joins, exits
}
