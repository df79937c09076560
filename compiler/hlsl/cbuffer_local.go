package hlsl

// Local ConstantBuffer<T> variables (ConstantBuffer<S> cb = CBs[i];): DXC
// lets a local hold a constant buffer, which every use reads. passlens
// gives the local the type T and a copy of the buffer's contents: constant
// buffers are read-only, so reading the copy is reading the buffer. The
// local is const (docs/hlsl-rules.md, decl.cbuffer-local). A dynamic index
// into an array of ConstantBuffer<T> as a whole value is a select among
// the elements' values (lower/lower_cbuffer_local.go).
func (c *checker) localConstantBuffer(v *VarDecl) {
	v.Type = TypeError
	if len(v.Spec.Args) != 1 {
		c.errorf(v.Spec, "'ConstantBuffer' takes one struct type argument")
		return
	}
	ts, ok := v.Spec.Args[0].(*TypeSpec)
	if !ok {
		c.errorf(v.Spec.Args[0], "'ConstantBuffer' takes a struct type, not a value")
		return
	}
	t := c.resolveSpec(ts, v.Dims)
	if t.IsError() {
		return
	}
	if t.Kind != KindStruct {
		c.errorf(ts, "a local ConstantBuffer needs a struct type, not '%s'", t)
		return
	}
	if v.Init == nil {
		c.rep.errorf(v.NamePos, v.NamePos.advance(len(v.Name)), "local ConstantBuffer '%s' must be initialized", v.Name)
	} else if !c.namesConstantBuffer(v.Init) {
		// DXC at SM6 rejects a plain value (vkd3d cbuffer.shader_test,
		// "ConstantBuffer<s> cb = (s)1;", fail(sm>=6)).
		c.errorf(v.Init, "cannot initialize a variable of type 'ConstantBuffer<%s>' with a value that is not a ConstantBuffer", t)
		return
	}
	v.Type = t
	v.Mods |= ModConst
}

// namesConstantBuffer reports whether e (not yet checked) is a constant
// buffer: a ConstantBuffer<T> global or local, or an element of an array
// of them.
func (c *checker) namesConstantBuffer(e Expr) bool {
	if ix, ok := e.(*Index); ok {
		e = ix.X
	}
	id, ok := e.(*Ident)
	if !ok {
		return false
	}
	v := c.lookupVar(id.Name)
	return v != nil && v.Spec != nil && v.Spec.Name == "ConstantBuffer"
}
