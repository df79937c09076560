package spirv

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/hlsl/lower"
	"passlens/compiler/interp"
	"passlens/compiler/target/spirv/vkrun"
)

// TestLavapipeHalfTexture: a Texture2D<half4> is an image of 32-bit
// floats whose Load and SampleLevel results are converted to halves
// (OpFConvert), as DXC declares it (vkd3d's conditional.shader_test reads
// one); spirv-val accepts the module and lavapipe's halves equal the
// interpreter's bit for bit (texel values exact in half and two, 0.1 and
// 1000.3, that must round).
func TestLavapipeHalfTexture(t *testing.T) {
	needDevice(t)
	src := `Texture2D<half4> t : register(t1);
SamplerState s : register(s2);
RWStructuredBuffer<half4> o : register(u0);
[numthreads(1,1,1)]
void main() {
  o[0] = t.Load(int3(1, 0, 0));
  o[1] = t.SampleLevel(s, float2(0.25, 0.75), 0);
  o[2] = t.Load(int3(1, 1, 0));
}`
	opts := hlsl.Options{Entry: "main", Stage: hlsl.StageCompute, Enable16BitTypes: true}
	prog, diags := hlsl.Frontend("half.hlsl", []byte(src), opts)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m, ld := lower.Lower(prog, opts)
	if ld.HasErrors() {
		t.Fatal(ld)
	}
	if err := runSpirvPipeline(m); err != nil {
		t.Fatal(err)
	}
	words, err := Assemble(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if msg := spirvVal(t, words, "vulkan1.1"); msg != "" {
		t.Fatalf("spirv-val: %s", msg)
	}
	// 2x2 RGBA32F texels.
	px := [][4]float32{{0.5, 0.25, 1.5, -2}, {0.1, 3, -0.75, 65504}, {1, 2, 4, 8}, {-1, 0.125, 0.1, 1000.3}}
	var level []any
	var texels []byte
	for _, p := range px {
		for _, c := range p {
			level = append(level, fmt.Sprintf("0x%08X", math.Float32bits(c)))
			texels = binary.LittleEndian.AppendUint32(texels, math.Float32bits(c))
		}
	}
	in := &interp.Input{
		Buffers:  []interp.BufferInput{{Name: "o", Count: 3}},
		Textures: []interp.TextureInput{{Name: "t", Format: "RGBA32F", Width: 2, Height: 2, Levels: [][]any{level}}},
		Samplers: []interp.SamplerInput{{Name: "s", MinFilter: "point", MagFilter: "point", MipFilter: "point", AddressU: "clamp", AddressV: "clamp", AddressW: "clamp"}},
	}
	res, err := interp.Run(m, in, interp.Options{WaveSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	job := vkrun.Job{SPIRV: words, Entry: "main", Groups: [3]int{1, 1, 1}, Buffers: []vkrun.Buffer{
		{Set: 0, Binding: 0, Data: make([]byte, 3*8)},
		{Set: 0, Binding: 1, Image: &vkrun.Image{Format: 109 /* R32G32B32A32_SFLOAT */, TexelBytes: 16, Width: 2, Height: 2,
			Layers: 1, Levels: 1, ViewType: 1 /* 2D */, Data: texels}},
		{Set: 0, Binding: 2, Sampler: &vkrun.Sampler{Address: [3]uint32{2, 2, 2}, MaxLOD: 1000}},
	}}
	out, err := vkrun.Run(job)
	if err != nil {
		t.Fatal(err)
	}
	cells := res.Buffer("o").Cells
	// The interpreter's halves are the texels rounded to nearest even
	// (0.1 is 0x2E66, 1000.3 is 1000.5). A texel beyond the half range is
	// left out: the interpreter rounds it to +inf (IEEE), llvmpipe's
	// OpFConvert saturates to 65504 (a documented difference). Without
	// RoundingModeRTE 16 llvmpipe would truncate 1000.3 to 1000.
	want := map[int]uint64{0: 0x2E66, 3: 0x7BFF, 4: 0x3C00, 7: 0x4800, 8: 0xBC00, 10: 0x2E66, 11: 0x63D1}
	for k, w := range want {
		if cells[k] != w {
			t.Errorf("interpreter o[%d].%d = %#x, want %#x", k/4, k%4, cells[k], w)
		}
	}
	for k := range cells {
		if got := uint64(binary.LittleEndian.Uint16(out[0][2*k:])); got != cells[k] {
			t.Errorf("o[%d].%d: device %#x, interpreter %#x", k/4, k%4, got, cells[k])
		}
	}
}
