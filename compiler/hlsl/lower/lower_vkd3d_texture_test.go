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
		case v.Type.Resource.IsTexture():
			r := resources[[2]int{0, slots[v]}]
			switch {
			case r == nil:
				return nil, nil, "unbound resource"
			case r.Bad != "":
				return nil, nil, r.Bad
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
			tex = append(tex, in)
		}
	}
	return tex, smp, ""
}
