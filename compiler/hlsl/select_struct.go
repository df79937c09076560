package hlsl

// select on structs (HLSL 2021, DXC's hlsl::select template): select(c, a,
// b) with a scalar condition and two operands of one struct type yields a
// when c is true, else b (docs/hlsl-rules.md, expr.select-struct). Both
// operands are evaluated, as for every select; passlens checks it as the
// ternary c ? a : b on already evaluated operands, which the lowering
// turns into a select of the two values (struct operands have no side
// effects of their own once evaluated).

// selectAggregate resolves select(c, a, b) on struct operands; nil when
// neither operand is a struct (the numeric intrinsic applies).
func (c *checker) selectAggregate(e *Call) Expr {
	if len(e.Args) != 3 {
		return nil
	}
	ta, tb := e.Args[1].Type(), e.Args[2].Type()
	if ta.Kind != KindStruct && tb.Kind != KindStruct {
		return nil
	}
	e.T = TypeError
	ct := e.Args[0].Type()
	switch {
	case !ct.IsNumeric() || !OneComponent(ct):
		c.errorf(e.Args[0], "no matching intrinsic overload for 'select': the condition of a select on structs must be a scalar, not '%s'", ct)
		return e
	case !Identical(ta, tb):
		c.errorf(e, "no matching intrinsic overload for 'select': operands of different types ('%s' and '%s')", ta, tb)
		return e
	}
	r := &Cond{exprBase: exprBase{span: e.span, T: ta}, C: buildConversion(e.Args[0], TypeBool), A: e.Args[1], B: e.Args[2]}
	return r
}
