package spirv

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/load"
	"passlens/compiler/target/spirv/vkrun"
)

// textureShader reads an 8x4, two-level RGBA32F texture in every way the
// comparison covers: SampleLevel at levels 0, 1 and 0.4 (mip blend), with
// an offset, Load, Gather and GetDimensions, at coordinates that reach
// outside [0, 1] so the address modes matter. t1, s2 and u0 have distinct
// Vulkan bindings (1, 2, 0).
const textureShader = `
Texture2D<float4> t : register(t1);
SamplerState s : register(s2);
RWStructuredBuffer<float4> o : register(u0);
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
	uint i = id.x;
	float2 uv = float2((i % 8) * 0.173 - 0.31, (i / 8) * 0.191 - 0.43);
	o[i * 7 + 0] = t.SampleLevel(s, uv, 0);
	o[i * 7 + 1] = t.SampleLevel(s, uv, 1);
	o[i * 7 + 2] = t.SampleLevel(s, uv, 0.4);
	o[i * 7 + 3] = t.SampleLevel(s, uv, 0, int2(1, -1));
	o[i * 7 + 4] = t.Load(int3(i % 8, i / 16, (i / 8) % 2));
	o[i * 7 + 5] = t.Gather(s, uv);
	uint w, h, l;
	t.GetDimensions(1, w, h, l);
	o[i * 7 + 6] = float4(w, h, l, t.Sample(s, uv).x);
}
`

// TestLavapipeTextures runs textureShader on lavapipe and in the
// interpreter with one sampler state per case and compares the output:
// bit for bit for point sampling, Load, Gather and sizes; within
// linearULPs units in the last place of the channel's largest texel for
// linear filtering (llvmpipe filters float textures in float32 with its
// own operation order; the interpreter blends in float64 and rounds
// once). A negative control
// checks that the comparison sees a different address mode.
func TestLavapipeTextures(t *testing.T) {
	needDevice(t)
	path := filepath.Join(t.TempDir(), "tex.hlsl")
	if err := os.WriteFile(path, []byte(textureShader), 0o644); err != nil {
		t.Fatal(err)
	}
	// The texture: red x/8, green y/4, blue 0.25 at level 0 (0.75 at
	// level 1), alpha 1 + x*y; exact in float32.
	var levels [][]any
	var texels []byte
	for k, size := range [][2]int{{8, 4}, {4, 2}} {
		var lv []any
		for y := 0; y < size[1]; y++ {
			for x := 0; x < size[0]; x++ {
				px := []float32{float32(x) / 8, float32(y) / 4, 0.25 + 0.5*float32(k), 1 + float32(x*y)}
				for _, c := range px {
					lv = append(lv, fmt.Sprintf("0x%08X", math.Float32bits(c)))
					texels = binary.LittleEndian.AppendUint32(texels, math.Float32bits(c))
				}
			}
		}
		levels = append(levels, lv)
	}
	const linearULPs = 8
	device := map[string][]byte{}
	interpreter := map[string][]uint64{}
	type addr struct {
		hlsl string
		vk   uint32
	}
	wrap, mirror, clamp, border := addr{"wrap", 0}, addr{"mirror", 1}, addr{"clamp", 2}, addr{"border", 3}
	for _, c := range []struct {
		linear bool
		mip    bool // linear mip filter
		u, v   addr
	}{
		{false, false, clamp, clamp}, {false, false, wrap, wrap}, {false, false, mirror, border},
		{true, false, clamp, clamp}, {true, true, wrap, mirror}, {true, true, border, clamp},
	} {
		filter := map[bool]string{false: "point", true: "linear"}
		name := fmt.Sprintf("%s-mip%s-%s-%s", filter[c.linear], filter[c.mip], c.u.hlsl, c.v.hlsl)
		t.Run(name, func(t *testing.T) {
			m, _, err := load.File(path, load.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := runSpirvPipeline(m); err != nil {
				t.Fatal(err)
			}
			in := &interp.Input{
				Buffers:  []interp.BufferInput{{Name: "o", Count: 64 * 7}},
				Textures: []interp.TextureInput{{Name: "t", Format: "RGBA32F", Width: 8, Height: 4, Levels: levels}},
				Samplers: []interp.SamplerInput{{Name: "s", MinFilter: filter[c.linear], MagFilter: filter[c.linear], MipFilter: filter[c.mip],
					AddressU: c.u.hlsl, AddressV: c.v.hlsl, AddressW: "clamp"}},
			}
			res, err := interp.Run(m, in, interp.Options{WaveSize: 8})
			if err != nil {
				t.Fatal(err)
			}
			words, err := Assemble(m, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if msg := spirvVal(t, words, "vulkan1.1"); msg != "" {
				t.Fatalf("spirv-val: %s", msg)
			}
			b2u := map[bool]uint32{false: 0, true: 1}
			const n = 64 * 7 * 16
			job := vkrun.Job{SPIRV: words, Entry: "main", Groups: [3]int{1, 1, 1}, Buffers: []vkrun.Buffer{
				{Set: 0, Binding: 0, Data: make([]byte, n)},
				{Set: 0, Binding: 1, Image: &vkrun.Image{Format: 109 /* R32G32B32A32_SFLOAT */, TexelBytes: 16, Width: 8, Height: 4,
					Layers: 1, Levels: 2, ViewType: 1 /* 2D */, Data: texels}},
				{Set: 0, Binding: 2, Sampler: &vkrun.Sampler{Mag: b2u[c.linear], Min: b2u[c.linear], Mip: b2u[c.mip],
					Address: [3]uint32{c.u.vk, c.v.vk, 2}, MaxLOD: 1000}},
			}}
			out, err := vkrun.Run(job)
			if err != nil {
				t.Fatal(err)
			}
			cells := res.Buffer("o").Cells
			exact, near, worst := 0, 0, 0.0
			for k := 0; k < n/4; k++ {
				got := binary.LittleEndian.Uint32(out[0][4*k:])
				want := uint32(cells[k])
				if got == want {
					exact++
					continue
				}
				slot := k / 4 % 7
				// ULPs of the channel's largest texel: a blend's rounding
				// error scales with its inputs, not with its result.
				top := []float32{1, 1, 1, 22}[k%4]
				d := math.Abs(float64(math.Float32frombits(got)) - float64(math.Float32frombits(want)))
				ulp := float64(math.Nextafter32(top, float32(math.Inf(1))) - top)
				worst = max(worst, d/ulp)
				if c.linear && slot != 4 && slot != 5 && d <= linearULPs*ulp {
					near++
					continue
				}
				t.Errorf("o[%d] component %d (read %d of lane %d): device %v, interpreter %v", k/4, k%4, slot, k/28,
					math.Float32frombits(got), math.Float32frombits(want))
				if t.Failed() && k > 64 {
					t.FailNow()
				}
			}
			t.Logf("%d components bit-exact, %d within %d ULP (largest difference %.2g ULP)", exact, near, linearULPs, worst)
			device[name], interpreter[name] = out[0], cells
		})
	}
	// Negative control: wrap on the device is not clamp in the interpreter.
	dev, ref := device["point-mippoint-wrap-wrap"], interpreter["point-mippoint-clamp-clamp"]
	if dev != nil && ref != nil {
		differ := 0
		for k := range ref {
			if binary.LittleEndian.Uint32(dev[4*k:]) != uint32(ref[k]) {
				differ++
			}
		}
		if differ == 0 {
			t.Error("negative control: the device's wrap results equal the interpreter's clamp results")
		}
	}
}
