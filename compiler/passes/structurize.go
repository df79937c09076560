package passes

import (
	"fmt"

	"passlens/compiler/ir"
)

// Structurize is the structurize pass: make control flow structured: fix
// multi-level exits, else a loop-and-switch block dispatcher.
//
// A structurizer after the structured program theorem (Böhm-Jacopini): the
// control flow of a function is virtualized by a block-index register; the
// whole function becomes
//
//	idx = <entry>;
//	loop { switch (idx) { case 0: <block 0>; idx = <successor>; ... } }
//
// with loop_merge and selection_merge annotations, so any CFG - irreducible
// ones included - comes out structured. Returns stay where they are (inside
// the loop); the loop's merge block is unreachable. For targets without a
// switch instruction, structurize<ifs> (which the sm3 pipeline uses) makes
// the dispatch a chain "if (idx == i) { block i; continue; }" instead of
// the switch (structurize<switch>, the default).
//
// Functions that are already structured are left alone: a function is
// untouched when every branch that needs one has a merge annotation, every
// cycle is an annotated loop entered through its header (no irreducible
// cycle), and every edge is a legal single-level exit in SPIR-V's sense (see
// classify in cfutil.go). When the only problems are multi-level exits
// (breaks and continues that cross loops or switches), the
// eliminate-multilevel-break rewrite fixes them instead of dispatching; the
// dispatcher is the last resort, for the whole function.
//
// Before dispatching, phis become variables (the out-of-ssa rewrite) and
// every other value used outside its block is routed through a function
// variable (a store after its definition, a load in each using block);
// address computations are recomputed in the using block instead. Allocas
// move to the new entry block. The result has lost its
// convergence information and is slow to run; it is correct.
var Structurize = &Pass{
	Name: "structurize",
	Run:  runStructurize,
}

func runStructurize(m *ir.Module, ctx *Context) (bool, error) {
	ifs := false
	switch opt := ctx.Option("structurize"); opt {
	case "", "switch":
	case "ifs":
		ifs = true
	default:
		return false, fmt.Errorf("structurize: unknown option %q (want structurize<ifs> or structurize<switch>)", opt)
	}
	changed := false
	for _, f := range m.Funcs {
		if f.IsDeclaration() {
			continue
		}
		c, err := structurizeFunction(f, ifs)
		if err != nil {
			return changed, err
		}
		changed = changed || c
	}
	return changed, nil
}

// structurizeFunction leaves a structured f alone, fixes multi-level exits
// if they are its only problem, and otherwise dispatches it (with a chain
// of ifs instead of a switch when ifs is set).
func structurizeFunction(f *ir.Function, ifs bool) (bool, error) {
	probs := structureProblems(f)
	if len(probs) == 0 {
		return false, nil
	}
	if allMultilevel(probs) {
		if _, err := eliminateMultilevel(f); err != nil {
			return true, err
		}
		if len(structureProblems(f)) == 0 {
			return true, nil
		}
	}
	return true, dispatchFunction(f, ifs)
}

// structureProblem is one reason a function is not structured.
type structureProblem struct {
	block      *ir.Block
	msg        string
	multilevel bool // a multi-level exit, fixable by eliminate-multilevel-break
}

func (p structureProblem) String() string { return p.block.Ref() + ": " + p.msg }

func allMultilevel(ps []structureProblem) bool {
	for _, p := range ps {
		if !p.multilevel {
			return false
		}
	}
	return true
}

// structureProblems lists why f is not structured (nil if it is): branches
// without merge annotations, cycles that are not annotated loops
// (irreducible ones included), and edges that are not legal single-level
// exits. Unreachable blocks are ignored.
func structureProblems(f *ir.Function) []structureProblem {
	var out []structureProblem
	dt := newDomTree(f)
	cs := analyzeCFConstructs(f)
	rpo := map[*ir.Block]int{}
	for i, b := range dt.rpo {
		rpo[b] = i
	}
	for _, b := range dt.rpo {
		t := b.Terminator()
		if t == nil {
			continue
		}
		if t.MergeKind == ir.MergeNone && (t.Op == ir.OpSwitch || t.Op == ir.OpCondBr && len(cfDistinctSuccs(b)) > 1) {
			if t.Op == ir.OpSwitch || !hasExitTarget(cs, b) {
				out = append(out, structureProblem{block: b, msg: t.Op.String() + " without a merge annotation"})
			}
		}
		for _, s := range cfDistinctSuccs(b) {
			if rpo[s] <= rpo[b] { // a retreating edge
				if !dt.dominates(s, b) {
					out = append(out, structureProblem{block: b, msg: "irreducible cycle entered at " + s.Ref()})
					continue
				}
				if l := cs.byHeader[s]; l == nil || l.kind != ckLoop {
					out = append(out, structureProblem{block: b, msg: "cycle through " + s.Ref() + ", which is not an annotated loop header"})
					continue
				}
			}
			switch cs.classify(b, s) {
			case edgeMultiLevel:
				out = append(out, structureProblem{block: b, msg: "multi-level exit to " + s.Ref(), multilevel: true})
			case edgeUnstructured:
				out = append(out, structureProblem{block: b, msg: "unstructured branch to " + s.Ref()})
			}
		}
	}
	return out
}

// hasExitTarget reports whether one target of b's unannotated condbr is a
// break, continue, back edge or the merge of b's construct (SPIR-V allows
// such a conditional branch without a merge instruction).
func hasExitTarget(cs *cfConstructs, b *ir.Block) bool {
	c := cs.from(b)
	if c == nil {
		return false
	}
	br, l := cfBreakable(c), cfLoop(c)
	for _, s := range b.Successors() {
		if s == c.merge || (br != nil && s == br.merge) || (l != nil && (s == l.cont || s == l.header)) {
			return true
		}
	}
	return false
}

// dispatchFunction rewrites f as a loop around a switch on a block index,
// or, with ifs, around a chain of "if (idx == i) { block i; continue; }"
// (for targets without a switch instruction, such as SM3).
func dispatchFunction(f *ir.Function, ifs bool) error {
	// Blocks no path reaches would be cases nothing selects.
	cfg := f.CFG()
	dead := map[*ir.Block]bool{}
	for _, b := range f.Blocks {
		if !cfg.Reachable(b) {
			dead[b] = true
		}
	}
	cfRemoveBlocks(f, dead)
	_, phiLoads := outOfSSA(f)
	if err := routeValuesThroughMemory(f, phiLoads); err != nil {
		return err
	}

	blocks := append([]*ir.Block(nil), f.Blocks...)
	index := make(map[*ir.Block]int, len(blocks))
	for i, b := range blocks {
		index[b] = i
	}
	var loc ir.Loc
	if t := blocks[0].Terminator(); t != nil {
		loc = t.Loc
	}
	entry := f.NewBlock("dispatch.entry")
	loop := f.NewBlock("dispatch.loop")
	sw := f.NewBlock("dispatch.switch")
	next := f.NewBlock("dispatch.next")
	latch := f.NewBlock("dispatch.latch")
	exit := f.NewBlock("dispatch.exit")

	bd := ir.NewBuilder(f)
	bd.Loc = loc
	// The new entry holds every alloca, the block-index register and the
	// jump into the loop.
	bd.SetBlock(entry)
	for _, b := range blocks {
		for _, in := range append([]*ir.Instr(nil), b.Instrs...) {
			if in.Op == ir.OpAlloca {
				in.Remove()
				appendInstr(entry, in)
			}
		}
	}
	idx := bd.Alloca(ir.I32, "dispatch.idx")
	bd.Store(ir.ConstInt(ir.I32, 0), idx)
	bd.Br(loop)

	bd.SetBlock(loop)
	lt := bd.Br(sw)
	lt.SetLoopMerge(exit, latch)

	bd.SetBlock(sw)
	cur := bd.Load(idx, "dispatch.cur")
	var tests []*ir.Block
	after := next // where a block goes once it has set the index
	if ifs {
		// sw tests index 0; each test's merge is the next test, the last
		// test's merge is next. A block continues the loop when done.
		after = latch
		test := sw
		for i, b := range blocks {
			merge := next
			if i+1 < len(blocks) {
				merge = f.NewBlock("dispatch.test")
				tests = append(tests, merge)
			}
			bd.SetBlock(test)
			is := bd.Cmp(ir.PredEQ, cur, ir.ConstInt(ir.I32, int64(i)), "dispatch.is")
			t := bd.CondBr(is, b, merge)
			t.SetSelectionMerge(merge)
			test = merge
		}
	} else {
		cases := make([]ir.SwitchCase, 0, len(blocks)+1)
		for i, b := range blocks {
			cases = append(cases, ir.SwitchCase{Values: []int64{int64(i)}, Target: b})
		}
		cases = append(cases, ir.SwitchCase{Default: true, Target: next})
		st := bd.Switch(cur, cases)
		st.SetSelectionMerge(next)
	}

	bd.SetBlock(next)
	bd.Br(latch)
	bd.SetBlock(latch)
	bd.Br(loop)
	bd.SetBlock(exit)
	bd.Unreachable()

	// Each block computes its successor's index instead of branching.
	for _, b := range blocks {
		t := b.Terminator()
		if t == nil {
			return f.Errorf("structurize: block %s has no terminator", b.Ref())
		}
		bd.Loc = t.Loc
		var nextIdx ir.Value
		switch t.Op {
		case ir.OpBr:
			nextIdx = ir.ConstInt(ir.I32, int64(index[t.Succs[0]]))
		case ir.OpCondBr:
			bd.SetBefore(t)
			a, c := index[t.Succs[0]], index[t.Succs[1]]
			if a == c {
				nextIdx = ir.ConstInt(ir.I32, int64(a))
			} else {
				nextIdx = bd.Select(t.Args[0], ir.ConstInt(ir.I32, int64(a)), ir.ConstInt(ir.I32, int64(c)), "dispatch.to")
			}
		case ir.OpSwitch:
			bd.SetBefore(t)
			sel := t.Args[0]
			var acc ir.Value
			for _, c := range t.Cases {
				if c.Default {
					acc = ir.ConstInt(ir.I32, int64(index[c.Target]))
				}
			}
			for _, c := range t.Cases {
				for _, v := range c.Values {
					eq := bd.Cmp(ir.PredEQ, sel, ir.ConstInt(sel.Type(), v), "dispatch.is")
					acc = bd.Select(eq, ir.ConstInt(ir.I32, int64(index[c.Target])), acc, "dispatch.to")
				}
			}
			nextIdx = acc
		default:
			t.ClearMerge()
			continue // ret, discard, unreachable stay
		}
		t.Remove()
		bd.SetBlock(b)
		bd.Store(nextIdx, idx)
		bd.Br(after)
	}
	layout := []*ir.Block{entry, loop, sw}
	if ifs {
		for i, b := range blocks {
			layout = append(layout, b)
			if i < len(tests) {
				layout = append(layout, tests[i])
			}
		}
	} else {
		layout = append(layout, blocks...)
	}
	layout = append(layout, next, latch, exit)
	copy(f.Blocks, layout)
	return nil
}

// routeValuesThroughMemory makes every value used outside its defining
// block travel through a function variable (an alloca), so that blocks can
// be reordered freely: the definition is stored right after it is
// computed, and each using block loads it before its first use. Address
// computations (access chains) are recomputed in the using block instead,
// since pointers cannot be stored. Phis must be gone (out-of-SSA); the
// loads that replaced them (phiLoads) are simply loaded again.
func routeValuesThroughMemory(f *ir.Function, phiLoads map[*ir.Instr]bool) error {
	entry := f.Blocks[0]
	// Pointer values: recompute access chains where they are used.
	for changed := true; changed; {
		changed = false
		for _, b := range f.Blocks {
			for _, in := range append([]*ir.Instr(nil), b.Instrs...) {
				for k, a := range in.Args {
					d, ok := a.(*ir.Instr)
					if !ok || d.Block == b || d.Type().Kind != ir.KPointer || d.Op == ir.OpAlloca {
						continue
					}
					if d.Op != ir.OpAccess {
						return f.Errorf("structurize: cannot carry pointer %s (%s) from block %s to %s",
							d.Ref(), d.Op, d.Block.Ref(), b.Ref())
					}
					c := cloneInstr(f, d)
					bd := ir.NewBuilder(f)
					bd.SetBefore(in)
					bd.Insert(c)
					in.Args[k] = c
					changed = true
				}
			}
		}
	}
	// Other values: through a variable.
	type def struct {
		d    *ir.Instr
		uses []cfUse
	}
	var defs []*def
	byDef := map[*ir.Instr]*def{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			for k, a := range in.Args {
				d, ok := a.(*ir.Instr)
				if !ok || d.Block == b || d.Type().Kind == ir.KPointer {
					continue
				}
				if d.Op == ir.OpPhi {
					return f.Errorf("structurize: phi %s left after out-of-SSA", d.Ref())
				}
				e := byDef[d]
				if e == nil {
					e = &def{d: d}
					byDef[d] = e
					defs = append(defs, e)
				}
				e.uses = append(e.uses, cfUse{in, k})
			}
		}
	}
	for _, e := range defs {
		var v ir.Value
		if phiLoads[e.d] {
			// A phi's value is its variable wherever the value is live
			// (out-of-SSA wrote it only on the edges into the phi's block).
			v = e.d.Args[0]
		} else {
			a := newInstr(f, ir.OpAlloca, ir.Ptr(ir.SpaceFunction, e.d.Type()), e.d.Name()+".var")
			a.Loc = e.d.Loc
			insertAt(entry, 0, a)
			st := ir.NewInstr(f, ir.OpStore, ir.Void, "")
			st.Args = []ir.Value{e.d, a}
			st.Loc = e.d.Loc
			insertAt(e.d.Block, indexInBlock(e.d)+1, st)
			v = a
		}
		loads := map[*ir.Block]*ir.Instr{}
		for _, u := range e.uses {
			ld := loads[u.in.Block]
			if ld == nil {
				ld = ir.NewInstr(f, ir.OpLoad, e.d.Type(), e.d.Name())
				ld.Args = []ir.Value{v}
				ld.Loc = u.in.Loc
				// Before the first use in the block.
				first := len(u.in.Block.Instrs)
				for _, w := range e.uses {
					if w.in.Block == u.in.Block {
						first = min(first, indexInBlock(w.in))
					}
				}
				insertAt(u.in.Block, first, ld)
				loads[u.in.Block] = ld
			}
			u.in.Args[u.arg] = ld
		}
	}
	return nil
}
