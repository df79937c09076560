package hlsl

// A static resource declared without an initializer (`static Texture2D
// tex;`) holds no resource. DXC maps every resource a shader reads to a
// global resource after inlining and dead-code elimination, so such a
// variable may be declared, and even read when the read's result is
// unused, but a read whose value survives is an error (vkd3d's
// static-initializer.shader_test; docs/hlsl-rules.md, decl.static-resource).
// A static local initialized from such a variable holds nothing either.
//
// The frontend has no dead-code elimination, so "the value survives" is
// decided on the statements of the functions the entry point reaches: an
// expression is live unless it is a discarded texture or buffer read
// (an expression statement whose value is unused), the initializer of a
// local variable that nothing reads, or in the branch of an `if` that a
// constant condition never takes.

// isNullStatic reports whether v is a static global resource without an
// initializer.
func isNullStatic(v *VarDecl) bool {
	return v != nil && v.Kind == VarGlobal && v.Mods&ModStatic != 0 && v.Init == nil &&
		v.Type != nil && v.Type.Kind == KindResource
}

// checkNullStatics reports the first live use of each null static
// resource in the functions entry point ep reaches.
func (c *checker) checkNullStatics(ep *EntryPoint) {
	reported := map[*VarDecl]bool{}
	for _, f := range c.reachable(ep) {
		var uses []*Ident
		for _, id := range c.globalUses[f] {
			if isNullStatic(id.Var) && !reported[id.Var] {
				uses = append(uses, id)
			}
		}
		if len(uses) == 0 || f.Body == nil {
			continue
		}
		var live []Node
		liveExprs(f.Body, &live)
		for _, id := range uses {
			if reported[id.Var] {
				continue
			}
			for _, n := range live {
				if within(id, n) {
					c.errorf(id, "static resource '%s' has no initializer and its value is used: it cannot be mapped to a global resource", id.Name)
					reported[id.Var] = true
					break
				}
			}
		}
	}
}

// within reports whether node a lies inside node b's source span.
func within(a, b Node) bool {
	ap, bp, be := a.Pos(), b.Pos(), b.End()
	if ap.File != bp.File {
		return false
	}
	after := ap.Line > bp.Line || ap.Line == bp.Line && ap.Col >= bp.Col
	before := ap.Line < be.Line || ap.Line == be.Line && ap.Col <= be.Col
	return after && before
}

// liveExprs appends the expressions of s whose values may survive
// dead-code elimination.
func liveExprs(s Stmt, out *[]Node) {
	add := func(e Expr) {
		if e != nil {
			*out = append(*out, e)
		}
	}
	switch s := s.(type) {
	case *Block:
		for _, x := range s.Stmts {
			liveExprs(x, out)
		}
	case *DeclStmt:
		for _, v := range s.Vars {
			if v.Used {
				add(v.Init)
			}
		}
	case *ExprStmt:
		if m, ok := s.X.(*MethodCall); ok && m.Recv.Type().Kind == KindResource && m.Type() != nil && m.Type().Kind != KindVoid {
			return // a read whose value is discarded
		}
		add(s.X)
	case *IfStmt:
		add(s.Cond)
		if k, ok := ConstEval(s.Cond); ok && s.Cond.Type() != nil {
			if k.Truth() {
				liveExprs(s.Then, out)
			} else if s.Else != nil {
				liveExprs(s.Else, out)
			}
			return
		}
		liveExprs(s.Then, out)
		if s.Else != nil {
			liveExprs(s.Else, out)
		}
	case *ForStmt:
		if s.Init != nil {
			liveExprs(s.Init, out)
		}
		add(s.Cond)
		add(s.Post)
		liveExprs(s.Body, out)
	case *WhileStmt:
		add(s.Cond)
		liveExprs(s.Body, out)
	case *DoWhileStmt:
		add(s.Cond)
		liveExprs(s.Body, out)
	case *SwitchStmt:
		add(s.Tag)
		for _, cl := range s.Cases {
			for _, x := range cl.Body {
				liveExprs(x, out)
			}
		}
	case *ReturnStmt:
		add(s.X)
	}
}
