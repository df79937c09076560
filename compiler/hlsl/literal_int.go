package hlsl

import "math"

// Untyped integer literals are DXC's "literal int": a 64-bit value whose
// type is decided by the context (docs/hlsl-rules.md, lex.literal). An
// expression made only of such literals (1 << 31, 0x7fffffff + 1,
// 5000000000 / 2) is folded at 64 bits into one literal, and a literal
// converted to float keeps its whole value (float f = 0x1FFFFFFFF is
// 8589934591, not the 32-bit truncation); used as a 32-bit integer it is
// truncated, as DXC does. (Source: DXC's CombineBasicTypes keeps
// AR_BASIC_LITERAL_INT for two literal operands, and clang's constant
// evaluation folds them at the literal's 64-bit width.)

// literalInt returns the 64-bit value of e when e is an untyped integer
// literal, possibly negated or complemented, or such a literal inside an
// integral conversion the checker inserted.
func literalInt(e Expr) (int64, bool) {
	switch e := e.(type) {
	case *IntLit:
		if !e.Untyped {
			return 0, false
		}
		if e.Wide == 0 && e.Value != 0 {
			return int64(e.Value), true // built without a wide value
		}
		return e.Wide, true
	case *Unary:
		v, ok := literalInt(e.X)
		if !ok {
			return 0, false
		}
		switch e.Op {
		case OpNeg:
			return -v, true
		case OpPlus:
			return v, true
		case OpBitNot:
			return ^v, true
		}
	case *ImplicitCast:
		if t := e.Type(); t != nil && t.IsScalar() && t.IsIntegral() {
			return literalInt(e.X)
		}
	}
	return 0, false
}

// foldLiteralInts folds a binary operation of two untyped integer
// literals at 64 bits into an untyped literal, or returns nil (other
// operands, comparisons and logical operators, a zero divisor, a shift
// count outside 0..63).
func foldLiteralInts(e *Binary, x, y Expr) Expr {
	a, ok1 := literalInt(x)
	b, ok2 := literalInt(y)
	if !ok1 || !ok2 {
		return nil
	}
	var r int64
	switch e.Op {
	case OpAdd:
		r = a + b
	case OpSub:
		r = a - b
	case OpMul:
		r = a * b
	case OpDiv, OpRem:
		if b == 0 || a == math.MinInt64 && b == -1 {
			return nil
		}
		if e.Op == OpDiv {
			r = a / b
		} else {
			r = a % b
		}
	case OpShl, OpShr:
		if b < 0 || b > 63 {
			return nil
		}
		if e.Op == OpShl {
			r = a << uint(b)
		} else {
			r = a >> uint(b)
		}
	case OpAnd:
		r = a & b
	case OpOr:
		r = a | b
	case OpXor:
		r = a ^ b
	default:
		return nil
	}
	consume(x)
	consume(y)
	lit := &IntLit{Untyped: true, Value: uint64(uint32(r)), Wide: r}
	lit.span = e.span
	lit.T = TypeInt
	if r > math.MaxInt32 && r <= math.MaxUint32 {
		lit.T = TypeUint
	}
	return lit
}

// literalToFloat returns e as a float literal when e is an untyped
// integer literal expression converted to float, keeping its 64-bit
// value; nil otherwise.
func literalToFloat(e Expr, to *Type) Expr {
	if to == nil || !to.IsScalar() || to.Kind != KindFloat {
		return nil
	}
	v, ok := literalInt(e)
	if !ok {
		return nil
	}
	if int64(int32(v)) == v || v >= 0 && v <= math.MaxUint32 {
		return nil // fits: the ordinary conversion gives the same value
	}
	consume(e)
	f := &FloatLit{Value: float64(v), Untyped: true}
	f.span = exprSpan(e)
	f.T = to
	return f
}

// exprSpan is the source span of an expression node.
func exprSpan(e Expr) span {
	return span{e.Pos(), e.End()}
}

// consume marks the literals of a literal expression as used whole.
func consume(e Expr) {
	switch e := e.(type) {
	case *IntLit:
		e.consumed = true
	case *Unary:
		consume(e.X)
	case *ImplicitCast:
		consume(e.X)
	}
}

// wide reports whether an untyped literal's value does not fit in 32
// bits (neither as int nor as uint).
func wide(e *IntLit) bool {
	return e.Untyped && (e.Wide < math.MinInt32 || e.Wide > math.MaxUint32)
}

// noteWide records an untyped literal wider than 32 bits, to warn about
// it at the end unless its whole value was used.
func (c *checker) noteWide(e *IntLit) {
	if wide(e) && !c.wideSeen[e] {
		c.wideSeen[e] = true
		c.wideLits = append(c.wideLits, e)
	}
}

// warnWideLiterals warns about the recorded wide literals used as 32-bit
// integers (DXC warns where such a conversion changes the value).
func (c *checker) warnWideLiterals() {
	for _, e := range c.wideLits {
		if e.consumed {
			continue
		}
		what := "literal expression"
		if e.Text != "" {
			what = "integer literal '" + e.Text + "'"
		}
		c.rep.warnf(e.Pos(), e.End(), "%s (%d) does not fit in 32 bits; it is used as %d", what, e.Wide, int32(uint32(e.Value)))
	}
}
