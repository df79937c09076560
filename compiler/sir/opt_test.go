package sir

import (
	"strings"
	"testing"
)

func checkText(t *testing.T, f *Func, want string) {
	t.Helper()
	if err := Validate(f); err != nil {
		t.Fatalf("invalid after pass: %v\n%s", err, f)
	}
	got := f.String()
	if strings.TrimSpace(got) != strings.TrimSpace(want) {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestCopyPropComposesSwizzles(t *testing.T) {
	f := NewFunc("main", 8)
	u := f.NewReg("u", 32, 4, Group{0, 1}, FileConst)
	a := f.NewReg("a", 32, 4, Group{0, 8}, FileTemp)
	b := f.NewReg("b", 32, 2, Group{0, 8}, FileTemp)
	o := f.NewReg("o", 32, 4, Group{0, 8}, FileOutput)
	e := f.NewBlock("entry")
	e.Emit(OpFAdd, f.All(), D(a), RS(u, 0, 1, 2, 3), RS(u, 3))
	e.Emit(OpMov, f.All(), D(b), RS(a, 2, 3))
	e.Emit(OpFMul, f.All(), D(o), RS(b, 1, 0, 1, 0), RS(b, 0))
	e.Emit(OpRet, f.All(), nil)
	if !CopyProp(f) {
		t.Fatal("CopyProp reported no change")
	}
	checkText(t, f, `
func main simd8 {
  reg %u 32x4 simd1@0 const
  reg %a 32x4 simd8@0 temp
  reg %b 32x2 simd8@0 temp
  reg %o 32x4 simd8@0 output
entry:
  (8@0) fadd %a, %u.xyzw, %u.w
  (8@0) mov %b, %a.zw
  (8@0) fmul %o, %a.wzwz, %a.z
  (8@0) ret
}`)
	if !DCE(f) {
		t.Fatal("DCE reported no change")
	}
	checkText(t, f, `
func main simd8 {
  reg %u 32x4 simd1@0 const
  reg %a 32x4 simd8@0 temp
  reg %b 32x2 simd8@0 temp
  reg %o 32x4 simd8@0 output
entry:
  (8@0) fadd %a, %u.xyzw, %u.w
  (8@0) fmul %o, %a.wzwz, %a.z
  (8@0) ret
}`)
}

// A mov whose source is written twice (a loop variable after out-of-SSA)
// must not be propagated: the source changes after the copy.
func TestCopyPropKeepsMultiplyWrittenSource(t *testing.T) {
	f := NewFunc("main", 8)
	v := f.NewReg("v", 32, 1, Group{0, 8}, FileTemp)
	c := f.NewReg("c", 32, 1, Group{0, 8}, FileTemp)
	o := f.NewReg("o", 32, 1, Group{0, 8}, FileOutput)
	e := f.NewBlock("entry")
	e.Emit(OpMov, f.All(), D(v), Imm32(0))
	e.Emit(OpMov, f.All(), D(c), R(v))
	e.Emit(OpFAdd, f.All(), D(v), R(v), Imm32(0x3f800000))
	e.Emit(OpMov, f.All(), D(o), R(c))
	e.Emit(OpRet, f.All(), nil)
	before := f.String()
	if CopyProp(f) {
		t.Fatalf("CopyProp changed:\n%s\ninto\n%s", before, f)
	}
}

// A partial write is not a definition copy-prop may forward.
func TestCopyPropKeepsPartialWrite(t *testing.T) {
	f := NewFunc("main", 8)
	a := f.NewReg("a", 32, 1, Group{0, 8}, FileTemp)
	b := f.NewReg("b", 32, 1, Group{0, 8}, FileTemp)
	o := f.NewReg("o", 32, 1, Group{0, 8}, FileOutput)
	e := f.NewBlock("entry")
	e.Emit(OpMov, f.All(), D(a), Imm32(0))
	e.Emit(OpMov, Group{0, 4}, D(b), R(a)) // only half the channels
	e.Emit(OpMov, f.All(), D(o), R(b))
	e.Emit(OpRet, f.All(), nil)
	if CopyProp(f) {
		t.Fatalf("CopyProp forwarded a partial write:\n%s", f)
	}
}

func TestCSEAcrossDominatingBlock(t *testing.T) {
	f := NewFunc("main", 8)
	u := f.NewReg("u", 32, 1, Group{0, 1}, FileConst)
	in := f.NewReg("in", 32, 1, Group{0, 8}, FileInput)
	flag := f.NewReg("f", 1, 1, Group{0, 8}, FileTemp)
	a := f.NewReg("a", 32, 1, Group{0, 8}, FileTemp)
	b := f.NewReg("b", 32, 1, Group{0, 8}, FileTemp)
	o := f.NewReg("o", 32, 1, Group{0, 8}, FileOutput)
	entry := f.NewBlock("entry")
	then := f.NewBlock("then")
	join := f.NewBlock("join")
	entry.Emit(OpFMul, f.All(), D(a), R(in), R(u))
	entry.Emit(OpFCmp, f.All(), D(flag), R(in), R(u)).Cond = CondLT
	entry.Emit(OpBrc, f.All(), nil, R(flag)).Succs = []*Block{then, join}
	then.Emit(OpFMul, f.All(), D(b), R(in), R(u))
	then.Emit(OpMov, f.All(), D(o), R(b))
	then.Emit(OpBr, f.All(), nil).Succs = []*Block{join}
	join.Emit(OpMov, f.All(), D(o), R(a))
	join.Emit(OpRet, f.All(), nil)
	if !CSE(f) {
		t.Fatal("CSE reported no change")
	}
	checkText(t, f, `
func main simd8 {
  reg %u 32x1 simd1@0 const
  reg %in 32x1 simd8@0 input
  reg %f 1x1 simd8@0 temp
  reg %a 32x1 simd8@0 temp
  reg %b 32x1 simd8@0 temp
  reg %o 32x1 simd8@0 output
entry:
  (8@0) fmul %a, %in, %u
  (8@0) fcmp.lt %f, %in, %u
  (8@0) brc %f, then, join
then:
  (8@0) mov %o, %a
  (8@0) br join
join:
  (8@0) mov %o, %a
  (8@0) ret
}`)
}

// Computations in sibling blocks do not dominate each other.
func TestCSEKeepsNonDominating(t *testing.T) {
	f := NewFunc("main", 8)
	in := f.NewReg("in", 32, 1, Group{0, 8}, FileInput)
	flag := f.NewReg("f", 1, 1, Group{0, 8}, FileTemp)
	a := f.NewReg("a", 32, 1, Group{0, 8}, FileTemp)
	b := f.NewReg("b", 32, 1, Group{0, 8}, FileTemp)
	o := f.NewReg("o", 32, 1, Group{0, 8}, FileOutput)
	entry, l, r, j := f.NewBlock("entry"), f.NewBlock("l"), f.NewBlock("r"), f.NewBlock("j")
	entry.Emit(OpFCmp, f.All(), D(flag), R(in), Imm32(0)).Cond = CondLT
	entry.Emit(OpBrc, f.All(), nil, R(flag)).Succs = []*Block{l, r}
	l.Emit(OpFMul, f.All(), D(a), R(in), R(in))
	l.Emit(OpMov, f.All(), D(o), R(a))
	l.Emit(OpBr, f.All(), nil).Succs = []*Block{j}
	r.Emit(OpFMul, f.All(), D(b), R(in), R(in))
	r.Emit(OpMov, f.All(), D(o), R(b))
	r.Emit(OpBr, f.All(), nil).Succs = []*Block{j}
	j.Emit(OpRet, f.All(), nil)
	if CSE(f) {
		t.Fatalf("CSE merged sibling computations:\n%s", f)
	}
}

func TestDCERemovesChainsKeepsOutputs(t *testing.T) {
	f := NewFunc("main", 8)
	in := f.NewReg("in", 32, 1, Group{0, 8}, FileInput)
	a := f.NewReg("a", 32, 1, Group{0, 8}, FileTemp)
	b := f.NewReg("b", 32, 1, Group{0, 8}, FileTemp)
	o := f.NewReg("o", 32, 1, Group{0, 8}, FileOutput)
	e := f.NewBlock("entry")
	e.Emit(OpFAdd, f.All(), D(a), R(in), R(in))
	e.Emit(OpFMul, f.All(), D(b), R(a), R(a))
	e.Emit(OpMov, f.All(), D(o), R(in))
	e.Emit(OpRet, f.All(), nil)
	if !DCE(f) {
		t.Fatal("DCE reported no change")
	}
	checkText(t, f, `
func main simd8 {
  reg %in 32x1 simd8@0 input
  reg %a 32x1 simd8@0 temp
  reg %b 32x1 simd8@0 temp
  reg %o 32x1 simd8@0 output
entry:
  (8@0) mov %o, %in
  (8@0) ret
}`)
}

func TestOptimizeFixedPoint(t *testing.T) {
	f := NewFunc("main", 8)
	in := f.NewReg("in", 32, 1, Group{0, 8}, FileInput)
	a := f.NewReg("a", 32, 1, Group{0, 8}, FileTemp)
	b := f.NewReg("b", 32, 1, Group{0, 8}, FileTemp)
	c := f.NewReg("c", 32, 1, Group{0, 8}, FileTemp)
	d := f.NewReg("d", 32, 1, Group{0, 8}, FileTemp)
	o := f.NewReg("o", 32, 1, Group{0, 8}, FileOutput)
	e := f.NewBlock("entry")
	e.Emit(OpMov, f.All(), D(a), R(in))
	e.Emit(OpMov, f.All(), D(b), R(in))
	e.Emit(OpFAdd, f.All(), D(c), R(a), R(a))
	e.Emit(OpFAdd, f.All(), D(d), R(b), R(b)) // same as c once copies are propagated
	e.Emit(OpFMul, f.All(), D(o), R(c), R(d))
	e.Emit(OpRet, f.All(), nil)
	Optimize(f)
	checkText(t, f, `
func main simd8 {
  reg %in 32x1 simd8@0 input
  reg %c 32x1 simd8@0 temp
  reg %o 32x1 simd8@0 output
entry:
  (8@0) fadd %c, %in, %in
  (8@0) fmul %o, %c, %c
  (8@0) ret
}`)
}
