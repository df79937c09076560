package spirv

import (
	"encoding/binary"
	"fmt"

	"passlens/compiler/ir"
	"passlens/compiler/target/spirv/vkrun"
	"passlens/internal/vkd3d"
)

// Read-write textures in the vkd3d probe harness on lavapipe: a
// RWTexture2D global of a pixel shader reads and writes the [uav N] 2d
// section of its register u N, bound as a storage image (GENERAL layout,
// read back after the draw). Its words persist across draws and [test]
// sections, as on vkd3d's device, and "probe uav N" lines check them
// (vkd3d.Resources.ProbeUAV, the interpreter harness's check).

// isRWTexture2D reports the storage globals the probe harness binds.
func isRWTexture2D(g *ir.Global) bool { return g.Kind == "RWTexture2D" }

// uavFormats are the Vulkan formats of vkd3d's 32-bit runner formats.
var uavFormats = map[string]uint32{
	"r32-uint": 98, "r32-sint": 99, "r32-float": 100, "r32-typeless": 98,
	"r32g32-uint": 101, "r32g32-sint": 102, "r32g32-float": 103,
	"r32g32b32a32-uint": 107, "r32g32b32a32-sint": 108, "r32g32b32a32-float": 109,
}

// boundUAV is one RWTexture2D bound to its [uav N] section.
type boundUAV struct {
	res     *vkd3d.Resource
	format  uint32
	binding int
}

// uavBindingBase is where the harness puts storage images: away from
// the registers, since b, t and u registers share Vulkan binding numbers
// (a constant buffer at b0 and a UAV at u0 would collide).
const uavBindingBase = 32

// bindUAVs finds the [uav N] section of every RWTexture2D global of m (by
// its register u N) and gives the global a binding of its own; why says
// why the draw cannot run.
func bindUAVs(m *ir.Module, rs vkd3d.Resources) (uavs []boundUAV, why string) {
	// A UAV without a register takes the lowest free u register, in
	// declaration order, as DXC allocates them.
	slot := map[*ir.Global]int{}
	taken := map[int]bool{}
	for _, g := range m.Globals {
		if g.Space == ir.SpaceStorage && !g.ReadOnly && !ir.IsImageGlobal(g) || isRWTexture2D(g) {
			if g.Binding >= 0 {
				taken[g.Binding] = true
			}
		}
	}
	for _, g := range m.Globals {
		if g.Space != ir.SpaceStorage || !isRWTexture2D(g) {
			continue
		}
		u := g.Binding
		for ; u < 0 || (g.Binding < 0 && taken[u]); u++ {
		}
		taken[u] = true
		slot[g] = u
	}
	for _, g := range m.Globals {
		if g.Space != ir.SpaceStorage || !isRWTexture2D(g) {
			continue
		}
		r := rs[[2]int{1, slot[g]}]
		switch {
		case r == nil:
			return nil, "undeclared UAV"
		case r.Bad != "":
			return nil, "UAV " + r.Bad
		case r.Dim != "2d":
			return nil, "UAV of dimension " + r.Dim + " for a RWTexture2D"
		}
		f, ok := uavFormats[r.Format]
		if !ok {
			return nil, "UAV format " + r.Format
		}
		if len(r.Words)*4 != r.Width*r.Height*r.Texel {
			return nil, fmt.Sprintf("UAV data of %d words for %dx%d texels", len(r.Words), r.Width, r.Height)
		}
		b := uavBindingBase + slot[g]
		g.VkSet, g.VkBinding = 0, b
		uavs = append(uavs, boundUAV{res: r, format: f, binding: b})
	}
	return uavs, ""
}

// buffer is the storage image of the UAV's current words.
func (u boundUAV) buffer() vkrun.Buffer {
	var data []byte
	for _, w := range u.res.Words {
		data = binary.LittleEndian.AppendUint32(data, w)
	}
	return vkrun.Buffer{Set: 0, Binding: u.binding, Image: &vkrun.Image{Format: u.format, TexelBytes: uint32(u.res.Texel),
		Width: uint32(u.res.Width), Height: uint32(u.res.Height), Layers: 1, Levels: 1, ViewType: 1 /* 2D */, Data: data, Storage: true}}
}

// writeBack stores the texels the draw left (out, as vkrun returns a
// storage image) into the resource's words.
func (u boundUAV) writeBack(out []byte) {
	for i := range u.res.Words {
		if 4*i+4 <= len(out) {
			u.res.Words[i] = binary.LittleEndian.Uint32(out[4*i:])
		}
	}
}
