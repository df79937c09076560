package lower

import (
	"passlens/compiler/hlsl"
	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/internal/vkd3d"
)

// bindTextures binds a shader's used textures to the [srv N] sections
// (2d, 3d and cube textures: vkd3d.Resource.TextureInput) and its samplers
// to the [sampler N] sections, at the registers resourceSlots gives them.
// skip says why the shader cannot run.
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
			smp = append(smp, s.SamplerInput(v.Name))
		case v.Type.Resource.IsTexture():
			r := resources[[2]int{0, slots[v]}]
			if r == nil {
				return nil, nil, "unbound resource"
			}
			dims := map[hlsl.ResourceKind]string{hlsl.ResTexture2D: "2d", hlsl.ResTexture3D: "3d", hlsl.ResTextureCube: "cube"}
			if d, ok := dims[v.Type.Resource]; !ok || r.Bad == "" && r.Dim != d {
				return nil, nil, "texture kind " + v.Type.Resource.String()
			}
			in, skip := r.TextureInput(v.Name)
			if skip != "" {
				return nil, nil, skip
			}
			tex = append(tex, in)
		}
	}
	return tex, smp, ""
}
