package hlsl

import (
	"math"
	"strconv"
	"strings"
)

// Expression parsing: precedence climbing over C's operator table.

var assignOps = map[string]BinaryOp{
	"+=": OpAdd, "-=": OpSub, "*=": OpMul, "/=": OpDiv, "%=": OpRem, "<<=": OpShl,
	">>=": OpShr, "&=": OpAnd, "|=": OpOr, "^=": OpXor,
}

type binInfo struct {
	op   BinaryOp
	prec int
}

var binaryOps = map[string]binInfo{
	"||": {OpLogOr, 1}, "&&": {OpLogAnd, 2}, "|": {OpOr, 3}, "^": {OpXor, 4}, "&": {OpAnd, 5},
	"==": {OpEq, 6}, "!=": {OpNe, 6}, "<": {OpLt, 7}, ">": {OpGt, 7}, "<=": {OpLe, 7}, ">=": {OpGe, 7},
	"<<": {OpShl, 8}, ">>": {OpShr, 8}, "+": {OpAdd, 9}, "-": {OpSub, 9},
	"*": {OpMul, 10}, "/": {OpDiv, 10}, "%": {OpRem, 10},
}

// badExpr returns a placeholder expression for a syntax error.
func (p *parser) badExpr(at Pos) Expr {
	e := &IntLit{Text: "0", Untyped: true}
	e.P, e.E = at, at
	e.T = TypeError
	return e
}

// parseExpr parses a comma expression.
func (p *parser) parseExpr() Expr {
	x := p.parseAssign()
	for p.at(",") && p.chainOp(p.tok()) {
		p.advance()
		y := p.parseAssign()
		c := &Comma{X: x, Y: y}
		c.P, c.E = x.Pos(), y.End()
		x = c
	}
	return x
}

// parseAssign parses an assignment expression (right associative).
func (p *parser) parseAssign() Expr {
	lhs := p.parseConditional()
	t := p.tok()
	if t.kind != tPunct {
		return lhs
	}
	a := &Assign{LHS: lhs}
	if t.text == "=" {
		p.advance()
	} else if op, ok := assignOps[t.text]; ok {
		p.advance()
		a.Op, a.Compound = op, true
	} else {
		return lhs
	}
	if p.depth++; p.depth > maxNesting {
		p.depth--
		p.errorf(t.pos, t.end(), "expression nested too deeply")
		return lhs
	}
	a.RHS = p.parseAssign()
	p.depth--
	a.P, a.E = lhs.Pos(), a.RHS.End()
	return a
}

// parseConditional parses "c ? a : b".
func (p *parser) parseConditional() Expr {
	c := p.parseBinary(0)
	if !p.at("?") {
		return c
	}
	q := p.advance()
	if p.depth++; p.depth > maxNesting {
		p.depth--
		p.errorf(q.pos, q.end(), "expression nested too deeply")
		return c
	}
	defer func() { p.depth-- }()
	saved := p.noGreater
	p.noGreater = false
	a := p.parseExpr()
	p.noGreater = saved
	if !p.at(":") {
		t := p.tok()
		p.errorNotes(t.pos, t.end(), []Diagnostic{note(q.pos, "to match this '?'")}, "expected ':'")
		return c
	}
	p.advance()
	b := p.parseConditional()
	e := &Cond{C: c, A: a, B: b}
	e.P, e.E = c.Pos(), b.End()
	return e
}

// parseBinary parses binary operators with precedence above minPrec.
func (p *parser) parseBinary(minPrec int) Expr {
	x := p.parseUnary()
	for {
		t := p.tok()
		info, ok := binaryOps[t.text]
		if t.kind != tPunct || !ok || info.prec <= minPrec {
			return x
		}
		if p.noGreater && (t.text == ">" || t.text == ">>" || t.text == ">=") {
			return x
		}
		if !p.chainOp(t) {
			return x
		}
		p.advance()
		y := p.parseBinary(info.prec)
		b := &Binary{Op: info.op, X: x, Y: y}
		b.P, b.E = x.Pos(), y.End()
		x = b
	}
}

// parseUnary parses prefix operators and casts.
func (p *parser) parseUnary() Expr {
	t := p.tok()
	if p.depth++; p.depth > maxNesting {
		p.depth--
		p.errorf(t.pos, t.end(), "expression nested too deeply")
		p.skipTo(";", "}")
		return p.badExpr(t.pos)
	}
	defer func() { p.depth-- }()
	if t.kind == tPunct {
		var op UnaryOp
		ok := true
		switch t.text {
		case "-":
			op = OpNeg
		case "+":
			op = OpPlus
		case "!":
			op = OpNot
		case "~":
			op = OpBitNot
		case "++":
			op = OpPreInc
		case "--":
			op = OpPreDec
		default:
			ok = false
		}
		if ok {
			p.advance()
			x := p.parseUnary()
			u := &Unary{Op: op, X: x}
			u.P, u.E = t.pos, x.End()
			return u
		}
		if t.text == "(" && p.isCastStart() {
			p.advance()
			mods := p.parseModifiers()
			spec := p.parseTypeSpec()
			spec.Mods |= mods | p.parseModifiers()
			dims := p.parseDims()
			if len(dims) > 0 {
				spec = wrapArraySpec(spec, dims)
			}
			p.expectClose(")", t)
			x := p.parseUnary()
			c := &Cast{Spec: spec, X: x}
			c.P, c.E = t.pos, x.End()
			return c
		}
	}
	return p.parsePostfix(p.parsePrimary())
}

// wrapArraySpec records array dimensions of a cast type as a synthetic
// "[]" TypeSpec whose Args are the element type and the dimensions.
func wrapArraySpec(elem *TypeSpec, dims []Expr) *TypeSpec {
	ts := &TypeSpec{span: elem.span, Name: "[]"}
	ts.Args = append(ts.Args, elem)
	for _, d := range dims {
		if d != nil {
			ts.Args = append(ts.Args, d)
		}
	}
	return ts
}

// isCastStart reports whether '(' at the cursor starts a cast "(type)".
func (p *parser) isCastStart() bool {
	t := p.peekN(1)
	if p.isModifierAt(1) && t.text != "in" && t.text != "out" && t.text != "inout" {
		return true
	}
	if t.kind == tIdent && isStructKeyword(t.text) {
		return true
	}
	if !p.isTypeName(t) {
		return false
	}
	// "(float4(1,2,3,4))" is a parenthesized constructor, not a cast.
	n := p.peekN(2)
	return !n.is("(") && !n.is(".")
}

// parsePostfix parses [], ., calls on members and postfix ++/--.
func (p *parser) parsePostfix(x Expr) Expr {
	for {
		t := p.tok()
		if (t.is("[") || t.is(".") || t.is("++") || t.is("--")) && !p.chainOp(t) {
			return x
		}
		switch {
		case t.is("["):
			p.advance()
			saved := p.noGreater
			p.noGreater = false
			idx := p.parseExpr()
			p.noGreater = saved
			p.expectClose("]", t)
			e := &Index{X: x, Index: idx}
			e.P, e.E = x.Pos(), p.prevEnd()
			x = e
		case t.is("."):
			p.advance()
			n, ok := p.expectIdent("member name")
			if !ok {
				return x
			}
			var targ *TypeSpec
			if n.text == "Load" || n.text == "Store" {
				targ = p.parseMethodTypeArg() // rawbuffer.go
			}
			if p.at("(") {
				args, _ := p.parseArgs()
				m := &MethodCall{Recv: x, Name: n.text, Args: args, TypeArg: targ}
				m.P, m.E = x.Pos(), p.prevEnd()
				x = m
				continue
			}
			m := &Member{X: x, Name: n.text}
			m.P, m.E = x.Pos(), n.end()
			x = m
		case t.is("++") || t.is("--"):
			p.advance()
			op := OpPostInc
			if t.text == "--" {
				op = OpPostDec
			}
			u := &Unary{Op: op, X: x}
			u.P, u.E = x.Pos(), t.end()
			x = u
		default:
			return x
		}
	}
}

// parseArgs parses "(a, b, c)".
func (p *parser) parseArgs() ([]Expr, bool) {
	open := p.advance()
	var args []Expr
	saved := p.noGreater
	p.noGreater = false
	defer func() { p.noGreater = saved }()
	if p.accept(")") {
		return args, true
	}
	for {
		args = append(args, p.parseAssign())
		if p.panicking {
			return args, false
		}
		if !p.accept(",") {
			break
		}
	}
	return args, p.expectClose(")", open)
}

// parsePrimary parses literals, names, calls, constructors and parentheses.
func (p *parser) parsePrimary() Expr {
	t := p.tok()
	switch t.kind {
	case tNumber:
		p.advance()
		return p.parseNumber(t)
	case tIdent:
		switch t.text {
		case "true", "false":
			p.advance()
			b := &BoolLit{Value: t.text == "true"}
			b.P, b.E = t.pos, t.end()
			return b
		case "sizeof":
			p.errorf(t.pos, t.end(), "'sizeof' is not supported")
			p.advance()
			return p.badExpr(t.pos)
		}
		if p.peekN(1).is("::") && p.peekN(2).kind == tIdent {
			// S::member: a static member of struct S (struct_decl.go).
			p.advance()
			p.advance()
			m := p.advance()
			name := t.text + "::" + m.text
			if p.at("(") {
				args, _ := p.parseArgs()
				c := &Call{Name: name, NamePos: t.pos, Args: args}
				c.P, c.E = t.pos, p.prevEnd()
				return c
			}
			id := &Ident{Name: name}
			id.P, id.E = t.pos, m.end()
			return id
		}
		if p.isTypeName(t) || isStructKeyword(t.text) {
			spec := p.parseTypeSpec()
			if !p.at("(") {
				n := p.tok()
				p.errorf(n.pos, n.end(), "expected '(' for function-style cast or type construction")
				return p.badExpr(t.pos)
			}
			args, _ := p.parseArgs()
			c := &Construct{Spec: spec, Args: args}
			c.P, c.E = t.pos, p.prevEnd()
			return c
		}
		if isKeyword(t.text) {
			p.errorf(t.pos, t.end(), "expected expression")
			return p.badExpr(t.pos)
		}
		p.advance()
		if p.at("(") {
			args, _ := p.parseArgs()
			c := &Call{Name: t.text, NamePos: t.pos, Args: args}
			c.P, c.E = t.pos, p.prevEnd()
			return c
		}
		id := &Ident{Name: t.text}
		id.P, id.E = t.pos, t.end()
		return id
	case tPunct:
		if t.text == "(" {
			p.advance()
			saved := p.noGreater
			p.noGreater = false
			x := p.parseExpr()
			p.noGreater = saved
			p.expectClose(")", t)
			return x
		}
		if t.text == "{" {
			p.errorf(t.pos, t.end(), "initializer list is only allowed in a variable initializer")
			p.parseInitializer()
			return p.badExpr(t.pos)
		}
	case tString:
		p.advance()
		p.errorf(t.pos, t.end(), "string literals are not supported")
		return p.badExpr(t.pos)
	case tInvalid:
		p.advance()
		p.errorf(t.pos, t.end(), "invalid character '%s' in source", t.text)
		return p.badExpr(t.pos)
	}
	p.errorf(t.pos, t.end(), "expected expression")
	return p.badExpr(t.pos)
}

// parseNumber converts a preprocessing number into a literal. Suffixes:
// u/U (uint), l/L or ll/LL (int64_t, or uint64_t with u; a value that
// needs 64 bits is int64_t, or uint64_t when unsigned or above INT64_MAX),
// f/F and h/H (float; half is evaluated as float). Hex (0x) and octal
// (leading 0) integers are supported.
func (p *parser) parseNumber(t token) Expr {
	text := t.text
	lower := strings.ToLower(text)
	isHex := strings.HasPrefix(lower, "0x")
	isFloat := !isHex && (strings.ContainsAny(lower, ".e") || strings.HasSuffix(lower, "f") || strings.HasSuffix(lower, "h"))
	if isFloat {
		body := lower
		untyped := true
		for len(body) > 0 && strings.IndexByte("fhl", body[len(body)-1]) >= 0 {
			untyped = false
			body = body[:len(body)-1]
		}
		v, err := strconv.ParseFloat(body, 64)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
				v = math.Inf(1)
			} else {
				p.errorf(t.pos, t.end(), "invalid floating point constant '%s'", text)
				v = 0
			}
		}
		f := &FloatLit{Text: text, Value: v, Untyped: untyped}
		f.P, f.E = t.pos, t.end()
		return f
	}
	body := lower
	unsigned, long := false, false
	untyped := true
	for len(body) > 0 {
		c := body[len(body)-1]
		if c == 'u' {
			unsigned = true
		} else if c == 'l' {
			long = true
		} else {
			break
		}
		untyped = false
		body = body[:len(body)-1]
	}
	base := 10
	digits := body
	switch {
	case isHex:
		base, digits = 16, body[2:]
	case len(body) > 1 && body[0] == '0':
		base, digits = 8, body[1:]
	}
	lit := &IntLit{Text: text, Untyped: untyped}
	lit.P, lit.E = t.pos, t.end()
	if unsigned {
		lit.T = TypeUint
	}
	if digits == "" {
		p.errorf(t.pos, t.end(), "invalid integer constant '%s'", text)
		return lit
	}
	v, err := strconv.ParseUint(digits, base, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			p.rep.errorf(t.pos, t.end(), "integer literal is too large to be represented in any integer type")
			return lit
		}
		// Find the offending character for a precise message.
		for i := 0; i < len(digits); i++ {
			if _, err := strconv.ParseUint(digits[i:i+1], base, 64); err != nil {
				c := digits[i]
				if base == 8 && isDigit(int(c)) {
					p.errorf(t.pos, t.end(), "invalid digit '%c' in octal constant", c)
				} else {
					p.errorf(t.pos, t.end(), "invalid suffix '%s' on integer constant", text[len(text)-len(digits)+i:])
				}
				return lit
			}
		}
		p.errorf(t.pos, t.end(), "invalid integer constant '%s'", text)
		return lit
	}
	lit.Wide = int64(v)
	if long {
		// As in C and DXC, a literal with an l/ll suffix has the first
		// 64-bit type that holds it.
		lit.Untyped = false
		lit.T = TypeInt64
		if unsigned || v > math.MaxInt64 {
			lit.T = TypeUint64
		}
		lit.Value = v
		return lit
	}
	if v > math.MaxUint32 {
		if untyped {
			// A literal int beyond 32 bits takes the value INT_MIN where
			// it is used in a 32-bit context, unless it is folded into a
			// literal expression; the checker warns (literal_int.go).
			lit.Value, lit.T = 0x80000000, TypeInt
			return lit
		}
		p.rep.warnf(t.pos, t.end(), "integer literal '%s' does not fit in 32 bits; it is truncated", text)
		v &= math.MaxUint32
	}
	lit.Value = v
	return lit
}
