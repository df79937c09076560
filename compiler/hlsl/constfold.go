package hlsl

import (
	"math"

	"passlens/compiler/ir"
)

// Const is the value of a scalar constant expression. Int holds bool (0/1),
// int and uint values (wrapped to the type's width: uint as its value,
// uint64_t as its bit pattern); Float holds float values (rounded to the
// type's precision).
type Const struct {
	Type  *Type
	Int   int64
	Float float64
}

// AsFloat returns k's value as a float64.
func (k Const) AsFloat() float64 {
	switch {
	case k.Type.Kind == KindFloat:
		return k.Float
	case k.Type.Kind == KindUint && k.Type.Width() == 64:
		return float64(uint64(k.Int))
	}
	return float64(k.Int)
}

// AsInt returns k's value as an int64; floats truncate toward zero,
// saturating, and NaN gives 0.
func (k Const) AsInt() int64 {
	if k.Type.Kind == KindFloat {
		f := k.Float
		switch {
		case math.IsNaN(f):
			return 0
		case f >= math.MaxInt64:
			return math.MaxInt64
		case f <= math.MinInt64:
			return math.MinInt64
		}
		return int64(f)
	}
	return k.Int
}

// Truth reports whether k is nonzero, the value of k as a condition.
func (k Const) Truth() bool {
	if k.Type.Kind == KindFloat {
		return k.Float != 0
	}
	return k.Int != 0
}

// ConvertConst converts a scalar constant to scalar type t.
func ConvertConst(k Const, t *Type) Const {
	r := Const{Type: t}
	switch t.Kind {
	case KindBool:
		r.Int = BoolInt(k.Truth())
	case KindInt:
		w := t.Width()
		if k.Type.Kind == KindFloat {
			lim := math.Ldexp(1, w-1)
			f := clampF(k.Float, -lim, lim)
			if f >= lim {
				r.Int = int64(uint64(1)<<(w-1) - 1)
			} else {
				r.Int = int64(f)
			}
		} else {
			r.Int = k.Int
		}
		r.Int = wrapInt(r.Int, w, true)
	case KindUint:
		w := t.Width()
		if k.Type.Kind == KindFloat {
			lim := math.Ldexp(1, w)
			f := clampF(k.Float, 0, lim)
			if f >= lim {
				r.Int = wrapInt(-1, w, false)
			} else {
				r.Int = int64(uint64(f))
			}
		} else {
			r.Int = wrapInt(k.Int, w, false)
		}
	case KindFloat:
		r.Float = roundFloat(k.AsFloat(), t.Width())
	}
	return r
}

// wrapInt truncates v to w bits and sign-extends (signed) or
// zero-extends it back.
func wrapInt(v int64, w int, signed bool) int64 {
	if w >= 64 {
		return v
	}
	v &= 1<<w - 1
	if signed && v&(1<<(w-1)) != 0 {
		v -= 1 << w
	}
	return v
}

// roundFloat rounds f to the precision of a w-bit float (nearest even).
func roundFloat(f float64, w int) float64 {
	switch w {
	case 16:
		return ir.HalfToFloat(ir.FloatToHalf(f))
	case 64:
		return f
	}
	return float64(float32(f))
}

func clampF(f, lo, hi float64) float64 {
	if math.IsNaN(f) {
		return 0
	}
	return math.Max(lo, math.Min(hi, f))
}

// ConstEval evaluates a checked scalar expression, if it is constant.
func ConstEval(e Expr) (Const, bool) {
	t := e.Type()
	if t == nil || !t.IsScalar() {
		// 1-component vectors are accepted through their casts below.
		if t == nil || !(t.IsNumeric() && t.Dim() == 1) {
			return Const{}, false
		}
	}
	s := t.Scalar()
	switch e := e.(type) {
	case *IntLit:
		switch {
		case e.Untyped && s != nil && s.Width() == 64:
			// DXC's literal int is 64-bit: a 64-bit context takes the
			// whole value (the 32-bit rule of literal_int.go applies
			// where the literal is used as a 32-bit value).
			return ConvertConst(Const{Type: TypeInt64, Int: e.Wide}, s), true
		case e.T != nil && e.T.Width() == 64:
			return ConvertConst(Const{Type: e.T, Int: int64(e.Value)}, s), true
		}
		if e.T != nil && e.T.Kind == KindInt {
			// A signed literal (a folded literal expression may be
			// INT_MIN, literal_int.go) converts from its signed value.
			return ConvertConst(Const{Type: TypeInt, Int: int64(int32(uint32(e.Value)))}, s), true
		}
		return ConvertConst(Const{Type: TypeUint, Int: int64(e.Value)}, s), true
	case *FloatLit:
		return ConvertConst(Const{Type: TypeFloat, Float: e.Value}, s), true
	case *BoolLit:
		return Const{Type: TypeBool, Int: BoolInt(e.Value)}, true
	case *Ident:
		if e.Var != nil && e.Var.Const != nil {
			return ConvertConst(*e.Var.Const, s), true
		}
	case *ImplicitCast:
		if e.Kind == CastToVoid {
			return Const{}, false
		}
		k, ok := ConstEval(e.X)
		if !ok {
			return Const{}, false
		}
		return ConvertConst(k, s), true
	case *Cast:
		k, ok := ConstEval(e.X)
		if !ok || e.Kind == CastToVoid {
			return Const{}, false
		}
		return ConvertConst(k, s), true
	case *Construct:
		if len(e.Args) == 1 {
			if k, ok := ConstEval(e.Args[0]); ok {
				return ConvertConst(k, s), true
			}
		}
	case *Unary:
		k, ok := ConstEval(e.X)
		if !ok {
			return Const{}, false
		}
		switch e.Op {
		case OpPlus:
			return k, true
		case OpNeg:
			if k.Type.Kind == KindFloat {
				return Const{Type: s, Float: -k.Float}, true
			}
			return ConvertConst(Const{Type: TypeInt, Int: -k.Int}, s), true
		case OpNot:
			return Const{Type: TypeBool, Int: BoolInt(!k.Truth())}, true
		case OpBitNot:
			return ConvertConst(Const{Type: TypeInt, Int: ^k.Int}, s), true
		}
	case *Binary:
		x, ok1 := ConstEval(e.X)
		y, ok2 := ConstEval(e.Y)
		if e.Op == OpLogAnd && ok1 && !x.Truth() {
			return Const{Type: TypeBool}, true
		}
		if e.Op == OpLogOr && ok1 && x.Truth() {
			return Const{Type: TypeBool, Int: 1}, true
		}
		if !ok1 || !ok2 {
			return Const{}, false
		}
		return FoldBinary(e.Op, x, y, s)
	case *Cond:
		k, ok := ConstEval(e.C)
		if !ok {
			return Const{}, false
		}
		if k.Truth() {
			return ConstEval(e.A)
		}
		return ConstEval(e.B)
	case *Comma:
		return ConstEval(e.Y)
	}
	return Const{}, false
}

// FoldBinary folds a binary operation on constants of the operand type;
// the result has scalar type rt.
func FoldBinary(op BinaryOp, x, y Const, rt *Type) (Const, bool) {
	ot := x.Type
	if op.IsComparison() || op.IsLogical() {
		var r bool
		switch {
		case op == OpLogAnd:
			r = x.Truth() && y.Truth()
		case op == OpLogOr:
			r = x.Truth() || y.Truth()
		case ot.Kind == KindFloat:
			a, b := x.Float, y.Float
			r = [...]bool{a < b, a > b, a <= b, a >= b, a == b, a != b}[op-OpLt]
		case ot.Kind == KindUint:
			a, b := uint64(wrapInt(x.Int, ot.Width(), false)), uint64(wrapInt(y.Int, ot.Width(), false))
			r = [...]bool{a < b, a > b, a <= b, a >= b, a == b, a != b}[op-OpLt]
		default:
			a, b := x.Int, y.Int
			r = [...]bool{a < b, a > b, a <= b, a >= b, a == b, a != b}[op-OpLt]
		}
		return Const{Type: TypeBool, Int: BoolInt(r)}, true
	}
	if ot.Kind == KindFloat {
		a, b := x.Float, y.Float
		var r float64
		switch op {
		case OpAdd:
			r = a + b
		case OpSub:
			r = a - b
		case OpMul:
			r = a * b
		case OpDiv:
			r = a / b
		case OpRem:
			r = math.Mod(a, b)
		default:
			return Const{}, false
		}
		return ConvertConst(Const{Type: TypeFloat, Float: r}, rt), true
	}
	unsigned := ot.Kind == KindUint
	w := ot.Width()
	a, b := wrapInt(x.Int, w, !unsigned), wrapInt(y.Int, w, !unsigned)
	var r int64
	switch op {
	case OpAdd:
		r = a + b
	case OpSub:
		r = a - b
	case OpMul:
		r = a * b
	case OpDiv, OpRem:
		if b == 0 {
			return Const{}, false
		}
		switch {
		case unsigned && op == OpDiv:
			r = int64(uint64(a) / uint64(b))
		case unsigned:
			r = int64(uint64(a) % uint64(b))
		case a == math.MinInt64 && b == -1:
			return Const{}, false
		case op == OpDiv:
			r = a / b
		default:
			r = a % b
		}
	case OpShl:
		r = a << uint(b&int64(w-1))
	case OpShr:
		if unsigned {
			r = int64(uint64(a) >> uint(b&int64(w-1)))
		} else {
			r = a >> uint(b&int64(w-1))
		}
	case OpAnd:
		r = a & b
	case OpOr:
		r = a | b
	case OpXor:
		r = a ^ b
	default:
		return Const{}, false
	}
	return ConvertConst(Const{Type: ot, Int: r}, rt), true
}

// constInt checks e and requires an integer constant (as array sizes,
// template arguments and attribute arguments do).
func (c *checker) constInt(e Expr, what string) (int64, bool) {
	if e.Type() == nil {
		e = c.checkExpr(e)
	}
	if e.Type().IsError() {
		return 0, false
	}
	k, ok := ConstEval(e)
	if !ok {
		c.errorf(e, "%s is not an integer constant expression", what)
		return 0, false
	}
	if k.Type.Kind == KindFloat {
		if k.Float != math.Trunc(k.Float) {
			c.errorf(e, "%s must be an integer constant, not '%s'", what, e.Type())
			return 0, false
		}
	}
	return k.AsInt(), true
}

// foldVarConst records the value of a constant-initialized const scalar
// (static const globals and const locals), so it can size arrays.
func (c *checker) foldVarConst(v *VarDecl) {
	if v.Init == nil || v.Mods&ModConst == 0 || !v.Type.IsScalar() {
		return
	}
	if v.Kind == VarGlobal && v.Mods&ModStatic == 0 {
		return // a global const is a uniform: its value is not known
	}
	if k, ok := ConstEval(v.Init); ok {
		k = ConvertConst(k, v.Type)
		v.Const = &k
	}
}
