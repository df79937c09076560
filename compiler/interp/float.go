package interp

import (
	"math"

	"passlens/compiler/ir"
)

// Float arithmetic is computed in float64 and rounded to the operand width
// after every single operation. For +, -, *, / and sqrt on float32 operands
// this gives exactly the correctly rounded float32 result (float64 has more
// than 2*24+2 mantissa bits, so double rounding is innocuous), which is what
// an IEEE float32 unit computes. Compound HLSL operations (mad, lerp, dot,
// ...) round after each step: nothing is fused.
//
// Denormals. Under Options.Denorm == DenormFTZ (the default, D3D's rule for
// 32-bit floats) float32 arithmetic flushes denormals to zero of the same
// sign, in its operands and in its results: every operation, comparison,
// conversion and intrinsic that computes on a float32 reads and writes it
// through ftz32Format, so log(-denorm) is log(-0) = -inf and
// ceil(-denorm) is -0. Loads, stores, copies, selects and bitcasts move
// bits and keep denormals (the inputs a program reads are not changed).
// Halves and doubles keep their denormals (D3D flushes only fp32);
// DenormPreserve keeps float32 denormals too (IEEE).

// ftz32Format is the float format code of float32 with denormals flushed
// (see fbits and fenv).
const ftz32Format = -32

// fenv is the floating-point environment of a run: whether float32
// denormals are flushed.
type fenv struct{ ftz bool }

// fbits is fbits(t), but ftz32Format for float32 when flushing.
func (e fenv) fbits(t *ir.Type) int {
	b := fbits(t)
	if b == 32 && e.ftz && t.Kind == ir.KFloat {
		return ftz32Format
	}
	return b
}

// arith is arithOf(t) in this environment.
func (e fenv) arith(t *ir.Type) arith {
	s := t.Scalar()
	return arith{s.Kind, e.fbits(s)}
}

// flush32 returns f with a float32 denormal replaced by zero of its sign.
func flush32(f float32) float32 {
	if f != 0 && math.Abs(float64(f)) < 0x1p-126 {
		return float32(math.Copysign(0, float64(f)))
	}
	return f
}

// toF64 decodes a float cell of the given format (16, 32 or 64 bits,
// bf16Format or ftz32Format).
func toF64(c uint64, bits int) float64 {
	switch bits {
	case 64:
		return math.Float64frombits(c)
	case 16:
		return float64(halfToF32(uint16(c)))
	case bf16Format:
		return float64(math.Float32frombits(uint32(c&0xFFFF) << 16))
	case ftz32Format:
		return float64(flush32(math.Float32frombits(uint32(c))))
	}
	return float64(math.Float32frombits(uint32(c)))
}

// fromF64 rounds f to the given float format (round to nearest even) and
// encodes it. (Halves round once, from the double; bfloats round through
// float32 first, a double rounding that can differ from a direct rounding
// only for values that are not results of a single bf16 operation on
// exact inputs.)
func fromF64(f float64, bits int) uint64 {
	switch bits {
	case 64:
		return math.Float64bits(f)
	case 16:
		return uint64(f64ToHalf(f))
	case bf16Format:
		return uint64(f32ToBF16(float32(f)))
	case ftz32Format:
		return uint64(math.Float32bits(flush32(float32(f))))
	}
	return uint64(math.Float32bits(float32(f)))
}

// roundTo rounds f to the precision of the given float width.
func roundTo(f float64, bits int) float64 { return toF64(fromF64(f, bits), bits) }

// halfToF32 converts IEEE binary16 bits to float32 (exact).
func halfToF32(h uint16) float32 { return float32(ir.HalfToFloat(h)) }

// f32ToHalf converts a float32 to IEEE binary16 bits, rounding to nearest
// even; values too large become infinity, NaNs stay NaN (quiet).
func f32ToHalf(f float32) uint16 { return f64ToHalf(float64(f)) }

// f64ToHalf rounds a float64 to IEEE binary16 bits (ir.FloatToHalf).
func f64ToHalf(f float64) uint16 { return ir.FloatToHalf(f) }

// f32ToBF16 rounds a float32 to bfloat16 (nearest even); NaNs stay quiet NaNs.
func f32ToBF16(f float32) uint16 {
	b := math.Float32bits(f)
	if f != f {
		return uint16(b>>16) | 0x40
	}
	b += 0x7FFF + (b>>16)&1
	return uint16(b >> 16)
}

// minNum and maxNum follow IEEE 754-2008 minNum/maxNum, which is what HLSL
// min/max do: when exactly one operand is NaN the other is returned.
func minNum(a, b float64) float64 {
	switch {
	case math.IsNaN(a):
		return b
	case math.IsNaN(b):
		return a
	case a < b:
		return a
	case b < a:
		return b
	}
	// Equal (possibly +0 and -0): prefer -0 as the minimum.
	if math.Signbit(a) {
		return a
	}
	return b
}

func maxNum(a, b float64) float64 {
	switch {
	case math.IsNaN(a):
		return b
	case math.IsNaN(b):
		return a
	case a > b:
		return a
	case b > a:
		return b
	}
	if math.Signbit(a) {
		return b
	}
	return a
}

// roundEven rounds to the nearest integer, halfway cases to even (HLSL
// round, DXIL Round_ne).
func roundEven(x float64) float64 { return math.RoundToEven(x) }

// FloatBits encodes f as a cell of the float type t (f16, bf16, f32 or
// f64), rounded to nearest even: for tools that build inputs or expected
// values bit for bit.
func FloatBits(t *ir.Type, f float64) uint64 { return fromF64(f, fbits(t.Scalar())) }

// CellFloat decodes a cell of the float type t.
func CellFloat(t *ir.Type, c uint64) float64 { return toF64(c, fbits(t.Scalar())) }
