package hlsl

import "math"

// Const is the value of a scalar constant expression. Int holds bool (0/1),
// int and uint values (uint as its 32-bit value); Float holds float values.
type Const struct {
	Type  *Type
	Int   int64
	Float float64
}

// AsFloat returns k's value as a float64.
func (k Const) AsFloat() float64 {
	if k.Type.Kind == KindFloat {
		return k.Float
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
		if k.Type.Kind == KindFloat {
			r.Int = int64(int32(clampF(k.Float, math.MinInt32, math.MaxInt32)))
		} else {
			r.Int = int64(int32(k.Int))
		}
	case KindUint:
		if k.Type.Kind == KindFloat {
			r.Int = int64(uint32(clampF(k.Float, 0, math.MaxUint32)))
		} else {
			r.Int = int64(uint32(k.Int))
		}
	case KindFloat:
		r.Float = float64(float32(k.AsFloat()))
	}
	return r
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
			a, b := uint32(x.Int), uint32(y.Int)
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
	a, b := x.Int, y.Int
	if unsigned {
		a, b = int64(uint32(a)), int64(uint32(b))
	} else {
		a, b = int64(int32(a)), int64(int32(b))
	}
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
		if op == OpDiv {
			r = a / b
		} else {
			r = a % b
		}
	case OpShl:
		r = a << uint(b&31)
	case OpShr:
		if unsigned {
			r = int64(uint32(a) >> uint(b&31))
		} else {
			r = int64(int32(a) >> uint(b&31))
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
