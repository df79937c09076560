package passes

import (
	"fmt"
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
)

// TestConstFoldMatchesInterpreter folds single instructions on constants
// and checks each fold against the interpreter executing the unfolded
// instruction (bit for bit), and that the operations that must not be
// folded are left alone.
func TestConstFoldMatchesInterpreter(t *testing.T) {
	t.Parallel()
	cases := []struct {
		instr string // "%r = ..." producing type rt
		rt    string
		fold  bool
	}{
		{"fadd f32 0.1, 0.2", "f32", true},
		{"fadd f32 0x80000000, 0.0", "f32", true}, // -0 + +0 = +0
		{"fsub f32 0x80000000, 0.0", "f32", true}, // -0 - +0 = -0
		{"fmul f32 16777216.0, 1.0000001", "f32", true},
		{"fmul f32 3.4e38, 10.0", "f32", true}, // overflows to +inf: exact
		{"fdiv f32 1.0, 0.0", "f32", true},     // +inf
		{"fdiv f32 1.0, 3.0", "f32", true},
		{"fdiv f32 1e-38, 1e10", "f32", false},  // denormal operand (flushed or not by the mode)
		{"fmul f32 1e-20, 1e-20", "f32", false}, // denormal result
		{"fdiv f32 1e-30, 1e20", "f32", true},   // underflows to 0 in every mode
		{"fdiv f32 0.0, 0.0", "f32", false},     // NaN
		{"fmul f32 0x7F800000, 0.0", "f32", false},
		{"fadd f32 0x7FC00000, 1.0", "f32", false},
		{"frem f32 5.5, 2.0", "f32", false},
		{"fneg f32 0.0", "f32", true},
		{"add i32 2147483647, 1", "i32", true},
		{"sub u32 0, 1", "u32", true},
		{"mul i32 65536, 65536", "i32", true},
		{"sdiv i32 7, -2", "i32", true},
		{"srem i32 -7, 2", "i32", true},
		{"sdiv i32 -2147483648, -1", "i32", false},
		{"sdiv i32 1, 0", "i32", false},
		{"udiv u32 4294967295, 2", "u32", true},
		{"urem u32 7, 0", "u32", false},
		{"shl i32 1, 31", "i32", true},
		{"shl i32 1, 32", "i32", false},
		{"ashr i32 -8, 1", "i32", true},
		{"lshr i32 -8, 1", "i32", true},
		{"xor u32 255, 15", "u32", true},
		{"not i32 0", "i32", true},
		{"neg i32 -2147483648", "i32", true},
		{"sitofp i32 16777217 to f32", "f32", true},
		{"uitofp u32 4294967295 to f32", "f32", true},
		{"fptosi f32 -3.9 to i32", "i32", true},
		{"fptosi f32 2147483648.0 to i32", "i32", false},
		{"fptosi f32 0x7FC00000 to i32", "i32", false},
		{"fptoui f32 -0.5 to u32", "u32", true},
		{"fptoui f32 -1.0 to u32", "u32", false},
		{"bitcast f32 1.0 to i32", "i32", true},
		{"bitcast u32 2143289344 to f32", "f32", true}, // a NaN bit pattern, reinterpreted exactly
		{"zext bool true to u32", "u32", true},
		{"sext bool true to i32", "i32", true},
		{"trunc i32 3 to bool", "bool", true},
		{"fcmp olt f32 0x7FC00000, 1.0", "bool", true},
		{"fcmp une f32 0x7FC00000, 0x7FC00000", "bool", true},
		{"fcmp oeq f32 0x80000000, 0.0", "bool", true},
		{"fcmp ult f32 1.0, 0x7FC00000", "bool", true},
		{"icmp slt i32 -1, 0", "bool", true},
		{"icmp ult u32 4294967295, 0", "bool", true},
	}
	for _, c := range cases {
		t.Run(c.instr, func(t *testing.T) {
			store := "%s = zext bool %r to u32"
			switch c.rt {
			case "f32", "i32":
				store = "%s = bitcast " + c.rt + " %r to u32"
			case "u32":
				store = "%s = add u32 %r, 0"
			}
			src := fmt.Sprintf(`
module "fold"

@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"

define void @main() compute numthreads(1, 1, 1) {
entry:
  %%r = %s
  %s
  %%p = access ptr<storage, [? x u32]> @Out, i32 0
  store u32 %%s, ptr<storage, u32> %%p
  ret
}
`, c.instr, store)
			m := parseIR(t, c.instr, src)
			before := mustRun(t, m, &interp.Input{})
			runPasses(t, m, "simplify", "")
			after := mustRun(t, m, &interp.Input{})
			if ok, diff := before.Equal(after); !ok {
				t.Fatalf("folding changed the result: %s\n%s", diff, m)
			}
			folded := !strings.Contains(m.String(), " %r")
			if folded != c.fold {
				t.Errorf("folded=%v, want %v:\n%s", folded, c.fold, m)
			}
		})
	}
}

func TestConstEqualAndSplat(t *testing.T) {
	t.Parallel()
	v := ir.ConstInt(ir.Vec(ir.I32, 4), -1)
	if !isSplatBits(v, 0xFFFFFFFF) {
		t.Error("<4 x i32> -1 is a splat of all ones")
	}
	if isSplatBits(ir.ConstF32Bits(0x80000000), 0) {
		t.Error("-0.0 is not +0.0")
	}
	if !constEqual(ir.ConstZero(ir.Vec(ir.F32, 2)), ir.ConstFloat(ir.Vec(ir.F32, 2), 0)) {
		t.Error("zero and <0.0, 0.0> are equal")
	}
	if constEqual(ir.ConstUndef(ir.F32), ir.ConstUndef(ir.F32)) {
		t.Error("undef is never equal to undef")
	}
}
