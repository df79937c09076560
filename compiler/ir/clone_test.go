package ir

import (
	"testing"
)

// checkDisjoint fails if original and clone share a function, block,
// instruction, parameter, global or any slice backing array.
func checkDisjoint(t *testing.T, m, c *Module) {
	t.Helper()
	seen := map[any]bool{}
	for _, g := range m.Globals {
		seen[g] = true
	}
	for _, f := range m.Funcs {
		seen[f] = true
		for _, p := range f.Params {
			seen[p] = true
		}
		for _, b := range f.Blocks {
			seen[b] = true
			for _, in := range b.Instrs {
				seen[in] = true
			}
		}
	}
	for _, g := range c.Globals {
		if seen[g] {
			t.Fatalf("global %s shared", g.Ref())
		}
	}
	for fi, f := range c.Funcs {
		if seen[f] || f.Module != c {
			t.Fatalf("function %s shared or not owned by the clone", f.Ref())
		}
		for _, p := range f.Params {
			if seen[p] || p.Func != f {
				t.Fatalf("parameter %s shared", p.Ref())
			}
		}
		for bi, b := range f.Blocks {
			if seen[b] || b.Func != f {
				t.Fatalf("block %s shared", b.Ref())
			}
			ob := m.Funcs[fi].Blocks[bi]
			for ii, in := range b.Instrs {
				if seen[in] || in.Block != b {
					t.Fatalf("instruction %s shared", InstrString(in))
				}
				oi := ob.Instrs[ii]
				for _, a := range in.Args {
					if seen[a] {
						t.Fatalf("%s: operand %s points into the original", InstrString(in), a.Ref())
					}
				}
				for _, s := range append(append(append([]*Block{}, in.Succs...), in.PhiBlocks...), in.Merge, in.Continue) {
					if s != nil && seen[s] {
						t.Fatalf("%s: block operand points into the original", InstrString(in))
					}
				}
				for _, sc := range in.Cases {
					if seen[sc.Target] {
						t.Fatalf("%s: case target points into the original", InstrString(in))
					}
				}
				if in.Callee != nil && seen[in.Callee] {
					t.Fatalf("%s: callee points into the original", InstrString(in))
				}
				if len(in.Args) > 0 && &in.Args[0] == &oi.Args[0] || len(in.Idx) > 0 && &in.Idx[0] == &oi.Idx[0] ||
					len(in.Cases) > 0 && &in.Cases[0] == &oi.Cases[0] {
					t.Fatalf("%s: slice shared with the original", InstrString(in))
				}
			}
		}
	}
}

// TestCloneSlicesDoNotAlias: appending to one cloned instruction's slice
// never overwrites a neighbour (the slabs hand out capacity-clipped slices).
func TestCloneSlicesDoNotAlias(t *testing.T) {
	m := mustParse(t, `define i32 @f(i32 %a) {
entry:
  %x = add i32 %a, 1
  %y = add i32 %x, 2
  br %l
l:
  %p = phi i32 [%y, %entry], [%q, %l]
  %q = add i32 %p, 1
  %c = icmp slt i32 %q, 10
  condbr bool %c, %l, %e
e:
  ret i32 %q
}
`)
	c := CloneModule(m)
	f := c.Func("f")
	before := f.String()
	x := f.Blocks[0].Instrs[0]
	x.Args = append(x.Args, ConstInt(I32, 9))
	phi := f.Block("l").Instrs[0]
	phi.AddIncoming(ConstInt(I32, 5), f.Blocks[0])
	f.Blocks[0].Instrs = append(f.Blocks[0].Instrs, &Instr{Op: OpUnreachable, typ: Void})
	x.Args = x.Args[:2]
	phi.RemoveIncoming(f.Blocks[0])
	phi.AddIncoming(f.Blocks[0].Instrs[1], f.Blocks[0])
	f.Blocks[0].Instrs = f.Blocks[0].Instrs[:3]
	// Only the phi's entry order changed.
	want := mustParse(t, before).Func("f")
	wphi := want.Block("l").Instrs[0]
	wphi.Args[0], wphi.Args[1] = wphi.Args[1], wphi.Args[0]
	wphi.PhiBlocks[0], wphi.PhiBlocks[1] = wphi.PhiBlocks[1], wphi.PhiBlocks[0]
	if f.String() != want.String() {
		t.Fatalf("appends clobbered neighbours:\n%s\nwant\n%s", f, want)
	}
}

// TestCloneFunction: a function clone stays in its module's namespace
// (globals and callees are the module's own) without joining its list.
func TestCloneFunction(t *testing.T) {
	m := mustParse(t, baseSrc)
	f := m.Func("f")
	c := CloneFunction(f)
	if c.String() != f.String() {
		t.Fatalf("clone differs:\n%s", c)
	}
	if c.Module != m || len(m.Funcs) != 2 {
		t.Fatal("clone must point at the module without being added to it")
	}
	if err := VerifyFunction(c); err != nil {
		t.Fatal(err)
	}
	var call *Instr
	for _, b := range c.Blocks {
		for _, in := range b.Instrs {
			if in.Op == OpCall {
				call = in
			}
		}
	}
	if call.Callee != m.Func("other") {
		t.Error("callee of a function clone must be the module's function")
	}
	if CloneFunction(nil) != nil || CloneModule(nil) != nil {
		t.Error("nil clones")
	}
}
