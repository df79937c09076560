package passes

import (
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
)

// TestOutOfSSARegisterSemantics checks what makes the variables
// register-like: a back end may read a phi's variable wherever the phi's
// value is used (coalescing the two). That is only correct with critical
// edges split (lost copy) and parallel copies sequentialized (swap). The
// test rewrites every use of a phi's value into a fresh load of its
// variable and runs the program: the results must not change. As a
// control, the naive lowering (copies at the end of each predecessor, in
// phi order) gives wrong results under the same reading.
func TestOutOfSSARegisterSemantics(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"swap", "lost_copy", "switch_loop_continue", "irreducible", "emb_break2"} {
		t.Run(name, func(t *testing.T) {
			m := cfLoad(t, name)
			in := cfInput(m, cfData)
			out, _ := cfApply(t, OutOfSSA, m, "")
			for _, f := range out.Funcs {
				for _, b := range f.Blocks {
					if len(b.Phis()) > 0 {
						t.Fatalf("phi left in %s", b.Ref())
					}
				}
			}
			reg := readVariablesAtUses(t, out)
			cfSameRun(t, m, reg, in)
		})
	}
	for _, name := range []string{"swap", "lost_copy"} {
		m := cfLoad(t, name)
		in := cfInput(m, cfData)
		naive := readVariablesAtUses(t, naiveOutOfSSA(t, m))
		rb := cfRun(t, m, in, interp.PolicyMaximal)
		rn := cfRun(t, naive, in, interp.PolicyMaximal)
		if ok, _ := rb.Equal(rn); ok {
			t.Errorf("%s: the naive lowering gives the right results too: the test shows nothing", name)
		}
	}
}

// TestOutOfSSASwapSequence checks the copies of the swap's back edge: one
// value saved with a copy, then the two stores.
func TestOutOfSSASwapSequence(t *testing.T) {
	t.Parallel()
	out, _ := cfApply(t, OutOfSSA, cfLoad(t, "swap"), "")
	want := `loop.cont:
  %k.next = add i32 %k, 1
  store i32 %k.next, ptr<function, i32> %k.var
  %a.save = copy i32 %a
  store i32 %b, ptr<function, i32> %a.var
  store i32 %a.save, ptr<function, i32> %b.var
  br %loop
`
	got := cfFuncText(t, out, "main")
	if !strings.Contains(got, want) {
		t.Fatalf("back edge copies:\n%s", got)
	}
}

// readVariablesAtUses returns a copy of an out-of-SSA module in which every
// use of a phi's value (the load of <phi>.var that replaced the phi) reads
// the variable afresh right before the use.
func readVariablesAtUses(t *testing.T, m *ir.Module) *ir.Module {
	t.Helper()
	c := ir.CloneModule(m)
	for _, f := range c.Funcs {
		var loads []*ir.Instr
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Op != ir.OpLoad {
					continue
				}
				if a, ok := in.Args[0].(*ir.Instr); ok && a.Op == ir.OpAlloca && a.Name() == in.Name()+".var" {
					loads = append(loads, in)
				}
			}
		}
		for _, ld := range loads {
			for _, b := range f.Blocks {
				for _, in := range append([]*ir.Instr(nil), b.Instrs...) {
					for k, a := range in.Args {
						if a != ir.Value(ld) {
							continue
						}
						fresh := ir.NewInstr(f, ir.OpLoad, ld.Type(), ld.Name()+".use")
						fresh.Args = []ir.Value{ld.Args[0]}
						bd := ir.NewBuilder(f)
						bd.SetBefore(in)
						bd.Insert(fresh)
						in.Args[k] = fresh
					}
				}
			}
			ld.Remove()
		}
	}
	if err := ir.Verify(c); err != nil {
		t.Fatalf("register reading does not verify: %v\n%s", err, c)
	}
	return c
}

// naiveOutOfSSA lowers phis the naive way: copies at the end of each
// predecessor, in phi order, no edge splitting.
func naiveOutOfSSA(t *testing.T, m *ir.Module) *ir.Module {
	t.Helper()
	c := ir.CloneModule(m)
	for _, f := range c.Funcs {
		entry := f.Blocks[0]
		repl := map[ir.Value]ir.Value{}
		for _, b := range f.Blocks {
			for i, phi := range append([]*ir.Instr(nil), b.Phis()...) {
				v := ir.NewInstr(f, ir.OpAlloca, ir.Ptr(ir.SpaceFunction, phi.Type()), phi.Name()+".var")
				insertAt(entry, 0, v)
				for j, pb := range phi.PhiBlocks {
					bd := ir.NewBuilder(f)
					bd.SetBeforeTerminator(pb)
					bd.Store(phi.Args[j], v)
				}
				ld := newInstrTakingName(f, ir.OpLoad, phi.Type(), phi)
				ld.Args = []ir.Value{v}
				phi.Remove()
				insertAt(b, i, ld)
				repl[phi] = ld
			}
		}
		f.ReplaceUses(repl)
	}
	if err := ir.Verify(c); err != nil {
		t.Fatalf("naive lowering does not verify: %v", err)
	}
	return c
}
