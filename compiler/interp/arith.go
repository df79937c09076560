package interp

import (
	"math"

	"passlens/compiler/ir"
)

// arith is scalar arithmetic on cells of one kind and width, used by the
// intrinsics (which are generic over int, uint and float operands). Float
// results are rounded after every operation; integers wrap.
type arith struct {
	k ir.Kind
	b int
}

func arithOf(t *ir.Type) arith {
	s := t.Scalar()
	return arith{s.Kind, fbits(s)}
}

func (a arith) isFloat() bool { return a.k == ir.KFloat }

func (a arith) f(x uint64) float64 {
	switch a.k {
	case ir.KFloat:
		return toF64(x, a.b)
	case ir.KInt:
		return float64(sext(x, a.b))
	}
	return float64(x & widthMask(a.b))
}

// from converts a float64 to this kind (round for floats, saturating
// truncation for integers).
func (a arith) from(f float64) uint64 {
	switch a.k {
	case ir.KFloat:
		return fromF64(f, a.b)
	case ir.KInt:
		return convert(ir.OpFPToSI, math.Float64bits(f), 64, a.b)
	case ir.KBool:
		return b2u(f != 0)
	}
	return convert(ir.OpFPToUI, math.Float64bits(f), 64, a.b)
}

func (a arith) add(x, y uint64) uint64 {
	if a.isFloat() {
		return floatBinary(ir.OpFAdd, x, y, a.b)
	}
	return intBinary(ir.OpAdd, x, y, a.b)
}

func (a arith) sub(x, y uint64) uint64 {
	if a.isFloat() {
		return floatBinary(ir.OpFSub, x, y, a.b)
	}
	return intBinary(ir.OpSub, x, y, a.b)
}

func (a arith) mul(x, y uint64) uint64 {
	if a.isFloat() {
		return floatBinary(ir.OpFMul, x, y, a.b)
	}
	return intBinary(ir.OpMul, x, y, a.b)
}

func (a arith) div(x, y uint64) uint64 {
	switch a.k {
	case ir.KFloat:
		return floatBinary(ir.OpFDiv, x, y, a.b)
	case ir.KInt:
		return intBinary(ir.OpSDiv, x, y, a.b)
	}
	return intBinary(ir.OpUDiv, x, y, a.b)
}

func (a arith) lt(x, y uint64) bool {
	switch a.k {
	case ir.KFloat:
		return toF64(x, a.b) < toF64(y, a.b)
	case ir.KInt:
		return sext(x, a.b) < sext(y, a.b)
	}
	return x&widthMask(a.b) < y&widthMask(a.b)
}

func (a arith) min(x, y uint64) uint64 {
	if a.isFloat() {
		return fromF64(minNum(toF64(x, a.b), toF64(y, a.b)), a.b)
	}
	if a.lt(y, x) {
		return y
	}
	return x
}

func (a arith) max(x, y uint64) uint64 {
	if a.isFloat() {
		return fromF64(maxNum(toF64(x, a.b), toF64(y, a.b)), a.b)
	}
	if a.lt(x, y) {
		return y
	}
	return x
}

// eq is HLSL ==: numeric equality for floats (NaN unequal, -0 == +0).
func (a arith) eq(x, y uint64) bool {
	if a.isFloat() {
		return toF64(x, a.b) == toF64(y, a.b)
	}
	m := widthMask(a.b)
	return x&m == y&m
}

// nonzero is HLSL's conversion to bool.
func (a arith) nonzero(x uint64) bool {
	if a.isFloat() {
		return toF64(x, a.b) != 0
	}
	return x&widthMask(a.b) != 0
}

// zero and one are the additive and multiplicative identities.
func (a arith) zero() uint64 { return 0 }
func (a arith) one() uint64 {
	if a.isFloat() {
		return fromF64(1, a.b)
	}
	return 1
}

// dot sums x[i]*y[i] in component order, rounding every product and sum.
func (a arith) dot(x, y []uint64) uint64 {
	acc := a.mul(x[0], y[0])
	for i := 1; i < len(x) && i < len(y); i++ {
		acc = a.add(acc, a.mul(x[i], y[i]))
	}
	return acc
}
