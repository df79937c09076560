package offload

import (
	"fmt"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
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
func imageGlobal(m *ir.Module, r Resource) *ir.Global {
	kind := textureKinds[r.Kind]
	for _, g := range m.Globals {
		if g.Space == ir.SpaceStorage && g.Kind == kind && g.Set == r.Space && g.Binding == r.Register {
			return g
		}
	}
	if g := m.Global(r.Name); g != nil && g.Space == ir.SpaceStorage && g.Kind == kind {
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
