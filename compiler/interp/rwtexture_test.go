package interp

import (
	"errors"
	"math"
	"strings"
	"testing"

	"passlens/compiler/ir"
)

// rwModule writes, reads and atomically adds to a 3x2 RWTexture2D<u32>
// @u, inside and outside it, and stores what it read to Out: Out[0] the
// texel (1, 1) after the write, Out[1] a read at (3, 0) (outside: 0),
// Out[2] the atomic's old value at (2, 1), Out[3] an atomic's old value
// outside (0), Out[4] the width and Out[5] the height.
const rwModule = `module "rw"

@u = global storage u32 binding 0, 1 kind "RWTexture2D"
@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"

define void @main() compute numthreads(1, 1, 1) {
entry:
  intr void tex.write(ptr<storage, u32> @u, <2 x i32> <1, 1>, u32 77)
  intr void tex.write(ptr<storage, u32> @u, <2 x i32> <5, 0>, u32 99)
  intr void tex.write(ptr<storage, u32> @u, <2 x i32> <-1, 0>, u32 99)
  %a = intr u32 tex.read(ptr<storage, u32> @u, <2 x i32> <1, 1>)
  %b = intr u32 tex.read(ptr<storage, u32> @u, <2 x i32> <3, 0>)
  %p = intr ptr<storage, u32> tex.texel(ptr<storage, u32> @u, <2 x i32> <2, 1>)
  %c = atomic add ptr<storage, u32> %p, u32 5
  %q = intr ptr<storage, u32> tex.texel(ptr<storage, u32> @u, <2 x i32> <0, 2>)
  %d = atomic add ptr<storage, u32> %q, u32 5
  %dims = intr <3 x u32> tex.dims(ptr<storage, u32> @u, u32 0)
  %w = extractvalue <3 x u32> %dims, 0
  %h = extractvalue <3 x u32> %dims, 1
  %p0 = access ptr<storage, [? x u32]> @Out, u32 0
  store u32 %a, ptr<storage, u32> %p0
  %p1 = access ptr<storage, [? x u32]> @Out, u32 1
  store u32 %b, ptr<storage, u32> %p1
  %p2 = access ptr<storage, [? x u32]> @Out, u32 2
  store u32 %c, ptr<storage, u32> %p2
  %p3 = access ptr<storage, [? x u32]> @Out, u32 3
  store u32 %d, ptr<storage, u32> %p3
  %p4 = access ptr<storage, [? x u32]> @Out, u32 4
  store u32 %w, ptr<storage, u32> %p4
  %p5 = access ptr<storage, [? x u32]> @Out, u32 5
  store u32 %h, ptr<storage, u32> %p5
  ret
}
`

// TestRWTextures checks read-write textures as D3D defines UAV access:
// writes and reads inside, nothing outside (reads 0, writes dropped,
// atomics return 0), the size, the texels in the result, a null view
// without input and the input's errors.
func TestRWTextures(t *testing.T) {
	m, err := ir.ParseModule("rw.pir", []byte(rwModule))
	if err != nil {
		t.Fatal(err)
	}
	if m2, err := ir.ParseModule("again.pir", []byte(m.String())); err != nil || m2.String() != m.String() {
		t.Fatalf("round trip: %v", err)
	}
	in, err := ParseInput([]byte(`{"buffers": [{"name": "Out", "count": 6}],
		"textures": [{"name": "u", "format": "R32_UINT", "width": 3, "height": 2, "levels": [[1, 2, 3, 4, 5, 6]]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := runT(m, in, Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	want := []uint64{77, 0, 6, 0, 3, 2}
	for i, w := range want {
		if got := res.Buffer("Out").Cells[i]; got != w {
			t.Errorf("Out[%d] = %d, want %d", i, got, w)
		}
	}
	tex := res.Buffer("u")
	if tex == nil || tex.Count != 6 {
		t.Fatalf("texture @u in the result: %+v", tex)
	}
	for i, w := range []uint64{1, 2, 3, 4, 77, 11} {
		if tex.Cells[i] != w {
			t.Errorf("u texel %d = %d, want %d", i, tex.Cells[i], w)
		}
	}
	// No input: a null view (size 0, reads 0, writes dropped).
	in, _ = ParseInput([]byte(`{"buffers": [{"name": "Out", "count": 6}]}`))
	if res, err = runT(m, in, Options{WaveSize: 4}); err != nil {
		t.Fatal(err)
	}
	for i, c := range res.Buffer("Out").Cells {
		if c != 0 {
			t.Errorf("null view: Out[%d] = %d", i, c)
		}
	}
	for _, c := range []struct{ tex, want string }{
		{`{"name": "u", "format": "R8_UNORM", "width": 3, "height": 2, "levels": [[1, 2, 3, 4, 5, 6]]}`, "holds 32-bit channels"},
		{`{"name": "u", "format": "R32F", "width": 3, "height": 2, "levels": [[1, 2, 3, 4, 5, 6]]}`, "does not fit texel type u32"},
		{`{"name": "u", "format": "R32UI", "width": 3, "height": 2, "levels": [[1, 2, 3]]}`, "the input has 3"},
		{`{"name": "u", "format": "R32UI", "width": 2, "height": 1, "levels": [[1, 2], [3]]}`, "has one level"},
	} {
		in, err := ParseInput([]byte(`{"textures": [` + c.tex + `]}`))
		if err != nil {
			t.Fatal(err)
		}
		_, err = runT(m, in, Options{WaveSize: 4})
		if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.tex, err, c.want)
		}
	}
}

// TestMSTextureLoad checks tex.load_ms (sample k of a texel, 0 for a
// sample or texel outside) and tex.dims's sample count, and that a
// Texture1DArray's Load reads every layer.
func TestMSTextureLoad(t *testing.T) {
	const ms = `{"name": "t", "format": "RGBA32F", "width": 2, "height": 1, "samples": [[1,0,0,1, 2,0,0,1], [10,0,0,1, 20,0,0,1]]}`
	for _, c := range []struct {
		call string
		want []float32
	}{
		{"tex.load_ms(T, <2 x i32> <1, 0>, i32 1, <2 x i32> <0, 0>)", []float32{20, 0, 0, 1}},
		{"tex.load_ms(T, <2 x i32> <0, 0>, i32 0, <2 x i32> <1, 0>)", []float32{2, 0, 0, 1}},
		{"tex.load_ms(T, <2 x i32> <0, 0>, i32 2, <2 x i32> <0, 0>)", []float32{0, 0, 0, 0}},
		{"tex.load_ms(T, <2 x i32> <2, 0>, i32 0, <2 x i32> <0, 0>)", []float32{0, 0, 0, 0}},
	} {
		m := texModule(t, "Texture2DMS", "<4 x f32>", "<4 x f32>", c.call)
		checkFloats(t, c.call, runTex(t, m, ms, ""), c.want)
	}
	m := texModule(t, "Texture2DMS", "<4 x f32>", "<3 x u32>", "tex.dims(T, u32 0)")
	if got := runTex(t, m, ms, ""); got[0] != 2 || got[1] != 1 || got[2] != 2 {
		t.Errorf("dims = %v, want [2 1 2] (width, height, samples)", got)
	}
	in, _ := ParseInput([]byte(`{"textures": [{"name": "t", "format": "RGBA32F", "width": 2, "height": 1, "levels": [[1,0,0,1, 2,0,0,1]]}]}`))
	if _, err := runT(m, in, Options{WaveSize: 4}); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), `takes "samples"`) {
		t.Errorf("levels for a Texture2DMS: error %v", err)
	}
	arr := texModule(t, "Texture1DArray", "f32", "f32", "tex.load(T, <2 x i32> <1, 2>, i32 0, i32 0)")
	got := runTex(t, arr, `{"name": "t", "format": "R32F", "width": 2, "layers": 3, "levels": [[1, 2, 3, 4, 5, 6]]}`, "")
	checkFloats(t, "Texture1DArray layer 2", got, []float32{6})
}

// checkFloats compares cells holding f32 bits with want, bit for bit.
func checkFloats(t *testing.T, what string, got []uint64, want []float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d components, want %d", what, len(got), len(want))
	}
	for i, w := range want {
		if uint32(got[i]) != math.Float32bits(w) {
			t.Errorf("%s: component %d = %v, want %v", what, i, math.Float32frombits(uint32(got[i])), w)
		}
	}
}

// TestRWTextureHelperWrites: a pixel shader writes its pixel's texel of
// a read-write texture; the helper lanes that complete the quad of the
// one covered pixel write nothing (D3D: helpers have no side effects).
func TestRWTextureHelperWrites(t *testing.T) {
	m, err := ir.ParseModule("rwhelper.pir", []byte(`module "rwhelper"

@pos = global input <4 x f32> semantic "SV_Position"
@u = global storage u32 binding 0, 1 kind "RWTexture2D"

define void @main() pixel {
entry:
  %pos = load ptr<input, <4 x f32>> @pos
  %x = extractvalue <4 x f32> %pos, 0
  %y = extractvalue <4 x f32> %pos, 1
  %dx = intr f32 ddx_fine(f32 %x)
  %xi = fptosi f32 %x to i32
  %yi = fptosi f32 %y to i32
  %c = construct <2 x i32> (i32 %xi, i32 %yi)
  %v = fptoui f32 %dx to u32
  %v1 = add u32 %v, 6
  intr void tex.write(ptr<storage, u32> @u, <2 x i32> %c, u32 %v1)
  ret
}
`))
	if err != nil {
		t.Fatal(err)
	}
	in, err := ParseInput([]byte(`{"pixels": [[1, 0]],
		"textures": [{"name": "u", "format": "R32_UINT", "width": 2, "height": 2, "levels": [[0, 0, 0, 0]]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := runT(m, in, Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	tex := res.Buffer("u")
	if tex == nil {
		t.Fatal("no texels in the result")
	}
	for i, want := range []uint64{0, 7, 0, 0} {
		if got := tex.Cells[i]; got != want {
			t.Errorf("texel %d = %d, want %d (only pixel (1,0) writes, ddx = 1)", i, got, want)
		}
	}
}
