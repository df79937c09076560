package hlsl

import "math"

// Untyped integer literals are DXC's "literal int" (docs/hlsl-rules.md,
// lex.literal): a 64-bit value whose type the context decides. Two
// literal operands combine to a literal int (CombineBasicTypes returns
// AR_BASIC_LITERAL_INT when both sides are literals), so an expression
// made only of literals (1 << 31, 3000000000 + 3000000000) folds at 64
// bits into one literal. A literal takes a 32-bit type when used: int if
// its value fits, else uint if it fits, else it becomes INT_MIN
// (0x80000000). The last rule is measured, not read in DXC's sources:
// vkd3d's sm1-const-folding tests record DXC's SM6 results for
// 3000000000 + 3000000000 as int (-2147483648), as uint (2147483648) and
// converted to float (-2147483648.0), and for 3000000000 alone converted
// to float (3000000000.0).

// literalBits maps a literal's 64-bit value to its 32-bit bits and type.
func literalBits(v int64) (uint64, *Type) {
	switch {
	case v >= math.MinInt32 && v <= math.MaxInt32:
		return uint64(uint32(int32(v))), TypeInt
	case v > math.MaxInt32 && v <= math.MaxUint32:
		return uint64(v), TypeUint
	}
	return 0x80000000, TypeInt
}

// literalInt returns the 64-bit value of e when e is an untyped integer
// literal, possibly negated or complemented, or such a literal inside an
// integral conversion the checker inserted.
func literalInt(e Expr) (int64, bool) {
	switch e := e.(type) {
	case *IntLit:
		if !e.Untyped {
			return 0, false
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
func foldLiteralInts(e *Binary, x, y Expr) *IntLit {
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
	lit := &IntLit{Untyped: true, Wide: r}
	lit.Value, lit.T = literalBits(r)
	lit.span = e.span
	return lit
}

// wide reports whether an untyped literal's value does not fit in 32
// bits (as int or as uint).
func wide(e *IntLit) bool {
	return e.Untyped && (e.Wide < math.MinInt32 || e.Wide > math.MaxUint32)
}

// consume marks the literals of a literal expression as folded into a
// larger literal, which is warned about instead.
func consume(e Expr) {
	switch e := e.(type) {
	case *IntLit:
		e.folded = true
	case *Unary:
		consume(e.X)
	case *ImplicitCast:
		consume(e.X)
	}
}

// noteWide records a wide literal (or folded literal expression) to warn
// about at the end, unless it is folded into a larger one meanwhile.
func (c *checker) noteWide(e *IntLit) {
	if wide(e) && !c.wideSeen[e] {
		c.wideSeen[e] = true
		c.wideLits = append(c.wideLits, e)
	}
}

// warnWideLiterals warns about the wide literals that were used as
// values.
func (c *checker) warnWideLiterals() {
	for _, e := range c.wideLits {
		if e.folded {
			continue
		}
		if e.Text != "" {
			c.rep.warnf(e.Pos(), e.End(), "integer literal '%s' does not fit in 32 bits; it is used as -2147483648", e.Text)
		} else {
			c.rep.warnf(e.Pos(), e.End(), "literal expression value %d does not fit in 32 bits; it is used as -2147483648", e.Wide)
		}
	}
}
