package sir

import "testing"

// A loop: %i is written before the loop and again in it (partial writes
// aside, two full writes), so it is live around the back edge; %t is local
// to the body. A partial write to %p does not end %p's live range.
func TestLivenessLoopAndPartialWrites(t *testing.T) {
	f := NewFunc("main", 8)
	i := f.NewReg("i", 32, 1, Group{0, 8}, FileTemp)
	tt := f.NewReg("t", 32, 1, Group{0, 8}, FileTemp)
	p := f.NewReg("p", 32, 2, Group{0, 8}, FileTemp)
	flag := f.NewReg("f", 1, 1, Group{0, 8}, FileTemp)
	o := f.NewReg("o", 32, 2, Group{0, 8}, FileOutput)
	entry, loop, exit := f.NewBlock("entry"), f.NewBlock("loop"), f.NewBlock("exit")
	entry.Emit(OpMov, f.All(), D(i), Imm32(0))
	entry.Emit(OpMov, f.All(), D(p), Imm32(0))
	entry.Emit(OpBr, f.All(), nil).Succs = []*Block{loop}
	loop.Emit(OpFAdd, f.All(), D(tt), R(i), Imm32(0x3f800000))
	loop.Emit(OpMov, f.All(), &Dst{Reg: p, Mask: 1}, R(tt))
	loop.Emit(OpMov, f.All(), D(i), R(tt))
	loop.Emit(OpFCmp, f.All(), D(flag), R(i), Imm32(0x41200000)).Cond = CondLT
	loop.Emit(OpBrc, f.All(), nil, R(flag)).Succs = []*Block{loop, exit}
	exit.Emit(OpMov, f.All(), D(o), R(p))
	exit.Emit(OpRet, f.All(), nil)
	if err := Validate(f); err != nil {
		t.Fatal(err)
	}
	l := ComputeLiveness(f)
	if !l.In[loop][i] || !l.Out[loop][i] {
		t.Errorf("%%i should be live into and out of the loop")
	}
	if l.In[loop][tt] || l.Out[loop][tt] {
		t.Errorf("%%t should be local to the loop body")
	}
	if !l.In[loop][p] {
		t.Errorf("%%p should be live into the loop: its write there is partial")
	}
	if l.In[entry][i] || l.In[entry][p] {
		t.Errorf("nothing should be live into the entry")
	}
	// Peak before the brc: %i (4 bytes x 8 channels), %p (8 x 8) and the
	// flag (1 x 8). %t and the old %i are never live together: %i dies at
	// the fadd that defines %t.
	if got, _ := Pressure(f); got != 104 {
		t.Errorf("Pressure = %d bytes, want 104", got)
	}
}
