package interp

import (
	"math"
	"testing"

	"passlens/compiler/ir"
)

func intr(name string, rt *ir.Type, args ...ir.Value) func(k *kit) ir.Value {
	return func(k *kit) ir.Value { return k.b.Intrinsic(name, rt, args, "") }
}

func fvec(xs ...float64) *ir.Const {
	var el []*ir.Const
	for _, x := range xs {
		el = append(el, f32c(x))
	}
	return ir.ConstAggregate(ir.Vec(ir.F32, len(xs)), el)
}

func f32s(xs ...float32) []uint64 {
	var out []uint64
	for _, x := range xs {
		out = append(out, f32bits(x))
	}
	return out
}

func TestMathIntrinsics(t *testing.T) {
	t.Parallel()
	f, i, u, bl := ir.F32, ir.I32, ir.U32, ir.Bool
	pi := float32(math.Pi)
	nan := ir.ConstF32Bits(0x7FC00000)
	inf := ir.ConstF32Bits(0x7F800000)
	e := float32(math.E)
	runCases(t, []opCase{
		{"abs int", i, intr("abs", i, i32c(-5)), []uint64{5}},
		{"abs INT_MIN", i, intr("abs", i, i32c(math.MinInt32)), []uint64{0x80000000}},
		{"abs float", f, intr("abs", f, f32c(-2.5)), f32s(2.5)},
		{"abs vector", ir.Vec(f, 2), intr("abs", ir.Vec(f, 2), fvec(-1, 2)), f32s(1, 2)},
		{"acos", f, intr("acos", f, f32c(1)), f32s(0)},
		{"asin", f, intr("asin", f, f32c(1)), f32s(pi / 2)},
		{"atan", f, intr("atan", f, f32c(1)), f32s(pi / 4)},
		{"ceil", f, intr("ceil", f, f32c(-1.2)), f32s(-1)},
		{"cos", f, intr("cos", f, f32c(0)), f32s(1)},
		{"cosh", f, intr("cosh", f, f32c(0)), f32s(1)},
		{"degrees", f, intr("degrees", f, f32c(math.Pi)), f32s(float32(float64(pi) * float64(float32(180/math.Pi))))},
		{"exp", f, intr("exp", f, f32c(1)), f32s(e)},
		{"exp2", f, intr("exp2", f, f32c(3)), f32s(8)},
		{"floor", f, intr("floor", f, f32c(-1.5)), f32s(-2)},
		{"frac", f, intr("frac", f, f32c(-1.25)), f32s(0.75)},
		{"log", f, intr("log", f, f32c(1)), f32s(0)},
		{"log10", f, intr("log10", f, f32c(100)), f32s(2)},
		{"log2", f, intr("log2", f, f32c(8)), f32s(3)},
		{"radians", f, intr("radians", f, f32c(180)), f32s(float32(180 * float64(float32(math.Pi/180))))},
		{"rcp", f, intr("rcp", f, f32c(4)), f32s(0.25)},
		{"round half to even", ir.Vec(f, 3), intr("round", ir.Vec(f, 3), fvec(2.5, 3.5, -2.5)), f32s(2, 4, -2)},
		{"rsqrt", f, intr("rsqrt", f, f32c(4)), f32s(0.5)},
		{"saturate", ir.Vec(f, 3), intr("saturate", ir.Vec(f, 3), fvec(-1, 2, 0.5)), f32s(0, 1, 0.5)},
		{"saturate NaN", f, intr("saturate", f, nan), f32s(0)},
		{"sign float to int", ir.Vec(i, 3), intr("sign", ir.Vec(i, 3), fvec(-3, 0, 2)), []uint64{0xFFFFFFFF, 0, 1}},
		{"sign int", i, intr("sign", i, i32c(-7)), []uint64{0xFFFFFFFF}},
		{"sin", f, intr("sin", f, f32c(0)), f32s(0)},
		{"sinh", f, intr("sinh", f, f32c(0)), f32s(0)},
		{"sqrt", f, intr("sqrt", f, f32c(16)), f32s(4)},
		{"sqrt(-1) is NaN", bl, func(k *kit) ir.Value {
			s := k.b.Intrinsic("sqrt", f, []ir.Value{f32c(-1)}, "")
			return k.b.Intrinsic("isnan", bl, []ir.Value{s}, "")
		}, []uint64{1}},
		{"tan", f, intr("tan", f, f32c(0)), f32s(0)},
		{"tanh", f, intr("tanh", f, f32c(0)), f32s(0)},
		{"trunc", f, intr("trunc", f, f32c(-1.7)), f32s(-1)},
		{"isinf", bl, intr("isinf", bl, inf), []uint64{1}},
		{"isnan", bl, intr("isnan", bl, f32c(1)), []uint64{0}},
		{"countbits", u, intr("countbits", u, u32c(0xF0F0)), []uint64{8}},
		{"firstbithigh", u, intr("firstbithigh", u, u32c(0x10)), []uint64{4}},
		{"firstbithigh none", u, intr("firstbithigh", u, u32c(0)), []uint64{0xFFFFFFFF}},
		{"firstbithigh signed", i, intr("firstbithigh", i, i32c(-16)), []uint64{3}},
		{"firstbithigh -1", i, intr("firstbithigh", i, i32c(-1)), []uint64{0xFFFFFFFF}},
		{"firstbitlow", u, intr("firstbitlow", u, u32c(0x18)), []uint64{3}},
		{"firstbitlow none", u, intr("firstbitlow", u, u32c(0)), []uint64{0xFFFFFFFF}},
		{"reversebits", u, intr("reversebits", u, u32c(1)), []uint64{0x80000000}},
		{"f16tof32", ir.Vec(f, 3), intr("f16tof32", ir.Vec(f, 3), ir.ConstAggregate(ir.Vec(u, 3),
			[]*ir.Const{u32c(0x3C00), u32c(0xC000), u32c(0x0001)})), f32s(1, -2, float32(math.Ldexp(1, -24)))},
		{"f32tof16", ir.Vec(u, 4), intr("f32tof16", ir.Vec(u, 4), fvec(1, 65504, 65520, math.Ldexp(3, -25))),
			[]uint64{0x3C00, 0x7BFF, 0x7C00, 0x0002}},
		{"f32tof16 tie to even", u, intr("f32tof16", u, f32c(math.Ldexp(1, -25))), []uint64{0}},
		{"atan2", f, intr("atan2", f, f32c(0), f32c(-1)), f32s(pi)},
		{"fmod", ir.Vec(f, 2), intr("fmod", ir.Vec(f, 2), fvec(5.5, -5.5), fvec(2, 2)), f32s(1.5, -1.5)},
		{"ldexp", f, intr("ldexp", f, f32c(3), f32c(2)), f32s(12)},
		{"max int", i, intr("max", i, i32c(-1), i32c(1)), []uint64{1}},
		{"max uint", u, intr("max", u, u32c(0xFFFFFFFF), u32c(1)), []uint64{0xFFFFFFFF}},
		{"max NaN", f, intr("max", f, nan, f32c(1)), f32s(1)},
		{"min -0", f, intr("min", f, f32c(0), ir.ConstF32Bits(0x80000000)), []uint64{0x80000000}},
		{"min broadcast", ir.Vec(f, 2), intr("min", ir.Vec(f, 2), fvec(1, 3), f32c(2)), f32s(1, 2)},
		{"pow", f, intr("pow", f, f32c(2), f32c(10)), f32s(1024)},
		{"step", ir.Vec(f, 2), intr("step", ir.Vec(f, 2), fvec(0.5, 0.5), fvec(0.7, 0.3)), f32s(1, 0)},
		{"clamp", i, intr("clamp", i, i32c(5), i32c(0), i32c(3)), []uint64{3}},
		{"lerp", f, intr("lerp", f, f32c(2), f32c(4), f32c(0.25)), f32s(2.5)},
		{"mad", f, intr("mad", f, f32c(2), f32c(3), f32c(4)), f32s(10)},
		{"mad int", i, intr("mad", i, i32c(-2), i32c(3), i32c(4)), []uint64{0xFFFFFFFE}},
		{"smoothstep", ir.Vec(f, 3), intr("smoothstep", ir.Vec(f, 3), fvec(0, 0, 0), fvec(1, 1, 1), fvec(0.5, 2, -1)), f32s(0.5, 1, 0)},
	})
}

// TestMadNotFused checks that mad rounds the product before adding: with
// a = b = 1 + 2^-12 the exact a*b needs 25 bits, so fused and unfused
// results differ.
func TestMadNotFused(t *testing.T) {
	t.Parallel()
	a := float32(1 + math.Ldexp(1, -12))
	c := float32(-1)
	prod := float32(a * a) // the explicit conversion forbids fusion
	want := prod + c
	got := eval1(t, ir.F32, intr("mad", ir.F32, f32c(float64(a)), f32c(float64(a)), f32c(float64(c))))
	if got[0] != f32bits(want) {
		t.Errorf("mad: got %s, want %s", FormatValue(ir.F32, got), FormatValue(ir.F32, f32s(want)))
	}
	fused := float32(float64(a)*float64(a) + float64(c))
	if fused == want {
		t.Fatalf("test constants do not distinguish fused from unfused")
	}
}

// TestFmaFused checks that fma (HLSL's, on doubles) rounds once: with
// a = 1 + 2^-30, a*a - (1 + 2^-29) is exactly 2^-60, which a rounded
// product loses.
func TestFmaFused(t *testing.T) {
	a := 1 + math.Ldexp(1, -30)
	c := -(1 + math.Ldexp(1, -29))
	d := func(v float64) ir.Value { return ir.ConstFloat(ir.F64, v) }
	got := eval1(t, ir.F64, intr("fma", ir.F64, d(a), d(a), d(c)))
	if want := math.Ldexp(1, -60); got[0] != math.Float64bits(want) {
		t.Errorf("fma: got %s, want %g", FormatValue(ir.F64, got), want)
	}
	if float64(a*a)+c != 0 { // the conversion rounds the product
		t.Fatalf("test constants do not distinguish fused from unfused")
	}
}

func TestVectorMatrixIntrinsics(t *testing.T) {
	t.Parallel()
	f := ir.F32
	m22 := func(a, b, c, d float64) *ir.Const {
		return ir.ConstAggregate(ir.Mat(f, 2, 2), []*ir.Const{fvec(a, b), fvec(c, d)})
	}
	diag := func(n int, v float64) *ir.Const {
		var rows []*ir.Const
		for r := 0; r < n; r++ {
			xs := make([]float64, n)
			xs[r] = v
			rows = append(rows, fvec(xs...))
		}
		return ir.ConstAggregate(ir.Mat(f, n, n), rows)
	}
	s := float32(math.Sqrt(0.5))
	runCases(t, []opCase{
		{"dot", f, intr("dot", f, fvec(1, 2, 3), fvec(4, 5, 6)), f32s(32)},
		{"dot int", ir.I32, intr("dot", ir.I32, ir.ConstInt(ir.Vec(ir.I32, 2), 3), ir.ConstInt(ir.Vec(ir.I32, 2), -2)), []uint64{0xFFFFFFF4}},
		{"length", f, intr("length", f, fvec(3, 4)), f32s(5)},
		{"distance", f, intr("distance", f, fvec(1, 1), fvec(4, 5)), f32s(5)},
		{"any", ir.Bool, intr("any", ir.Bool, fvec(0, 0, 1)), []uint64{1}},
		{"any none", ir.Bool, intr("any", ir.Bool, fvec(0, 0)), []uint64{0}},
		{"all", ir.Bool, intr("all", ir.Bool, fvec(1, 0)), []uint64{0}},
		{"all true", ir.Bool, intr("all", ir.Bool, ir.ConstInt(ir.Vec(ir.U32, 2), 3)), []uint64{1}},
		{"determinant 2x2", f, intr("determinant", f, m22(1, 2, 3, 4)), f32s(-2)},
		{"determinant 3x3", f, intr("determinant", f, diag(3, 2)), f32s(8)},
		{"determinant 4x4", f, intr("determinant", f, diag(4, 2)), f32s(16)},
		{"cross", ir.Vec(f, 3), intr("cross", ir.Vec(f, 3), fvec(1, 0, 0), fvec(0, 1, 0)), f32s(0, 0, 1)},
		{"normalize", ir.Vec(f, 2), intr("normalize", ir.Vec(f, 2), fvec(3, 4)), f32s(float32(3)/5, float32(4)/5)},
		{"reflect", ir.Vec(f, 2), intr("reflect", ir.Vec(f, 2), fvec(1, -1), fvec(0, 1)), f32s(1, 1)},
		{"refract straight through", ir.Vec(f, 2), intr("refract", ir.Vec(f, 2), fvec(0, -1), fvec(0, 1), f32c(1)), f32s(0, -1)},
		{"refract total internal reflection", ir.Vec(f, 2), intr("refract", ir.Vec(f, 2),
			fvec(float64(s), -float64(s)), fvec(0, 1), f32c(2)), f32s(0, 0)},
		{"mul row vector x matrix", ir.Vec(f, 3), intr("mul", ir.Vec(f, 3), fvec(1, 2), mat23()), f32s(9, 12, 15)},
		{"mul matrix x column vector", ir.Vec(f, 2), intr("mul", ir.Vec(f, 2), mat23(), fvec(1, 1, 1)), f32s(6, 15)},
		{"mul matrix x matrix", ir.Mat(f, 2, 2), intr("mul", ir.Mat(f, 2, 2), m22(1, 2, 3, 4), m22(5, 6, 7, 8)), f32s(19, 22, 43, 50)},
		{"mul scalar x vector", ir.Vec(f, 2), intr("mul", ir.Vec(f, 2), f32c(2), fvec(1, 2)), f32s(2, 4)},
		{"mul vector x vector", f, intr("mul", f, fvec(1, 2), fvec(3, 4)), f32s(11)},
		{"transpose", ir.Mat(f, 3, 2), intr("transpose", ir.Mat(f, 3, 2), mat23()), f32s(1, 4, 2, 5, 3, 6)},
	})
}

func TestHalfConversions(t *testing.T) {
	t.Parallel()
	// Every half converts to float32 and back unchanged (NaNs stay NaN).
	for h := 0; h < 1<<16; h++ {
		f := halfToF32(uint16(h))
		back := f32ToHalf(f)
		if math.IsNaN(float64(f)) {
			if back&0x7C00 != 0x7C00 || back&0x3FF == 0 {
				t.Fatalf("NaN half %#x came back as %#x", h, back)
			}
			continue
		}
		if back != uint16(h) {
			t.Fatalf("half %#x -> %g -> %#x", h, f, back)
		}
	}
}
