package hlsl

import "strings"

// Textures and samplers. A texture (Texture1D … TextureCubeArray) is a
// read-only resource in a t register whose element type defaults to
// float4; a sampler (SamplerState, SamplerComparisonState) is a resource
// in an s register without element type. Their methods are checked here
// with DXC's overloads: the optional offset of Load and the Sample family
// is chosen by argument count.

// IsTexture reports whether r is a texture kind.
// Read-write textures are textures too (rwtexture.go).
func (r ResourceKind) IsTexture() bool {
	return r >= ResTexture1D && r <= ResTextureCubeArray || r.IsRWTexture() || r.IsMSTexture()
}

// IsSampler reports whether r is a sampler kind.
func (r ResourceKind) IsSampler() bool {
	return r == ResSamplerState || r == ResSamplerComparisonState
}

// RegisterClass is the register letter a global of kind r binds to.
func (r ResourceKind) RegisterClass() byte {
	switch {
	case r.IsSampler():
		return 's'
	case r.Writable():
		return 'u'
	}
	return 't'
}

// TexShape describes a texture kind's addressing: Coords is the number of
// sampling coordinates including the array index, Offsets the number of
// texel-offset components (0: offsets not allowed, cube maps), Array and
// Cube say what the coordinates mean, Dims the size components that
// GetDimensions returns before the level count (width, height, depth or
// elements).
type TexShape struct {
	Coords, Offsets, Dims int
	Array, Cube           bool
}

// Shape returns the addressing of texture kind r.
func (r ResourceKind) Shape() TexShape {
	switch r.srvKind() {
	case ResTexture1D:
		return TexShape{Coords: 1, Offsets: 1, Dims: 1}
	case ResTexture1DArray:
		return TexShape{Coords: 2, Offsets: 1, Dims: 2, Array: true}
	case ResTexture2D:
		return TexShape{Coords: 2, Offsets: 2, Dims: 2}
	case ResTexture2DArray:
		return TexShape{Coords: 3, Offsets: 2, Dims: 3, Array: true}
	case ResTexture3D:
		return TexShape{Coords: 3, Offsets: 3, Dims: 3}
	case ResTextureCube:
		return TexShape{Coords: 3, Dims: 2, Cube: true}
	case ResTextureCubeArray:
		return TexShape{Coords: 4, Dims: 3, Array: true, Cube: true}
	}
	return TexShape{}
}

// gradDims is the component count of SampleGrad's derivatives: the
// coordinates without the array index.
func (s TexShape) gradDims() int {
	if s.Array {
		return s.Coords - 1
	}
	return s.Coords
}

// vecOrScalar is n components of s (s itself for n == 1).
func vecOrScalar(s *Type, n int) *Type {
	if n == 1 {
		return s
	}
	return VectorOf(s, n)
}

// textureMethod returns the signature of texture method name called with
// nargs arguments (nil: no such method or overload; the caller reports
// the expected count from the longest overload).
func textureMethod(t *Type, name string, nargs int) *Method {
	if t.Resource.IsRWTexture() {
		return rwTextureMethod(t, name, nargs)
	}
	if t.Resource.IsMSTexture() {
		return msTextureMethod(t, name, nargs)
	}
	sh := t.Resource.Shape()
	f, i, u := TypeFloat, TypeInt, TypeUint
	samp := &Type{Kind: KindResource, Resource: ResSamplerState}
	cmpSamp := &Type{Kind: KindResource, Resource: ResSamplerComparisonState}
	coord := vecOrScalar(f, sh.Coords)
	var off *Type
	if sh.Offsets > 0 {
		off = vecOrScalar(i, sh.Offsets)
	}
	m := func(ret *Type, params ...*Type) *Method {
		return &Method{Name: name, Params: params, Out: make([]bool, len(params)), Ret: ret}
	}
	// withOffset picks the overload with or without the trailing offset.
	withOffset := func(ret *Type, params ...*Type) *Method {
		if off != nil && nargs == len(params)+1 {
			params = append(params, off)
		}
		return m(ret, params...)
	}
	switch name {
	case "Load":
		if sh.Cube {
			return nil
		}
		return withOffset(t.Elem, vecOrScalar(i, sh.Coords+1))
	case "operator[]":
		if sh.Cube {
			return nil
		}
		return m(t.Elem, vecOrScalar(u, sh.Coords))
	case "Sample":
		return withOffset(t.Elem, samp, coord)
	case "SampleLevel", "SampleBias":
		return withOffset(t.Elem, samp, coord, f)
	case "SampleGrad":
		g := vecOrScalar(f, sh.gradDims())
		return withOffset(t.Elem, samp, coord, g, g)
	case "CalculateLevelOfDetail", "CalculateLevelOfDetailUnclamped":
		// The level of detail Sample would use at coord (without the
		// array index): from the quad's derivatives.
		if t.Resource == ResTextureCube || t.Resource == ResTextureCubeArray {
			return m(f, samp, vecOrScalar(f, 3))
		}
		return m(f, samp, vecOrScalar(f, sh.gradDims()))
	case "SampleCmp", "SampleCmpLevelZero":
		return withOffset(f, cmpSamp, coord, f)
	case "Gather", "GatherRed", "GatherGreen", "GatherBlue", "GatherAlpha",
		"GatherCmp", "GatherCmpRed", "GatherCmpGreen", "GatherCmpBlue", "GatherCmpAlpha":
		if t.Resource == ResTexture1D || t.Resource == ResTexture1DArray || t.Resource == ResTexture3D {
			return nil
		}
		ret, params := VectorOf(t.Elem.Scalar(), 4), []*Type{samp, coord}
		if IsGatherCmp(name) {
			ret, params = VectorOf(f, 4), []*Type{cmpSamp, coord, f}
		}
		if off != nil && nargs == len(params)+4 {
			// One offset per gathered texel.
			return m(ret, append(params, off, off, off, off)...)
		}
		return withOffset(ret, params...)
	case "GetDimensions":
		// (out size..., [out levels]) or (uint mip, out size..., out levels).
		n := sh.Dims
		var mm *Method
		if nargs == n+2 {
			params := append([]*Type{u}, repeatType(u, n+1)...)
			mm = m(TypeVoid, params...)
			for k := 1; k < len(params); k++ {
				mm.Out[k] = true
			}
			return mm
		}
		mm = m(TypeVoid, repeatType(u, n)...)
		for k := range mm.Out {
			mm.Out[k] = true
		}
		return mm
	}
	return nil
}

func repeatType(t *Type, n int) []*Type {
	out := make([]*Type, n)
	for k := range out {
		out[k] = t
	}
	return out
}

// GatherChannel is the component a Gather or GatherCmp method reads (0
// for Gather, GatherRed, GatherCmp and GatherCmpRed).
func GatherChannel(name string) int {
	switch strings.TrimPrefix(name, "GatherCmp") {
	case "Green", "GatherGreen":
		return 1
	case "Blue", "GatherBlue":
		return 2
	case "Alpha", "GatherAlpha":
		return 3
	}
	return 0
}

// IsGatherCmp reports whether a texture method is a GatherCmp variant.
func IsGatherCmp(name string) bool { return strings.HasPrefix(name, "GatherCmp") }
