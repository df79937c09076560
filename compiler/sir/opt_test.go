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

// fmul + fadd becomes fmad when the product is read once and its operands
// cannot change in between; a negated read negates the first factor. A
// product read twice, or one whose operand is a multiply-written variable,
// stays.
func TestFuseMad(t *testing.T) {
	src := `func main simd1 {
  reg %u 32x4 simd1@0 const
  reg %v 32x1 simd1@0 temp
  reg %p 32x1 simd1@0 temp
  reg %q 32x1 simd1@0 temp
  reg %r 32x1 simd1@0 temp
  reg %s 32x1 simd1@0 temp
  reg %o 32x4 simd1@0 output
entry:
  (1@0) mov %v, %u.x
  (1@0) fmul %p, %u.y, 0x40000000
  (1@0) fadd %o.x, %u.z, -%p
  (1@0) fmul %q, %u.y, %u.z
  (1@0) fadd %o.y, %q, %q
  (1@0) fmul %r, %v, %u.w
  (1@0) mov %v, %u.y
  (1@0) fadd %o.z, %r, %v
  (1@0) fmul %s, %u.x, %u.x
  (1@0) fadd %o.w, %s, 0x3f800000
  (1@0) ret
}
`
	f, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if !FuseMad(f) {
		t.Fatal("FuseMad reported no change")
	}
	DCE(f)
	checkText(t, f, `
func main simd1 {
  reg %u 32x4 simd1@0 const
  reg %v 32x1 simd1@0 temp
  reg %p 32x1 simd1@0 temp
  reg %q 32x1 simd1@0 temp
  reg %r 32x1 simd1@0 temp
  reg %s 32x1 simd1@0 temp
  reg %o 32x4 simd1@0 output
entry:
  (1@0) mov %v, %u.x
  (1@0) fmad %o.x, -%u.y, 0x40000000, %u.z
  (1@0) fmul %q, %u.y, %u.z
  (1@0) fadd %o.y, %q, %q
  (1@0) fmul %r, %v, %u.w
  (1@0) mov %v, %u.y
  (1@0) fadd %o.z, %r, %v
  (1@0) fmad %o.w, %u.x, %u.x, 0x3f800000
  (1@0) ret
}`)
}

// An invariant product in an inner loop leaves both loops (innermost
// first, then out of the outer one); a computation on the loop counter,
// and one on a register written inside the loop, stay.
func TestHoistInvariants(t *testing.T) {
	src := `func main simd1 {
  reg %u 32x4 simd1@0 const
  reg %i 32x1 simd1@0 temp
  reg %j 32x1 simd1@0 temp
  reg %p 32x1 simd1@0 temp
  reg %q 32x1 simd1@0 temp
  reg %c 1x1 simd1@0 temp
  reg %d 1x1 simd1@0 temp
  reg %o 32x4 simd1@0 output
entry:
  (1@0) mov %i, 0x0
  (1@0) br outer
outer:
  (1@0) fcmp.lt %c, %i, %u.x
  (1@0) brc %c, pre, done
pre:
  (1@0) mov %j, 0x0
  (1@0) br inner
inner:
  (1@0) fmul %p, %u.y, %u.z
  (1@0) fadd %q, %j, %p
  (1@0) mov %o.x, %q
  (1@0) fadd %j, %j, 0x3f800000
  (1@0) fcmp.lt %d, %j, %p
  (1@0) brc %d, inner, latch
latch:
  (1@0) fadd %i, %i, 0x3f800000
  (1@0) br outer
done:
  (1@0) ret
}
`
	f, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if !Hoist(f) {
		t.Fatal("Hoist reported no change")
	}
	checkText(t, f, strings.Replace(strings.Replace(src,
		"  (1@0) fmul %p, %u.y, %u.z\n", "", 1),
		"entry:\n  (1@0) mov %i, 0x0\n", "entry:\n  (1@0) mov %i, 0x0\n  (1@0) fmul %p, %u.y, %u.z\n", 1))
	if Hoist(f) {
		t.Error("a second Hoist moved more")
	}
}

// Operations on immediates fold (rounded as float32 at each step) and the
// results reach their readers; a multiply-written register is not
// forwarded.
func TestFoldConstants(t *testing.T) {
	src := `func main simd1 {
  reg %u 32x4 simd1@0 const
  reg %r 32x1 simd1@0 temp
  reg %m 32x1 simd1@0 temp
  reg %v 32x1 simd1@0 temp
  reg %o 32x4 simd1@0 output
entry:
  (1@0) frcp %r, 0x40000000
  (1@0) fmad %m, %r, 0x40400000, -0x3f800000
  (1@0) mov %v, 0x0
  (1@0) mov %v, %u.x
  (1@0) fmul %o.x, %u.x, %r
  (1@0) fadd %o.y, %m, %v
  (1@0) mov %o.z, -%m
  (1@0) ret
}
`
	f, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if !FoldConstants(f) {
		t.Fatal("no change")
	}
	// 1/2 = 0.5; 0.5*3 - 1 = 0.5 (0x3f000000).
	checkText(t, f, `
func main simd1 {
  reg %u 32x4 simd1@0 const
  reg %r 32x1 simd1@0 temp
  reg %m 32x1 simd1@0 temp
  reg %v 32x1 simd1@0 temp
  reg %o 32x4 simd1@0 output
entry:
  (1@0) mov %r, 0x3f000000
  (1@0) fmad %m, 0x3f000000, 0x40400000, -0x3f800000
  (1@0) mov %v, 0x0
  (1@0) mov %v, %u.x
  (1@0) fmul %o.x, %u.x, 0x3f000000
  (1@0) fadd %o.y, %m, %v
  (1@0) mov %o.z, -%m
  (1@0) ret
}`)
	FoldConstants(f)
	if got := f.Blocks[0].Instrs[1].String(); got != "(1@0) mov %m, 0x3f000000" {
		t.Errorf("second round: %s, want the fmad folded to 0.5", got)
	}
}
