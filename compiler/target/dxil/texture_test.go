package dxil

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/load"
)

// textureInput binds every texture of testdata/textures.hlsl (one level,
// distinct texels) and both samplers.
func textureInput() *interp.Input {
	texels := func(n, ch int) []any {
		out := make([]any, n*ch)
		for i := range out {
			out[i] = float64(i%13) / 8
		}
		return out
	}
	return &interp.Input{
		Buffers: []interp.BufferInput{{Name: "o", Count: 8}},
		Textures: []interp.TextureInput{
			{Name: "t", Format: "RGBA32F", Width: 4, Height: 2, Levels: [][]any{texels(8, 4), texels(2, 4)}},
			{Name: "ta", Format: "RGBA32F", Width: 2, Height: 2, Layers: 2, Levels: [][]any{texels(8, 4)}},
			{Name: "t1", Format: "R32F", Width: 4, Levels: [][]any{texels(4, 1)}},
			{Name: "t3", Format: "RG32F", Width: 2, Height: 2, Depth: 2, Levels: [][]any{texels(8, 2)}},
			{Name: "tc", Format: "RGBA32F", Width: 1, Height: 1, Levels: [][]any{texels(6, 4)}},
			{Name: "tca", Format: "RGBA32F", Width: 1, Height: 1, Layers: 12, Levels: [][]any{texels(12, 4)}},
			{Name: "tu", Format: "RGBA32UI", Width: 4, Height: 1, Levels: [][]any{{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}}},
			{Name: "depth", Format: "R32F", Width: 2, Height: 2, Levels: [][]any{{0.25, 0.75, 0.5, 1}}},
		},
		Samplers: []interp.SamplerInput{{Name: "s", Filter: "linear", AddressU: "wrap"}, {Name: "sc", Filter: "point", Comparison: "less"}},
	}
}

// TestDXILTextures: every texture method becomes its dx.op on handles from
// dx.op.createHandle, llvm-as-22 and opt-22 accept the output, no vector
// type is left, and the interpreter computes the same results before and
// after the dxil pipeline (scalarize keeps texture reads whole).
func TestDXILTextures(t *testing.T) {
	const src = "testdata/textures.hlsl"
	for _, entry := range []string{"main", "ps"} {
		t.Run(entry, func(t *testing.T) {
			m, _, err := load.File(src, load.Options{Entry: entry})
			if err != nil {
				t.Fatal(err)
			}
			var want *interp.Result
			if entry == "main" {
				want = runInterp(t, m, textureInput())
			}
			runSpec(t, m, "inline,sroa,simplify,scalarize,simplify")
			if entry == "main" {
				if ok, diff := want.Equal(runInterp(t, m, textureInput())); !ok {
					t.Errorf("results differ after the dxil pipeline: %s", diff)
				}
			}
			out, err := Emit(m)
			if err != nil {
				t.Fatal(err)
			}
			checkLLVM(t, "textures-"+entry, out.Text)
			checkScalar(t, "textures-"+entry, out.Text)
			for _, op := range []string{"createHandle(i32 57, i8 0", "createHandle(i32 57, i8 3", "sample.f32(i32 60",
				"sampleLevel.f32(i32 62", "sampleGrad.f32(i32 63", "sampleBias.f32(i32 61", "sampleCmp.f32(i32 64",
				"sampleCmpLevelZero.f32(i32 65", "textureLoad.f32(i32 66", "textureLoad.i32(i32 66", "getDimensions(i32 72",
				"textureGather.f32(i32 73", "textureGatherCmp.f32(i32 74"} {
				if !strings.Contains(out.Text, "@dx.op."+op) {
					t.Errorf("no @dx.op.%s in the output", op)
				}
			}
			if n := strings.Count(out.Text, "tex."); n > 0 {
				t.Errorf("%d tex.* intrinsics left:\n%s", n, out.Text)
			}
		})
	}
}

// rwTextureInput binds every texture of testdata/rwtextures.hlsl.
func rwTextureInput() *interp.Input {
	seq := func(n int, f func(int) any) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = f(i)
		}
		return out
	}
	return &interp.Input{Textures: []interp.TextureInput{
		{Name: "img", Format: "RGBA32F", Width: 8, Height: 8, Levels: [][]any{seq(256, func(i int) any { return float64(i)/4 - 3 })}},
		{Name: "cnt", Format: "R32UI", Width: 2, Height: 2, Levels: [][]any{seq(4, func(i int) any { return i * 5 })}},
		{Name: "line", Format: "R32F", Width: 8, Levels: [][]any{seq(8, func(i int) any { return float64(i) + 0.5 })}},
		{Name: "arr", Format: "RG32I", Width: 8, Height: 8, Layers: 2, Levels: [][]any{seq(256, func(i int) any { return i*3 - 100 })}},
		{Name: "vol", Format: "R32UI", Width: 4, Height: 4, Depth: 4, Levels: [][]any{seq(64, func(i int) any { return i << 20 })}},
		{Name: "rows", Format: "RGBA32UI", Width: 4, Layers: 3, Levels: [][]any{seq(48, func(i int) any { return i * 7 })}},
	}}
}

// TestDXILRWTextures: read-write texture reads, writes and texel atomics
// become textureLoad/textureStore/atomicBinOp/atomicCompareExchange on UAV
// handles (class 1), llvm-as-22 and opt-22 accept the output, no vector
// type or tex.* call is left, and the interpreter computes the same
// textures before and after the dxil pipeline.
func TestDXILRWTextures(t *testing.T) {
	m, _, err := load.File("testdata/rwtextures.hlsl", load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := runInterp(t, m, rwTextureInput())
	runSpec(t, m, "inline,sroa,simplify,scalarize,simplify")
	if ok, diff := want.Equal(runInterp(t, m, rwTextureInput())); !ok {
		t.Errorf("results differ after the dxil pipeline: %s", diff)
	}
	out, err := Emit(m)
	if err != nil {
		t.Fatal(err)
	}
	checkLLVM(t, "rwtextures", out.Text)
	checkScalar(t, "rwtextures", out.Text)
	for _, op := range []string{"createHandle(i32 57, i8 1", "textureLoad.f32(i32 66", "textureLoad.i32(i32 66",
		"textureStore.f32(i32 67", "textureStore.i32(i32 67", "atomicBinOp.i32(i32 78", "atomicCompareExchange.i32(i32 79",
		"getDimensions(i32 72"} {
		if !strings.Contains(out.Text, "@dx.op."+op) {
			t.Errorf("no @dx.op.%s in the output", op)
		}
	}
	if n := strings.Count(out.Text, "tex."); n > 0 {
		t.Errorf("%d tex.* intrinsics left:\n%s", n, out.Text)
	}
}

// TestDXILMSTextures: multisampled texture loads become textureLoad with
// the sample index in the mip operand, llvm-as-22 and opt-22 accept the
// output, and the interpreter computes the same before and after the
// dxil pipeline.
func TestDXILMSTextures(t *testing.T) {
	m, _, err := load.File("testdata/mstextures.hlsl", load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	seq := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = i * 3
		}
		return out
	}
	in := &interp.Input{Buffers: []interp.BufferInput{{Name: "o", Count: 12}}, Textures: []interp.TextureInput{
		{Name: "t", Format: "RGBA32F", Width: 2, Height: 2, Samples: [][]any{seq(16), seq(16), seq(16), seq(16)}},
		{Name: "ta", Format: "RG32UI", Width: 2, Height: 1, Layers: 2, Samples: [][]any{seq(8), seq(8)}},
	}}
	want := runInterp(t, m, in)
	runSpec(t, m, "inline,sroa,simplify,scalarize,simplify")
	if ok, diff := want.Equal(runInterp(t, m, in)); !ok {
		t.Errorf("results differ after the dxil pipeline: %s", diff)
	}
	out, err := Emit(m)
	if err != nil {
		t.Fatal(err)
	}
	checkLLVM(t, "mstextures", out.Text)
	checkScalar(t, "mstextures", out.Text)
	for _, op := range []string{"textureLoad.f32(i32 66", "textureLoad.i32(i32 66", "getDimensions(i32 72"} {
		if !strings.Contains(out.Text, "@dx.op."+op) {
			t.Errorf("no @dx.op.%s in the output", op)
		}
	}
}

// TestDXILTextureArrays: a texture or sampler chosen from an array at run
// time is one createHandle with the index (resarray.go); llvm-as-22 and opt-22
// accept the output and the interpreter computes the same before and
// after the dxil pipeline.
func TestDXILTextureArrays(t *testing.T) {
	m, _, err := load.File("testdata/texarrays.hlsl", load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	texels := func(k int) []any {
		out := make([]any, 16)
		for i := range out {
			out[i] = k*100 + i
		}
		return out
	}
	in := &interp.Input{Buffers: []interp.BufferInput{{Name: "o", Count: 8}}, Textures: []interp.TextureInput{
		{Name: "t.0", Format: "RGBA32F", Width: 2, Height: 2, Levels: [][]any{texels(0)}},
		{Name: "t.1", Format: "RGBA32F", Width: 2, Height: 2, Levels: [][]any{texels(1)}},
		{Name: "t.2", Format: "RGBA32F", Width: 2, Height: 1, Levels: [][]any{texels(2)[:8]}},
	}, Samplers: []interp.SamplerInput{{Name: "s.0", Filter: "point"}, {Name: "s.1", Filter: "point", AddressU: "wrap"}}}
	want := runInterp(t, m, in)
	runSpec(t, m, "inline,sroa,simplify,scalarize,simplify")
	if ok, diff := want.Equal(runInterp(t, m, in)); !ok {
		t.Errorf("results differ after the dxil pipeline: %s", diff)
	}
	out, err := Emit(m)
	if err != nil {
		t.Fatal(err)
	}
	checkLLVM(t, "texarrays", out.Text)
	if !strings.Contains(out.Text, "@dx.op.createHandle(i32 57, i8 0, i32 0, i32 %") || strings.Contains(out.Text, "select i1") {
		t.Errorf("no createHandle with a dynamic index (or a select left):\n%s", out.Text)
	}
}

// TestDXILDimensionsLevelCount: dx.op.getDimensions returns a 2D
// texture's level count in field 3 of %dx.types.Dimensions ({w, h, undef,
// levels}), a 1D texture's too ({w, undef, undef, levels}); the width and
// height stay in fields 0 and 1.
func TestDXILDimensionsLevelCount(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dims.hlsl")
	src := `Texture2D<float4> t : register(t0);
Texture1D<float4> t1 : register(t1);
RWStructuredBuffer<uint> Out : register(u0);
[numthreads(1, 1, 1)]
void main() {
  uint w, h, l, w1, l1;
  t.GetDimensions(0, w, h, l);
  t1.GetDimensions(0, w1, l1);
  Out[0] = w; Out[1] = h; Out[2] = l; Out[3] = w1; Out[4] = l1;
}
`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	m, _, err := load.File(path, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	runSpec(t, m, "inline,sroa,simplify,scalarize,simplify")
	out, err := Emit(m)
	if err != nil {
		t.Fatal(err)
	}
	checkLLVM(t, "dims", out.Text)
	fields := map[string]bool{}
	for _, line := range strings.Split(out.Text, "\n") {
		if i := strings.Index(line, "extractvalue %dx.types.Dimensions "); i >= 0 {
			fields[line[strings.LastIndex(line, ",")+2:]] = true
		}
	}
	for _, f := range []string{"0", "1", "3"} {
		if !fields[f] {
			t.Errorf("no extractvalue of Dimensions field %s (fields read: %v):\n%s", f, fields, out.Text)
		}
	}
	if fields["2"] {
		t.Errorf("field 2 read: a 2D or 1D texture has no depth there (fields %v)", fields)
	}
}
