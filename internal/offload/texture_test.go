package offload

import (
	"encoding/binary"
	"fmt"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/target/spirv/vkrun"
)

// Textures and samplers of a test's pipeline.yaml. A Texture2D or
// RWTexture2D resource names a buffer whose OutputProps give the size
// (Width, Height, MipLevels) and whose Data (or FillSize) holds the
// texels of level 0, 1, ... with Channels 32-bit values each; a Sampler
// or SamplerComparison resource names an entry of Samplers. They become
// the interpreter's "textures" and "samplers" (docs/run.md) bound to the
// global at the resource's register; a read-write texture's texels come
// back in the result like a buffer's, so Results compare them as buffers.

// textureKinds maps the suite's resource kinds to the IR globals' kinds.
var textureKinds = map[string]string{
	"Texture2D": "Texture2D", "RWTexture2D": "RWTexture2D",
	"Sampler": "SamplerState", "SamplerComparison": "SamplerComparisonState",
}

// textureFormat is the interpreter's format of a buffer's data.
func textureFormat(b *Buffer) (string, bool) {
	ch := map[int]string{1: "R", 2: "RG", 4: "RGBA"}[b.Channels]
	if b.Channels == 0 {
		ch = "R"
	}
	if ch == "" || b.Bits != 32 {
		return "", false
	}
	switch b.Format {
	case "Depth32":
		if b.Channels > 1 {
			return "", false
		}
		return "R32F", true
	case "Float32":
		return ch + "32F", true
	case "Int32":
		return ch + "32I", true
	case "UInt32", "Hex32":
		return ch + "32UI", true
	}
	return "", false
}

// vkFilters are the suite's filter and address names in the run input's
// terms.
var (
	vkFilters   = map[string]string{"": "point", "Nearest": "point", "Point": "point", "Linear": "linear"}
	vkAddresses = map[string]string{"": "clamp", "Clamp": "clamp", "Repeat": "wrap", "Wrap": "wrap", "Mirror": "mirror",
		"Border": "border", "MirrorOnce": "mirror_once"}
	vkCompares = map[string]string{"": "never", "Never": "never", "Less": "less", "Equal": "equal", "LessEqual": "less_equal",
		"Greater": "greater", "NotEqual": "not_equal", "GreaterEqual": "greater_equal", "Always": "always"}
)

// imageGlobal finds the global of a texture or sampler resource: the one
// of its kind bound at its register, else the one of its name.
// (The suite writes Kind: Sampler for comparison samplers too: either
// sampler kind matches a sampler resource.)
func imageGlobal(m *ir.Module, r Resource) *ir.Global {
	kind := textureKinds[r.Kind]
	fits := func(g *ir.Global) bool {
		if g.Space != ir.SpaceStorage {
			return false
		}
		if ir.IsSamplerKind(kind) {
			return ir.IsSamplerKind(g.Kind)
		}
		return g.Kind == kind
	}
	for _, g := range m.Globals {
		if fits(g) && g.Set == r.Space && g.Binding == r.Register {
			return g
		}
	}
	if g := m.Global(r.Name); g != nil && fits(g) {
		return g
	}
	return nil
}

// textureInputs adds the test's textures and samplers to in, and the
// read-write textures' globals to names (for Results). It returns why
// they cannot be given, or "".
func textureInputs(m *ir.Module, p *Pipeline, in *interp.Input, names map[string][]string) string {
	for _, r := range p.Resources {
		if _, ok := textureKinds[r.Kind]; !ok {
			continue
		}
		g := imageGlobal(m, r)
		if g == nil {
			continue // not used by the shader
		}
		if r.Kind == "Sampler" || r.Kind == "SamplerComparison" {
			s := p.Sampler(r.Name)
			if s == nil {
				return "sampler resource without a sampler"
			}
			min, okMin := vkFilters[s.MinFilter]
			mag, okMag := vkFilters[s.MagFilter]
			mip, okMip := vkFilters[s.MipFilter]
			addr, okAddr := vkAddresses[s.Address]
			cmp, okCmp := vkCompares[s.ComparisonOp]
			if !okMin || !okMag || !okMip || !okAddr || !okCmp {
				return fmt.Sprintf("sampler %s state", s.Name)
			}
			in.Samplers = append(in.Samplers, interp.SamplerInput{Name: g.Name(), MinFilter: min, MagFilter: mag, MipFilter: mip,
				AddressU: addr, AddressV: addr, AddressW: addr, Comparison: cmp})
			continue
		}
		b := p.Buffer(r.Name)
		if b == nil || b.ArraySize > 0 {
			return "texture resource without a buffer"
		}
		f, ok := textureFormat(b)
		if !ok {
			return fmt.Sprintf("texture format %s with %d channels", b.Format, b.Channels)
		}
		w, h, levels := b.Width, max(b.Height, 1), max(b.MipLevels, 1)
		if w <= 0 || max(b.Depth, 1) != 1 {
			return "texture size"
		}
		ch := max(b.Channels, 1)
		ti := interp.TextureInput{Name: g.Name(), Format: f, Width: w, Height: h}
		at := 0
		for k := 0; k < levels; k++ {
			n := max(w>>k, 1) * max(h>>k, 1) * ch
			if at+n > len(b.Data) {
				return fmt.Sprintf("texture %s: %d values for %d levels of %dx%d", b.Name, len(b.Data), levels, w, h)
			}
			level := make([]any, n)
			for i := range level {
				level[i] = fmt.Sprintf("0x%x", b.Data[at+i])
			}
			ti.Levels = append(ti.Levels, level)
			at += n
		}
		if at != len(b.Data) {
			return fmt.Sprintf("texture %s: %d values, %d texel values", b.Name, len(b.Data), at)
		}
		in.Textures = append(in.Textures, ti)
		if ir.IsRWTextureGlobal(g) {
			names[r.Name] = append(names[r.Name], g.Name())
		}
	}
	return ""
}

// vkFormats are the VkFormats of the run input's 32-bit formats.
var vkFormats = map[string]uint32{
	"R32UI": 98, "R32I": 99, "R32F": 100, "RG32UI": 101, "RG32I": 102, "RG32F": 103,
	"RGBA32UI": 107, "RGBA32I": 108, "RGBA32F": 109,
}

// vkImageBinding is the device binding of a texture or sampler global
// from the run input: a sampled or storage image (2D) with the input's
// texels, or a sampler state.
func vkImageBinding(g *ir.Global, in *interp.Input) (*vkrun.Image, *vkrun.Sampler, error) {
	if ir.IsSamplerKind(g.Kind) {
		var si *interp.SamplerInput
		for i := range in.Samplers {
			if in.Samplers[i].Name == g.Name() {
				si = &in.Samplers[i]
			}
		}
		if si == nil {
			return nil, nil, fmt.Errorf("sampler %s has no state", g.Name())
		}
		filter := map[string]uint32{"point": 0, "linear": 1}
		address := map[string]uint32{"wrap": 0, "mirror": 1, "clamp": 2, "border": 3, "mirror_once": 4}
		compare := map[string]uint32{"never": 0, "less": 1, "equal": 2, "less_equal": 3, "greater": 4, "not_equal": 5, "greater_equal": 6, "always": 7}
		s := &vkrun.Sampler{Mag: filter[si.MagFilter], Min: filter[si.MinFilter], Mip: filter[si.MipFilter],
			Address: [3]uint32{address[si.AddressU], address[si.AddressV], address[si.AddressW]}, MaxLOD: 1000}
		if g.Kind == "SamplerComparisonState" {
			s.Compare, s.CompareOp = true, compare[si.Comparison]
		}
		return nil, s, nil
	}
	var ti *interp.TextureInput
	for i := range in.Textures {
		if in.Textures[i].Name == g.Name() {
			ti = &in.Textures[i]
		}
	}
	if ti == nil {
		return nil, nil, fmt.Errorf("texture %s has no data", g.Name())
	}
	if g.Kind != "Texture2D" && g.Kind != "RWTexture2D" {
		return nil, nil, fmt.Errorf("texture kind %s", g.Kind)
	}
	f, ok := vkFormats[ti.Format]
	if !ok {
		return nil, nil, fmt.Errorf("texture format %s", ti.Format)
	}
	ch := map[byte]uint32{'R': 1}[ti.Format[0]]
	switch {
	case len(ti.Format) > 4 && ti.Format[:4] == "RGBA":
		ch = 4
	case len(ti.Format) > 2 && ti.Format[:2] == "RG":
		ch = 2
	}
	im := &vkrun.Image{Format: f, TexelBytes: 4 * ch, Width: uint32(ti.Width), Height: uint32(max(ti.Height, 1)), Layers: 1,
		Levels: uint32(len(ti.Levels)), ViewType: 1, Storage: ir.IsRWTextureGlobal(g)}
	for _, lv := range ti.Levels {
		for _, v := range lv {
			w, err := cellOf(v)
			if err != nil {
				return nil, nil, err
			}
			im.Data = binary.LittleEndian.AppendUint32(im.Data, uint32(w)) // 32-bit channels
		}
	}
	return im, nil, nil
}
