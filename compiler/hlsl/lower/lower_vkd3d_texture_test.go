package lower

import (
	"fmt"

	"passlens/compiler/hlsl"
	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/internal/vkd3d"
)

// vkd3dTextureFormats maps the runner's texture formats to the
// interpreter's (docs/run.md).
var vkd3dTextureFormats = map[string]string{
	"r32g32b32a32-float": "RGBA32F", "r32g32-float": "RG32F", "r32-float": "R32F",
	"r32g32b32a32-uint": "RGBA32UI", "r32g32-uint": "RG32UI", "r32-uint": "R32UI", "r32-typeless": "R32UI",
	"r32g32b32a32-sint": "RGBA32I", "r32g32-sint": "RG32I", "r32-sint": "R32I",
}

// bindTextures binds a shader's used textures to the [srv N] sections
// (2d textures only) and its samplers to the [sampler N] sections, at the
// registers resourceSlots gives them. skip says why the shader cannot run.
func bindTextures(prog *hlsl.Program, m *ir.Module, resources vkd3d.Resources, samplers map[int]*vkd3d.Sampler) (tex []interp.TextureInput, smp []interp.SamplerInput, skip string) {
	slots, used, skip := resourceSlots(prog)
	if skip != "" {
		return nil, nil, skip
	}
	for _, v := range used {
		switch {
		case v.Type.Resource.IsSampler():
			s := samplers[slots[v]]
			if s == nil {
				return nil, nil, "unbound sampler"
			}
			smp = append(smp, interp.SamplerInput{Name: v.Name, MinFilter: s.Filter[0], MagFilter: s.Filter[1], MipFilter: s.Filter[2],
				AddressU: s.Address[0], AddressV: s.Address[1], AddressW: s.Address[2], Comparison: s.Comparison})
		case v.Type.Resource.IsRWTexture():
			// bindResources (a UAV written back after each run).
		case v.Type.Resource.IsTexture():
			r := resources[[2]int{0, slots[v]}]
			switch {
			case r == nil:
				return nil, nil, "unbound resource"
			case r.Bad != "":
				return nil, nil, r.Bad
			case v.Type.Resource == hlsl.ResTexture2DMS && r.Dim == "2d" && r.Levels == 1:
				// The runner binds a one-level 2d texture as one sample.
			case v.Type.Resource != hlsl.ResTexture2D || r.Dim != "2d":
				return nil, nil, "texture kind " + v.Type.Resource.String()
			}
			f, ok := vkd3dTextureFormats[r.Format]
			if !ok {
				return nil, nil, "texture format " + r.Format
			}
			in := interp.TextureInput{Name: v.Name, Format: f, Width: r.Width, Height: r.Height}
			at := 0
			for k := 0; k < r.Levels; k++ {
				n := max(r.Width>>k, 1) * max(r.Height>>k, 1) * r.Comps
				level := make([]any, n)
				for i := range level {
					level[i] = fmt.Sprintf("0x%08X", r.Words[at+i])
				}
				at += n
				in.Levels = append(in.Levels, level)
			}
			if v.Type.Resource == hlsl.ResTexture2DMS {
				in.Samples, in.Levels = in.Levels, nil
			}
			tex = append(tex, in)
		}
	}
	return tex, smp, ""
}

// bindRWTexture binds a read-write texture to its [uav N] section: a
// one-level 2d texture of a 32-bit format whose data type matches the
// texel type's.
func bindRWTexture(v *hlsl.VarDecl, m *ir.Module, r *vkd3d.Resource) (*boundBuffer, string) {
	switch {
	case r == nil:
		return nil, "unbound resource"
	case r.Bad != "":
		return nil, r.Bad
	case v.Type.Resource != hlsl.ResRWTexture2D || r.Dim != "2d":
		return nil, "texture kind " + v.Type.Resource.String()
	case r.Levels != 1:
		return nil, "read-write texture levels"
	}
	if _, ok := vkd3dTextureFormats[r.Format]; !ok {
		return nil, "texture format " + r.Format
	}
	b := &boundBuffer{v: v, res: r, rwtex: true}
	for _, g := range m.Globals {
		if g.Space == ir.SpaceStorage && g.Kind == v.Type.Resource.String() && g.Name() == v.Name {
			b.g = g
		}
	}
	if b.g == nil {
		return nil, "texture global not found"
	}
	b.elem = b.g.ValType
	b.leaves = irLeaves(b.elem, nil)
	if isFloat := b.leaves[0].Kind == ir.KFloat; isFloat != (r.Class == 'f') {
		return nil, "format conversion"
	}
	return b, ""
}

// textureInput is the run input of a bound read-write texture (none for
// buffers).
func (b *boundBuffer) textureInput() []interp.TextureInput {
	if !b.rwtex {
		return nil
	}
	r := b.res
	level := make([]any, r.Width*r.Height*r.Comps)
	for i := range level {
		level[i] = fmt.Sprintf("0x%08X", r.Words[i])
	}
	return []interp.TextureInput{{Name: b.g.Name(), Format: vkd3dTextureFormats[r.Format], Width: r.Width, Height: r.Height,
		Levels: [][]any{level}}}
}

// writeBackTexture copies a read-write texture's texels after a run into
// its resource: the texel type's components, the format's others kept.
func (b *boundBuffer) writeBackTexture(res *interp.Result) error {
	r := b.res
	buf := res.Buffer(b.g.Name())
	n := r.Width * r.Height
	if buf == nil || len(buf.Cells) != n*len(b.leaves) {
		return fmt.Errorf("texture %s missing or resized in the result", b.g.Name())
	}
	for i := 0; i < n; i++ {
		for j := 0; j < min(len(b.leaves), r.Comps); j++ {
			r.Words[i*r.Comps+j] = uint32(buf.Cells[i*len(b.leaves)+j])
		}
	}
	return nil
}
