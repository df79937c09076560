package hlsl

// Initializers. HLSL flattens brace initializers: the components of all
// elements, in order, fill the components of the target in order, so
// {float2(1, 2), 3} initializes a float3 and {1, 2, 3, 4} a float2x2 or a
// struct { float2 a; float b[2]; }. Nested braces are only grouping.

// checkInitializer checks the initializer of a variable of type t and
// returns it converted (a plain expression) or annotated (an InitList).
func (c *checker) checkInitializer(init Expr, t *Type) Expr {
	il, isList := init.(*InitList)
	if !isList {
		x := c.checkExpr(init)
		if t.Kind == KindArray && t.Len < 0 {
			if xt := x.Type(); !xt.IsError() && !(xt.Kind == KindArray && Identical(xt.Elem, t.Elem)) {
				c.errorf(x, "array initializer must be an initializer list")
				return wrap(x, TypeError, CastNoop)
			}
			return x
		}
		return c.coerce(x, t, "in initialization")
	}
	var flat []Expr
	c.flattenInit(il, &flat)
	il.Elems = flat
	il.T = t
	total := 0
	for _, e := range flat {
		et := e.Type()
		if et.IsError() {
			il.T = TypeError
			return il
		}
		if et.ContainsResource() {
			if len(flat) == 1 && Identical(et, t) {
				return e
			}
			c.errorf(e, "resource of type '%s' cannot be used in an initializer list", et)
			il.T = TypeError
			return il
		}
		if !isFlattenable(et) {
			c.errorf(e, "'%s' cannot be used in an initializer list", et)
			il.T = TypeError
			return il
		}
		total += et.ComponentCount()
	}
	if t.IsError() {
		return il
	}
	if t.ContainsResource() {
		c.errorf(il, "cannot initialize '%s' with an initializer list", t)
		il.T = TypeError
		return il
	}
	if t.Kind == KindArray && t.Len < 0 {
		return il // sized by the caller from the component count
	}
	want := t.ComponentCount()
	if total != want {
		what := "few"
		if total > want {
			what = "many"
		}
		c.errorf(il, "too %s initializers in list for type '%s' (expected %d but was %d)", what, t, want, total)
		il.T = TypeError
		return il
	}
	// Convert numeric elements whose components all land in components of
	// one scalar type, so lowering rarely has to convert.
	scalars := t.FlatScalars(nil)
	pos := 0
	for i, e := range flat {
		et := e.Type()
		n := et.ComponentCount()
		if et.IsNumeric() && pos+n <= len(scalars) {
			s := scalars[pos]
			uniform := true
			for _, x := range scalars[pos : pos+n] {
				uniform = uniform && x == s
			}
			if uniform && !Identical(et.Scalar(), s) {
				flat[i] = buildConversion(e, et.WithScalar(s))
			}
		}
		pos += n
	}
	return il
}

// flattenInit checks the elements of a (possibly nested) initializer list
// and appends them, without braces, to out.
func (c *checker) flattenInit(il *InitList, out *[]Expr) {
	for _, e := range il.Elems {
		if sub, ok := e.(*InitList); ok {
			c.flattenInit(sub, out)
			continue
		}
		*out = append(*out, c.checkExpr(e))
	}
}

// componentsOf returns the number of scalar components an initializer
// provides.
func componentsOf(e Expr) int {
	if il, ok := e.(*InitList); ok {
		n := 0
		for _, x := range il.Elems {
			n += componentsOf(x)
		}
		return n
	}
	if e.Type() == nil {
		return 0
	}
	return e.Type().ComponentCount()
}
