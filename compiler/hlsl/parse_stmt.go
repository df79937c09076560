package hlsl

// Statement parsing.

// parseBlock parses "{ stmts }" in a new type scope.
func (p *parser) parseBlock() *Block {
	open := p.advance() // '{'
	b := &Block{span: span{open.pos, open.end()}}
	p.pushScope()
	defer p.popScope()
	if p.depth++; p.depth > maxNesting {
		p.depth--
		p.errorf(open.pos, open.end(), "blocks nested too deeply")
		p.skipTo("}")
		p.accept("}")
		return b
	}
	defer func() { p.depth-- }()
	for !p.at("}") && p.tok().kind != tEOF && !p.rep.stopped() {
		start := p.i
		if s := p.parseStmt(); s != nil {
			b.Stmts = append(b.Stmts, s)
		}
		if p.i == start {
			p.advance()
		}
	}
	p.expectClose("}", open)
	b.E = p.prevEnd()
	return b
}

// parseStmt parses one statement, recovering from syntax errors at the
// next ';' or '}'.
func (p *parser) parseStmt() Stmt {
	p.ops = 0
	s := p.parseStmtInner()
	if p.panicking {
		p.skipTo(";", "}")
		p.accept(";")
		p.panicking = false
	}
	return s
}

func (p *parser) parseStmtInner() Stmt {
	var attrs []*Attribute
	for p.at("[") {
		attrs = append(attrs, p.parseAttributes()...)
	}
	t := p.tok()
	sp := span{t.pos, t.end()}
	if t.kind == tIdent {
		switch t.text {
		case "if":
			return p.parseIf(attrs)
		case "for":
			return p.parseFor(attrs)
		case "while":
			p.advance()
			w := &WhileStmt{span: sp, Attrs: attrs}
			w.Cond = p.parseParenCond("while")
			w.Body = p.parseSubStmt()
			w.E = w.Body.End()
			return w
		case "do":
			p.advance()
			d := &DoWhileStmt{span: sp, Attrs: attrs}
			d.Body = p.parseSubStmt()
			if !p.atIdent("while") {
				p.errorf(p.tok().pos, p.tok().end(), "expected 'while' in do/while loop")
				return d
			}
			p.advance()
			d.Cond = p.parseParenCond("while")
			d.E = p.prevEnd()
			p.expect(";", " after do/while statement")
			return d
		case "switch":
			return p.parseSwitch(attrs)
		case "case":
			p.advance()
			c := &CaseLabel{span: sp}
			c.Value = p.parseConditional()
			c.E = p.prevEnd()
			p.expect(":", " after 'case'")
			return c
		case "default":
			p.advance()
			c := &CaseLabel{span: sp, IsDefault: true}
			p.expect(":", " after 'default'")
			return c
		case "break":
			p.advance()
			p.expect(";", " after break statement")
			return &BreakStmt{sp}
		case "continue":
			p.advance()
			p.expect(";", " after continue statement")
			return &ContinueStmt{sp}
		case "discard":
			p.advance()
			p.expect(";", " after discard statement")
			return &DiscardStmt{sp}
		case "return":
			p.advance()
			r := &ReturnStmt{span: sp}
			if !p.at(";") {
				r.X = p.parseExpr()
				r.E = r.X.End()
			}
			p.expect(";", " after return statement")
			return r
		case "typedef":
			d := &DeclStmt{span: sp}
			d.Typedefs = p.parseTypedef()
			d.E = p.prevEnd()
			return d
		case "else":
			p.errorf(t.pos, t.end(), "expected expression")
			p.advance()
			return nil
		}
	}
	switch {
	case t.is("{"):
		return p.parseBlock()
	case t.is(";"):
		p.advance()
		return &EmptyStmt{sp}
	case t.kind == tPragma:
		p.advance()
		p.rep.warnf(t.pos, t.end(), "'#pragma pack_matrix' inside a function is ignored")
		return nil
	}
	if p.isDeclStart() {
		return p.parseLocalDecl()
	}
	if n := p.peekN(1); t.kind == tIdent && n.kind == tIdent && !isKeyword(t.text) && !isKeyword(n.text) {
		// Two names in a row can only start a declaration: "float5 x".
		p.errorf(t.pos, t.end(), "unknown type name '%s'", t.text)
		return &EmptyStmt{sp}
	}
	x := p.parseExpr()
	s := &ExprStmt{span: span{x.Pos(), x.End()}, X: x}
	p.expect(";", " after expression")
	return s
}

// isDeclStart reports whether a declaration starts at the cursor.
func (p *parser) isDeclStart() bool {
	t := p.tok()
	if p.isModifierAt(0) || t.kind == tIdent && isStructKeyword(t.text) {
		return true
	}
	if !p.isTypeName(t) {
		return false
	}
	n := p.peekN(1)
	if n.is("<") {
		// vector<float, 2> v; versus vector<float, 2>(1, 2);
		depth := 0
		for i := 1; ; i++ {
			x := p.peekN(i)
			switch {
			case x.kind == tEOF || x.is(";") || x.is("{") || x.is("}"):
				return false
			case x.is("<"):
				depth++
			case x.is(">"):
				depth--
			case x.is(">>"):
				depth -= 2
			}
			if depth <= 0 {
				return p.peekN(i+1).kind == tIdent
			}
		}
	}
	return n.kind == tIdent || (t.text == "unsigned" || t.text == "signed")
}

// parseLocalDecl parses a local variable declaration (or local struct).
func (p *parser) parseLocalDecl() Stmt {
	start := p.tok()
	d := &DeclStmt{span: span{start.pos, start.end()}}
	mods := p.parseModifiers()
	if !p.isTypeStart() {
		t := p.tok()
		p.errorf(t.pos, t.end(), "expected a type")
		return nil
	}
	spec := p.parseTypeSpec()
	mods |= p.parseModifiers()
	if spec.Struct != nil {
		d.Struct = spec.Struct
		if p.accept(";") {
			d.E = p.prevEnd()
			return d
		}
	}
	name, ok := p.expectIdent("identifier")
	if !ok {
		return d
	}
	if p.at("(") {
		p.errorf(p.tok().pos, p.tok().end(), "function definitions are not allowed inside a function")
		return d
	}
	d.Vars = p.parseDeclarators(mods, spec, name, VarLocal)
	d.E = p.prevEnd()
	p.expect(";", " at end of declaration")
	return d
}

// parseSubStmt parses the body of a control statement.
func (p *parser) parseSubStmt() Stmt {
	if p.depth++; p.depth > maxNesting {
		p.depth--
		t := p.tok()
		p.errorf(t.pos, t.end(), "statements nested too deeply")
		return &EmptyStmt{span{t.pos, t.pos}}
	}
	defer func() { p.depth-- }()
	s := p.parseStmt()
	if s == nil {
		t := p.tok()
		return &EmptyStmt{span{t.pos, t.pos}}
	}
	if _, ok := s.(*DeclStmt); ok {
		// A declaration as a substatement lives in its own scope; it is
		// legal if useless.
		return &Block{span: span{s.Pos(), s.End()}, Stmts: []Stmt{s}}
	}
	return s
}

// parseParenCond parses "( expr )" after if/while/switch.
func (p *parser) parseParenCond(what string) Expr {
	open := p.tok()
	if !p.accept("(") {
		p.errorf(open.pos, open.end(), "expected '(' after '%s'", what)
		return p.badExpr(open.pos)
	}
	x := p.parseExpr()
	p.expectClose(")", open)
	return x
}

func (p *parser) parseIf(attrs []*Attribute) Stmt {
	t := p.advance()
	s := &IfStmt{span: span{t.pos, t.end()}, Attrs: attrs}
	s.Cond = p.parseParenCond("if")
	s.Then = p.parseSubStmt()
	s.E = s.Then.End()
	if p.atIdent("else") {
		p.advance()
		s.Else = p.parseSubStmt()
		s.E = s.Else.End()
	}
	return s
}

func (p *parser) parseFor(attrs []*Attribute) Stmt {
	t := p.advance()
	s := &ForStmt{span: span{t.pos, t.end()}, Attrs: attrs}
	open := p.tok()
	if !p.accept("(") {
		p.errorf(open.pos, open.end(), "expected '(' after 'for'")
		return s
	}
	// HLSL scopes the init declaration to the loop (as DXC does).
	p.pushScope()
	defer p.popScope()
	switch {
	case p.accept(";"):
	case p.isDeclStart():
		s.Init = p.parseLocalDecl()
	default:
		x := p.parseExpr()
		s.Init = &ExprStmt{span: span{x.Pos(), x.End()}, X: x}
		p.expect(";", " in 'for' statement specifier")
	}
	if p.panicking {
		return s
	}
	if !p.at(";") {
		s.Cond = p.parseExpr()
	}
	p.expect(";", " in 'for' statement specifier")
	if !p.at(")") {
		s.Post = p.parseExpr()
	}
	p.expectClose(")", open)
	if p.panicking {
		return s
	}
	s.Body = p.parseSubStmt()
	s.E = s.Body.End()
	return s
}

func (p *parser) parseSwitch(attrs []*Attribute) Stmt {
	t := p.advance()
	s := &SwitchStmt{span: span{t.pos, t.end()}, Attrs: attrs}
	s.Tag = p.parseParenCond("switch")
	if !p.at("{") {
		p.errorf(p.tok().pos, p.tok().end(), "expected '{' after switch condition")
		return s
	}
	b := p.parseBlock()
	s.Body = b.Stmts
	s.E = b.E
	return s
}
