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

// rwTextureShader reads and writes every read-write texture shape: whole
// texels, component writes (read-modify-write), GetDimensions, Load, and
// atomics through texel pointers on 2D and 3D textures. Each lane touches
// its own texels except for the atomics, so the result is deterministic.
const rwTextureShader = `
RWTexture2D<float4> img : register(u0);
RWTexture2D<uint> cnt : register(u1);
RWTexture1D<float> line : register(u2);
RWTexture2DArray<int2> arr : register(u3);
globallycoherent RWTexture3D<uint> vol : register(u4);
RWTexture1DArray<uint4> rows : register(u5);
[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID) {
	uint w, h;
	img.GetDimensions(w, h);
	float4 c = img[id.xy];
	img[id.xy] = c.wzyx * 2 + float4(w, h, 0, 0);
	img[id.xy].y += id.x;
	img[id.xy].zw = img.Load(int2(id.xy)).xy;
	InterlockedAdd(cnt[uint2(id.x % 2, 0)], id.y + 1);
	InterlockedMax(cnt[uint2(id.x % 2, 1)], id.x * 8 + id.y);
	uint old;
	InterlockedOr(vol[uint3(id.x % 4, id.y % 4, (id.x + id.y) % 4)], 1u << id.x, old);
	uint lw;
	line.GetDimensions(lw);
	if (id.y == 0)
		line[id.x] = line[id.x] * 3 + lw;
	uint aw, ah, al;
	arr.GetDimensions(aw, ah, al);
	arr[uint3(id.xy, 1)] = arr[uint3(id.xy, 0)] + int2(id.x, -(int)id.y) + int(al);
	arr[uint3(id.xy, 0)].y = -7;
	uint rw, rl;
	rows.GetDimensions(rw, rl);
	if (id.x < 4)
		rows[uint2(id.y % rw, id.x % rl)] = uint4(id.x, id.y, rw, rl) + rows[uint2(id.y % rw, id.x % rl)].wzyx;
}
`

// rwTex describes one read-write texture of rwTextureShader for both the
// interpreter and the device: its run-input format and VkFormat, size and
// initial texels (32-bit patterns).
type rwTex struct {
	name, format      string
	binding           int
	vkFormat, bytes   uint32
	w, h, layers      int
	viewType          uint32
	channels          int
	init              func(i int) uint32
	interpLayersField bool // layers (arrays) rather than depth (3D)
}

// TestLavapipeRWTextures runs rwTextureShader on lavapipe and in the
// interpreter and compares every texel of every texture bit for bit.
func TestLavapipeRWTextures(t *testing.T) {
	needDevice(t)
	path := filepath.Join(t.TempDir(), "rw.hlsl")
	if err := os.WriteFile(path, []byte(rwTextureShader), 0o644); err != nil {
		t.Fatal(err)
	}
	texs := []rwTex{
		{"img", "RGBA32F", 0, 109, 16, 8, 8, 1, 1, 4, func(i int) uint32 { return math.Float32bits(float32(i)*0.25 - 3) }, false},
		{"cnt", "R32UI", 1, 98, 4, 2, 2, 1, 1, 1, func(i int) uint32 { return uint32(i * 5) }, false},
		{"line", "R32F", 2, 100, 4, 8, 1, 1, 0, 1, func(i int) uint32 { return math.Float32bits(float32(i) + 0.5) }, false},
		{"arr", "RG32I", 3, 102, 8, 8, 8, 2, 5, 2, func(i int) uint32 { return uint32(int32(i*3 - 100)) }, true},
		{"vol", "R32UI", 4, 98, 4, 4, 4, 4, 2, 1, func(i int) uint32 { return uint32(i) << 20 }, false},
		{"rows", "RGBA32UI", 5, 107, 16, 4, 1, 3, 4, 4, func(i int) uint32 { return uint32(i * 7) }, true},
	}
	m, _, err := load.File(path, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := runSpirvPipeline(m); err != nil {
		t.Fatal(err)
	}
	in := &interp.Input{}
	job := vkrun.Job{Entry: "main", Groups: [3]int{1, 1, 1}}
	for _, x := range texs {
		n := x.w * x.h * x.layers * x.channels
		var level []any
		var data []byte
		for i := 0; i < n; i++ {
			v := x.init(i)
			level = append(level, fmt.Sprintf("0x%08X", v))
			data = binary.LittleEndian.AppendUint32(data, v)
		}
		ti := interp.TextureInput{Name: x.name, Format: x.format, Width: x.w, Height: x.h, Levels: [][]any{level}}
		if x.interpLayersField {
			ti.Layers = x.layers
		} else {
			ti.Depth = x.layers
		}
		in.Textures = append(in.Textures, ti)
		job.Buffers = append(job.Buffers, vkrun.Buffer{Set: 0, Binding: x.binding, Image: &vkrun.Image{Format: x.vkFormat,
			TexelBytes: x.bytes, Width: uint32(x.w), Height: uint32(x.h), Layers: uint32(x.layers), Levels: 1,
			ViewType: x.viewType, Data: data, Storage: true}})
	}
	res, err := interp.Run(m, in, interp.Options{WaveSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	out := runOnDevice(t, m, Options{}, job)
	for k, x := range texs {
		cells := res.Buffer(x.name).Cells
		if len(out[k]) != 4*len(cells) {
			t.Fatalf("%s: device returned %d bytes, the interpreter %d cells", x.name, len(out[k]), len(cells))
		}
		changed := 0
		for i, c := range cells {
			got := binary.LittleEndian.Uint32(out[k][4*i:])
			if got != uint32(c) {
				t.Errorf("%s word %d: device %#x, interpreter %#x", x.name, i, got, uint32(c))
			}
			if uint32(c) != x.init(i) {
				changed++
			}
		}
		// The shader writes every texture: equal outputs that merely
		// repeat the input would not show the writes work.
		if changed == 0 {
			t.Errorf("%s: no texel changed", x.name)
		}
	}
}

// textureArrayShader indexes arrays of textures and samplers at run time
// (arrayed descriptors indexed by an access chain, resarray.go): SampleLevel with a texture and a sampler chosen per lane,
// Load and operator[] through NonUniformResourceIndex, GetDimensions.
const textureArrayShader = `
Texture2D<float4> t[3] : register(t1);
SamplerState s[2] : register(s4);
RWStructuredBuffer<float4> o : register(u0);
[numthreads(16, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
	uint i = id.x % 3;
	float2 uv = float2(id.x * 0.19 - 0.4, id.x * 0.07 + 0.1);
	o[id.x * 3] = t[i].SampleLevel(s[id.x / 8], uv, 0);
	o[id.x * 3 + 1] = t[NonUniformResourceIndex(2 - i)].Load(int3(id.x % 2, id.x / 8, 0)) + t[i][uint2(1, 1)];
	uint w, h;
	t[i].GetDimensions(w, h);
	o[id.x * 3 + 2] = float4(w, h, i, 0);
}
`

// TestLavapipeTextureArrays runs textureArrayShader on lavapipe and in
// the interpreter (point sampling: bit-exact) with three distinct 2x2
// textures and a clamp and a wrap sampler.
func TestLavapipeTextureArrays(t *testing.T) {
	needDevice(t)
	path := filepath.Join(t.TempDir(), "arr.hlsl")
	if err := os.WriteFile(path, []byte(textureArrayShader), 0o644); err != nil {
		t.Fatal(err)
	}
	m, _, err := load.File(path, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := runSpirvPipeline(m); err != nil {
		t.Fatal(err)
	}
	in := &interp.Input{Buffers: []interp.BufferInput{{Name: "o", Count: 48}}}
	job := vkrun.Job{Entry: "main", Groups: [3]int{1, 1, 1}, Buffers: []vkrun.Buffer{{Set: 0, Binding: 0, Data: make([]byte, 48*16)}}}
	for k := 0; k < 3; k++ {
		var level []any
		var data []byte
		for i := 0; i < 16; i++ {
			v := math.Float32bits(float32(k*100 + i))
			level = append(level, fmt.Sprintf("0x%08X", v))
			data = binary.LittleEndian.AppendUint32(data, v)
		}
		in.Textures = append(in.Textures, interp.TextureInput{Name: fmt.Sprintf("t.%d", k), Format: "RGBA32F", Width: 2, Height: 2, Levels: [][]any{level}})
		job.Buffers = append(job.Buffers, vkrun.Buffer{Set: 0, Binding: 1, ArrayElement: k, Image: &vkrun.Image{Format: 109, TexelBytes: 16,
			Width: 2, Height: 2, Layers: 1, Levels: 1, ViewType: 1, Data: data}})
	}
	for k, addr := range []struct {
		hlsl string
		vk   uint32
	}{{"clamp", 2}, {"wrap", 0}} {
		in.Samplers = append(in.Samplers, interp.SamplerInput{Name: fmt.Sprintf("s.%d", k), Filter: "point", AddressU: addr.hlsl, AddressV: addr.hlsl})
		job.Buffers = append(job.Buffers, vkrun.Buffer{Set: 0, Binding: 4, ArrayElement: k, Sampler: &vkrun.Sampler{Address: [3]uint32{addr.vk, addr.vk, 2}, MaxLOD: 1000}})
	}
	res, err := interp.Run(m, in, interp.Options{WaveSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	out := runOnDevice(t, m, deviceOptions(needDevice(t)), job)
	cells := res.Buffer("o").Cells
	distinct := map[uint32]bool{}
	for i, c := range cells {
		got := binary.LittleEndian.Uint32(out[0][4*i:])
		if got != uint32(c) {
			t.Errorf("o word %d: device %v, interpreter %v", i, math.Float32frombits(got), math.Float32frombits(uint32(c)))
		}
		distinct[uint32(c)] = true
	}
	// Reads of all three textures show up (not one texture for all).
	if len(distinct) < 12 {
		t.Errorf("only %d distinct values: the arrays are not indexed", len(distinct))
	}
}

// rwTextureArrayShader writes and atomically adds to an array of
// read-write textures indexed at run time (the lowering branches per
// element): each lane writes its own texel of texture lane % 3 and adds
// its index to texel (0, 1) of that texture.
const rwTextureArrayShader = `
RWTexture2D<uint> u[3] : register(u0);
[numthreads(16, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
	uint i = id.x % 3;
	u[i][uint2(id.x / 3, 0)] = id.x * 10 + u[NonUniformResourceIndex(i)][uint2(id.x / 3, 0)];
	InterlockedAdd(u[i][uint2(0, 1)], id.x + 1);
}
`

// TestLavapipeRWTextureArrays runs rwTextureArrayShader on lavapipe and
// in the interpreter and compares the three textures bit for bit.
func TestLavapipeRWTextureArrays(t *testing.T) {
	needDevice(t)
	path := filepath.Join(t.TempDir(), "rwarr.hlsl")
	if err := os.WriteFile(path, []byte(rwTextureArrayShader), 0o644); err != nil {
		t.Fatal(err)
	}
	m, _, err := load.File(path, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := runSpirvPipeline(m); err != nil {
		t.Fatal(err)
	}
	in := &interp.Input{}
	job := vkrun.Job{Entry: "main", Groups: [3]int{1, 1, 1}}
	for k := 0; k < 3; k++ {
		var level []any
		var data []byte
		for i := 0; i < 12; i++ {
			v := uint32(k*1000 + i)
			level = append(level, v)
			data = binary.LittleEndian.AppendUint32(data, v)
		}
		in.Textures = append(in.Textures, interp.TextureInput{Name: fmt.Sprintf("u.%d", k), Format: "R32UI", Width: 6, Height: 2, Levels: [][]any{level}})
		job.Buffers = append(job.Buffers, vkrun.Buffer{Set: 0, Binding: 0, ArrayElement: k, Image: &vkrun.Image{Format: 98, TexelBytes: 4,
			Width: 6, Height: 2, Layers: 1, Levels: 1, ViewType: 1, Data: data, Storage: true}})
	}
	res, err := interp.Run(m, in, interp.Options{WaveSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	out := runOnDevice(t, m, deviceOptions(needDevice(t)), job)
	for k := 0; k < 3; k++ {
		cells := res.Buffer(fmt.Sprintf("u.%d", k)).Cells
		for i, c := range cells {
			if got := binary.LittleEndian.Uint32(out[k][4*i:]); got != uint32(c) {
				t.Errorf("u[%d] texel %d: device %d, interpreter %d", k, i, got, uint32(c))
			}
		}
		// Texel (0, 1) of texture k gathers lanes k, k+3, ...: their
		// indices + 1 added to its initial value.
		want := uint32(k*1000 + 6)
		for lane := k; lane < 16; lane += 3 {
			want += uint32(lane + 1)
		}
		if uint32(cells[6]) != want {
			t.Errorf("u[%d] texel (0, 1) = %d, want %d", k, cells[6], want)
		}
	}
}
