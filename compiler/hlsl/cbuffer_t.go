package hlsl

import "fmt"

// ConstantBuffer<T>: a global "ConstantBuffer<S> cb : register(b0);" is a
// constant buffer named cb holding one member cb of struct type S, so
// cb.member reads the member as a cbuffer member would (at the same D3D
// offsets: a struct starts a register and packs its members by the
// cbuffer rules). An array "ConstantBuffer<S> cbs[N] : register(b2)" is N
// such buffers, "cbs.0" … on b2…b(N+1) (and consecutive Vulkan bindings),
// indexed with constants (a uniform buffer cannot be selected per lane in
// SPIR-V). Multi-dimensional arrays and local or parameter
// ConstantBuffer<T> variables are outside the subset.

// isConstantBufferT reports whether v is declared ConstantBuffer<…> (and
// the name is not shadowed by a user type).
func (c *checker) isConstantBufferT(v *VarDecl) bool {
	if v.Spec == nil || v.Spec.Name != "ConstantBuffer" {
		return false
	}
	_, user := c.lookupType("ConstantBuffer")
	return !user
}

// checkConstantBufferT checks a global ConstantBuffer<T> declaration.
func (c *checker) checkConstantBufferT(v *VarDecl) {
	v.Type = TypeError
	bad := func(n Node, format string, args ...any) {
		c.errorf(n, format, args...)
		c.declareVar(v)
	}
	if len(v.Spec.Args) != 1 {
		bad(v.Spec, "'ConstantBuffer' takes one struct type argument")
		return
	}
	ts, ok := v.Spec.Args[0].(*TypeSpec)
	if id, isIdent := v.Spec.Args[0].(*Ident); isIdent {
		bad(id, "unknown type name '%s'", id.Name)
		return
	}
	if !ok {
		bad(v.Spec.Args[0], "'ConstantBuffer' takes a struct type, not a value")
		return
	}
	t := c.resolveSpec(ts, nil)
	if t.IsError() {
		c.declareVar(v)
		return
	}
	if t.Kind != KindStruct {
		bad(ts, "'ConstantBuffer' needs a struct type, not '%s'", t)
		return
	}
	if len(v.Dims) > 1 {
		bad(v, "arrays of ConstantBuffer<%s> with more than one dimension are not supported", t)
		return
	}
	if v.Mods&(ModStatic|ModGroupshared) != 0 {
		bad(v, "a ConstantBuffer cannot be static or groupshared")
		return
	}
	if v.Init != nil {
		bad(v.Init, "a ConstantBuffer cannot have an initializer")
		return
	}
	if len(v.Dims) == 1 {
		c.constantBufferArray(v, ts, t)
		return
	}
	v.Type = t
	cb := &CBuffer{span: v.span, Name: v.Name, Register: v.Register, Members: []*VarDecl{v}, Attrs: v.Attrs, Of: t}
	v.Register, v.Attrs, v.Buffer = nil, nil, cb
	if cb.Register != nil && cb.Register.Class != 'b' && cb.Register.Profile == "" {
		c.rep.errorf(cb.Register.P, cb.Register.E, "invalid register class '%c' for ConstantBuffer: expected 'b'", cb.Register.Class)
	}
	c.checkCBufferAttrs(cb)
	layoutBuffer(cb)
	c.declareVar(v)
	c.prog.Globals = append(c.prog.Globals, v)
	c.prog.Buffers = append(c.prog.Buffers, cb)
}

// constantBufferArray checks a one-dimensional array of ConstantBuffer<T>:
// one constant buffer per element.
func (c *checker) constantBufferArray(v *VarDecl, ts *TypeSpec, t *Type) {
	at := c.resolveSpec(ts, v.Dims)
	if at.IsError() || at.Kind != KindArray || at.Len < 1 {
		if !at.IsError() {
			c.errorf(v, "an array of ConstantBuffer<%s> needs a size", t)
		}
		v.Type = TypeError
		c.declareVar(v)
		return
	}
	v.Type = at
	holder := &CBuffer{span: v.span, Name: v.Name, Register: v.Register, Attrs: v.Attrs, Of: t}
	if holder.Register != nil && holder.Register.Class != 'b' && holder.Register.Profile == "" {
		c.rep.errorf(holder.Register.P, holder.Register.E, "invalid register class '%c' for ConstantBuffer: expected 'b'", holder.Register.Class)
	}
	c.checkCBufferAttrs(holder)
	for k := 0; k < at.Len; k++ {
		m := &VarDecl{span: v.span, Name: fmt.Sprintf("%s.%d", v.Name, k), NamePos: v.NamePos, Spec: v.Spec, Type: t, Kind: VarGlobal, Used: true}
		cb := &CBuffer{span: v.span, Name: m.Name, Members: []*VarDecl{m}, Of: t, Vk: holder.Vk, Array: v.Name, ArrayIndex: k, ArrayLen: at.Len}
		if r := v.Register; r != nil {
			rk := *r
			rk.Index += k
			cb.Register = &rk
		}
		if cb.Vk.HasBinding {
			cb.Vk.Binding += k
		}
		m.Buffer = cb
		layoutBuffer(cb)
		v.Elements = append(v.Elements, m)
		c.prog.Globals = append(c.prog.Globals, m)
		c.prog.Buffers = append(c.prog.Buffers, cb)
	}
	// The array itself is read-only like a cbuffer member; it lives only
	// in its elements' buffers.
	v.Register, v.Attrs, v.Buffer = nil, nil, holder
	c.declareVar(v)
}
