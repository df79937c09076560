package hlsl

// Multisampled textures (Texture2DMS<T[, samples]>, Texture2DMSArray):
// read-only textures in t registers read by texel and sample index:
// Load(int2 or int3 location, int sample[, int2 offset]), operator[]
// (sample 0) and GetDimensions(out width, out height[, out elements],
// out samples). The sample count in the type (Type.Len; 0 without one)
// makes distinct types, as in DXC at SM6; the bound texture has its own.

// IsMSTexture reports whether r is a multisampled texture kind.
func (r ResourceKind) IsMSTexture() bool { return r == ResTexture2DMS || r == ResTexture2DMSArray }

// msTextureMethod returns the signature of method name of multisampled
// texture type t (nil: no such method).
func msTextureMethod(t *Type, name string, nargs int) *Method {
	sh := t.Resource.Shape()
	i, u := TypeInt, TypeUint
	m := func(ret *Type, params ...*Type) *Method {
		return &Method{Name: name, Params: params, Out: make([]bool, len(params)), Ret: ret}
	}
	switch name {
	case "Load":
		if nargs == 3 {
			return m(t.Elem, VectorOf(i, sh.Coords), i, VectorOf(i, sh.Offsets))
		}
		return m(t.Elem, VectorOf(i, sh.Coords), i)
	case "operator[]":
		return m(t.Elem, VectorOf(u, sh.Coords))
	case "GetDimensions":
		mm := m(TypeVoid, repeatType(u, sh.Dims+1)...)
		for k := range mm.Out {
			mm.Out[k] = true
		}
		return mm
	}
	return nil
}
