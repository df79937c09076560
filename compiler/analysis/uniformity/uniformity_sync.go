package uniformity

import "math/bits"

// This file computes the sync dependences of one divergent branch: the join
// blocks reached by disjoint paths from it and the cycle exits it makes
// divergent. It is LLVM's DivergencePropagator (GenericUniformityImpl.h)
// executed faithfully, step for step, because its results in irreducible
// cycles depend on the exact order in which labels are repropagated; what
// makes it fast is how little it touches:
//
//   - state is a few arrays allocated once per function and reset sparsely,
//     so a branch costs time proportional to the blocks its labels reach;
//   - the fresh set is a three-level bitmap with O(1) insert, remove,
//     count and find-last (LLVM's SparseBitVector needs a list walk);
//   - with pruning, labels are not pushed into blocks from which no block
//     with a possible new effect is reachable ("done" blocks, see
//     uniformity_live.go): their labels cannot influence any block that
//     matters, so only the part of the region that can still change the
//     result is simulated;
//   - with jumps, a block that does not dominate the branch pushes its
//     label straight into its dominance frontier instead of through the
//     blocks it dominates (uniformity_jump.go).
//
// Pruning and jumps change one thing LLVM looks at: the number of fresh
// blocks, which decides when propagation stops early. Stopping early at a
// block outside every irreducible cycle, or not, makes no difference (a
// single label cannot create a join from there), so a run only needs to be
// repeated when the decision falls on a block inside an irreducible cycle
// after a push was pruned or a subtree jumped over: compute then reports
// failure and the caller repeats without pruning, then without jumps.

// syncProp is the reusable state of the propagation.
type syncProp struct {
	c       *cfgCtx
	label   []int32 // per block: reaching label (a block), -1 if none
	touched []int32 // blocks whose label is set
	fresh   lastSet // mpo indices of blocks whose label changed

	mark  []uint32 // per block: joinGen/exitGen stamps for de-duplication
	emark []uint32
	gen   uint32

	joins []int32 // join blocks (LLVM's JoinDivBlocks), discovery order
	exits []int32 // divergent cycle exits (CycleDivBlocks), discovery order

	done   []bool // per block: prune pushes into it (nil: no pruning)
	pruned int    // pushes skipped because of done

	// jumps enables dominator-subtree jumps (uniformity_jump.go); jumped
	// counts the jumps of this run.
	jumps  bool
	jumped int

	// Steps counts processed blocks (for statistics and benchmarks).
	steps int
}

func newSyncProp(c *cfgCtx) *syncProp {
	n := c.g.Len()
	s := &syncProp{
		c:     c,
		label: make([]int32, n),
		mark:  make([]uint32, n),
		emark: make([]uint32, n),
	}
	for i := range s.label {
		s.label[i] = -1
	}
	s.fresh.init(len(c.mpoOrder))
	return s
}

func (s *syncProp) reset() {
	for _, b := range s.touched {
		s.label[b] = -1
	}
	s.touched = s.touched[:0]
	s.fresh.clearAll()
	s.joins = s.joins[:0]
	s.exits = s.exits[:0]
	s.pruned = 0
	s.gen++
	if s.gen == 0 {
		clear(s.mark)
		clear(s.emark)
		s.gen = 1
	}
}

func (s *syncProp) addJoin(b int32) {
	if s.mark[b] != s.gen {
		s.mark[b] = s.gen
		s.joins = append(s.joins, b)
	}
}

func (s *syncProp) addExit(b int32) {
	if s.emark[b] != s.gen {
		s.emark[b] = s.gen
		s.exits = append(s.exits, b)
	}
}

// computeJoin pushes label l into block b and reports whether b becomes a
// join (it already had a different label).
func (s *syncProp) computeJoin(b, l int32) bool {
	old := s.label[b]
	if old == l {
		return false
	}
	if old != b {
		s.fresh.set(s.c.mpoIndex[b])
	}
	if old < 0 {
		s.label[b] = l
		s.touched = append(s.touched, b)
		return false
	}
	s.label[b] = b
	return true
}

func (s *syncProp) visitEdge(b, l int32) {
	if s.done != nil && s.done[b] {
		s.pruned++
		return
	}
	if s.computeJoin(b, l) {
		s.addJoin(b)
	}
}

func (s *syncProp) visitCycleExitEdge(b, l int32) {
	if s.done != nil && s.done[b] {
		s.pruned++
		return
	}
	if s.computeJoin(b, l) {
		s.addExit(b)
	}
}

// compute runs the propagation for the divergent terminator of block br
// (reachable, with at least two successor edges). done, if not nil, enables
// pruning. exitTop bounds the cycles around br whose exits are compared with
// their header's label at the end: those from br's innermost cycle up to
// exitTop (all of them if it is -1, none if it is -2).
// compute reports false if the pruned run cannot be trusted; the results
// are then incomplete and the caller must run again without done.
func (s *syncProp) compute(br int, done []bool, exitTop int) bool {
	c, ci := s.c, s.c.ci
	s.reset()
	s.done = done
	var jp *jumpInfo
	if s.jumps {
		jp = c.jumps()
	}
	s.jumped = 0
	divIdx := c.mpoIndex[br]
	divCycle := ci.CycleOf(br)
	irr := c.irreducibleAncestor(br)

	for _, sb := range c.succ.of(br) {
		if divCycle >= 0 && !ci.Contains(divCycle, int(sb)) {
			// An immediate exit might never receive a second label.
			s.addExit(sb)
		}
		s.visitEdge(sb, sb)
	}
	for {
		idx := s.fresh.last()
		if idx < 0 {
			break
		}
		blk := c.mpoOrder[idx]
		if s.fresh.n == 1 && (irr < 0 || !ci.Contains(irr, int(blk))) {
			// Pruning and jumps change the number of fresh blocks, so
			// LLVM might not stop here; that only matters inside an
			// irreducible cycle.
			if (s.pruned > 0 || s.jumped > 0) && c.inIrreducible[blk] {
				return false
			}
			break
		}
		s.fresh.reset(idx)
		if idx == divIdx {
			continue
		}
		s.steps++
		l := s.label[blk]
		if jp != nil && jp.canJump(c, int(blk), br) {
			for _, y := range jp.df[blk] {
				s.visitEdge(y, l)
			}
			s.jumped++
			continue
		}
		if c.redHeader[blk] {
			cy := ci.CycleOf(int(blk))
			inside := ci.Contains(cy, br)
			for _, e := range c.cycleExits(cy) {
				if inside {
					s.visitCycleExitEdge(e, l)
				} else {
					s.visitEdge(e, l)
				}
			}
			continue
		}
		for _, sb := range c.succ.of(int(blk)) {
			s.visitEdge(sb, l)
		}
	}
	// A cycle has a divergent exit if an exit's label differs from its
	// header's (reducible cycles were handled at their headers).
	if exitTop == -2 {
		return true
	}
	if divCycle < 0 {
		return true
	}
	for cy := int(c.irrUp[divCycle]); cy >= 0; {
		hl := s.label[ci.Header(cy)]
		for _, e := range c.cycleExits(cy) {
			if s.label[e] != hl {
				s.addExit(e)
			}
		}
		if cy == exitTop {
			break
		}
		if p := ci.Parent(cy); p >= 0 {
			cy = int(c.irrUp[p])
		} else {
			cy = -1
		}
	}
	return true
}

// lastSet is a set of integers in [0, n) with O(1) insert, remove and
// count, and find-last in three word scans: a bitmap with two summary
// levels (bit i of a summary word is set iff word i below is non-zero).
type lastSet struct {
	l0, l1, l2 []uint64
	n          int
	used       []int32 // l0 words that may be non-zero, for clearAll
}

func (s *lastSet) init(n int) {
	w0 := (n + 63) / 64
	w1 := (w0 + 63) / 64
	w2 := (w1 + 63) / 64
	s.l0 = make([]uint64, max(w0, 1))
	s.l1 = make([]uint64, max(w1, 1))
	s.l2 = make([]uint64, max(w2, 1))
}

func (s *lastSet) set(i int32) {
	w := i >> 6
	bit := uint64(1) << (uint(i) & 63)
	if s.l0[w]&bit != 0 {
		return
	}
	if s.l0[w] == 0 {
		s.used = append(s.used, w)
		s.l1[w>>6] |= 1 << (uint(w) & 63)
		s.l2[w>>12] |= 1 << (uint(w>>6) & 63)
	}
	s.l0[w] |= bit
	s.n++
}

func (s *lastSet) reset(i int32) {
	w := i >> 6
	bit := uint64(1) << (uint(i) & 63)
	if s.l0[w]&bit == 0 {
		return
	}
	s.l0[w] &^= bit
	s.n--
	if s.l0[w] == 0 {
		w1 := w >> 6
		s.l1[w1] &^= 1 << (uint(w) & 63)
		if s.l1[w1] == 0 {
			s.l2[w1>>6] &^= 1 << (uint(w1) & 63)
		}
	}
}

// last returns the largest element, or -1 if the set is empty.
func (s *lastSet) last() int32 {
	if s.n == 0 {
		return -1
	}
	for k := len(s.l2) - 1; k >= 0; k-- {
		if x := s.l2[k]; x != 0 {
			w1 := k<<6 | (bits.Len64(x) - 1)
			w0 := w1<<6 | (bits.Len64(s.l1[w1]) - 1)
			return int32(w0<<6 | (bits.Len64(s.l0[w0]) - 1))
		}
	}
	return -1
}

func (s *lastSet) clearAll() {
	for _, w := range s.used {
		s.l0[w] = 0
		s.l1[w>>6] = 0
		s.l2[w>>12] = 0
	}
	s.used = s.used[:0]
	s.n = 0
}
