package hlsl

import "fmt"

// Templated loads and stores on byte address buffers (DXC, SM 6.2+):
// buf.Load<T>(addr) and buf.Store<T>(addr, value) read and write a value
// of any numeric scalar, vector, matrix, array or struct type T at byte
// address addr (docs/hlsl-rules.md, decl.raw-template). T's components
// are laid out packed in declaration order, each at its own size, with
// matrices in their memory orientation (column by column unless
// row_major), as DXC lays out Load<T> (its raw buffer layout is the
// structured buffer element layout: each component at its natural
// alignment). Components may be 16-, 32- or 64-bit numbers or bool (a
// 32-bit 0 or 1). The address must be aligned to T's largest component
// (DXC's rule); the low bits below 4 (2 for 16-bit components) are
// ignored, as the hardware ignores them.

// parseMethodTypeArg parses "<T>" after a method name when a type follows
// the '<' (buf.Load<float4>(0)); nil otherwise.
func (p *parser) parseMethodTypeArg() *TypeSpec {
	if !p.at("<") || !p.isTypeName(p.peekN(1)) && !isStructKeyword(p.peekN(1).text) {
		return nil
	}
	lt := p.advance()
	saved := p.noGreater
	p.noGreater = true
	spec := p.parseTypeSpec()
	if !p.closeAngle() {
		p.errorNotes(p.tok().pos, p.tok().end(), []Diagnostic{note(lt.pos, "to match this '<'")}, "expected '>'")
	}
	p.noGreater = saved
	p.consumeCloseAngle()
	return spec
}

// resolveRawTemplate checks buf.Load<T>(addr) and buf.Store<T>(addr, v).
func (c *checker) resolveRawTemplate(e *MethodCall) Expr {
	rt := e.Recv.Type()
	t := c.resolveSpec(e.TypeArg, nil)
	if t.IsError() {
		return e
	}
	raw := rt.Resource == ResByteAddressBuffer || rt.Resource == ResRWByteAddressBuffer
	switch {
	case !raw || e.Name != "Load" && e.Name != "Store":
		c.errorf(e, "'%s' of '%s' takes no template argument: only Load<T> and Store<T> of a byte address buffer do", e.Name, rt)
		return e
	case e.Name == "Store" && rt.Resource != ResRWByteAddressBuffer:
		c.errorf(e, "no member function named 'Store' in '%s'", rt)
		return e
	}
	if why := rawTemplateType(t); why != "" {
		c.errorf(e.TypeArg, "'%s<%s>': %s", e.Name, t, why)
		return e
	}
	m := &Method{Name: e.Name, Raw: t}
	if e.Name == "Load" {
		m.Params, m.Ret = []*Type{TypeUint}, t
		if len(e.Args) == 2 {
			m.Params = append(m.Params, TypeUint) // out status (status.go)
		}
	} else {
		m.Params, m.Ret = []*Type{TypeUint, t}, TypeVoid
	}
	m.Out = make([]bool, len(m.Params))
	if e.Name == "Load" && len(m.Params) == 2 {
		m.Out[1] = true
		if !c.checkLvalue(e.Args[1]) {
			return e
		}
	}
	if len(e.Args) != len(m.Params) {
		c.errorf(e, "'%s<%s>' expects %d argument%s, have %d", e.Name, t, len(m.Params), pluralS(len(m.Params)), len(e.Args))
		return e
	}
	for i, a := range e.Args {
		if m.Out[i] {
			if !Identical(a.Type(), TypeUint) {
				c.errorf(a, "the status argument of '%s<%s>' must be a uint variable, not '%s'", e.Name, t, a.Type())
				return e
			}
			continue
		}
		e.Args[i] = c.coerce(a, m.Params[i], fmt.Sprintf("for argument %d of '%s<%s>'", i+1, e.Name, t))
	}
	e.Method = *m
	e.T = m.Ret
	return e
}

// deducedStore resolves buf.Store(addr, v) on a RWByteAddressBuffer, which
// DXC declares as a template (HLSL 2018 and later): Store<T> with T the
// type of v, so a float is stored as its bits, a double or a uint2 as 8
// bytes, a uint16_t as 2 (decl.raw-template). A uint v is the plain Store.
// An unsuffixed literal takes its default type: an integer literal is
// stored as the plain Store's uint (the same 4 bytes as DXC's int for
// every value that fits), a floating-point literal as float. nil when the
// call is not such a Store, or is the plain one.
func (c *checker) deducedStore(e *MethodCall) Expr {
	rt := e.Recv.Type()
	if rt.Kind != KindResource || rt.Resource != ResRWByteAddressBuffer || e.Name != "Store" || len(e.Args) != 2 {
		return nil
	}
	t := e.Args[1].Type()
	switch {
	case t.Kind == KindStruct || t.Kind == KindArray:
	case !t.IsNumeric() || Identical(t, TypeUint):
		return nil
	case isUntypedLiteral(e.Args[1]):
		if !t.IsScalar() || t.Kind != KindFloat {
			return nil
		}
		t = TypeFloat
		e.Args[1] = c.coerce(e.Args[1], t, "for argument 2 of 'Store'")
	}
	if why := rawTemplateType(t); why != "" {
		c.errorf(e.Args[1], "'Store' of '%s': %s", t, why)
		return e
	}
	e.Args[0] = c.coerce(e.Args[0], TypeUint, "for argument 1 of 'Store'")
	e.Method = Method{Name: "Store", Params: []*Type{TypeUint, t}, Out: []bool{false, false}, Ret: TypeVoid, Raw: t}
	e.T = TypeVoid
	return e
}

// rawTemplateType says why t cannot be T of Load<T>/Store<T>, or "".
func rawTemplateType(t *Type) string {
	switch t.Kind {
	case KindBool:
		return ""
	case KindInt, KindUint, KindFloat:
		if w := t.Width(); w != 16 && w != 32 && w != 64 {
			return fmt.Sprintf("%d-bit components are not supported", w)
		}
		return ""
	case KindVector, KindMatrix:
		return rawTemplateType(t.Elem)
	case KindArray:
		if t.Len < 0 {
			return "an unsized array cannot be loaded or stored"
		}
		return rawTemplateType(t.Elem)
	case KindStruct:
		for _, f := range t.Struct.Fields {
			if why := rawTemplateType(f.Type); why != "" {
				return why
			}
		}
		return ""
	case KindResource:
		return "a resource cannot be loaded or stored"
	}
	return fmt.Sprintf("'%s' cannot be loaded or stored", t)
}
