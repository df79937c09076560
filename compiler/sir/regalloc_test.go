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

// A value read after a partial write of another register stays separate,
// and registers of different SIMD groups never share.
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
	if !g[lo][a] || !g[lo][b] {
		t.Errorf("%%lo (group 8@0) must interfere with the 16-wide temporaries")
	}
	slot, n := Allocate(f)
	if slot[a] != slot[b] || n != 2 {
		t.Errorf("slots %v, n=%d; want a and b sharing, 2 slots", slot, n)
	}
}
