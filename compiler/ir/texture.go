package ir

// Textures and samplers in the IR. A texture is a read-only storage
// global whose value type is its texel type (what a read returns, e.g.
// <4 x f32>) and whose Kind names the HLSL texture type ("Texture2D",
// "TextureCubeArray", ...); a sampler is a storage global of type u32 with
// Kind "SamplerState" or "SamplerComparisonState". Neither is ever loaded
// or stored: their pointers are operands of the tex.* intrinsics, which
// the interpreter and the back ends resolve to the bound image and
// sampler (docs/ir.md, "Textures and samplers").

// TexShape is the addressing of a texture kind: Coords is the number of
// coordinates including the array layer, Offsets the number of
// texel-offset components (0 for cube maps: the offset operand is then
// i32 0), Dims the size components tex.dims returns before the level
// count (width, height, depth or layers).
type TexShape struct {
	Coords, Offsets, Dims int
	Array, Cube           bool
	// RW marks a read-write texture (RWTexture*): one level, read and
	// written with tex.read, tex.write and tex.texel (rwtexture.go).
	RW bool
	// MS marks a multisampled texture (Texture2DMS*): one level of
	// several samples, read with tex.load_ms; tex.dims's last component
	// is the sample count.
	MS bool
}

var texShapes = map[string]TexShape{
	"Texture1D":        {Coords: 1, Offsets: 1, Dims: 1},
	"Texture1DArray":   {Coords: 2, Offsets: 1, Dims: 2, Array: true},
	"Texture2D":        {Coords: 2, Offsets: 2, Dims: 2},
	"Texture2DArray":   {Coords: 3, Offsets: 2, Dims: 3, Array: true},
	"Texture3D":        {Coords: 3, Offsets: 3, Dims: 3},
	"TextureCube":      {Coords: 3, Dims: 2, Cube: true},
	"TextureCubeArray": {Coords: 4, Dims: 3, Array: true, Cube: true},
	"RWTexture1D":      {Coords: 1, Offsets: 1, Dims: 1, RW: true},
	"RWTexture1DArray": {Coords: 2, Offsets: 1, Dims: 2, Array: true, RW: true},
	"RWTexture2D":      {Coords: 2, Offsets: 2, Dims: 2, RW: true},
	"RWTexture2DArray": {Coords: 3, Offsets: 2, Dims: 3, Array: true, RW: true},
	"RWTexture3D":      {Coords: 3, Offsets: 3, Dims: 3, RW: true},
	"Texture2DMS":      {Coords: 2, Offsets: 2, Dims: 2, MS: true},
	"Texture2DMSArray": {Coords: 3, Offsets: 2, Dims: 3, Array: true, MS: true},
}

// TextureShape returns the shape of a texture global's Kind, and false
// when kind is not a texture.
func TextureShape(kind string) (TexShape, bool) {
	s, ok := texShapes[kind]
	return s, ok
}

// IsSamplerKind reports whether a global's Kind is a sampler.
func IsSamplerKind(kind string) bool {
	return kind == "SamplerState" || kind == "SamplerComparisonState"
}

// IsImageGlobal reports whether g is a texture or a sampler (not memory).
func IsImageGlobal(g *Global) bool {
	_, tex := texShapes[g.Kind]
	return tex || IsSamplerKind(g.Kind)
}

func init() {
	const tex = AttrPure
	// Implicit-LOD sampling reads derivatives across a quad: convergent.
	const texQuad = AttrPure | AttrConvergent
	def("tex.load", tex, 4, 4, "tex.load(texture, <n x i32> coord, i32 mip, offset): the texel at coord+offset of level mip (HLSL Load and operator[]); 0 outside the texture")
	def("tex.sample", texQuad, 4, 4, "tex.sample(texture, sampler, <n x f32> coord, offset): filtered sample, level of detail from derivatives (level 0 without quads)")
	def("tex.sample_bias", texQuad, 5, 5, "tex.sample_bias(texture, sampler, coord, f32 bias, offset): tex.sample with the level of detail biased")
	def("tex.sample_level", tex, 5, 5, "tex.sample_level(texture, sampler, coord, f32 lod, offset): filtered sample at an explicit level of detail")
	def("tex.sample_grad", tex, 6, 6, "tex.sample_grad(texture, sampler, coord, ddx, ddy, offset): filtered sample, level of detail from the given gradients")
	def("tex.sample_cmp", texQuad, 5, 5, "tex.sample_cmp(texture, comparison sampler, coord, f32 ref, offset): filtered comparison of ref with the red channel (1 pass, 0 fail)")
	def("tex.sample_cmp_level_zero", tex, 5, 5, "tex.sample_cmp_level_zero(texture, comparison sampler, coord, f32 ref, offset): tex.sample_cmp at level 0")
	def("tex.gather", tex, 5, 5, "tex.gather(texture, sampler, coord, i32 channel, offset): one channel of the four texels bilinear filtering would use, as <4 x T> (i0j1, i1j1, i1j0, i0j0)")
	def("tex.gather_cmp", tex, 6, 6, "tex.gather_cmp(texture, comparison sampler, coord, i32 channel, f32 ref, offset): tex.gather of the comparisons ref OP texel (1 pass, 0 fail) as <4 x f32>")
	def("tex.load_ms", tex, 4, 4, "tex.load_ms(multisampled texture, <n x i32> coord, i32 sample, offset): sample `sample` of the texel at coord+offset (Texture2DMS Load); 0 outside the texture or its samples")
	def("tex.dims", tex, 2, 2, "tex.dims(texture, u32 mip): <Dims+1 x u32> of the level's width[, height][, depth or layers] and the level count")
}
