package interp

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"passlens/compiler/ir"
)

// texModule is a one-lane compute shader storing the <4 x f32> result of
// call (an intrinsic call on @t and @s, or a texel type other than
// <4 x f32> given by texel) to Out[0].
func texModule(t *testing.T, kind, texel, ret, call string) *ir.Module {
	t.Helper()
	src := fmt.Sprintf(`module "tex"

@t = global storage %[2]s binding 0, 0 readonly kind %[1]q
@s = global storage u32 binding 0, 0 readonly kind "SamplerState"
@c = global storage u32 binding 1, 0 readonly kind "SamplerComparisonState"
@Out = global storage [? x %[3]s] binding 0, 0 kind "RWStructuredBuffer"

define void @main() compute numthreads(1, 1, 1) {
entry:
  %%r = intr %[3]s %[4]s
  %%p = access ptr<storage, [? x %[3]s]> @Out, u32 0
  store %[3]s %%r, ptr<storage, %[3]s> %%p
  ret
}
`, kind, texel, ret, strings.NewReplacer("T", "ptr<storage, "+texel+"> @t", "S", "ptr<storage, u32> @s", "C", "ptr<storage, u32> @c").Replace(call))
	m, err := ir.ParseModule("tex.pir", []byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	// The text form round-trips.
	if m2, err := ir.ParseModule("again.pir", []byte(m.String())); err != nil || m2.String() != m.String() {
		t.Fatalf("round trip: %v\n%s", err, m)
	}
	return m
}

// grid4x2 is a 4x2 RGBA32F texture whose red channel is x + 10y at level
// 0 and 100 + x at level 1 (2x1); green is 0.5, blue 0, alpha 1.
const grid4x2 = `{"name": "t", "format": "RGBA32F", "width": 4, "height": 2, "levels": [
	[0,0.5,0,1, 1,0.5,0,1, 2,0.5,0,1, 3,0.5,0,1, 10,0.5,0,1, 11,0.5,0,1, 12,0.5,0,1, 13,0.5,0,1],
	[100,0.5,0,1, 101,0.5,0,1]]}`

func runTex(t *testing.T, m *ir.Module, textures, samplers string) []uint64 {
	t.Helper()
	in, err := ParseInput([]byte(`{"textures": [` + textures + `], "samplers": [` + samplers + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := runT(m, in, Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	return res.Buffer("Out").Element(0)
}

// TestSampleD3DRules checks filtering, addressing and level selection
// against values worked out by hand from the D3D11 functional spec rules.
func TestSampleD3DRules(t *testing.T) {
	for _, c := range []struct {
		sampler string
		uv      string
		lod     float64
		off     string
		want    float32 // red
	}{
		{`"filter": "point"`, "0.3, 0.2", 0, "0, 0", 1},                                              // texel floor(1.2), floor(0.4)
		{`"filter": "point"`, "0.99, 0.9", 0, "0, 0", 13},                                            // texel (3, 1)
		{`"filter": "linear"`, "0.5, 0.5", 0, "0, 0", 6.5},                                           // centre: avg(1, 2, 11, 12)
		{`"filter": "linear"`, "0.0, 0.0", 0, "0, 0", 0},                                             // clamp: texel (0, 0) four times
		{`"filter": "linear", "address_u": "wrap", "address_v": "wrap"`, "0.0, 0.0", 0, "0, 0", 6.5}, // avg(3, 0, 13, 10)
		{`"filter": "point", "address_u": "wrap"`, "1.1, 0.0", 0, "0, 0", 0},
		{`"filter": "point", "address_u": "wrap"`, "-0.1, 0.0", 0, "0, 0", 3},
		{`"filter": "point", "address_u": "mirror"`, "1.1, 0.0", 0, "0, 0", 3},
		{`"filter": "point", "address_u": "mirror"`, "-0.1, 0.0", 0, "0, 0", 0},
		{`"filter": "point", "address_u": "mirror"`, "-0.3, 0.0", 0, "0, 0", 1},
		{`"filter": "point", "address_u": "mirror_once"`, "-0.3, 0.0", 0, "0, 0", 1},
		{`"filter": "point", "address_u": "mirror_once"`, "1.6, 0.0", 0, "0, 0", 3},
		{`"filter": "point", "address_u": "border", "border_color": [0.25, 0, 0, 0]`, "1.1, 0.0", 0, "0, 0", 0.25},
		{`"filter": "linear", "address_u": "border", "border_color": [20, 0, 0, 0]`, "0.0, 0.25", 0, "0, 0", 10}, // avg(border, texel 0)
		{`"filter": "point"`, "0.75, 0.5", 1, "0, 0", 101},                                                       // level 1
		{`"filter": "point"`, "0.3, 0.2", 5, "0, 0", 100},                                                        // clamped to the last level
		{`"min_filter": "point", "mag_filter": "point", "mip_filter": "linear"`, "0.3, 0.2", 0.5, "0, 0", 50.5},
		{`"filter": "point", "mip_filter": "point"`, "0.3, 0.2", 0.6, "0, 0", 100}, // nearest level: 1
		{`"filter": "point", "mip_filter": "point"`, "0.3, 0.2", 0.4, "0, 0", 1},   // nearest level: 0
		{`"filter": "point", "max_lod": 0`, "0.3, 0.2", 1, "0, 0", 1},
		{`"filter": "point", "min_lod": 1`, "0.3, 0.2", 0, "0, 0", 100},
		{`"filter": "point", "mip_lod_bias": 1`, "0.3, 0.2", 0, "0, 0", 100},
		{`"filter": "point"`, "0.3, 0.2", 0, "1, 1", 12},                     // offset
		{`"filter": "point", "address_u": "wrap"`, "0.9, 0.2", 0, "1, 0", 0}, // offset, then wrap
		{`"filter": "linear"`, "0.375, 0.25", 0, "0, 0", 1},                  // u*W-0.5 = 1: exactly texel 1
		{`"filter": "linear"`, "0.4375, 0.25", 0, "0, 0", 1.25},              // quarter of the way to texel 2
	} {
		m := texModule(t, "Texture2D", "<4 x f32>", "<4 x f32>",
			fmt.Sprintf("tex.sample_level(T, S, <2 x f32> <%s>, f32 %v, <2 x i32> <%s>)", c.uv, fmtF(c.lod), c.off))
		got := runTex(t, m, grid4x2, `{"name": "s", `+c.sampler+`}`)
		if r := f32(got[0]); r != c.want || f32(got[1]) != 0.5 && !strings.Contains(c.sampler, "border") {
			t.Errorf("%s uv (%s) lod %v offset (%s): got %v, %v; want red %v", c.sampler, c.uv, c.lod, c.off, r, f32(got[1]), c.want)
		}
	}
}

func fmtF(f float64) string {
	s := fmt.Sprint(f)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// TestTextureReads covers Load, implicit-LOD Sample (level 0 without
// quads), SampleGrad's level from gradients, comparison, Gather's order,
// dims, array layers, cube faces and the null view.
func TestTextureReads(t *testing.T) {
	point := `{"name": "s", "filter": "point"}`
	red := func(call, textures, samplers string) float32 {
		t.Helper()
		return f32(runTex(t, texModule(t, "Texture2D", "<4 x f32>", "<4 x f32>", call), textures, samplers)[0])
	}
	for _, c := range []struct {
		call string
		want float32
	}{
		{"tex.load(T, <2 x i32> <2, 1>, i32 0, <2 x i32> <0, 0>)", 12},
		{"tex.load(T, <2 x i32> <1, 0>, i32 1, <2 x i32> <0, 0>)", 101},
		{"tex.load(T, <2 x i32> <1, 0>, i32 0, <2 x i32> <1, 1>)", 12},
		{"tex.load(T, <2 x i32> <4, 0>, i32 0, <2 x i32> <0, 0>)", 0}, // out of bounds: 0
		{"tex.load(T, <2 x i32> <0, 0>, i32 2, <2 x i32> <0, 0>)", 0}, // no level 2
		{"tex.sample(T, S, <2 x f32> <0.3, 0.2>, <2 x i32> <0, 0>)", 1},
		{"tex.sample_bias(T, S, <2 x f32> <0.3, 0.2>, f32 3.0, <2 x i32> <0, 0>)", 1}, // -inf + bias
		// Gradient (0.5, 0) of a 4-wide texture: rho 2, lod 1.
		{"tex.sample_grad(T, S, <2 x f32> <0.3, 0.2>, <2 x f32> <0.5, 0.0>, <2 x f32> <0.0, 0.0>, <2 x i32> <0, 0>)", 100},
		{"tex.sample_grad(T, S, <2 x f32> <0.3, 0.2>, <2 x f32> <0.125, 0.0>, <2 x f32> <0.0, 0.0>, <2 x i32> <0, 0>)", 1},
	} {
		if got := red(c.call, grid4x2, point); got != c.want {
			t.Errorf("%s: red %v, want %v", c.call, got, c.want)
		}
	}

	// Gather: red of (i0,j1), (i1,j1), (i1,j0), (i0,j0) around the centre.
	g := runTex(t, texModule(t, "Texture2D", "<4 x f32>", "<4 x f32>", "tex.gather(T, S, <2 x f32> <0.5, 0.5>, i32 0, <2 x i32> <0, 0>)"), grid4x2, point)
	if got := []float32{f32(g[0]), f32(g[1]), f32(g[2]), f32(g[3])}; fmt.Sprint(got) != "[11 12 2 1]" {
		t.Errorf("gather: %v, want [11 12 2 1]", got)
	}
	g = runTex(t, texModule(t, "Texture2D", "<4 x f32>", "<4 x f32>", "tex.gather(T, S, <2 x f32> <0.5, 0.5>, i32 1, <2 x i32> <0, 0>)"), grid4x2, point)
	if f32(g[0]) != 0.5 {
		t.Errorf("gather green: %v", f32(g[0]))
	}

	// Comparison: ref 0.5 less than the texel passes (D3D: ref OP texel).
	depth := `{"name": "t", "format": "R32F", "width": 2, "height": 1, "levels": [[0.25, 0.75]]}`
	cmp := func(call, op, filter string) float32 {
		m := texModule(t, "Texture2D", "f32", "f32", call)
		return f32(runTex(t, m, depth, `{"name": "c", "comparison": "`+op+`", "filter": "`+filter+`"}`)[0])
	}
	for _, c := range []struct {
		u, op, filter string
		want          float32
	}{
		{"0.75", "less", "point", 1}, {"0.25", "less", "point", 0}, {"0.25", "greater", "point", 1},
		{"0.5", "less", "linear", 0.5}, {"0.5", "always", "linear", 1}, {"0.5", "never", "linear", 0},
	} {
		if got := cmp("tex.sample_cmp_level_zero(T, C, <2 x f32> <"+c.u+", 0.5>, f32 0.5, <2 x i32> <0, 0>)", c.op, c.filter); got != c.want {
			t.Errorf("cmp u=%s %s %s: %v, want %v", c.u, c.op, c.filter, got, c.want)
		}
	}
	if got := cmp("tex.sample_cmp(T, C, <2 x f32> <0.75, 0.5>, f32 0.5, <2 x i32> <0, 0>)", "less", "point"); got != 1 {
		t.Errorf("sample_cmp: %v", got)
	}
	// GatherCmp: ref 0.5 "less" than the red of (i0,j1), (i1,j1), (i1,j0),
	// (i0,j0) = (0.25, 0.75, 0.75, 0.25) (one row, clamped).
	gc := runTex(t, texModule(t, "Texture2D", "f32", "<4 x f32>", "tex.gather_cmp(T, C, <2 x f32> <0.5, 0.5>, i32 0, f32 0.5, <2 x i32> <0, 0>)"),
		depth, `{"name": "c", "comparison": "less"}`)
	if got := fmt.Sprint([]float32{f32(gc[0]), f32(gc[1]), f32(gc[2]), f32(gc[3])}); got != "[0 1 1 0]" {
		t.Errorf("gather_cmp: %s, want [0 1 1 0]", got)
	}

	// Dims: level 1 of the 4x2 texture is 2x1; two levels.
	d := runTex(t, texModule(t, "Texture2D", "<4 x f32>", "<3 x u32>", "tex.dims(T, u32 1)"), grid4x2, point)
	if fmt.Sprint(d[:3]) != "[2 1 2]" {
		t.Errorf("dims: %v, want [2 1 2]", d[:3])
	}

	// Null view: no texture input reads 0.
	if got := red("tex.sample(T, S, <2 x f32> <0.3, 0.2>, <2 x i32> <0, 0>)", "", point); got != 0 {
		t.Errorf("null view: %v", got)
	}

	// Texture2DArray: the layer is round(coord.z), clamped.
	arr := `{"name": "t", "format": "R32F", "width": 1, "height": 1, "layers": 3, "levels": [[5, 6, 7]]}`
	for z, want := range map[string]float32{"0.4": 5, "0.6": 6, "1.0": 6, "9.0": 7, "-2.0": 5} {
		m := texModule(t, "Texture2DArray", "f32", "f32", "tex.sample_level(T, S, <3 x f32> <0.5, 0.5, "+z+">, f32 0.0, <2 x i32> <0, 0>)")
		if got := f32(runTex(t, m, arr, point)[0]); got != want {
			t.Errorf("array layer %s: %v, want %v", z, got, want)
		}
	}

	// TextureCube: the major axis picks the face (+X, -X, +Y, -Y, +Z, -Z).
	cube := `{"name": "t", "format": "R32F", "width": 1, "height": 1, "levels": [[0, 1, 2, 3, 4, 5]]}`
	for dir, want := range map[string]float32{"1.0, 0.2, 0.3": 0, "-1.0, 0.2, 0.3": 1, "0.1, 2.0, 0.3": 2,
		"0.1, -2.0, 0.3": 3, "0.1, 0.2, 0.5": 4, "0.1, 0.2, -0.5": 5} {
		m := texModule(t, "TextureCube", "f32", "f32", "tex.sample_level(T, S, <3 x f32> <"+dir+">, f32 0.0, i32 0)")
		if got := f32(runTex(t, m, cube, point)[0]); got != want {
			t.Errorf("cube direction (%s): face %v, want %v", dir, got, want)
		}
	}
}

// TestTextureFormats checks UNORM/SNORM decoding (D3D: x/255, max(x/127,
// -1)), default channels (0, 0, 1) and integer formats.
func TestTextureFormats(t *testing.T) {
	load := "tex.load(T, <2 x i32> <0, 0>, i32 0, <2 x i32> <0, 0>)"
	m := texModule(t, "Texture2D", "<4 x f32>", "<4 x f32>", load)
	for _, c := range []struct {
		tex  string
		want [4]float32
	}{
		{`{"name": "t", "format": "R8_UNORM", "width": 1, "levels": [[51]]}`, [4]float32{0.2, 0, 0, 1}},
		{`{"name": "t", "format": "RG8_SNORM", "width": 1, "levels": [[-128, 127]]}`, [4]float32{-1, 1, 0, 1}},
		{`{"name": "t", "format": "R8G8B8A8_UNORM", "width": 1, "levels": [[255, 0, 255, 0]]}`, [4]float32{1, 0, 1, 0}},
		{`{"name": "t", "format": "R16_UNORM", "width": 1, "levels": [[65535]]}`, [4]float32{1, 0, 0, 1}},
	} {
		got := runTex(t, m, c.tex, "")
		for i := range c.want {
			if f32(got[i]) != c.want[i] {
				t.Errorf("%s: channel %d = %v, want %v", c.tex, i, f32(got[i]), c.want[i])
			}
		}
	}
	mu := texModule(t, "Texture2D", "<4 x u32>", "<4 x u32>", load)
	got := runTex(t, mu, `{"name": "t", "format": "RGBA32UI", "width": 1, "levels": [[1, 2, 3, 4294967295]]}`, "")
	if fmt.Sprint(got[:4]) != fmt.Sprint([]uint64{1, 2, 3, math.MaxUint32}) {
		t.Errorf("RGBA32UI: %v", got[:4])
	}
}

// TestTextureInputErrors: bad texture and sampler input is refused with
// a message naming the global.
func TestTextureInputErrors(t *testing.T) {
	m := texModule(t, "Texture2D", "<4 x f32>", "<4 x f32>", "tex.sample(T, S, <2 x f32> <0.3, 0.2>, <2 x i32> <0, 0>)")
	for _, c := range []struct{ tex, smp, want string }{
		{`{"name": "t", "format": "BC1", "width": 1, "levels": [[1]]}`, "", `unknown format "BC1"`},
		{`{"name": "t", "format": "R8_UNORM", "width": 2, "levels": [[1]]}`, "", "level 0 is 2x1x1 texels of 1 channels (2 values), the input has 1"},
		{`{"name": "t", "format": "R8_UNORM", "width": 1, "levels": [[256]]}`, "", "256 is outside 0..255"},
		{`{"name": "t", "format": "R8_UNORM", "width": 1, "levels": [[1], [1]]}`, "", "2 levels is more than the 1"},
		{`{"name": "t", "format": "RGBA32UI", "width": 1, "levels": [[1, 2, 3, 4]]}`, "", "does not fit texel type <4 x f32>"},
		{`{"name": "nope", "format": "R32F", "width": 1, "levels": [[1]]}`, "", `texture "nope" matches no texture global`},
		{"", `{"name": "s", "address_u": "repeat"}`, `address mode "repeat"`},
		{"", `{"name": "s", "filter": "cubic"}`, `filter "cubic"`},
		{"", `{"name": "s", "comparison": "lt"}`, `comparison "lt"`},
	} {
		in, err := ParseInput([]byte(`{"textures": [` + c.tex + `], "samplers": [` + c.smp + `]}`))
		if err != nil {
			t.Fatal(err)
		}
		_, err = runT(m, in, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrInput) {
			t.Errorf("%s %s: %v, want %q", c.tex, c.smp, err, c.want)
		}
	}
}

// TestTextureHostileCoordinates: NaN, infinite and huge coordinates,
// levels of detail and offsets read something (or 0) without failing.
func TestTextureHostileCoordinates(t *testing.T) {
	vals := []string{"0x7fc00000", "0x7f800000", "0xff800000", "1.0e30", "-1.0e30", "0.5"} // NaN, +inf, -inf, huge
	for _, kind := range []struct{ kind, coord, off, tex string }{
		{"Texture2D", "<2 x f32> <%s, %s>", "<2 x i32> <7, -8>", grid4x2},
		{"TextureCube", "<3 x f32> <%s, %s, 1.0>", "i32 0", `{"name": "t", "format": "R32F", "width": 1, "height": 1, "levels": [[0, 1, 2, 3, 4, 5]]}`},
		{"Texture2DArray", "<3 x f32> <0.5, %s, %s>", "<2 x i32> <0, 0>", `{"name": "t", "format": "R32F", "width": 1, "height": 1, "layers": 2, "levels": [[1, 2]]}`},
	} {
		texel := "<4 x f32>"
		if kind.kind != "Texture2D" {
			texel = "f32"
		}
		for _, a := range vals {
			for _, lod := range vals {
				for _, addr := range []string{"wrap", "mirror", "mirror_once", "border", "clamp"} {
					coord := fmt.Sprintf(kind.coord, a, a)
					m := texModule(t, kind.kind, texel, texel, fmt.Sprintf("tex.sample_level(T, S, %s, f32 %s, %s)", coord, lod, kind.off))
					runTex(t, m, kind.tex, `{"name": "s", "address_u": "`+addr+`", "address_v": "`+addr+`"}`)
				}
			}
		}
	}
}
