package sm3lower

import (
	"fmt"

	"passlens/compiler/ir"
	"passlens/compiler/passes"
)

// RepModel returns a copy of m (the output of sm3-lower) in which every
// loop marked with sm3.rep behaves as SM3's "rep iN" does, independently
// of the counter code sm3-lower wrote into the IR: a fresh counter per
// loop, set to 0 on every edge into the loop, and on arrival number
// count+1 at the header the loop is left before any of the header's code
// runs. Values of code that was skipped keep the value of their last run
// (what the registers hold). The markers are removed, so the interpreter
// can run the model; the IR's own cap code still runs inside it, so a run
// of the model equals a run of sm3-lower's output exactly when that code
// stops each loop where the hardware does, without observable effects of
// the header on the arrival the hardware skips. Tests and the differential
// test compare the two.
func RepModel(m *ir.Module) (*ir.Module, error) {
	c := ir.CloneModule(m)
	for _, f := range c.Funcs {
		if f.IsDeclaration() {
			continue
		}
		if err := modelFunc(f); err != nil {
			return nil, err
		}
	}
	if err := ir.Verify(c); err != nil {
		return nil, fmt.Errorf("sm3 rep model: %w", err)
	}
	return c, nil
}

func modelFunc(f *ir.Function) error {
	type marked struct {
		h     *ir.Block
		count ir.Value
	}
	var loops []marked
	for _, b := range f.Blocks {
		for _, in := range append([]*ir.Instr(nil), b.Instrs...) {
			if in.Op == ir.OpIntrinsic && in.Intr != nil && in.Intr.Name == RepIntrinsic {
				loops = append(loops, marked{b, in.Args[0]})
				in.Remove()
			}
		}
	}
	if len(loops) == 0 {
		return nil
	}
	dt := passes.NewDomTree(f)
	preds := passes.DistinctPreds(f)
	entry := f.Blocks[0]
	for _, l := range loops {
		h := l.h
		t := h.Terminator()
		if t == nil || t.MergeKind != ir.MergeLoop {
			return f.Errorf("sm3 rep model: %s carries sm3.rep but is not a loop header", h.Ref())
		}
		merge, cont := t.Merge, t.Continue
		ctr := passes.NewInstr(f, ir.OpAlloca, ir.Ptr(ir.SpaceFunction, ir.F32), h.Name()+".hw")
		passes.InsertAt(entry, 0, ctr)
		for _, p := range preds[h] {
			if dt.Dominates(h, p) {
				continue // a back edge
			}
			bd := ir.NewBuilder(f)
			bd.SetBeforeTerminator(p)
			bd.Store(ir.ConstFloat(ir.F32, 0), ctr)
		}
		rest := f.NewBlockAfter(h, h.Name()+".hw.body")
		passes.MoveTail(h, h.FirstNonPhi(), rest)
		rest.Terminator().ClearMerge()
		if cont == h {
			cont = rest
		}
		bd := ir.NewBuilder(f)
		bd.SetBlock(h)
		var countF ir.Value
		switch x := l.count.(type) {
		case *ir.Const:
			countF = ir.ConstFloat(ir.F32, float64(x.Int()))
		case *ir.Instr:
			// The uniform load: read it again here (it may sit in the
			// header, which now runs after this test).
			if x.Op != ir.OpLoad {
				return f.Errorf("sm3 rep model: count %s of %s is not a load", x.Ref(), h.Ref())
			}
			// An access chain it loads through is recomputed here by
			// sm3RouteLiveOuts below.
			ld := bd.Load(x.Args[0], h.Name()+".hw.count")
			countF = bd.Cast(ir.OpSIToFP, ld, ir.F32, h.Name()+".hw.countf")
		default:
			return f.Errorf("sm3 rep model: count of %s is %s", h.Ref(), l.count.Ref())
		}
		n := bd.Load(ctr, h.Name()+".hw.n")
		done := bd.Cmp(ir.PredOGE, n, countF, h.Name()+".hw.done")
		bd.Store(bd.Binary(ir.OpFAdd, n, ir.ConstFloat(ir.F32, 1), h.Name()+".hw.next"), ctr)
		nt := passes.NewCondBr(f, done, merge, rest)
		nt.SetLoopMerge(merge, cont)
		passes.AppendInstr(h, nt)
		for _, phi := range merge.Phis() {
			phi.AddIncoming(ir.ConstUndef(phi.Type()), h)
		}
	}
	// Uses of skipped code read the last value: through variables.
	return sm3RouteLiveOuts(f)
}
