package passes

import (
	"passlens/compiler/ir"
)

// OutOfSSA is the out-of-ssa pass: replace phis by register-like variables
// stored on the incoming edges (split where a copy would clobber).
//
// Every phi becomes a function variable (an alloca named <phi>.var, the
// "register" the SM3 back end allocates): each incoming edge stores the
// incoming value into it, and the phi itself becomes a load at the top of its
// block, keeping its name. The representation stays valid, verifiable SSA
// (loads and stores are ordinary instructions, so the verifier, the
// interpreter and every later pass keep working), while the variables are
// exactly the registers a non-SSA back end needs.
//
// The copies follow the classic out-of-SSA rules so that a back end may also
// treat a phi's value and its variable as one register (reading <phi>.var
// wherever the value is used), which is what register allocation does:
//
//   - a critical edge (from a block with several successors to a block with
//     several predecessors) is split, and its copies go on the new edge
//     block, when a copy placed at the end of the source block would
//     overwrite a value still needed on its other edges: the phi's value is
//     live into another successor, feeds one of its phis, or is read by the
//     branch itself (the lost-copy problem: x = phi(x0, x + 1) used after
//     its loop). Other critical edges are left alone, so switch case targets
//     keep their fallthrough structure. When the back edge of a loop is
//     split, the new block becomes the continue target;
//   - the copies of one edge form a parallel copy and are sequentialized:
//     a copy whose variable another pending copy still reads waits, and a
//     cycle (a = b, b = a: the swap problem) is broken by saving one value
//     with an explicit copy instruction first.
//
// Phis with one predecessor are replaced by their value; undef and
// self-copies emit nothing.
var OutOfSSA = &Pass{
	Name: "out-of-ssa",
	Run:  runOutOfSSA,
}

func runOutOfSSA(m *ir.Module, ctx *Context) (bool, error) {
	changed := false
	for _, f := range m.Funcs {
		if !f.IsDeclaration() {
			if c, _ := outOfSSA(f); c {
				changed = true
			}
		}
	}
	return changed, nil
}

// parCopy is one copy of a parallel copy: variable dst (of phi) := src.
type parCopy struct {
	phi *ir.Instr
	dst ir.Value
	src ir.Value
}

// outOfSSA rewrites f's phis; it reports whether anything changed and
// returns the loads that replaced phis. Uses of the phis are rewritten in
// one walk at the end, and the variables are added to the entry block at
// once, so the work stays linear in the function's size.
func outOfSSA(f *ir.Function) (bool, map[*ir.Instr]bool) {
	var blocks []*ir.Block
	for _, b := range f.Blocks {
		if len(b.Phis()) > 0 {
			blocks = append(blocks, b)
		}
	}
	if len(blocks) == 0 {
		return false, nil
	}
	phiLoads := map[*ir.Instr]bool{}
	preds := cfDistinctPreds(f)
	lv := newPhiLiveness(f, preds)
	origSuccs := map[*ir.Block][]*ir.Block{}
	for _, b := range f.Blocks {
		origSuccs[b] = cfDistinctSuccs(b)
	}
	var allocas []*ir.Instr
	repl := map[ir.Value]ir.Value{}
	for _, t := range blocks {
		phis := append([]*ir.Instr(nil), t.Phis()...)
		ps := preds[t]
		if len(ps) == 1 && !phisReadSiblings(phis) {
			// One predecessor: each phi is its incoming value. (Sibling
			// phis that read each other take their previous values, so
			// they go through the general path.)
			for _, phi := range phis {
				v := phi.Incoming(ps[0])
				if v == nil || v == ir.Value(phi) {
					v = ir.ConstUndef(phi.Type())
				}
				repl[phi] = v
			}
			t.Instrs = t.Instrs[len(phis):]
			for _, phi := range phis {
				phi.Block = nil
			}
			continue
		}
		// One variable per phi, allocated in the entry block.
		vars := make(map[*ir.Instr]*ir.Instr, len(phis))
		for _, phi := range phis {
			a := newInstr(f, ir.OpAlloca, ir.Ptr(ir.SpaceFunction, phi.Type()), phi.Name()+".var")
			a.Loc = phi.Loc
			allocas = append(allocas, a)
			vars[phi] = a
		}
		// The copies of each incoming edge, on the edge.
		for _, p := range ps {
			incoming := make([]ir.Value, len(phis))
			for i, phi := range phis {
				incoming[i] = phi.Incoming(p)
			}
			at := p
			if len(origSuccs[p]) > 1 && copyClobbers(p, t, phis, incoming, origSuccs[p], lv) {
				at = cfSplitEdge(f, p, t)
				moveContinueTarget(f, p, t, at)
			}
			var copies []parCopy
			for i, phi := range phis {
				v := incoming[i]
				if v == nil {
					continue
				}
				if c, ok := v.(*ir.Const); ok && c.Undef {
					continue
				}
				if v == ir.Value(phi) {
					continue // the variable already holds it
				}
				copies = append(copies, parCopy{phi: phi, dst: vars[phi], src: v})
			}
			emitParallelCopy(f, at, copies)
		}
		// Each phi becomes a load of its variable, keeping its name (the
		// phis are the block's first instructions).
		for i, phi := range phis {
			ld := newInstrTakingName(f, ir.OpLoad, phi.Type(), phi)
			ld.Args = []ir.Value{vars[phi]}
			ld.Loc = phi.Loc
			ld.Block = t
			t.Instrs[i] = ld
			phi.Block = nil
			repl[phi] = ld
			phiLoads[ld] = true
		}
	}
	f.ReplaceUses(repl)
	if len(allocas) > 0 {
		entry := f.Blocks[0]
		for _, a := range allocas {
			a.Block = entry
		}
		entry.Instrs = append(allocas, entry.Instrs...)
	}
	return true, phiLoads
}

// phiLiveness answers, lazily and per phi, where a phi's value is live on
// entry to a block (phi operands count as uses at the end of their
// incoming block; the value is defined at the top of the phi's block), and
// on which edges it feeds another phi. Both describe the CFG and uses as
// they were before any rewriting.
type phiLiveness struct {
	preds map[*ir.Block][]*ir.Block
	users userMap
	live  map[*ir.Instr]map[*ir.Block]bool
	feeds map[*ir.Instr]map[[2]*ir.Block]bool // x -> (pred, succ) edges whose phis read x
}

func newPhiLiveness(f *ir.Function, preds map[*ir.Block][]*ir.Block) *phiLiveness {
	lv := &phiLiveness{preds: preds, users: computeUsers(f), live: map[*ir.Instr]map[*ir.Block]bool{}, feeds: map[*ir.Instr]map[[2]*ir.Block]bool{}}
	for _, b := range f.Blocks {
		for _, y := range b.Phis() {
			for i, a := range y.Args {
				if x, ok := a.(*ir.Instr); ok && x.Op == ir.OpPhi {
					if lv.feeds[x] == nil {
						lv.feeds[x] = map[[2]*ir.Block]bool{}
					}
					lv.feeds[x][[2]*ir.Block{y.PhiBlocks[i], b}] = true
				}
			}
		}
	}
	return lv
}

// liveIn reports whether phi x's value is live on entry to block b.
func (lv *phiLiveness) liveIn(x *ir.Instr, b *ir.Block) bool {
	set, ok := lv.live[x]
	if !ok {
		set = map[*ir.Block]bool{}
		def := x.Block
		var work []*ir.Block
		add := func(blk *ir.Block) {
			if blk != def && !set[blk] {
				set[blk] = true
				work = append(work, blk)
			}
		}
		for _, u := range uniqueUsers(lv.users[x]) {
			if u.Op == ir.OpPhi {
				for i, a := range u.Args {
					if a == ir.Value(x) {
						add(u.PhiBlocks[i])
					}
				}
				continue
			}
			add(u.Block)
		}
		for len(work) > 0 {
			blk := work[len(work)-1]
			work = work[:len(work)-1]
			for _, r := range lv.preds[blk] {
				add(r)
			}
		}
		lv.live[x] = set
	}
	return set[b]
}

// copyClobbers reports whether writing t's phi variables at the end of p
// (instead of on the edge p -> t) could destroy a value still needed: the
// value of a phi being written is live on another edge out of p (live into
// the other successor, or an operand of its phis from p), or p's own
// terminator reads it. That is the lost-copy problem; when it cannot
// happen, the critical edge is left unsplit, which keeps switch case
// targets and continue constructs as they were.
func copyClobbers(p, t *ir.Block, phis []*ir.Instr, incoming []ir.Value, succs []*ir.Block, lv *phiLiveness) bool {
	for i, x := range phis {
		v := incoming[i]
		if v == nil || v == ir.Value(x) {
			continue
		}
		if c, ok := v.(*ir.Const); ok && c.Undef {
			continue
		}
		if term := p.Terminator(); term != nil {
			for _, a := range term.Args {
				if a == ir.Value(x) {
					return true
				}
			}
		}
		for _, s := range succs {
			if s == t {
				continue
			}
			if lv.liveIn(x, s) || lv.feeds[x][[2]*ir.Block{p, s}] {
				return true
			}
		}
	}
	return false
}

// moveContinueTarget keeps a loop structured after its back edge p -> t
// was split by block e: when p is the continue target (and the back-edge
// block) of loop header t, e becomes the continue target and p an ordinary
// block of the loop body, provided every branch into p comes from the
// loop's own level (a "continue" from inside a nested construct would
// otherwise become a jump into the loop body). If that does not hold, the
// split stays as is: correct, but not SPIR-V-structured.
func moveContinueTarget(f *ir.Function, p, t, e *ir.Block) {
	lt := t.Terminator()
	if lt == nil || lt.MergeKind != ir.MergeLoop || lt.Continue != p {
		return
	}
	if p != t {
		cs := analyzeCFConstructs(f)
		loop := cs.byHeader[t]
		if loop == nil {
			return
		}
		for _, r := range cfDistinctPreds(f)[p] {
			if r != t && cs.enclosing(r) != loop {
				return
			}
		}
	}
	lt.Continue = e
}

// phisReadSiblings reports whether a phi of the group uses another.
func phisReadSiblings(phis []*ir.Instr) bool {
	set := map[ir.Value]bool{}
	for _, p := range phis {
		set[p] = true
	}
	for _, p := range phis {
		for _, a := range p.Args {
			if set[a] && a != ir.Value(p) {
				return true
			}
		}
	}
	return false
}

// emitParallelCopy stores each copy's source into its variable before at's
// terminator, in an order that reads every phi of the block (taken as its
// variable, as a register allocator would) before that variable is
// overwritten. A copy waits while another pending copy reads its
// destination; when only cycles remain, one read value is saved with a
// copy instruction and the readers use the saved value.
func emitParallelCopy(f *ir.Function, at *ir.Block, copies []parCopy) {
	if len(copies) == 0 {
		return
	}
	bd := ir.NewBuilder(f)
	bd.SetBeforeTerminator(at)
	if t := at.Terminator(); t != nil {
		bd.Loc = t.Loc
	}
	pending := append([]parCopy(nil), copies...)
	// readers counts pending copies whose source is phi p (read through
	// p's variable).
	readers := func(p *ir.Instr) int {
		n := 0
		for _, c := range pending {
			if c.src == ir.Value(p) {
				n++
			}
		}
		return n
	}
	for len(pending) > 0 {
		progressed := false
		for i := 0; i < len(pending); i++ {
			c := pending[i]
			if readers(c.phi) > 0 {
				continue
			}
			bd.Store(c.src, c.dst)
			pending = append(pending[:i], pending[i+1:]...)
			i--
			progressed = true
		}
		if progressed {
			continue
		}
		// Every pending destination is still read: a cycle. Save the value
		// of the first copy's phi and let its readers use the saved copy.
		p := pending[0].phi
		saved := bd.Copy(p, p.Name()+".save")
		for i := range pending {
			if pending[i].src == ir.Value(p) {
				pending[i].src = saved
			}
		}
	}
}
