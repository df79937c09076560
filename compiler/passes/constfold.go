package passes

import (
	"math"

	"passlens/compiler/ir"
)

// Constant folding with the exact semantics of the interpreter
// (compiler/interp): float32 arithmetic done in Go float32 with an explicit
// conversion after every operation (so no fused multiply-add can change a
// rounding), 32-bit wrapping integer arithmetic.
//
// A fold is only made when its result cannot differ from executing the
// instruction on any target:
//   - a float result that is NaN is never folded (NaN payloads and signs
//     are target-specific);
//   - float32 arithmetic and comparisons with a denormal operand or result
//     are not folded (flushed to zero by D3D's fp32 rule and the
//     interpreter's default mode, kept by IEEE targets and --denorm
//     preserve);
//   - frem is not folded (fmod rounding conventions differ between targets);
//   - integer division or remainder by zero, INT_MIN / -1, and shifts by 32
//     or more are not folded (undefined, or target-defined);
//   - fptosi/fptoui of NaN or out-of-range values are not folded;
//   - nothing involving undef is folded.
// Every function returns nil when it does not fold.

// scalarBits returns c's bits if it is a defined scalar constant.
func scalarBits(c *ir.Const) (uint64, bool) {
	if c == nil || c.Undef || !c.Type().IsScalar() {
		return 0, false
	}
	if c.Zero {
		return 0, true
	}
	return c.Bits, true
}

// elementwise applies a scalar folder to the components of vector
// constants (or directly to scalars); it fails if any component fails.
func elementwise(t *ir.Type, args []*ir.Const, fold func(t *ir.Type, args []*ir.Const) *ir.Const) *ir.Const {
	if t.Kind != ir.KVector {
		return fold(t, args)
	}
	elems := make([]*ir.Const, t.Len)
	sub := make([]*ir.Const, len(args))
	for i := 0; i < t.Len; i++ {
		for j, a := range args {
			if a.Undef {
				return nil
			}
			if a.Type().Kind == ir.KVector {
				sub[j] = a.Elem(i)
			} else {
				sub[j] = a
			}
			if sub[j] == nil {
				return nil
			}
		}
		if elems[i] = fold(t.Elem, sub); elems[i] == nil {
			return nil
		}
	}
	return ir.ConstAggregate(t, elems)
}

func f32(bits uint64) float32 { return math.Float32frombits(uint32(bits)) }

func isNaN32(x float32) bool { return x != x }

// isDenorm32 reports whether x is a float32 denormal.
func isDenorm32(x float32) bool { return x != 0 && math.Abs(float64(x)) < 0x1p-126 }

// foldedF32 returns an f32 constant, or nil for NaN and denormal results.
func foldedF32(x float32) *ir.Const {
	if isNaN32(x) || isDenorm32(x) {
		return nil
	}
	return ir.ConstF32Bits(math.Float32bits(x))
}

// foldedInt returns an integer or bool constant of type t with the low bits
// of v.
func foldedInt(t *ir.Type, v uint64) *ir.Const {
	switch t.Kind {
	case ir.KBool:
		return ir.ConstBool(t, v&1 != 0)
	case ir.KUint:
		return ir.ConstInt(t, int64(uint32(v)))
	default:
		return ir.ConstInt(t, int64(int32(uint32(v))))
	}
}

// foldBinary folds a two-operand arithmetic or bitwise op on constants.
func foldBinary(op ir.Op, t *ir.Type, a, b *ir.Const) *ir.Const {
	return elementwise(t, []*ir.Const{a, b}, func(t *ir.Type, args []*ir.Const) *ir.Const {
		x, ok1 := scalarBits(args[0])
		y, ok2 := scalarBits(args[1])
		if !ok1 || !ok2 {
			return nil
		}
		if t.Kind == ir.KFloat {
			if t.Bits != 32 {
				return nil
			}
			fx, fy := f32(x), f32(y)
			if isDenorm32(fx) || isDenorm32(fy) {
				return nil
			}
			var r float32
			switch op {
			case ir.OpFAdd:
				r = float32(fx + fy)
			case ir.OpFSub:
				r = float32(fx - fy)
			case ir.OpFMul:
				r = float32(fx * fy)
			case ir.OpFDiv:
				r = float32(fx / fy)
			default:
				return nil
			}
			return foldedF32(r)
		}
		if t.Kind == ir.KBool {
			switch op {
			case ir.OpAnd:
				return foldedInt(t, x&y)
			case ir.OpOr:
				return foldedInt(t, x|y)
			case ir.OpXor:
				return foldedInt(t, x^y)
			}
			return nil
		}
		if !t.IsIntegral() || t.Bits != 32 {
			return nil
		}
		ux, uy := uint32(x), uint32(y)
		sx, sy := int32(ux), int32(uy)
		switch op {
		case ir.OpAdd:
			return foldedInt(t, uint64(ux+uy))
		case ir.OpSub:
			return foldedInt(t, uint64(ux-uy))
		case ir.OpMul:
			return foldedInt(t, uint64(ux*uy))
		case ir.OpSDiv:
			if sy == 0 || sx == math.MinInt32 && sy == -1 {
				return nil
			}
			return foldedInt(t, uint64(uint32(sx/sy)))
		case ir.OpSRem:
			if sy == 0 || sx == math.MinInt32 && sy == -1 {
				return nil
			}
			return foldedInt(t, uint64(uint32(sx%sy)))
		case ir.OpUDiv:
			if uy == 0 {
				return nil
			}
			return foldedInt(t, uint64(ux/uy))
		case ir.OpURem:
			if uy == 0 {
				return nil
			}
			return foldedInt(t, uint64(ux%uy))
		case ir.OpShl, ir.OpLShr, ir.OpAShr:
			if uy >= 32 {
				return nil
			}
			switch op {
			case ir.OpShl:
				return foldedInt(t, uint64(ux<<uy))
			case ir.OpLShr:
				return foldedInt(t, uint64(ux>>uy))
			default:
				return foldedInt(t, uint64(uint32(sx>>uy)))
			}
		case ir.OpAnd:
			return foldedInt(t, uint64(ux&uy))
		case ir.OpOr:
			return foldedInt(t, uint64(ux|uy))
		case ir.OpXor:
			return foldedInt(t, uint64(ux^uy))
		}
		return nil
	})
}

// foldUnary folds not, neg and fneg.
func foldUnary(op ir.Op, t *ir.Type, a *ir.Const) *ir.Const {
	return elementwise(t, []*ir.Const{a}, func(t *ir.Type, args []*ir.Const) *ir.Const {
		x, ok := scalarBits(args[0])
		if !ok {
			return nil
		}
		switch op {
		case ir.OpNot:
			if t.Kind == ir.KBool {
				return foldedInt(t, x^1)
			}
			if t.IsIntegral() && t.Bits == 32 {
				return foldedInt(t, uint64(^uint32(x)))
			}
		case ir.OpNeg:
			if t.IsIntegral() && t.Bits == 32 {
				return foldedInt(t, uint64(-uint32(x)))
			}
		case ir.OpFNeg:
			if t.Kind == ir.KFloat && t.Bits == 32 {
				return foldedF32(-f32(x))
			}
		}
		return nil
	})
}

// evalPred evaluates an icmp/fcmp predicate on scalar bits of type t.
func evalPred(p ir.CmpPred, t *ir.Type, x, y uint64) (bool, bool) {
	if t.Kind == ir.KFloat {
		if t.Bits != 32 {
			return false, false
		}
		fx, fy := f32(x), f32(y)
		if isDenorm32(fx) || isDenorm32(fy) {
			return false, false
		}
		uno := isNaN32(fx) || isNaN32(fy)
		switch p {
		case ir.PredOEQ:
			return !uno && fx == fy, true
		case ir.PredONE:
			return !uno && fx != fy, true
		case ir.PredOLT:
			return !uno && fx < fy, true
		case ir.PredOLE:
			return !uno && fx <= fy, true
		case ir.PredOGT:
			return !uno && fx > fy, true
		case ir.PredOGE:
			return !uno && fx >= fy, true
		case ir.PredORD:
			return !uno, true
		case ir.PredUNO:
			return uno, true
		case ir.PredUEQ:
			return uno || fx == fy, true
		case ir.PredUNE:
			return uno || fx != fy, true
		case ir.PredFULT:
			return uno || fx < fy, true
		case ir.PredFULE:
			return uno || fx <= fy, true
		case ir.PredFUGT:
			return uno || fx > fy, true
		case ir.PredFUGE:
			return uno || fx >= fy, true
		}
		return false, false
	}
	ux, uy := uint32(x), uint32(y)
	sx, sy := int32(ux), int32(uy)
	switch p {
	case ir.PredEQ:
		return ux == uy, true
	case ir.PredNE:
		return ux != uy, true
	case ir.PredSLT:
		return sx < sy, true
	case ir.PredSLE:
		return sx <= sy, true
	case ir.PredSGT:
		return sx > sy, true
	case ir.PredSGE:
		return sx >= sy, true
	case ir.PredULT:
		return ux < uy, true
	case ir.PredULE:
		return ux <= uy, true
	case ir.PredUGT:
		return ux > uy, true
	case ir.PredUGE:
		return ux >= uy, true
	}
	return false, false
}

// foldCmp folds icmp/fcmp on constants (result type rt).
func foldCmp(p ir.CmpPred, rt *ir.Type, a, b *ir.Const) *ir.Const {
	opT := a.Type().Scalar()
	return elementwise(rt, []*ir.Const{a, b}, func(t *ir.Type, args []*ir.Const) *ir.Const {
		x, ok1 := scalarBits(args[0])
		y, ok2 := scalarBits(args[1])
		if !ok1 || !ok2 {
			return nil
		}
		r, ok := evalPred(p, opT, x, y)
		if !ok {
			return nil
		}
		return ir.ConstBool(ir.Bool, r)
	})
}

// foldCast folds a conversion of constant a to type to.
func foldCast(op ir.Op, to *ir.Type, a *ir.Const) *ir.Const {
	from := a.Type().Scalar()
	return elementwise(to, []*ir.Const{a}, func(t *ir.Type, args []*ir.Const) *ir.Const {
		x, ok := scalarBits(args[0])
		if !ok {
			return nil
		}
		switch op {
		case ir.OpSIToFP:
			if t.Kind == ir.KFloat && t.Bits == 32 && from.Bits == 32 {
				return foldedF32(float32(int32(uint32(x))))
			}
		case ir.OpUIToFP:
			if t.Kind == ir.KFloat && t.Bits == 32 && from.Bits == 32 {
				return foldedF32(float32(uint32(x)))
			}
		case ir.OpFPToSI:
			if from.Kind == ir.KFloat && from.Bits == 32 && t.Bits == 32 {
				fx := float64(f32(x))
				tr := math.Trunc(fx)
				if isNaN32(f32(x)) || tr < math.MinInt32 || tr > math.MaxInt32 {
					return nil
				}
				return foldedInt(t, uint64(uint32(int32(tr))))
			}
		case ir.OpFPToUI:
			if from.Kind == ir.KFloat && from.Bits == 32 && t.Bits == 32 {
				fx := float64(f32(x))
				tr := math.Trunc(fx)
				if isNaN32(f32(x)) || tr < 0 || tr > math.MaxUint32 {
					return nil
				}
				return foldedInt(t, uint64(uint32(tr)))
			}
		case ir.OpBitcast:
			if from.Bits == t.Bits && t.Bits == 32 {
				if t.Kind == ir.KFloat {
					return ir.ConstF32Bits(uint32(x))
				}
				return foldedInt(t, x)
			}
		case ir.OpZExt:
			if from.Kind == ir.KBool && t.IsIntegral() && t.Bits == 32 {
				return foldedInt(t, x&1)
			}
		case ir.OpSExt:
			if from.Kind == ir.KBool && t.IsIntegral() && t.Bits == 32 {
				if x&1 != 0 {
					return foldedInt(t, 0xFFFFFFFF)
				}
				return foldedInt(t, 0)
			}
		case ir.OpTrunc:
			if t.Kind == ir.KBool && from.IsIntegral() {
				return foldedInt(t, x&1)
			}
		}
		return nil
	})
}

// constEqual reports whether two constants are the same value of the same
// type (bit-exact; Zero and an explicit all-zero aggregate are equal).
func constEqual(a, b *ir.Const) bool {
	if a == b {
		return true
	}
	if a.Type() != b.Type() || a.Undef || b.Undef {
		return false
	}
	if a.Type().IsScalar() {
		x, _ := scalarBits(a)
		y, _ := scalarBits(b)
		return x == y
	}
	n := a.Type().NumElems()
	if a.Type().Kind == ir.KArray && n < 0 {
		return false
	}
	for i := 0; i < n; i++ {
		ea, eb := a.Elem(i), b.Elem(i)
		if ea == nil || eb == nil || !constEqual(ea, eb) {
			return false
		}
	}
	return true
}

// isSplatBits reports whether v is a constant (scalar or vector splat)
// whose every component has the given bits, compared at the scalar's width
// (so 0xFFFFFFFF matches i32 -1).
func isSplatBits(v ir.Value, bits uint64) bool {
	c, ok := v.(*ir.Const)
	if !ok || c.Undef {
		return false
	}
	t := c.Type()
	if t.IsScalar() {
		x, _ := scalarBits(c)
		mask := uint64(1)<<uint(t.Bits) - 1
		if t.Bits >= 64 {
			mask = ^uint64(0)
		}
		return x&mask == bits&mask
	}
	if t.Kind != ir.KVector {
		return false
	}
	for i := 0; i < t.Len; i++ {
		e := c.Elem(i)
		if e == nil || !isSplatBits(e, bits) {
			return false
		}
	}
	return true
}
