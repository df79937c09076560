package interp

// This file turns the "textures" and "samplers" of the run input into the
// images and sampler states that tex.* intrinsics read (texture.go), and
// binds them to the module's texture and sampler globals (ir/texture.go)
// by name or by (set, binding).

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	"passlens/compiler/ir"
)

// TextureInput is the data of one texture (docs/run.md): its format, the
// size of level 0 and the texels of each mip level, level 0 first. A
// level's data lists the texels row by row (x fastest, then y, then the
// depth slice or array layer; a cube map's layers are its faces +X, -X,
// +Y, -Y, +Z, -Z, then the next cube), each texel as its channels: raw
// integers for UNORM/SNORM/UINT/SINT formats (0..255 for R8_UNORM), numbers
// for FLOAT formats.
type TextureInput struct {
	Name    string `json:"name,omitempty"`
	Set     *int   `json:"set,omitempty"`
	Binding *int   `json:"binding,omitempty"`
	Format  string `json:"format"`
	Width   int    `json:"width"`
	Height  int    `json:"height,omitempty"`
	// Depth is the depth of a 3D texture; Layers the array size of an
	// array texture (for cube maps: faces, a multiple of 6).
	Depth  int     `json:"depth,omitempty"`
	Layers int     `json:"layers,omitempty"`
	Levels [][]any `json:"levels"`
	// Samples holds a multisampled texture's (Texture2DMS*) data instead
	// of Levels: one list per sample, each laid out as a level.
	Samples [][]any `json:"samples,omitempty"`
}

// SamplerInput is one sampler state (docs/run.md). Filters are "point"
// or "linear" (Filter sets all three); address modes "wrap", "mirror",
// "clamp", "border" or "mirror_once"; Comparison one of "never", "less",
// "equal", "less_equal", "greater", "not_equal", "greater_equal",
// "always". The defaults are D3D11's: linear filtering, clamp addressing,
// border colour 0, comparison never, no LOD clamp or bias.
type SamplerInput struct {
	Name        string    `json:"name,omitempty"`
	Set         *int      `json:"set,omitempty"`
	Binding     *int      `json:"binding,omitempty"`
	Filter      string    `json:"filter,omitempty"`
	MinFilter   string    `json:"min_filter,omitempty"`
	MagFilter   string    `json:"mag_filter,omitempty"`
	MipFilter   string    `json:"mip_filter,omitempty"`
	AddressU    string    `json:"address_u,omitempty"`
	AddressV    string    `json:"address_v,omitempty"`
	AddressW    string    `json:"address_w,omitempty"`
	BorderColor []float64 `json:"border_color,omitempty"`
	Comparison  string    `json:"comparison,omitempty"`
	MinLOD      *float64  `json:"min_lod,omitempty"`
	MaxLOD      *float64  `json:"max_lod,omitempty"`
	MipLODBias  float64   `json:"mip_lod_bias,omitempty"`
}

// texFormat is how a format stores and decodes a texel.
type texFormat struct {
	channels int
	kind     byte // 'u' unorm, 's' snorm, 'f' float, 'U' uint, 'I' sint
	bits     int  // bits per channel (unorm/snorm range; 32 for the rest)
}

var texFormats = map[string]texFormat{
	"R8_UNORM": {1, 'u', 8}, "RG8_UNORM": {2, 'u', 8}, "RGBA8_UNORM": {4, 'u', 8},
	"R8_SNORM": {1, 's', 8}, "RG8_SNORM": {2, 's', 8}, "RGBA8_SNORM": {4, 's', 8},
	"R16_UNORM": {1, 'u', 16}, "RG16_UNORM": {2, 'u', 16}, "RGBA16_UNORM": {4, 'u', 16},
	"R32F": {1, 'f', 32}, "RG32F": {2, 'f', 32}, "RGBA32F": {4, 'f', 32},
	"R32UI": {1, 'U', 32}, "RG32UI": {2, 'U', 32}, "RGBA32UI": {4, 'U', 32},
	"R32I": {1, 'I', 32}, "RG32I": {2, 'I', 32}, "RGBA32I": {4, 'I', 32},
}

// formatAliases are the DXGI spellings of the formats.
var formatAliases = map[string]string{
	"R8G8_UNORM": "RG8_UNORM", "R8G8B8A8_UNORM": "RGBA8_UNORM", "R8G8_SNORM": "RG8_SNORM",
	"R8G8B8A8_SNORM": "RGBA8_SNORM", "R16G16_UNORM": "RG16_UNORM", "R16G16B16A16_UNORM": "RGBA16_UNORM",
	"R32_FLOAT": "R32F", "R32G32_FLOAT": "RG32F", "R32G32B32A32_FLOAT": "RGBA32F",
	"R32_UINT": "R32UI", "R32G32_UINT": "RG32UI", "R32G32B32A32_UINT": "RGBA32UI",
	"R32_SINT": "R32I", "R32G32_SINT": "RG32I", "R32G32B32A32_SINT": "RGBA32I",
}

// texLevel is one mip level: its size and texels, four channels each as
// 32-bit patterns (float bits for normalized and float formats; missing
// channels are 0, 0, 1 as D3D reads them).
type texLevel struct {
	w, h, d int // d: depth (3D) or layers (arrays, cubes)
	texels  [][4]uint32
}

// image is a bound texture.
type image struct {
	name    string
	shape   ir.TexShape
	integer bool // UINT/SINT formats: no filtering
	levels  []texLevel
}

// samplerState is a bound sampler.
type samplerState struct {
	minLinear, magLinear, mipLinear bool
	address                         [3]string
	border                          [4]float32
	cmp                             string
	minLOD, maxLOD, bias            float64
}

// defaultSampler is D3D11's default sampler state.
func defaultSampler() *samplerState {
	return &samplerState{minLinear: true, magLinear: true, mipLinear: true,
		address: [3]string{"clamp", "clamp", "clamp"}, cmp: "never", minLOD: -math.MaxFloat32, maxLOD: math.MaxFloat32}
}

// bindImages binds the input's textures and samplers to the module's
// texture and sampler globals. Each global gets a one-cell object as its
// address; mc.images and mc.samplers map the object to what it reads.
// A texture without input is D3D's null view (reads return 0, sizes 0).
func (mc *machine) bindImages(in *Input) error {
	usedT := make([]bool, len(in.Textures))
	usedS := make([]bool, len(in.Samplers))
	match := func(name string, set, binding *int, g *ir.Global) bool {
		if name != "" {
			return name == g.Name()
		}
		return binding != nil && *binding == g.Binding && (set == nil && g.Set <= 0 || set != nil && *set == g.Set)
	}
	for gi, g := range mc.globals {
		if g.Space != ir.SpaceStorage || !ir.IsImageGlobal(g) {
			continue
		}
		if shape, ok := ir.TextureShape(g.Kind); ok && shape.RW {
			var t *TextureInput
			for i := range in.Textures {
				if !usedT[i] && match(in.Textures[i].Name, in.Textures[i].Set, in.Textures[i].Binding, g) {
					t, usedT[i] = &in.Textures[i], true
					break
				}
			}
			p, err := mc.bindRWTexture(g, shape, t)
			if err != nil {
				return err
			}
			mc.shared[gi] = p
			continue
		}
		p := mc.mem.alloc(ir.U32, 0, g.Space, "@"+g.Name())
		mc.mem.objs[ptrObj(p)].ro = true
		mc.shared[gi] = p
		if shape, ok := ir.TextureShape(g.Kind); ok {
			img := &image{name: g.Name(), shape: shape}
			for i := range in.Textures {
				t := &in.Textures[i]
				if usedT[i] || !match(t.Name, t.Set, t.Binding, g) {
					continue
				}
				usedT[i] = true
				var err error
				if img, err = buildImage(t, g, shape); err != nil {
					return err
				}
				break
			}
			if mc.images == nil {
				mc.images = map[int]*image{}
			}
			mc.images[ptrObj(p)] = img
			continue
		}
		s := defaultSampler()
		for i := range in.Samplers {
			si := &in.Samplers[i]
			if usedS[i] || !match(si.Name, si.Set, si.Binding, g) {
				continue
			}
			usedS[i] = true
			var err error
			if s, err = buildSampler(si, g); err != nil {
				return err
			}
			break
		}
		if mc.samplers == nil {
			mc.samplers = map[int]*samplerState{}
		}
		mc.samplers[ptrObj(p)] = s
	}
	for i, u := range usedT {
		if !u {
			return inputErr("texture %s matches no texture global of the module", describeBinding(in.Textures[i].Name, in.Textures[i].Set, in.Textures[i].Binding))
		}
	}
	for i, u := range usedS {
		if !u {
			return inputErr("sampler %s matches no sampler global of the module", describeBinding(in.Samplers[i].Name, in.Samplers[i].Set, in.Samplers[i].Binding))
		}
	}
	return nil
}

func describeBinding(name string, set, binding *int) string {
	if name != "" {
		return fmt.Sprintf("%q", name)
	}
	s := 0
	if set != nil {
		s = *set
	}
	b := -1
	if binding != nil {
		b = *binding
	}
	return fmt.Sprintf("at binding %d set %d", b, s)
}

// buildImage checks a texture's input against the global and decodes it.
func buildImage(t *TextureInput, g *ir.Global, shape ir.TexShape) (*image, error) {
	what := "texture @" + g.Name()
	fname := canonicalFormat(t.Format)
	f, ok := texFormats[fname]
	if !ok {
		return nil, inputErr("%s: unknown format %q (R8_UNORM, RG8_UNORM, RGBA8_UNORM, *_SNORM, R16_UNORM, RG16_UNORM, RGBA16_UNORM, R32F, RG32F, RGBA32F, R32UI, RG32UI, RGBA32UI, R32I, RG32I, RGBA32I)", what, t.Format)
	}
	elem := g.ValType
	if elem.Kind == ir.KVector {
		elem = elem.Elem
	}
	integer := f.kind == 'U' || f.kind == 'I'
	if integer != (elem.Kind == ir.KInt || elem.Kind == ir.KUint) {
		return nil, inputErr("%s: format %s does not fit texel type %s", what, fname, g.ValType)
	}
	w, h, d := t.Width, max(t.Height, 1), 1
	switch {
	case shape.Coords == 1 || shape.Coords == 2 && shape.Array:
		if t.Height > 1 {
			return nil, inputErr("%s: a %s has no height", what, g.Kind)
		}
		h = 1
	case shape.Coords == 3 && !shape.Array && !shape.Cube:
		d = max(t.Depth, 1)
	}
	if shape.Array || shape.Cube {
		d = max(t.Layers, 1)
		if shape.Cube && !shape.Array && t.Layers == 0 {
			d = 6
		}
		if shape.Cube && d%6 != 0 {
			return nil, inputErr("%s: a cube map has 6 faces per cube, layers is %d", what, d)
		}
	}
	if w <= 0 || w > 1<<14 || h > 1<<14 || d > 2048 {
		return nil, inputErr("%s: size %dx%dx%d out of range", what, w, h, d)
	}
	levels := t.Levels
	if shape.MS {
		// The samples are stored as levels of the full size
		// (tex.load_ms reads "level" sample).
		if len(t.Levels) > 0 || len(t.Samples) == 0 || len(t.Samples) > 32 {
			return nil, inputErr("%s: a %s takes \"samples\" (1 to 32 lists of texels), not \"levels\"", what, g.Kind)
		}
		levels = t.Samples
	} else if len(t.Samples) > 0 {
		return nil, inputErr("%s: a %s has no samples", what, g.Kind)
	}
	if len(levels) == 0 {
		return nil, inputErr("%s: no levels", what)
	}
	full := max(w, h) // the largest dimension that shrinks with the levels
	if !shape.Array && !shape.Cube {
		full = max(full, d)
	}
	if most := bits.Len(uint(full)); len(levels) > most && !shape.MS {
		return nil, inputErr("%s: %d levels is more than the %d of a %dx%dx%d texture", what, len(levels), most, w, h, d)
	}
	img := &image{name: g.Name(), shape: shape, integer: integer}
	total := 0
	for k, data := range levels {
		lw, lh, ld := max(w>>k, 1), max(h>>k, 1), d
		if shape.MS {
			lw, lh = w, h
		}
		if !shape.Array && !shape.Cube && shape.Coords == 3 {
			ld = max(d>>k, 1)
		}
		n := lw * lh * ld
		total += n
		if total > MaxMemoryCells/4 {
			return nil, inputErr("%s: too many texels", what)
		}
		if len(data) != n*f.channels {
			return nil, inputErr("%s: level %d is %dx%dx%d texels of %d channels (%d values), the input has %d", what, k, lw, lh, ld, f.channels, n*f.channels, len(data))
		}
		lv := texLevel{w: lw, h: lh, d: ld, texels: make([][4]uint32, n)}
		for i := range lv.texels {
			tx := [4]uint32{0, 0, 0, math.Float32bits(1)}
			if integer {
				tx[3] = 1
			}
			for c := 0; c < f.channels; c++ {
				v, err := decodeChannel(f, data[i*f.channels+c], fmt.Sprintf("%s level %d texel %d channel %d", what, k, i, c))
				if err != nil {
					return nil, &Error{Msg: err.Error(), Err: ErrInput}
				}
				tx[c] = v
			}
			lv.texels[i] = tx
		}
		img.levels = append(img.levels, lv)
	}
	return img, nil
}

// canonicalFormat is a format name in upper case with DXGI spellings
// mapped to the short ones.
func canonicalFormat(name string) string {
	fname := strings.ToUpper(name)
	if a, ok := formatAliases[fname]; ok {
		fname = a
	}
	return fname
}

// decodeChannel converts one channel value of the input to its 32-bit
// pattern: UNORM x/(2^n-1), SNORM max(x/(2^(n-1)-1), -1) (D3D's
// conversion rules), floats and integers as given.
func decodeChannel(f texFormat, v any, path string) (uint32, error) {
	switch f.kind {
	case 'f':
		c, err := scalarFromValue(v, ir.F32, path)
		return uint32(c), err
	case 'U':
		c, err := scalarFromValue(v, ir.U32, path)
		return uint32(c), err
	case 'I':
		c, err := scalarFromValue(v, ir.I32, path)
		return uint32(c), err
	}
	c, err := scalarFromValue(v, ir.I32, path)
	if err != nil {
		return 0, err
	}
	x := int64(int32(uint32(c)))
	if f.kind == 'u' {
		top := int64(1)<<f.bits - 1
		if x < 0 || x > top {
			return 0, fmt.Errorf("%s: %d is outside 0..%d", path, x, top)
		}
		return math.Float32bits(float32(float64(x) / float64(top))), nil
	}
	top := int64(1)<<(f.bits-1) - 1
	if x < -top-1 || x > top {
		return 0, fmt.Errorf("%s: %d is outside %d..%d", path, x, -top-1, top)
	}
	return math.Float32bits(float32(max(float64(x)/float64(top), -1))), nil
}

// buildSampler checks a sampler's input.
func buildSampler(si *SamplerInput, g *ir.Global) (*samplerState, error) {
	what := "sampler @" + g.Name()
	s := defaultSampler()
	filter := func(v string, dflt bool, field string) (bool, error) {
		switch strings.ToLower(v) {
		case "":
			return dflt, nil
		case "point", "nearest":
			return false, nil
		case "linear":
			return true, nil
		}
		return false, inputErr("%s: %s %q: expected point or linear", what, field, v)
	}
	all, err := filter(si.Filter, true, "filter")
	if err != nil {
		return nil, err
	}
	if s.minLinear, err = filter(si.MinFilter, all, "min_filter"); err != nil {
		return nil, err
	}
	if s.magLinear, err = filter(si.MagFilter, all, "mag_filter"); err != nil {
		return nil, err
	}
	if s.mipLinear, err = filter(si.MipFilter, all, "mip_filter"); err != nil {
		return nil, err
	}
	for i, a := range []string{si.AddressU, si.AddressV, si.AddressW} {
		switch a = strings.ToLower(a); a {
		case "":
		case "wrap", "mirror", "clamp", "border", "mirror_once":
			s.address[i] = a
		default:
			return nil, inputErr("%s: address mode %q: expected wrap, mirror, clamp, border or mirror_once", what, a)
		}
	}
	if len(si.BorderColor) > 4 {
		return nil, inputErr("%s: border_color has %d components", what, len(si.BorderColor))
	}
	for i, c := range si.BorderColor {
		s.border[i] = float32(c)
	}
	if si.Comparison != "" {
		c := strings.ToLower(si.Comparison)
		if _, ok := compareFuncs[c]; !ok {
			return nil, inputErr("%s: comparison %q: expected never, less, equal, less_equal, greater, not_equal, greater_equal or always", what, si.Comparison)
		}
		s.cmp = c
	}
	if si.MinLOD != nil {
		s.minLOD = *si.MinLOD
	}
	if si.MaxLOD != nil {
		s.maxLOD = *si.MaxLOD
	}
	s.bias = si.MipLODBias
	return s, nil
}

// compareFuncs are the comparison functions: ref OP texel.
var compareFuncs = map[string]func(ref, tex float32) bool{
	"never":         func(r, t float32) bool { return false },
	"less":          func(r, t float32) bool { return r < t },
	"equal":         func(r, t float32) bool { return r == t },
	"less_equal":    func(r, t float32) bool { return r <= t },
	"greater":       func(r, t float32) bool { return r > t },
	"not_equal":     func(r, t float32) bool { return r != t },
	"greater_equal": func(r, t float32) bool { return r >= t },
	"always":        func(r, t float32) bool { return true },
}
