package sir

import "testing"

// In the loop samples, every pair of temporaries that is live at the same
// time gets different slots, and sharing brings the slot count well below
// the number of temporaries.
func TestAllocateLoopSamples(t *testing.T) {
	for _, name := range []string{"sm3-loop-m.sm3.pir", "sm3-loop-mm.sm3.pir"} {
		f, err := Lower(loadPIR(t, name), 1)
		if err != nil {
			t.Fatal(err)
		}
		Optimize(f)
		slot, n := Allocate(f)
		g := Interference(f)
		temps := 0
		for r, nb := range g {
			temps++
			for o := range nb {
				if slot[r] == slot[o] {
					t.Errorf("%s: interfering %%%s and %%%s share slot %d", name, r.Name, o.Name, slot[r])
				}
			}
		}
		if n >= temps {
			t.Errorf("%s: %d slots for %d temporaries: no sharing", name, n, temps)
		}
		t.Logf("%s: %d temporaries in %d slots", name, temps, n)
	}
}

// Straight-line code: %a dies where %b is written, so they share; %lo
// (another SIMD group) is written while %b is live, so they interfere, but
// %a is dead by then on every path, physical or logical, so %lo may reuse
// its register.
func TestInterferenceRules(t *testing.T) {
	f := NewFunc("main", 16)
	in := f.NewReg("in", 32, 1, Group{0, 16}, FileInput)
	a := f.NewReg("a", 32, 1, Group{0, 16}, FileTemp)
	b := f.NewReg("b", 32, 1, Group{0, 16}, FileTemp)
	lo := f.NewReg("lo", 32, 1, Group{0, 8}, FileTemp)
	o := f.NewReg("o", 32, 1, Group{0, 16}, FileOutput)
	e := f.NewBlock("entry")
	e.Emit(OpMov, f.All(), D(a), R(in))
	e.Emit(OpFAdd, f.All(), D(b), R(a), R(a)) // a dies here: a and b may share
	e.Emit(OpMov, Group{0, 8}, D(lo), R(in))
	e.Emit(OpMov, f.All(), D(o), R(b))
	e.Emit(OpRet, f.All(), nil)
	if err := Validate(f); err != nil {
		t.Fatal(err)
	}
	g := Interference(f)
	if g[a][b] {
		t.Errorf("%%a and %%b should not interfere")
	}
	if !g[lo][b] {
		t.Errorf("%%lo (group 8@0) must interfere with %%b, live across its write")
	}
	if g[lo][a] {
		t.Errorf("%%lo and %%a are never live at once; they should not interfere")
	}
	slot, n := Allocate(f)
	if slot[a] != slot[b] || n != 2 {
		t.Errorf("slots %v, n=%d; want a and b sharing, 2 slots", slot, n)
	}
}

// The seed's case for the physical CFG: %x is defined before an if/else
// and read only in the else-arm; %t is written and read only in the
// then-arm. On the logical CFG %x is dead in the then-arm, so registers of
// the same SIMD group may share (the then-channels' write is masked to
// them, the else-channels keep their %x). If %t belongs to another SIMD
// group, its write may hit channels that still need %x: the then-arm runs
// on into the else-arm physically, so they must interfere. The same holds
// for registers of different bit sizes.
func TestPhysicalCFGInterference(t *testing.T) {
	build := func(tGroup Group, tBits int) (*Func, *Reg, *Reg) {
		f := NewFunc("main", 16)
		in := f.NewReg("in", 32, 1, Group{0, 16}, FileInput)
		x := f.NewReg("x", 32, 1, Group{0, 16}, FileTemp)
		c := f.NewReg("c", 1, 1, Group{0, 16}, FileTemp)
		tr := f.NewReg("t", tBits, 1, tGroup, FileTemp)
		o := f.NewReg("o", 32, 1, Group{0, 16}, FileOutput)
		oLo := f.NewReg("olo", tBits, 1, tGroup, FileOutput)
		entry, then, els, merge := f.NewBlock("entry"), f.NewBlock("then"), f.NewBlock("else"), f.NewBlock("merge")
		entry.Emit(OpMov, f.All(), D(x), R(in))
		entry.Emit(OpFCmp, f.All(), D(c), R(in), Imm32(0)).Cond = CondLT
		entry.Emit(OpBrc, f.All(), nil, R(c)).Succs = []*Block{then, els}
		imm := Src{Imm: 1, ImmBits: tBits}
		then.Emit(OpMov, tGroup, D(tr), imm)
		then.Emit(OpMov, tGroup, D(oLo), R(tr))
		then.Emit(OpBr, f.All(), nil).Succs = []*Block{merge}
		els.Emit(OpMov, f.All(), D(o), R(x))
		els.Emit(OpBr, f.All(), nil).Succs = []*Block{merge}
		merge.Emit(OpRet, f.All(), nil)
		if err := Validate(f); err != nil {
			t.Fatal(err)
		}
		return f, x, tr
	}
	f, x, tr := build(Group{0, 16}, 32)
	if Interference(f)[x][tr] {
		t.Errorf("same group and size: %%x and %%t are never live at once on the logical CFG; they should not interfere")
	}
	if slot, _ := Allocate(f); slot[x] != slot[tr] {
		t.Errorf("same group: %%x and %%t should share a slot, got %v", slot)
	}
	f, x, tr = build(Group{0, 8}, 32)
	if !Interference(f)[x][tr] {
		t.Errorf("different SIMD groups: %%t's write in the then-arm clobbers %%x, live on the physical CFG; they must interfere")
	}
	f, x, tr = build(Group{0, 16}, 16)
	if !Interference(f)[x][tr] {
		t.Errorf("different bit sizes: they must interfere through the physical CFG")
	}
	l, p := ComputeLiveness(f), ComputePhysicalLiveness(f)
	then := f.Blocks[1]
	if l.In[then][x] || !p.In[then][x] {
		t.Errorf("%%x live into the then-arm: logical %v (want false), physical %v (want true)", l.In[then][x], p.In[then][x])
	}
}
