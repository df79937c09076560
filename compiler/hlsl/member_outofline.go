package hlsl

import (
	"fmt"
	"strings"
)

// Out-of-line member function definitions (decl.struct-method): a struct
// declares `float f(int k);` and the file defines it later at the top
// level as `float S::f(int k) { … }`. As in C++, the definition must
// match a declaration of the struct (name, parameter types and
// directions, return type), comes once, does not repeat `static`, and
// its body is checked as a member function's: 'this' (unless the
// declaration is static), fields by name, the other member functions.
// Calls bind to the declaration, which shares the definition (Def), as
// prototypes of free functions do; a called declaration that is never
// defined is "declared but never defined".

// defineMethod checks the out-of-line definition d, named "S::f".
func (c *checker) defineMethod(d *FuncDecl) {
	sname, member, _ := strings.Cut(d.Name, "::")
	at, end := d.NamePos, d.NamePos.advance(len(d.Name))
	t, ok := c.lookupType(sname)
	if !ok || t.Kind != KindStruct {
		c.rep.errorf(at, at.advance(len(sname)), "'%s' is not a struct", sname)
		return
	}
	sd := t.Struct
	if d.Mods&ModStatic != 0 {
		c.rep.errorf(at, end, "'static' can only be specified inside the struct definition")
		return
	}
	if d.Body == nil {
		c.rep.errorf(at, end, "out-of-line declaration of member function '%s' is not a definition", d.Name)
		return
	}
	d.Ret = c.resolveSpec(d.RetSpec, nil)
	for _, p := range d.Params {
		c.checkVarType(p)
	}
	var decl *FuncDecl
	for _, g := range sd.Methods {
		if g.Name != member {
			continue
		}
		params := g.Params
		if !g.isStatic() {
			params = params[1:]
		}
		if sameSignature(&FuncDecl{Params: params}, d) {
			decl = g
			break
		}
	}
	if decl == nil {
		c.rep.errorf(at, end, "out-of-line definition of '%s' does not match any declaration in '%s'", member, sname)
		return
	}
	if !Identical(decl.Ret, d.Ret) && !decl.Ret.IsError() && !d.Ret.IsError() {
		c.rep.add(Diagnostic{Severity: Error, Pos: at, End: end,
			Message: fmt.Sprintf("return type of out-of-line definition of '%s' differs from that in the declaration", d.Name),
			Notes:   []Diagnostic{note(decl.NamePos, "previous declaration is here")}})
		return
	}
	if decl.Def != nil {
		c.rep.add(Diagnostic{Severity: Error, Pos: at, End: end,
			Message: fmt.Sprintf("redefinition of '%s'", d.Name),
			Notes:   []Diagnostic{note(decl.Def.NamePos, "previous definition is here")}})
		return
	}
	d.Name, d.Owner, d.static = member, sd, decl.static
	if !decl.isStatic() {
		d.Params = append([]*VarDecl{thisParam(sd, d.NamePos)}, d.Params...)
	}
	decl.Def = d
	saved, savedScope := c.curFunc, c.methodScope
	c.curFunc = nil
	c.checkFunc(d) // sets d.Def = d and checks the body as a member function's
	c.curFunc, c.methodScope = saved, savedScope
}
