package lower

import (
	"fmt"

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
		case v.Type.Resource.IsRWTexture():
			// bindResources (a UAV written back after each run).
		case v.Type.Resource.IsTexture():
			r := resources[[2]int{0, slots[v]}]
			if r == nil {
				return nil, nil, "unbound resource"
			}
			dims := map[hlsl.ResourceKind]string{hlsl.ResTexture2D: "2d", hlsl.ResTexture3D: "3d", hlsl.ResTextureCube: "cube"}
			if v.Type.Resource == hlsl.ResTexture2DMS && r.Bad == "" && r.Dim == "2d" && r.Levels == 1 {
				// The runner binds a one-level 2d texture as one sample.
			} else if d, ok := dims[v.Type.Resource]; !ok || r.Bad == "" && r.Dim != d {
				return nil, nil, "texture kind " + v.Type.Resource.String()
			}
			in, skip := r.TextureInput(v.Name)
			if skip != "" {
				return nil, nil, skip
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
	if _, ok := vkd3d.TextureFormat(r.Format); !ok {
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
	format, _ := vkd3d.TextureFormat(r.Format) // checked by bindRWTexture
	return []interp.TextureInput{{Name: b.g.Name(), Format: format, Width: r.Width, Height: r.Height,
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
