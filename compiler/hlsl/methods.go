package hlsl

import "fmt"

// Method is a resolved resource method: Name, the parameter types of this
// call (arguments converted to them), which parameters are out, and the
// result type.
type Method struct {
	Name   string
	Params []*Type
	Out    []bool
	Ret    *Type
	// Raw is the T of a byte address buffer's Load<T>/Store<T>
	// (rawbuffer.go).
	Raw *Type
}

// checkMethodCall checks recv.Name(args) on a buffer object.
func (c *checker) checkMethodCall(e *MethodCall) Expr {
	e.Recv = c.checkExpr(e.Recv)
	e.T = TypeError
	bad := e.Recv.Type().IsError()
	for i, a := range e.Args {
		if _, isList := a.(*InitList); isList {
			c.errorf(a, "initializer list cannot be used as a function argument")
			bad = true
			continue
		}
		e.Args[i] = c.checkExpr(a)
		bad = bad || e.Args[i].Type().IsError()
	}
	if bad {
		return e
	}
	r := c.resolveMethodCall(e)
	if c.curFunc != nil && e.Recv.Type().Kind == KindResource && !e.T.IsError() {
		c.methodCalls[c.curFunc] = append(c.methodCalls[c.curFunc], e)
	}
	return r
}

// resolveMethodCall resolves the checked receiver and arguments of e to a
// method and converts the arguments to its parameter types.
func (c *checker) resolveMethodCall(e *MethodCall) Expr {
	rt := e.Recv.Type()
	if rt.Kind == KindStruct {
		return c.checkStructMethodCall(e)
	}
	if rt.Kind != KindResource {
		c.errorf(e, "'%s' has no methods: member function call on type '%s'", e.Name, rt)
		return e
	}
	if e.TypeArg != nil {
		return c.resolveRawTemplate(e)
	}
	if r := c.deducedStore(e); r != nil {
		return r
	}
	var m *Method
	if rt.Resource.IsTexture() {
		m = textureMethod(rt, e.Name, len(e.Args))
	} else {
		m = resourceMethod(rt, e.Name)
		if m == nil {
			m = atomic64Method(rt, e.Name, e.Args) // atomic64.go
		}
	}
	if m == nil {
		c.errorf(e, "no member function named '%s' in '%s'", e.Name, rt)
		return e
	}
	if atomicOptionalOut[e.Name] && len(e.Args) == len(m.Params)-1 {
		// The original-value out parameter is optional.
		m.Params, m.Out = m.Params[:len(e.Args)], m.Out[:len(e.Args)]
	}
	if statusLoad(rt, e.Name) && len(e.Args) == len(m.Params)+1 {
		// Load(…, out uint status) (status.go).
		m.Params, m.Out = append(m.Params, TypeUint), append(m.Out, true)
	}
	if len(e.Args) != len(m.Params) {
		c.errorf(e, "'%s' of '%s' expects %d argument%s, have %d", e.Name, rt, len(m.Params), pluralS(len(m.Params)), len(e.Args))
		return e
	}
	for i, a := range e.Args {
		if m.Out[i] {
			if !c.checkLvalue(a) {
				return e
			}
			if !Identical(a.Type(), m.Params[i]) {
				if ok, _, _ := convertible(m.Params[i], a.Type(), convImplicit, false); !ok {
					c.errorf(a, "cannot convert output argument of type '%s' to '%s'", a.Type(), m.Params[i])
					return e
				}
				e.Args[i] = buildConversion(a, m.Params[i])
			}
			continue
		}
		e.Args[i] = c.coerce(a, m.Params[i], fmt.Sprintf("for argument %d of '%s'", i+1, e.Name))
	}
	e.Method = *m
	e.T = m.Ret
	return e
}

// resourceMethod returns the signature of a method of resource type t.
func resourceMethod(t *Type, name string) *Method {
	m := func(ret *Type, params ...*Type) *Method {
		return &Method{Name: name, Params: params, Out: make([]bool, len(params)), Ret: ret}
	}
	outs := func(mm *Method, idx ...int) *Method {
		for _, i := range idx {
			mm.Out[i] = true
		}
		return mm
	}
	u := TypeUint
	rk := t.Resource
	switch rk {
	case ResBuffer, ResRWBuffer:
		switch name {
		case "Load":
			return m(t.Elem, TypeInt)
		case "GetDimensions":
			return outs(m(TypeVoid, u), 0)
		}
	case ResStructuredBuffer, ResRWStructuredBuffer:
		switch name {
		case "Load":
			return m(t.Elem, TypeInt)
		case "GetDimensions":
			return outs(m(TypeVoid, u, u), 0, 1)
		case "IncrementCounter", "DecrementCounter":
			if rk == ResRWStructuredBuffer {
				return m(u)
			}
		}
	case ResAppendStructuredBuffer:
		switch name {
		case "Append":
			return m(TypeVoid, t.Elem)
		case "GetDimensions":
			return outs(m(TypeVoid, u, u), 0, 1)
		}
	case ResConsumeStructuredBuffer:
		switch name {
		case "Consume":
			return m(t.Elem)
		case "GetDimensions":
			return outs(m(TypeVoid, u, u), 0, 1)
		}
	case ResByteAddressBuffer, ResRWByteAddressBuffer:
		switch name {
		case "Load":
			return m(u, u)
		case "Load2", "Load3", "Load4":
			return m(VectorOf(u, int(name[4]-'0')), u)
		case "GetDimensions":
			return outs(m(TypeVoid, u), 0)
		}
		if rk != ResRWByteAddressBuffer {
			return nil
		}
		switch name {
		case "Store":
			return m(TypeVoid, u, u)
		case "Store2", "Store3", "Store4":
			return m(TypeVoid, u, VectorOf(u, int(name[5]-'0')))
		case "InterlockedAdd", "InterlockedMin", "InterlockedMax", "InterlockedAnd",
			"InterlockedOr", "InterlockedXor", "InterlockedExchange":
			return outs(m(TypeVoid, u, u, u), 2)
		case "InterlockedCompareExchange":
			return outs(m(TypeVoid, u, u, u, u), 3)
		case "InterlockedCompareStore":
			return m(TypeVoid, u, u, u)
		}
	}
	return nil
}
