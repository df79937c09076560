package spirv

import (
	"encoding/binary"

	"passlens/compiler/ir"
	"passlens/compiler/target/spirv/vkrun"
	"passlens/internal/vkd3d"
)

// Textures and samplers in the vkd3d probe harness on lavapipe: a
// Texture2D, Texture3D or TextureCube global reads the [srv N] section of
// its register t N as a sampled image (every level), a sampler state the
// [sampler N] section of its register s N (vkd3d's runner default, linear
// filtering and clamp, without one). The images and samplers take
// bindings of their own, since b, t, s and u registers share Vulkan
// binding numbers.

// srvKinds are the texture kinds bound, with their view types.
var srvKinds = map[string]uint32{"Texture2D": 1, "Texture3D": 2, "TextureCube": 3}

// isProbeResource reports the storage globals the probe harness binds.
func isProbeResource(g *ir.Global) bool {
	_, tex := srvKinds[g.Kind]
	return tex || isRWTexture2D(g) || ir.IsSamplerKind(g.Kind)
}

// srvBindingBase and samplerBindingBase are where the harness puts
// sampled images and samplers.
const srvBindingBase, samplerBindingBase = 64, 96

// registerSlots gives each global of m that kind selects its register:
// its own, or the lowest free one in declaration order (DXC's implicit
// allocation).
func registerSlots(m *ir.Module, kind func(*ir.Global) bool) map[*ir.Global]int {
	slot := map[*ir.Global]int{}
	taken := map[int]bool{}
	for _, g := range m.Globals {
		if g.Space == ir.SpaceStorage && kind(g) && g.Binding >= 0 {
			taken[g.Binding] = true
		}
	}
	for _, g := range m.Globals {
		if g.Space != ir.SpaceStorage || !kind(g) {
			continue
		}
		s := g.Binding
		if s < 0 {
			for s = 0; taken[s]; s++ {
			}
			taken[s] = true
		}
		slot[g] = s
	}
	return slot
}

// bindSRVs binds the textures and samplers of m to their sections; why
// says why the draw cannot run.
func bindSRVs(m *ir.Module, rs vkd3d.Resources, samplers map[int]*vkd3d.Sampler) (bufs []vkrun.Buffer, why string) {
	texSlots := registerSlots(m, func(g *ir.Global) bool { _, ok := srvKinds[g.Kind]; return ok })
	for _, g := range m.Globals {
		view, ok := srvKinds[g.Kind]
		if g.Space != ir.SpaceStorage || !ok {
			continue
		}
		r := rs[[2]int{0, texSlots[g]}]
		switch {
		case r == nil:
			return nil, "undeclared SRV"
		case r.Bad != "":
			return nil, "SRV " + r.Bad
		case map[uint32]string{1: "2d", 2: "3d", 3: "cube"}[view] != r.Dim:
			return nil, "SRV of dimension " + r.Dim + " for a " + g.Kind
		case r.Dim == "3d" && r.Levels > 1:
			return nil, "mipmapped 3d SRV" // vkrun uploads full-depth levels
		}
		f, ok := uavFormats[r.Format]
		if !ok {
			return nil, "SRV format " + r.Format
		}
		var data []byte
		for _, w := range r.Words {
			data = binary.LittleEndian.AppendUint32(data, w)
		}
		b := srvBindingBase + texSlots[g]
		g.VkSet, g.VkBinding = 0, b
		bufs = append(bufs, vkrun.Buffer{Set: 0, Binding: b, Image: &vkrun.Image{Format: f, TexelBytes: uint32(r.Texel),
			Width: uint32(r.Width), Height: uint32(r.Height), Layers: uint32(r.Depth), Levels: uint32(max(r.Levels, 1)), ViewType: view, Data: data}})
	}
	smpSlots := registerSlots(m, func(g *ir.Global) bool { return ir.IsSamplerKind(g.Kind) })
	filter := map[string]uint32{"point": 0, "linear": 1}
	address := map[string]uint32{"wrap": 0, "mirror": 1, "clamp": 2, "border": 3, "mirror_once": 4}
	compare := map[string]uint32{"never": 0, "less": 1, "equal": 2, "less_equal": 3, "greater": 4, "not_equal": 5, "greater_equal": 6, "always": 7}
	for _, g := range m.Globals {
		if g.Space != ir.SpaceStorage || !ir.IsSamplerKind(g.Kind) {
			continue
		}
		sm := samplers[smpSlots[g]]
		if sm == nil {
			sm = vkd3d.ParseSampler("sampler 0", nil) // the runner's default
		}
		s := &vkrun.Sampler{MaxLOD: 1000}
		var ok [7]bool
		s.Min, ok[0] = filter[sm.Filter[0]]
		s.Mag, ok[1] = filter[sm.Filter[1]]
		s.Mip, ok[2] = filter[sm.Filter[2]]
		for i := range 3 {
			s.Address[i], ok[3+i] = address[sm.Address[i]]
		}
		ok[6] = true
		if g.Kind == "SamplerComparisonState" {
			s.Compare = true
			s.CompareOp, ok[6] = compare[sm.Comparison]
		}
		for _, k := range ok {
			if !k {
				return nil, "sampler state"
			}
		}
		b := samplerBindingBase + smpSlots[g]
		g.VkSet, g.VkBinding = 0, b
		bufs = append(bufs, vkrun.Buffer{Set: 0, Binding: b, Sampler: s})
	}
	return bufs, ""
}
