package hlsl

import (
	"fmt"
	"math"
)

// checkBlock checks a block in its own scope.
func (c *checker) checkBlock(b *Block) {
	c.push()
	c.checkBlockNoScope(b)
	c.pop()
}

// checkBlockNoScope checks a block's statements in the current scope (a
// function body shares the parameters' scope, as in C++).
func (c *checker) checkBlockNoScope(b *Block) {
	for _, s := range b.Stmts {
		if c.rep.stopped() {
			return
		}
		c.checkStmt(s)
	}
}

func (c *checker) checkStmt(s Stmt) {
	switch s := s.(type) {
	case *Block:
		c.checkBlock(s)
	case *DeclStmt:
		c.checkDeclStmt(s)
	case *ExprStmt:
		s.X = c.checkExpr(s.X)
	case *EmptyStmt:
	case *IfStmt:
		c.checkAttrs(s.Attrs, "if")
		s.Cond = c.checkCondition(s.Cond, "if")
		c.checkStmt(s.Then)
		if s.Else != nil {
			c.checkStmt(s.Else)
		}
	case *ForStmt:
		c.checkAttrs(s.Attrs, "loop")
		c.push()
		if s.Init != nil {
			c.checkStmt(s.Init)
		}
		if s.Cond != nil {
			s.Cond = c.checkCondition(s.Cond, "for")
		}
		if s.Post != nil {
			s.Post = c.checkExpr(s.Post)
		}
		c.loop(s.Body)
		c.pop()
	case *WhileStmt:
		c.checkAttrs(s.Attrs, "loop")
		s.Cond = c.checkCondition(s.Cond, "while")
		c.loop(s.Body)
	case *DoWhileStmt:
		c.checkAttrs(s.Attrs, "loop")
		c.loop(s.Body)
		if s.Cond != nil {
			s.Cond = c.checkCondition(s.Cond, "do-while")
		}
	case *SwitchStmt:
		c.checkSwitch(s)
	case *CaseLabel:
		c.errorf(s, "'case' statement not in switch statement")
	case *BreakStmt:
		if c.breakable == 0 {
			c.errorf(s, "'break' statement not in loop or switch statement")
		}
	case *ContinueStmt:
		if c.continuable == 0 {
			c.errorf(s, "'continue' statement not in loop statement")
		}
	case *ReturnStmt:
		c.checkReturn(s)
	case *DiscardStmt:
		if c.curFunc != nil {
			c.discards[c.curFunc] = append(c.discards[c.curFunc], s)
		}
	}
}

func (c *checker) loop(body Stmt) {
	if body == nil {
		return
	}
	c.breakable++
	c.continuable++
	c.checkStmt(body)
	c.breakable--
	c.continuable--
}

// checkCondition checks an if/loop condition: a scalar converted to bool.
func (c *checker) checkCondition(e Expr, what string) Expr {
	if e == nil {
		return nil
	}
	e = c.checkExpr(e)
	t := e.Type()
	if t.IsError() {
		return e
	}
	if !t.IsNumeric() {
		c.errorf(e, "%s condition of type '%s' is not a scalar", what, t)
		return e
	}
	if !OneComponent(t) {
		c.errorf(e, "%s condition must be a scalar, not '%s'", what, t)
		return e
	}
	return buildConversion(e, TypeBool)
}

// checkDeclStmt checks local declarations.
func (c *checker) checkDeclStmt(d *DeclStmt) {
	if d.Struct != nil {
		c.checkStruct(d.Struct)
	}
	for _, td := range d.Typedefs {
		c.checkTypedef(td)
	}
	for _, v := range d.Vars {
		if c.isConstantBufferT(v) {
			c.localConstantBuffer(v) // cbuffer_local.go
		} else {
			c.checkVarType(v)
		}
		c.checkStorage(v)
		if v.Init != nil {
			v.Init = c.checkInitializer(v.Init, v.Type)
			if v.Type.Kind == KindArray && v.Type.Len < 0 {
				v.Type = c.sizeFromInit(v, v.Type)
			}
			c.foldVarConst(v)
		}
		// A const local without an initializer is accepted: DXC's HLSL
		// initialization (InitializeInitSequenceForHLSL) makes default
		// initialization a no-op and never reaches C++'s
		// err_default_init_const (docs/hlsl-rules.md, decl.const).
		if v.Type.Kind == KindArray && v.Type.Len < 0 {
			c.rep.errorf(v.NamePos, v.NamePos.advance(len(v.Name)), "definition of variable '%s' with array type needs an explicit size or an initializer", v.Name)
			v.Type = TypeError
		}
		if v.Type.ContainsResource() && !bufferResourcesOnly(v.Type) && v.Init == nil {
			c.rep.errorf(v.NamePos, v.NamePos.advance(len(v.Name)), "local resource variable '%s' must be initialized", v.Name)
		}
		c.declareVar(v)
	}
}

func (c *checker) checkReturn(s *ReturnStmt) {
	f := c.curFunc
	if f == nil {
		return
	}
	if s.X == nil {
		if f.Ret.Kind != KindVoid && !f.Ret.IsError() {
			c.errorf(s, "non-void function '%s' should return a value", f.Name)
		}
		return
	}
	if _, isList := s.X.(*InitList); isList {
		c.errorf(s.X, "initializer list cannot be returned")
		return
	}
	s.X = c.checkExpr(s.X)
	if f.Ret.Kind == KindVoid {
		if t := s.X.Type(); t.Kind != KindVoid && !t.IsError() {
			c.errorf(s.X, "void function '%s' should not return a value", f.Name)
		}
		return
	}
	s.X = c.coerce(s.X, f.Ret, "in return")
}

// checkSwitch checks a switch: an integer tag and constant, distinct case
// values; it groups the body into clauses.
func (c *checker) checkSwitch(s *SwitchStmt) {
	c.checkAttrs(s.Attrs, "switch")
	s.Tag = c.checkExpr(s.Tag)
	tt := s.Tag.Type()
	tagOK := false
	switch {
	case tt.IsError():
	case !tt.IsNumeric() || !OneComponent(tt):
		c.errorf(s.Tag, "switch condition must be an integer scalar, not '%s'", tt)
	case !tt.IsIntegral():
		c.errorf(s.Tag, "statement requires expression of integer type ('%s' invalid)", tt)
	default:
		tagOK = true
		// The condition is promoted as C promotes it (clang's
		// UsualUnaryConversions): a 64-bit integer stays 64-bit (DXC
		// switches on uint64_t, vkd3d switch.shader_test), narrower ones
		// become int or uint.
		target := TypeInt
		switch {
		case tt.Scalar().Width() == 64 && tt.Scalar().Kind == KindUint:
			target = TypeUint64
		case tt.Scalar().Width() == 64:
			target = TypeInt64
		case tt.Scalar().Kind == KindUint:
			target = TypeUint
		}
		s.Tag = buildConversion(s.Tag, target)
	}
	c.push()
	c.breakable++
	defer func() {
		c.breakable--
		c.pop()
	}()
	seen := map[int64]*CaseLabel{}
	var dflt *CaseLabel
	var cur *CaseClause
	for _, st := range s.Body {
		lab, isLabel := st.(*CaseLabel)
		if !isLabel {
			if cur == nil {
				c.warnf(st, "statement before the first case label is never executed")
				c.checkStmt(st)
				continue
			}
			cur.Body = append(cur.Body, st)
			c.checkStmt(st)
			continue
		}
		if cur == nil || len(cur.Body) > 0 {
			cur = &CaseClause{span: lab.span}
			s.Cases = append(s.Cases, cur)
		}
		cur.E = lab.E
		if lab.IsDefault {
			if dflt != nil {
				c.rep.add(Diagnostic{Severity: Error, Pos: lab.P, End: lab.P.advance(7),
					Message: "multiple default labels in one switch",
					Notes:   []Diagnostic{note(dflt.P, "previous case defined here")}})
			}
			dflt = lab
			cur.HasDefault = true
			continue
		}
		lab.Value = c.checkExpr(lab.Value)
		vt := lab.Value.Type()
		if vt.IsError() {
			continue
		}
		if !vt.IsIntegral() && !vt.IsBool() {
			c.errorf(lab.Value, "case value must be an integer constant, not '%s'", vt)
			continue
		}
		if tagOK && vt.IsIntegral() {
			// The label converts to the promoted condition's type, so a
			// literal int keeps its 64-bit value against a 64-bit tag
			// (and is not a wide literal used as 32 bits: no warning).
			if s.Tag.Type().Width() == 64 && isUntypedLiteral(lab.Value) {
				consume(lab.Value)
			}
			lab.Value = buildConversion(lab.Value, s.Tag.Type())
		}
		k, ok := ConstEval(lab.Value)
		if !ok {
			c.errorf(lab.Value, "case value is not a constant expression")
			continue
		}
		if tagOK {
			k = ConvertConst(k, s.Tag.Type())
		}
		if prev, dup := seen[k.Int]; dup {
			c.rep.add(Diagnostic{Severity: Error, Pos: lab.Value.Pos(), End: lab.Value.End(),
				Message: fmt.Sprintf("duplicate case value '%d'", k.Int),
				Notes:   []Diagnostic{note(prev.P, "previous case defined here")}})
			continue
		}
		seen[k.Int] = lab
		cur.Values = append(cur.Values, k.Int)
	}
	if len(s.Cases) == 0 {
		c.errorf(s, "switch statement has no case or default labels")
	} else if n := len(s.Body); n > 0 {
		if lab, ok := s.Body[n-1].(*CaseLabel); ok {
			c.errorf(lab, "label at end of compound statement: expected statement")
		}
	}
}

// statement attributes and where they apply.
var stmtAttrs = map[string]string{
	"unroll": "loop", "loop": "loop", "fastopt": "loop", "allow_uav_condition": "loop",
	"branch": "if", "flatten": "if", "forcecase": "switch", "call": "switch",
}

// conflictingAttrs are pairs of statement attributes that contradict.
var conflictingAttrs = [][2]string{{"branch", "flatten"}, {"loop", "unroll"}, {"fastopt", "unroll"}, {"loop", "fastopt"}}

// checkAttrs validates attributes on an if/loop/switch statement.
func (c *checker) checkAttrs(attrs []*Attribute, where string) {
	for _, pair := range conflictingAttrs {
		var a, b *Attribute
		for _, x := range attrs {
			if x.Name == pair[0] && a == nil {
				a = x
			}
			if x.Name == pair[1] && b == nil {
				b = x
			}
		}
		if a != nil && b != nil {
			if pair[0] == "loop" && pair[1] == "fastopt" {
				continue // [loop][fastopt] is a common, valid combination
			}
			c.errorf(b, "attribute '%s' conflicts with attribute '%s'", b.Name, a.Name)
		}
	}
	for _, a := range attrs {
		place, known := stmtAttrs[a.Name]
		switch {
		case !known:
			c.warnf(a, "unknown attribute '%s' ignored", a.Name)
			continue
		case place != where && !(where == "switch" && (a.Name == "branch" || a.Name == "flatten")):
			c.warnf(a, "attribute '%s' ignored: it applies to %s statements", a.Name, place)
			continue
		}
		if a.Name == "unroll" {
			if len(a.Args) > 1 {
				c.errorf(a, "'unroll' takes at most one argument")
			}
			if len(a.Args) == 1 {
				c.checkUnrollCount(a)
			}
		} else if len(a.Args) > 0 {
			c.errorf(a, "'%s' takes no arguments", a.Name)
		}
	}
}

// stmtsTerminate reports whether control cannot fall off the end of a
// statement list (it returns, discards or loops forever on every path).
// checkUnrollCount checks [unroll(n)] as DXC's ValidateAttributeIntArg
// does: n must be a constant expression (an error otherwise); a negative
// or non-integral value only warns, and then the loop is fully unrolled
// (docs/hlsl-rules.md, attr.loop).
func (c *checker) checkUnrollCount(a *Attribute) {
	e := c.checkExpr(a.Args[0])
	a.Args[0] = e
	if e.Type().IsError() {
		return
	}
	k, ok := ConstEval(e)
	if !ok || !e.Type().IsScalar() || !e.Type().IsNumeric() {
		c.errorf(e, "'unroll' attribute requires an integer constant")
		return
	}
	if k.Type.Kind == KindFloat && k.Float != math.Trunc(k.Float) || k.Type.Kind != KindFloat && k.AsInt() < 0 || k.Type.Kind == KindFloat && k.Float < 0 {
		c.warnf(a, "attribute 'unroll' must have a uint literal argument")
	}
}

func stmtsTerminate(list []Stmt) bool {
	for _, s := range list {
		if terminates(s) {
			return true
		}
	}
	return false
}

func terminates(s Stmt) bool {
	switch s := s.(type) {
	case *ReturnStmt, *DiscardStmt:
		return true
	case *Block:
		return stmtsTerminate(s.Stmts)
	case *IfStmt:
		// A constant condition takes one branch only, as clang's CFG
		// prunes the other for its fall-off check (DXC makes "control may
		// reach end of non-void function" an error).
		if k, ok := ConstEval(s.Cond); ok && s.Cond.Type() != nil {
			if k.Truth() {
				return terminates(s.Then)
			}
			return s.Else != nil && terminates(s.Else)
		}
		return s.Else != nil && terminates(s.Then) && terminates(s.Else)
	case *WhileStmt:
		return AlwaysTrue(s.Cond) && !breaksOut(s.Body)
	case *ForStmt:
		return (s.Cond == nil || AlwaysTrue(s.Cond)) && !breaksOut(s.Body)
	case *DoWhileStmt:
		return terminates(s.Body) || AlwaysTrue(s.Cond) && !breaksOut(s.Body)
	case *SwitchStmt:
		hasDefault := false
		for _, cl := range s.Cases {
			hasDefault = hasDefault || cl.HasDefault
			for _, st := range cl.Body {
				if breaksOut(st) {
					return false
				}
			}
		}
		if !hasDefault || len(s.Cases) == 0 {
			return false
		}
		return stmtsTerminate(s.Cases[len(s.Cases)-1].Body)
	}
	return false
}

// AlwaysTrue reports whether a checked condition is a constant that is
// true (as in `while (1)`).
func AlwaysTrue(e Expr) bool {
	if e == nil || e.Type() == nil {
		return false
	}
	k, ok := ConstEval(e)
	return ok && k.Truth()
}

// breaksOut reports whether s contains a break that leaves the enclosing
// loop or switch (breaks inside nested loops/switches don't count).
func breaksOut(s Stmt) bool {
	switch s := s.(type) {
	case *BreakStmt:
		return true
	case *Block:
		for _, x := range s.Stmts {
			if breaksOut(x) {
				return true
			}
		}
	case *IfStmt:
		return breaksOut(s.Then) || s.Else != nil && breaksOut(s.Else)
	}
	return false
}
