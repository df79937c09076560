package sir

import (
	"strings"
	"testing"
)

// newTestFunc builds a SIMD8 function with an entry block holding only ret
// and returns it, its entry block and a few registers.
func newTestFunc() (f *Func, entry *Block, x, y, flag, u *Reg) {
	f = NewFunc("main", 8)
	x = f.NewReg("x", 32, 4, Group{0, 8}, FileTemp)
	y = f.NewReg("y", 32, 4, Group{0, 8}, FileTemp)
	flag = f.NewReg("f", 1, 1, Group{0, 8}, FileTemp)
	u = f.NewReg("u", 32, 4, Group{0, 1}, FileConst)
	entry = f.NewBlock("entry")
	return
}

// finish appends the terminator and validates.
func finish(f *Func, b *Block) error {
	b.Emit(OpRet, f.All(), nil)
	return Validate(f)
}

func wantErr(t *testing.T, err error, sub string) {
	t.Helper()
	if err == nil {
		t.Fatalf("Validate accepted the function; want an error containing %q", sub)
	}
	if !strings.Contains(err.Error(), sub) {
		t.Fatalf("error %q does not contain %q", err, sub)
	}
}

func TestValidateAcceptsWellFormed(t *testing.T) {
	f, b, x, y, flag, u := newTestFunc()
	b.Emit(OpMov, f.All(), D(x), RS(u, 0, 1, 2, 3))
	b.Emit(OpFAdd, f.All(), D(y), R(x), RS(u, 0))
	b.Emit(OpFCmp, f.All(), D(flag), RS(y, 0), Imm32(0x3f800000)).Cond = CondLT
	b.Emit(OpFMad, Group{0, 4}, &Dst{Reg: x, Mask: 0b0011}, R(y), R(y), R(x))
	if err := finish(f, b); err != nil {
		t.Fatal(err)
	}
}

func TestValidateWriteOutsideGroup(t *testing.T) {
	f := NewFunc("main", 16)
	lo := f.NewReg("lo", 32, 1, Group{0, 8}, FileTemp)
	b := f.NewBlock("entry")
	b.Emit(OpMov, Group{0, 16}, D(lo), Imm32(0))
	wantErr(t, finish(f, b), "writes %lo (SIMD group 8@0) from exec range 16@0 outside it")
}

func TestValidateReadOutsideGroup(t *testing.T) {
	f := NewFunc("main", 16)
	hi := f.NewReg("hi", 32, 1, Group{8, 8}, FileTemp)
	lo := f.NewReg("lo", 32, 1, Group{0, 8}, FileTemp)
	b := f.NewBlock("entry")
	b.Emit(OpMov, Group{8, 8}, D(hi), Imm32(0))
	b.Emit(OpMov, Group{0, 8}, D(lo), R(hi))
	wantErr(t, finish(f, b), "operand 0: reads %hi (SIMD group 8@8) from exec range 8@0 outside it")
}

func TestValidateUniformReadableEverywhere(t *testing.T) {
	f := NewFunc("main", 16)
	u := f.NewReg("u", 32, 1, Group{0, 1}, FileConst)
	hi := f.NewReg("hi", 32, 1, Group{8, 8}, FileTemp)
	b := f.NewBlock("entry")
	b.Emit(OpMov, Group{8, 8}, D(hi), R(u))
	if err := finish(f, b); err != nil {
		t.Fatal(err)
	}
}

func TestValidateUnalignedExec(t *testing.T) {
	f, b, x, _, _, _ := newTestFunc()
	b.Emit(OpMov, Group{2, 4}, D(x), Imm32(0))
	wantErr(t, finish(f, b), "exec range 4@2 is not aligned: its start must be a multiple of its width")
}

func TestValidateUnalignedRegister(t *testing.T) {
	f, b, _, _, _, _ := newTestFunc()
	f.NewReg("bad", 32, 1, Group{4, 8}, FileTemp)
	wantErr(t, finish(f, b), "register %bad: SIMD group 8@4 is not aligned")
}

func TestValidateWidthNotPowerOfTwo(t *testing.T) {
	f, b, x, _, _, _ := newTestFunc()
	b.Emit(OpMov, Group{0, 3}, D(x), Imm32(0))
	wantErr(t, finish(f, b), "exec range 3@0 has a width that is not a power of two in 1..32")
}

func TestValidateOutsideDispatch(t *testing.T) {
	f, b, _, _, _, _ := newTestFunc()
	f.NewReg("far", 32, 1, Group{16, 16}, FileTemp)
	wantErr(t, finish(f, b), "register %far: SIMD group 16@16 lies outside the dispatch width 8")
}

func TestValidateOperandSizeMismatch(t *testing.T) {
	f, b, x, _, _, _ := newTestFunc()
	h := f.NewReg("h", 16, 4, Group{0, 8}, FileTemp)
	b.Emit(OpFAdd, f.All(), D(x), R(x), R(h))
	wantErr(t, finish(f, b), "operand 1 has 16 bits, destination has 32")
}

func TestValidateFlagCondition(t *testing.T) {
	f, b, x, y, _, _ := newTestFunc()
	b.Emit(OpSel, f.All(), D(x), RS(y, 0), R(x), R(y))
	wantErr(t, finish(f, b), "operand 0: condition must be a 1-bit flag, is 32 bits")
}

func TestValidateCompareWritesFlag(t *testing.T) {
	f, b, x, y, _, _ := newTestFunc()
	b.Emit(OpFCmp, f.All(), D(x), R(y), R(y)).Cond = CondEQ
	wantErr(t, finish(f, b), "fcmp writes a 1-bit flag, %x has 32 bits")
}

func TestValidateCompareNeedsCond(t *testing.T) {
	f, b, _, y, flag, _ := newTestFunc()
	b.Emit(OpFCmp, f.All(), D(flag), RS(y, 0), RS(y, 1))
	wantErr(t, finish(f, b), "fcmp needs a condition")
}

func TestValidateWriteMask(t *testing.T) {
	f, b, _, _, flag, _ := newTestFunc()
	b.Emit(OpMov, f.All(), &Dst{Reg: flag, Mask: 0b0010}, Imm32(0))
	wantErr(t, finish(f, b), "write mask 0010 does not fit %f's 1 components")
}

func TestValidateSwizzle(t *testing.T) {
	f, b, x, _, flag, _ := newTestFunc()
	_ = flag
	s := f.NewReg("s", 32, 2, Group{0, 8}, FileTemp)
	b.Emit(OpMov, f.All(), D(x), RS(s, 0, 3))
	wantErr(t, finish(f, b), "swizzle selects component 3 of %s, which has 2")
}

func TestValidateReadOnlyWrite(t *testing.T) {
	f, b, _, _, _, u := newTestFunc()
	b.Emit(OpMov, Group{0, 1}, D(u), Imm32(0))
	wantErr(t, finish(f, b), "writes read-only const register %u")
}

func TestValidateOperandCount(t *testing.T) {
	f, b, x, _, _, _ := newTestFunc()
	b.Emit(OpFAdd, f.All(), D(x), R(x))
	wantErr(t, finish(f, b), "fadd takes 2 operands, has 1")
}

func TestValidateMissingTerminator(t *testing.T) {
	f, b, x, _, _, _ := newTestFunc()
	b.Emit(OpMov, f.All(), D(x), Imm32(0))
	wantErr(t, Validate(f), "block does not end in a terminator")
}

func TestValidateTerminatorInMiddle(t *testing.T) {
	f, b, x, _, _, _ := newTestFunc()
	b.Emit(OpRet, f.All(), nil)
	b.Emit(OpMov, f.All(), D(x), Imm32(0))
	wantErr(t, finish(f, b), "terminator in the middle of the block")
}

func TestValidateForeignBranchTarget(t *testing.T) {
	f, b, _, _, _, _ := newTestFunc()
	b.Emit(OpBr, f.All(), nil).Succs = []*Block{{Name: "elsewhere"}}
	wantErr(t, Validate(f), "branch target is not a block of the function")
}

func TestValidateForeignRegister(t *testing.T) {
	f, b, x, _, _, _ := newTestFunc()
	other := NewFunc("other", 8).NewReg("o", 32, 4, Group{0, 8}, FileTemp)
	b.Emit(OpMov, f.All(), D(x), R(other))
	wantErr(t, finish(f, b), "operand 0: %o is not a register of the function")
}

func TestValidateFloatBitSize(t *testing.T) {
	f, b, _, _, _, _ := newTestFunc()
	c := f.NewReg("c", 8, 1, Group{0, 8}, FileTemp)
	b.Emit(OpFAdd, f.All(), D(c), R(c), R(c))
	wantErr(t, finish(f, b), "float op on 8-bit values")
}
