package hlsl

import (
	"fmt"
	"strings"
)

// Struct declarations beyond plain fields, as DXC (HLSL 2021) accepts them
// (docs/hlsl-rules.md, decl.struct-*):
//
//   - 'class' declares a struct; HLSL has no access control that DXC
//     enforces on these members, so a class's members are accessible as a
//     struct's are (decl.struct-class).
//   - single inheritance, struct D : B { ... }: B's fields come first, in
//     layout as in member access, as if declared at the top of D
//     (decl.struct-base).
//   - member functions: a non-static method gets the implicit parameter
//     'this' (inout, the object), reads and writes fields by name or
//     through this.f, and is called as obj.f(args); static methods have no
//     'this'. Calls between methods of the same struct may omit 'this.'
//     (decl.struct-method).
//   - static data members (static T s;) are not part of the layout: each
//     is a static global named S::s, defined out of line by T S::s = v;
//     and read as S::s or obj.s (decl.struct-static).

// isStructKeyword reports whether word starts a struct declaration.
func isStructKeyword(word string) bool { return word == "struct" || word == "class" }

// parseStructBase parses ": [public] Base" after a struct's name.
func (p *parser) parseStructBase(sd *StructDecl) {
	p.advance() // ':'
	if p.atIdent("public") || p.atIdent("private") || p.atIdent("protected") || p.atIdent("virtual") {
		t := p.advance()
		if t.text != "public" {
			p.errorf(t.pos, t.end(), "'%s' inheritance is not supported: HLSL bases are public", t.text)
		}
	}
	n, ok := p.expectIdent("base struct name")
	if !ok {
		return
	}
	sd.Base, sd.BasePos = n.text, n.pos
	if p.at(",") {
		t := p.tok()
		p.errorf(t.pos, t.end(), "multiple inheritance is not supported: a struct has at most one base")
		for !p.at("{") && p.tok().kind != tEOF {
			p.advance()
		}
	}
}

// parseMethod parses a member function of sd after its return type and
// name.
func (p *parser) parseMethod(sd *StructDecl, mods Modifiers, ret *TypeSpec, name token) {
	d := p.parseFunction(nil, mods, ret, name, ret.P)
	f, ok := d.(*FuncDecl)
	if !ok {
		return
	}
	f.Owner = sd
	sd.Methods = append(sd.Methods, f)
	p.accept(";")
}

// checkStructBase puts the fields of sd's base first.
func (c *checker) checkStructBase(sd *StructDecl) {
	if sd.Base == "" {
		return
	}
	bt, ok := c.lookupType(sd.Base)
	if !ok || bt.Kind != KindStruct {
		c.rep.errorf(sd.BasePos, sd.BasePos.advance(len(sd.Base)), "expected struct name: '%s' is not a struct", sd.Base)
		return
	}
	if bt.Struct == sd || !bt.Struct.done {
		c.rep.errorf(sd.BasePos, sd.BasePos.advance(len(sd.Base)), "base '%s' is an incomplete type", sd.Base)
		return
	}
	base := bt.Struct
	fields := make([]*Field, 0, len(base.Fields)+len(sd.Fields))
	for _, f := range base.Fields {
		cp := *f
		fields = append(fields, &cp)
	}
	fields = append(fields, sd.Fields...)
	for i, f := range fields {
		f.Index = i
	}
	sd.Fields = fields
	sd.Statics = append(append([]*VarDecl(nil), base.Statics...), sd.Statics...)
	sd.baseDecl = base
}

// checkStructStatics moves static data members out of sd's fields into
// static globals named S::s.
func (c *checker) checkStructStatics(sd *StructDecl) {
	kept := sd.Fields[:0]
	for _, f := range sd.Fields {
		if f.Mods&ModStatic == 0 {
			kept = append(kept, f)
			continue
		}
		if sd.Name == "" {
			c.errorf(f, "static data member '%s' in an anonymous struct", f.Name)
			continue
		}
		v := &VarDecl{span: f.span, Name: sd.Name + "::" + f.Name, NamePos: f.P, Spec: f.Spec, Dims: f.Dims,
			Mods: f.Mods, Kind: VarGlobal}
		c.checkGlobal(v)
		sd.Statics = append(sd.Statics, v)
	}
	for i, f := range kept {
		f.Index = i
	}
	sd.Fields = kept
}

// staticMember returns the static data member name of sd (or of a base).
func staticMember(sd *StructDecl, name string) *VarDecl {
	for _, v := range sd.Statics {
		if v.Name == sd.Name+"::"+name || len(v.Name) > len(name)+2 && v.Name[len(v.Name)-len(name)-2:] == "::"+name {
			return v
		}
	}
	return nil
}

// checkMethods checks the member functions of sd (after its fields).
func (c *checker) checkMethods(sd *StructDecl) {
	saved, savedScope := c.curFunc, c.methodScope
	defer func() { c.curFunc, c.methodScope = saved, savedScope }()
	// The signatures first, so that a method may call one declared after
	// it (a member function body is a complete-class context in C++).
	// Overloads are member functions of one name with different
	// parameter types; a declaration without a body is defined out of
	// line (member_outofline.go).
	var ok []*FuncDecl
	for _, f := range sd.Methods {
		if f.Mods&ModStatic == 0 {
			if sd.Name == "" {
				c.rep.errorf(f.NamePos, f.NamePos.advance(len(f.Name)), "member function '%s' of an anonymous struct", f.Name)
				continue
			}
			f.Params = append([]*VarDecl{thisParam(sd, f.NamePos)}, f.Params...)
		} else {
			f.static = true
		}
		f.Mods &^= ModStatic
		f.Ret = c.resolveSpec(f.RetSpec, nil)
		for _, p := range f.Params {
			c.checkVarType(p)
		}
		if g := sameMember(ok, f); g != nil {
			c.rep.add(Diagnostic{Severity: Error, Pos: f.NamePos, End: f.NamePos.advance(len(f.Name)),
				Message: fmt.Sprintf("class member '%s' cannot be redeclared", f.Name),
				Notes:   []Diagnostic{note(g.NamePos, "previous declaration is here")}})
			continue
		}
		f.Def = nil
		if f.Body != nil {
			f.Def = f
		}
		ok = append(ok, f)
	}
	sd.Methods = ok
	var bodies []*FuncDecl
	for _, f := range ok {
		if f.Body != nil {
			bodies = append(bodies, f)
		}
	}
	ok = bodies
	for _, f := range ok {
		c.curFunc = nil
		c.checkFunc(f)
	}
}

// methods returns the member functions name of sd or, when sd has none,
// of its nearest base that has some (a base's member functions apply to a
// derived object, which starts with the base's fields; a name declared in
// the derived struct hides the base's, as in C++), or nil.
func (sd *StructDecl) methods(name string) []*FuncDecl {
	for s := sd; s != nil; s = s.baseDecl {
		var fs []*FuncDecl
		for _, f := range s.Methods {
			if f.Name == name {
				fs = append(fs, f)
			}
		}
		if len(fs) > 0 {
			return fs
		}
	}
	return nil
}

// thisParam is the implicit object parameter of a member function of sd.
func thisParam(sd *StructDecl, at Pos) *VarDecl {
	return &VarDecl{span: span{at, at}, Name: "this", NamePos: at,
		Spec: &TypeSpec{span: span{at, at}, Name: sd.Name}, Kind: VarParam, Dir: DirInOut}
}

// sameMember returns the member function of fs with f's name and
// signature, or nil.
func sameMember(fs []*FuncDecl, f *FuncDecl) *FuncDecl {
	for _, g := range fs {
		if g.Name == f.Name && g.static == f.static && sameSignature(g, f) {
			return g
		}
	}
	return nil
}

// DerivesFrom reports whether sd is base or derives from it.
func (sd *StructDecl) DerivesFrom(base *StructDecl) bool {
	for s := sd; s != nil; s = s.baseDecl {
		if s == base {
			return true
		}
	}
	return false
}

// isStatic reports whether method f has no 'this'.
func (f *FuncDecl) isStatic() bool {
	return f.static || len(f.Params) == 0 || f.Params[0].Name != "this" || f.Params[0].Kind != VarParam
}

// sameStaticness reports whether the member functions fs are all static or
// all non-static (an overload set mixing them is not supported).
func sameStaticness(fs []*FuncDecl) bool {
	for _, f := range fs[1:] {
		if f.isStatic() != fs[0].isStatic() {
			return false
		}
	}
	return true
}

// memberField resolves a bare name inside a member function to this.name
// when no local or parameter of that name hides it; nil otherwise.
func (c *checker) memberField(e *Ident) Expr {
	f := c.curFunc
	if f == nil || f.Owner == nil {
		return nil
	}
	for i := len(c.scopes) - 1; i >= c.methodScope && i > 0; i-- {
		if _, ok := c.scopes[i].vars[e.Name]; ok {
			return nil
		}
	}
	if v := staticMember(f.Owner, e.Name); v != nil {
		v.Used = true
		return &Ident{exprBase: exprBase{span: e.span, T: v.Type}, Name: v.Name, Var: v}
	}
	if f.isStatic() {
		return nil
	}
	for _, fld := range f.Owner.Fields {
		if fld.Name == e.Name {
			return c.checkExpr(&Member{exprBase: exprBase{span: e.span}, X: &Ident{exprBase: exprBase{span: e.span}, Name: "this"}, Name: e.Name})
		}
	}
	return nil
}

// checkStructMethodCall resolves obj.f(args) on a struct object: a call of
// the member function with obj as 'this' (a static member function
// ignores obj), or a static data member read.
func (c *checker) checkStructMethodCall(e *MethodCall) Expr {
	sd := e.Recv.Type().Struct
	fs := sd.methods(e.Name)
	if fs == nil {
		c.errorf(e, "no member function named '%s' in '%s'", e.Name, e.Recv.Type())
		return e
	}
	if !sameStaticness(fs) {
		c.errorf(e, "overloads of '%s' mixing static and non-static member functions are not supported", e.Name)
		return e
	}
	call := &Call{exprBase: e.exprBase, Name: e.Name, NamePos: e.P, Args: e.Args}
	if !fs[0].isStatic() {
		call.Args = append([]Expr{e.Recv}, e.Args...)
	}
	c.resolveUserCall(call, fs)
	return call
}

// implicitMethodCall resolves f(args) inside a member function to
// this.f(args) (or the static member function f) when the struct has a
// member function f; nil otherwise.
func (c *checker) implicitMethodCall(e *Call) Expr {
	cur := c.curFunc
	if cur == nil || cur.Owner == nil {
		return nil
	}
	fs := cur.Owner.methods(e.Name)
	if fs == nil {
		return nil
	}
	if !sameStaticness(fs) {
		c.rep.errorf(e.NamePos, e.NamePos.advance(len(e.Name)), "overloads of '%s' mixing static and non-static member functions are not supported", e.Name)
		return e
	}
	if !fs[0].isStatic() {
		if cur.isStatic() {
			c.rep.errorf(e.NamePos, e.NamePos.advance(len(e.Name)), "call to non-static member function '%s' without an object", e.Name)
			return e
		}
		this := c.checkExpr(&Ident{exprBase: exprBase{span: span{e.NamePos, e.NamePos}}, Name: "this"})
		e.Args = append([]Expr{this}, e.Args...)
	}
	c.resolveUserCall(e, fs)
	return e
}

// qualifiedName is S::name in an expression: a static data member or, in
// a call, a static member function.
func (c *checker) qualifiedStatic(e *Ident, structName, member string) Expr {
	t, ok := c.lookupType(structName)
	if !ok || t.Kind != KindStruct {
		c.errorf(e, "'%s' is not a struct", structName)
		e.T = TypeError
		return e
	}
	v := staticMember(t.Struct, member)
	if v == nil {
		c.errorf(e, "no static member named '%s' in '%s'", member, structName)
		e.T = TypeError
		return e
	}
	v.Used = true
	e.Var, e.T = v, v.Type
	return e
}

// defineStatic checks the out-of-line definition T S::s = v; of a static
// data member: the member gets the initializer.
func (c *checker) defineStatic(d *VarDecl) {
	s, member, _ := strings.Cut(d.Name, "::")
	t, ok := c.lookupType(s)
	if !ok || t.Kind != KindStruct {
		c.rep.errorf(d.NamePos, d.NamePos.advance(len(s)), "'%s' is not a struct", s)
		return
	}
	v := staticMember(t.Struct, member)
	if v == nil || v.Name != d.Name {
		c.rep.errorf(d.NamePos, d.NamePos.advance(len(d.Name)), "no static data member named '%s' in '%s'", member, s)
		return
	}
	c.checkVarType(d)
	if !Identical(d.Type, v.Type) && !d.Type.IsError() {
		c.rep.errorf(d.NamePos, d.NamePos.advance(len(d.Name)), "definition of '%s' has type '%s', its declaration '%s'", d.Name, d.Type, v.Type)
		return
	}
	if v.Init != nil {
		c.rep.errorf(d.NamePos, d.NamePos.advance(len(d.Name)), "redefinition of '%s'", d.Name)
		return
	}
	if d.Init != nil {
		v.Init = c.checkInitializer(d.Init, v.Type)
		v.Const = nil
		c.foldVarConst(v)
	}
}

// qualifiedCall resolves S::f(args), a static member function; nil when
// the name is not qualified.
func (c *checker) qualifiedCall(e *Call) Expr {
	s, member, ok := strings.Cut(e.Name, "::")
	if !ok {
		return nil
	}
	t, ok := c.lookupType(s)
	if !ok || t.Kind != KindStruct {
		c.rep.errorf(e.NamePos, e.NamePos.advance(len(s)), "'%s' is not a struct", s)
		return e
	}
	fs := t.Struct.methods(member)
	if fs == nil {
		c.rep.errorf(e.NamePos, e.NamePos.advance(len(e.Name)), "no member function named '%s' in '%s'", member, s)
		return e
	}
	var static []*FuncDecl
	for _, f := range fs {
		if f.isStatic() {
			static = append(static, f)
		}
	}
	if static == nil {
		c.rep.errorf(e.NamePos, e.NamePos.advance(len(e.Name)), "call to non-static member function '%s' without an object", e.Name)
		return e
	}
	c.resolveUserCall(e, static)
	return e
}
