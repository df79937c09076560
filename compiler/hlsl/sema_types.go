package hlsl

// Resolution of written types (TypeSpec) to Types.

// resolveSpec resolves a written type (plus array dims) to a Type,
// reporting unknown and unsupported types at their use.
func (c *checker) resolveSpec(ts *TypeSpec, dims []Expr) *Type {
	t := c.resolveBase(ts)
	if maj := ts.Mods & (ModRowMajor | ModColumnMajor); maj != 0 && !t.IsError() {
		fixed := c.typedefMajority[ts.Name]
		switch {
		case !t.IsMatrix():
			c.errorf(ts, "'%s' can only be applied to matrix types, not '%s'", majorityName(maj), t)
			return TypeError
		case fixed != 0 && fixed != maj && ts.Struct == nil:
			c.errorf(ts, "'%s' conflicts with the %s storage of typedef '%s'", majorityName(maj), majorityName(fixed), ts.Name)
			return TypeError
		}
	}
	if ts.Mods&(ModUnorm|ModSnorm) != 0 && !t.IsError() && !t.IsFloat() {
		c.errorf(ts, "'unorm' and 'snorm' can only be applied to float types, not '%s'", t)
		return TypeError
	}
	if !t.IsError() && t.IsMatrix() {
		rm := c.rowMajor
		// A typedef keeps the majority in effect where it was declared.
		if fixed := c.typedefMajority[ts.Name]; fixed != 0 && ts.Struct == nil {
			rm = fixed == ModRowMajor
		}
		if ts.Mods&ModRowMajor != 0 {
			rm = true
		} else if ts.Mods&ModColumnMajor != 0 {
			rm = false
		}
		t = matrixOf(t.Elem, t.Rows, t.Cols, rm)
	}
	if ts.Mods&ModRowMajor != 0 && ts.Mods&ModColumnMajor != 0 {
		c.errorf(ts, "'row_major' and 'column_major' cannot both be specified")
	}
	if len(dims) > 0 && t.Kind == KindArray && t.Len < 0 {
		c.errorf(ts, "only the first array dimension can be implicit (type '%s' is an unsized array)", ts.Name)
		return TypeError
	}
	return c.applyDims(t, dims)
}

func majorityName(m Modifiers) string {
	if m&ModRowMajor != 0 {
		return "row_major"
	}
	return "column_major"
}

// applyDims wraps t in array types for dims (outermost first). An unsized
// first dimension yields Len -1, completed from the initializer by
// sizeFromInit.
func (c *checker) applyDims(t *Type, dims []Expr) *Type {
	for i := len(dims) - 1; i >= 0; i-- {
		d := dims[i]
		if t.IsError() {
			return TypeError
		}
		if d == nil {
			if i != 0 {
				c.rep.errorf(Pos{}, Pos{}, "only the first array dimension can be implicit")
				return TypeError
			}
			return &Type{Kind: KindArray, Elem: t, Len: -1} // sized from the initializer
		}
		n, ok := c.constInt(d, "array size")
		if !ok {
			return TypeError
		}
		if n <= 0 {
			c.errorf(d, "array size must be positive (is %d)", n)
			return TypeError
		}
		if n > 1<<16 {
			c.errorf(d, "array size %d is too large", n)
			return TypeError
		}
		if t.Kind == KindVoid {
			c.errorf(d, "array has incomplete element type 'void'")
			return TypeError
		}
		t = ArrayOf(t, int(n))
	}
	return t
}

func (c *checker) resolveBase(ts *TypeSpec) *Type {
	if ts.Resolved != nil {
		return ts.Resolved
	}
	t := c.resolveBaseUncached(ts)
	ts.Resolved = t
	return t
}

func (c *checker) resolveBaseUncached(ts *TypeSpec) *Type {
	if ts.Name == "[]" { // cast to array type
		if len(ts.Args) == 0 {
			return TypeError
		}
		elem, _ := ts.Args[0].(*TypeSpec)
		if elem == nil {
			return TypeError
		}
		var dims []Expr
		for _, a := range ts.Args[1:] {
			if e, ok := a.(Expr); ok {
				dims = append(dims, e)
			}
		}
		return c.applyDims(c.resolveSpec(elem, nil), dims)
	}
	if ts.Struct != nil {
		c.checkStruct(ts.Struct)
		if ts.Struct.Type == nil {
			return TypeError
		}
		return ts.Struct.Type
	}
	if ts.Name == "<error>" || ts.Name == "" {
		return TypeError
	}
	if ts.StructRef {
		if t, ok := c.lookupType(ts.Name); !ok || t.Kind != KindStruct || t.Struct.Name != ts.Name {
			c.errorf(ts, "'%s' is not a struct", ts.Name)
			return TypeError
		}
	}
	if t, ok := c.lookupType(ts.Name); ok {
		if t.Kind == KindStruct && !t.Struct.done {
			c.errorf(ts, "incomplete type '%s' is not allowed here", ts.Name)
			return TypeError
		}
		if len(ts.Args) > 0 {
			c.errorf(ts, "'%s' is not a template", ts.Name)
		}
		return t
	}
	if base, rows, cols, ok := builtinTypeName(ts.Name); ok {
		s := scalarByName[base]
		if m, ok := sixtyFourBitScalars[base]; ok {
			s = m
		} else if m, ok := sixteenBitScalars[base]; ok && c.opts.Enable16BitTypes {
			s = m
		} else if m, ok := minPrecisionScalars[base]; ok && !c.opts.Enable16BitTypes {
			s = m
		} else if only16BitScalars[base] && !c.opts.Enable16BitTypes {
			c.errorf(ts, "'%s' requires -enable-16bit-types", ts.Name)
			return TypeError
		}
		switch {
		case rows > 0:
			return MatrixOf(s, rows, cols)
		case cols > 0:
			return VectorOf(s, cols)
		}
		return s
	}
	switch ts.Name {
	case "void":
		return TypeVoid
	case "vector":
		return c.resolveVectorTemplate(ts)
	case "matrix":
		return c.resolveMatrixTemplate(ts)
	}
	if rk, ok := resourceByName[ts.Name]; ok {
		return c.resolveResource(ts, rk)
	}
	if rk, ok := sm1TextureTypes[ts.Name]; ok && c.opts.SM1Textures {
		return c.resolveResource(ts, rk)
	}
	if _, ok := unsupportedObjects[ts.Name]; ok {
		c.errorf(ts, "unsupported type '%s'", ts.Name)
		return TypeError
	}
	c.errorf(ts, "unknown type name '%s'", ts.Name)
	return TypeError
}

// templateScalar resolves a template argument that must be a scalar type.
func (c *checker) templateScalar(ts *TypeSpec, i int) *Type {
	if i >= len(ts.Args) {
		return nil
	}
	a, ok := ts.Args[i].(*TypeSpec)
	if !ok {
		c.errorf(ts.Args[i], "template argument for '%s' must be a type", ts.Name)
		return TypeError
	}
	t := c.resolveSpec(a, nil)
	if t.IsError() {
		return TypeError
	}
	if !t.IsScalar() {
		c.errorf(a, "'%s' is not a scalar type: '%s' requires a scalar element type", t, ts.Name)
		return TypeError
	}
	return t
}

// templateInt resolves a template argument that must be an integer 1..4.
func (c *checker) templateInt(ts *TypeSpec, i int) (int, bool) {
	e, ok := ts.Args[i].(Expr)
	if !ok {
		c.errorf(ts.Args[i], "template argument for '%s' must be an integer constant", ts.Name)
		return 0, false
	}
	n, ok := c.constInt(e, "template argument")
	if !ok {
		return 0, false
	}
	if n < 1 || n > 4 {
		c.errorf(e, "%s dimension must be between 1 and 4 (is %d)", ts.Name, n)
		return 0, false
	}
	return int(n), true
}

// resolveVectorTemplate resolves vector<T, N>. DXC declares the template
// with defaults (template <typename element = float, int element_count =
// 4>; ASTContextHLSL.cpp), so vector, vector<T> and vector<T, N> are all
// valid (docs/hlsl-rules.md, type.template).
func (c *checker) resolveVectorTemplate(ts *TypeSpec) *Type {
	if len(ts.Args) > 2 {
		c.errorf(ts, "too many template arguments for 'vector' (element type and size)")
		return TypeError
	}
	s, n, ok := TypeFloat, 4, true
	if len(ts.Args) > 0 {
		s = c.templateScalar(ts, 0)
	}
	if len(ts.Args) > 1 {
		n, ok = c.templateInt(ts, 1)
	}
	if s.IsError() || !ok {
		return TypeError
	}
	return VectorOf(s, n)
}

// resolveMatrixTemplate resolves matrix<T, R, C>, with the defaults
// float, 4 and 4 as for vector.
func (c *checker) resolveMatrixTemplate(ts *TypeSpec) *Type {
	if len(ts.Args) > 3 {
		c.errorf(ts, "too many template arguments for 'matrix' (element type, rows and columns)")
		return TypeError
	}
	s, dims, ok := TypeFloat, [2]int{4, 4}, true
	if len(ts.Args) > 0 {
		s = c.templateScalar(ts, 0)
	}
	for i := 1; i < len(ts.Args); i++ {
		var k bool
		dims[i-1], k = c.templateInt(ts, i)
		ok = ok && k
	}
	if s.IsError() || !ok {
		return TypeError
	}
	return MatrixOf(s, dims[0], dims[1])
}

func (c *checker) resolveResource(ts *TypeSpec, rk ResourceKind) *Type {
	t := &Type{Kind: KindResource, Resource: rk}
	if !rk.Templated() {
		if len(ts.Args) > 0 {
			c.errorf(ts, "'%s' is not a template", ts.Name)
		}
		return t
	}
	if len(ts.Args) == 0 {
		if rk == ResBuffer || rk == ResRWBuffer || rk.IsTexture() {
			t.Elem = VectorOf(TypeFloat, 4)
			return t
		}
		c.errorf(ts, "'%s' requires an element type template argument", ts.Name)
		return TypeError
	}
	if rk.IsMSTexture() && len(ts.Args) == 2 {
		// Texture2DMS<T, samples>: the sample count must be a constant.
		e, ok := ts.Args[1].(Expr)
		if !ok {
			c.errorf(ts.Args[1], "template argument for '%s' must be an integer constant", ts.Name)
			return TypeError
		}
		n, ok := c.constInt(e, "sample count")
		if !ok {
			return TypeError
		}
		if n < 1 || n > 128 {
			c.errorf(e, "the sample count of '%s' must be between 1 and 128 (is %d)", ts.Name, n)
			return TypeError
		}
		t.Len = int(n)
	} else if len(ts.Args) != 1 {
		c.errorf(ts, "'%s' takes one template argument", ts.Name)
		return TypeError
	}
	a, ok := ts.Args[0].(*TypeSpec)
	if !ok {
		c.errorf(ts.Args[0], "template argument for '%s' must be a type", ts.Name)
		return TypeError
	}
	elem := c.resolveSpec(a, nil)
	if elem.IsError() {
		return TypeError
	}
	switch {
	case elem.ContainsResource() || elem.Kind == KindVoid:
		c.errorf(a, "'%s' is not a valid element type for '%s'", elem, ts.Name)
		return TypeError
	case (rk == ResBuffer || rk == ResRWBuffer || rk.IsTexture()) && !(elem.IsScalar() || elem.IsVector()):
		c.errorf(a, "elements of typed buffer '%s' must be scalars or vectors, not '%s'", ts.Name, elem)
		return TypeError
	case (rk == ResBuffer || rk == ResRWBuffer || rk.IsTexture()) && elem.Dim() > 4:
		c.errorf(a, "elements of typed buffer '%s' must fit in 4 components", ts.Name)
		return TypeError
	}
	t.Elem = elem
	return t
}

// --- declarations -----------------------------------------------------------
