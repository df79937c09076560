package hlsl

// Read-write textures (RWTexture1D, RWTexture1DArray, RWTexture2D,
// RWTexture2DArray, RWTexture3D): UAVs in u registers addressed by
// integer texel coordinates, with one level and no sampler. tex[coord]
// is an assignable element (an Index expression, like a buffer element:
// reads, writes, component writes and atomics); Load(coord) reads it
// and GetDimensions(out width[, out height][, out depth or layers])
// returns its size.

// IsRWTexture reports whether r is a read-write texture kind.
func (r ResourceKind) IsRWTexture() bool { return r >= ResRWTexture1D && r <= ResRWTexture3D }

// srvKind maps a read-write texture kind to the read-only kind of the
// same addressing (itself for other kinds).
func (r ResourceKind) srvKind() ResourceKind {
	switch r {
	case ResRWTexture1D:
		return ResTexture1D
	case ResRWTexture1DArray:
		return ResTexture1DArray
	case ResRWTexture2D:
		return ResTexture2D
	case ResRWTexture2DArray:
		return ResTexture2DArray
	case ResRWTexture3D:
		return ResTexture3D
	case ResTexture2DMS:
		return ResTexture2D
	case ResTexture2DMSArray:
		return ResTexture2DArray
	}
	return r
}

// rwTextureMethod returns the signature of method name of read-write
// texture type t (nil: no such method).
func rwTextureMethod(t *Type, name string, nargs int) *Method {
	sh := t.Resource.Shape()
	m := func(ret *Type, params ...*Type) *Method {
		return &Method{Name: name, Params: params, Out: make([]bool, len(params)), Ret: ret}
	}
	switch name {
	case "Load":
		return m(t.Elem, vecOrScalar(TypeInt, sh.Coords))
	case "operator[]":
		return m(t.Elem, vecOrScalar(TypeUint, sh.Coords))
	case "GetDimensions":
		mm := m(TypeVoid, repeatType(TypeUint, sh.Dims)...)
		for k := range mm.Out {
			mm.Out[k] = true
		}
		return mm
	}
	return nil
}

// checkRWTextureIndex checks tex[coord] on a read-write texture: the
// coordinate converts to uint with one component per texture coordinate,
// and the element is assignable (checkLvalue, isAtomicTarget).
func (c *checker) checkRWTextureIndex(e *Index) Expr {
	t := e.X.Type()
	want := rwTextureMethod(t, "operator[]", 1).Params[0]
	e.Index = c.coerce(e.Index, want, "for the coordinate of '"+t.String()+"'")
	if e.Index.Type().IsError() {
		e.T = TypeError
		return e
	}
	e.T = t.Elem
	return e
}
