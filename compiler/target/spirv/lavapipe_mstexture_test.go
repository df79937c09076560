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

// msTextureShader reads three multisampled textures (float4 with 4
// samples, int2 with 2, a uint array of 3 layers with 8) with Load at
// every sample and layer (in bounds: outside, D3D gives 0 and Vulkan
// leaves the result undefined without robust image access),
// operator[] (sample 0) and GetDimensions. Registers t1, t2, t3 and u0
// have distinct Vulkan bindings.
const msTextureShader = `
Texture2DMS<float4> f : register(t1);
Texture2DMS<int2, 2> n : register(t2);
Texture2DMSArray<uint, 8> a : register(t3);
RWStructuredBuffer<uint4> o : register(u0);
[numthreads(4, 4, 1)]
void main(uint3 id : SV_DispatchThreadID) {
	uint i = id.y * 4 + id.x;
	uint w, h, s;
	f.GetDimensions(w, h, s);
	for (uint k = 0; k < s; k++)
		o[i * 16 + k] = asuint(f.Load(int2(id.xy), k));
	o[i * 16 + 4] = asuint(f[id.yx]);
	uint nw, nh, ns;
	n.GetDimensions(nw, nh, ns);
	o[i * 16 + 5] = uint4(asuint(n.Load(int2(id.xy), 0)), asuint(n.Load(int2(id.yx), 1)));
	o[i * 16 + 6] = uint4(w, h, s, nw * 100 + nh * 10 + ns);
	uint aw, ah, al, as;
	a.GetDimensions(aw, ah, al, as);
	for (uint l = 0; l < 3; l++)
		o[i * 16 + 7 + l] = uint4(a.Load(int3(id.xy, l), i % 8), a.Load(int3(id.yx, l), (i + 3) % 8), a[uint3(id.xy, l)], aw * 1000 + ah * 100 + al * 10 + as);
	o[i * 16 + 10] = uint4(a.Load(int3(id.xy, 2), 7), a.Load(int3(id.xy, 1), 6), n.Load(int2(id.xy), 1));
}
`

// msTex is one multisampled texture of msTextureShader: run-input format
// and VkFormat, texel size, extent, sample count and texel words.
type msTex struct {
	name, format          string
	binding               int
	vkFormat, bytes       uint32
	w, h, layers, samples int
	viewType              uint32
	word                  func(i int) uint32 // word i of the sample-major data
}

// TestLavapipeMSTextures runs msTextureShader on lavapipe, whose
// multisampled images vkrun writes with a compute shader, and in the
// interpreter, and compares every output word bit for bit. A negative
// control gives the device a texture whose samples 0 and 1 are swapped.
func TestLavapipeMSTextures(t *testing.T) {
	needDevice(t)
	path := filepath.Join(t.TempDir(), "ms.hlsl")
	if err := os.WriteFile(path, []byte(msTextureShader), 0o644); err != nil {
		t.Fatal(err)
	}
	texs := []msTex{
		{"f", "RGBA32F", 1, 109, 16, 4, 4, 1, 4, 1, func(i int) uint32 { return math.Float32bits(float32(i)*0.375 - 7) }},
		{"n", "RG32I", 2, 102, 8, 4, 4, 1, 2, 1, func(i int) uint32 { return uint32(int32(i*13 - 200)) }},
		{"a", "R32UI", 3, 98, 4, 4, 4, 3, 8, 5 /* 2D_ARRAY */, func(i int) uint32 { return uint32(i)*2654435761 ^ 0x5bd1e995 }},
	}
	m, _, err := load.File(path, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := runSpirvPipeline(m); err != nil {
		t.Fatal(err)
	}
	const outWords = 16 * 16 * 4
	build := func(swap bool) (*interp.Input, vkrun.Job) {
		in := &interp.Input{Buffers: []interp.BufferInput{{Name: "o", Count: 16 * 16}}}
		job := vkrun.Job{Entry: "main", Groups: [3]int{1, 1, 1}, Buffers: []vkrun.Buffer{{Set: 0, Binding: 0, Data: make([]byte, 4*outWords)}}}
		for _, x := range texs {
			per := x.w * x.h * x.layers * int(x.bytes/4) // words a sample
			ti := interp.TextureInput{Name: x.name, Format: x.format, Width: x.w, Height: x.h}
			if x.layers > 1 {
				ti.Layers = x.layers
			}
			var data []byte
			for s := 0; s < x.samples; s++ {
				var sample []any
				for k := 0; k < per; k++ {
					v := x.word(s*per + k)
					sample = append(sample, fmt.Sprintf("0x%08X", v))
				}
				ti.Samples = append(ti.Samples, sample)
			}
			for s := 0; s < x.samples; s++ {
				src := s
				if swap && s < 2 {
					src = 1 - s
				}
				for k := 0; k < per; k++ {
					data = binary.LittleEndian.AppendUint32(data, x.word(src*per+k))
				}
			}
			in.Textures = append(in.Textures, ti)
			job.Buffers = append(job.Buffers, vkrun.Buffer{Set: 0, Binding: x.binding, Image: &vkrun.Image{Format: x.vkFormat,
				TexelBytes: x.bytes, Width: uint32(x.w), Height: uint32(x.h), Layers: uint32(x.layers), Samples: uint32(x.samples),
				ViewType: x.viewType, Data: data}})
		}
		return in, job
	}
	in, job := build(false)
	res, err := interp.Run(m, in, interp.Options{WaveSize: 16})
	if err != nil {
		t.Fatal(err)
	}
	out := runOnDevice(t, m, Options{}, job)
	cells := res.Buffer("o").Cells
	if len(cells) != outWords || len(out[0]) != 4*outWords {
		t.Fatalf("interpreter %d cells, device %d bytes", len(cells), len(out[0]))
	}
	written := 0
	for k, c := range cells {
		got := binary.LittleEndian.Uint32(out[0][4*k:])
		if got != uint32(c) {
			t.Errorf("o[%d].%c (slot %d of lane %d): device %#x, interpreter %#x", k/4, "xyzw"[k%4], k/4%16, k/64, got, uint32(c))
		}
		if c != 0 {
			written++
		}
	}
	t.Logf("%d output words bit-exact (%d nonzero)", outWords, written)
	// Negative control: samples 0 and 1 swapped on the device.
	_, swapped := build(true)
	out2 := runOnDevice(t, m, Options{}, swapped)
	differ := 0
	for k, c := range cells {
		if binary.LittleEndian.Uint32(out2[0][4*k:]) != uint32(c) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("negative control: swapping samples 0 and 1 on the device changed no output word")
	}
	t.Logf("negative control: %d words differ", differ)
}
