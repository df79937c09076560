package sm3

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"passlens/compiler/interp"
)

// texData is a w×h×d RGBA32F texture with the given number of mip levels
// (d: depth of a 3D texture, or layers: 6 for a cube map; a 3D texture's
// depth halves with the levels, layers do not) whose texels are distinct
// values in [0, 4), so a read from a wrong texel, level, face or channel
// shows.
func texData(name string, w, h, d, levels int, volume bool) interp.TextureInput {
	t := interp.TextureInput{Name: name, Format: "RGBA32F", Width: w, Height: h}
	if volume {
		t.Depth = d
	} else if d > 1 {
		t.Layers = d
	}
	r := rand.New(rand.NewPCG(uint64(w*100+h*10+d), uint64(levels)))
	for k := 0; k < levels; k++ {
		lw, lh, ld := max(w>>k, 1), max(h>>k, 1), d
		if volume {
			ld = max(d>>k, 1)
		}
		var data []any
		for i := 0; i < lw*lh*ld*4; i++ {
			data = append(data, float64(r.IntN(256))/64)
		}
		t.Levels = append(t.Levels, data)
	}
	return t
}

// texCase is one texture shader of TestTexturesMatchInterp: the instructions
// its assembly must contain, and the sampler states it runs under.
type texCase struct {
	name, src string
	want      []string // asm lines (substrings) the compile must contain
	textures  []interp.TextureInput
	samplers  [][]interp.SamplerInput // one run set per entry
	// tol is the relative tolerance (0: bit-exact). tex2Dproj divides by
	// w, which SM3 computes as rcp and mul (1 ULP from the IR's fdiv).
	tol float64
}

// samplerStates are point and linear filtering under every address mode,
// nearest and linear mip filtering.
func samplerStates(name string) [][]interp.SamplerInput {
	var out [][]interp.SamplerInput
	for _, f := range []string{"point", "linear"} {
		for _, a := range []string{"wrap", "clamp", "mirror", "border", "mirror_once"} {
			s := interp.SamplerInput{Name: name, Filter: f, AddressU: a, AddressV: a, AddressW: a, BorderColor: []float64{0.25, 0.5, 0.75, 1}}
			out = append(out, []interp.SamplerInput{s})
		}
	}
	mip := interp.SamplerInput{Name: name, MinFilter: "linear", MagFilter: "point", MipFilter: "point", AddressU: "wrap", AddressV: "clamp"}
	return append(out, []interp.SamplerInput{mip})
}

// sm1States are samplerStates for several samplers at once.
func sm1States(names ...string) [][]interp.SamplerInput {
	out := samplerStates(names[0])
	for i := range out {
		for _, n := range names[1:] {
			x := out[i][0]
			x.Name = n
			out[i] = append(out[i], x)
		}
	}
	return out
}

var texCases = []texCase{
	{
		name: "sample-2d",
		src: `Texture2D t; SamplerState s;
float4 main(float2 uv : TEXCOORD0) : SV_Target { return t.Sample(s, uv * 0.37 + 0.05); }`,
		want:     []string{"dcl_2d s0", "texld r", "t+s          s0"},
		textures: []interp.TextureInput{texData("t", 4, 4, 1, 3, false)},
		samplers: samplerStates("s"),
	},
	{
		name: "sample-level-mips",
		src: `Texture2D t : register(t1); SamplerState s : register(s2);
float4 main(float2 uv : TEXCOORD0, float lod : TEXCOORD1) : SV_Target {
    return t.SampleLevel(s, uv * 0.29, lod * 0.6 + 1.1) + t.SampleLevel(s, uv.yx, 1.5).zyxw;
}`,
		want:     []string{"dcl_2d s2", "texldl r"},
		textures: []interp.TextureInput{texData("t", 8, 4, 1, 4, false)},
		samplers: samplerStates("s"),
	},
	{
		name: "sample-grad",
		src: `Texture2D t; SamplerState s;
float4 main(float2 uv : TEXCOORD0, float4 g : TEXCOORD1) : SV_Target {
    return t.SampleGrad(s, uv * 0.3, g.xy * 0.2, g.zw * 0.1);
}`,
		want:     []string{"texldd r"},
		textures: []interp.TextureInput{texData("t", 8, 8, 1, 4, false)},
		samplers: samplerStates("s"),
	},
	{
		name: "sample-bias",
		src: `Texture2D t; SamplerState s;
float4 main(float2 uv : TEXCOORD0, float b : TEXCOORD1) : SV_Target { return t.SampleBias(s, uv * 0.41, b); }`,
		want:     []string{"texldb r"},
		textures: []interp.TextureInput{texData("t", 4, 4, 1, 3, false)},
		samplers: samplerStates("s"),
	},
	{
		name: "cube",
		src: `TextureCube t; SamplerState s;
float4 main(float3 dir : TEXCOORD0, float lod : TEXCOORD1) : SV_Target {
    return t.Sample(s, dir) * 0.5 + t.SampleLevel(s, dir.zxy + 0.1, lod);
}`,
		want:     []string{"dcl_cube s0", "texld r", "texldl r"},
		textures: []interp.TextureInput{texData("t", 2, 2, 6, 2, false)},
		samplers: samplerStates("s"),
	},
	{
		name: "volume",
		src: `Texture3D t; SamplerState s;
float4 main(float3 p : TEXCOORD0) : SV_Target { return t.SampleLevel(s, p * 0.3, p.z); }`,
		want:     []string{"dcl_volume s0", "texldl r"},
		textures: []interp.TextureInput{texData("t", 4, 4, 4, 3, true)},
		samplers: samplerStates("s"),
	},
	{
		name: "texture-1d",
		src: `Texture1D<float2> t; SamplerState s;
float4 main(float x : TEXCOORD0) : SV_Target { float2 v = t.Sample(s, x * 0.3); return float4(v, v.yx); }`,
		want:     []string{"dcl_2d s0", "texld r"},
		textures: []interp.TextureInput{texData("t", 8, 1, 1, 4, false)},
		samplers: samplerStates("s"),
	},
	{
		// One texture with two samplers and one sampler with two
		// textures: three pairs, three sampler registers.
		name: "pairs",
		src: `Texture2D a; Texture2D b; SamplerState p : register(s1); SamplerState q : register(s0);
float4 main(float2 uv : TEXCOORD0) : SV_Target {
    return a.Sample(p, uv * 0.3) + a.Sample(q, uv * 0.2) * 2 + b.Sample(p, uv * 0.1) * 4;
}`,
		want: []string{"a+p          s1", "a+q          s0", "b+p          s2"},
		textures: []interp.TextureInput{
			texData("a", 4, 4, 1, 1, false),
			texData("b", 2, 8, 1, 1, false),
		},
		samplers: [][]interp.SamplerInput{
			{{Name: "p", Filter: "point", AddressU: "wrap", AddressV: "mirror"}, {Name: "q", Filter: "linear", AddressU: "clamp", AddressV: "wrap"}},
			{{Name: "p", Filter: "linear", AddressU: "border", AddressV: "border"}, {Name: "q", Filter: "point", AddressU: "mirror", AddressV: "mirror"}},
		},
	},
	{
		// Reads under control flow and in a loop, a scalar texel type.
		name: "control-flow",
		src: `Texture2D<float> t; SamplerState s; int n;
float4 main(float2 uv : TEXCOORD0) : SV_Target {
    float acc = 0;
    for (int i = 0; i < n; i++)
        acc += t.SampleLevel(s, uv * 0.1 * i, i * 0.5);
    if (uv.x > 0)
        acc += t.Sample(s, uv.yx * 0.25);
    return acc;
}`,
		want:     []string{"texldl r", "texld r", "rep i0"},
		textures: []interp.TextureInput{{Name: "t", Format: "R32F", Width: 4, Height: 4, Levels: [][]any{{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, {0.5, 0.25, 0.125, 1}, {3}}}},
		samplers: samplerStates("s"),
	},
	{
		// FXC's SM1 syntax: one sampler register per sampler variable,
		// its texture @<name>.texture (hlsl/lower/lower_sm1tex.go).
		name: "sm1",
		src: `sampler2D s : register(s1); samplerCUBE c; sampler v;
float4 main(float4 uv : TEXCOORD0, float3 d : TEXCOORD1) : SV_Target {
    float4 p = uv * 0.3;
    return tex2D(s, p.xy) + tex2Dlod(s, p) * 2 + tex2Dbias(s, p) * 3 + tex2Dproj(s, float4(p.xy, 0, 1.5)) * 4
        + tex2Dgrad(s, p.xy, p.zw, p.wz) * 5 + tex2D(s, p.yx, p.zw * 0.5, p.wz) * 6 + texCUBE(c, d) * 7 + texCUBElod(c, float4(d, uv.w)) * 8
        + tex3Dlod(v, float4(d * 0.2, uv.z));
}`,
		want: []string{"dcl_2d s1", "dcl_cube s0", "dcl_volume s2", "texld r", "texldl r", "texldb r", "texldd r", "s            s1", "c            s0", "v            s2"},
		textures: []interp.TextureInput{
			texData("s.texture", 8, 8, 1, 4, false),
			texData("c.texture", 4, 4, 6, 3, false),
			texData("v.texture", 4, 4, 4, 3, true),
		},
		samplers: sm1States("s", "c", "v"),
		tol:      1e-6,
	},
	{
		name: "vertex",
		src: `Texture2D t; SamplerState s;
struct VSOut { float4 pos : POSITION; float4 c : TEXCOORD0; };
VSOut main(float4 p : POSITION, float2 uv : TEXCOORD0) {
    VSOut o; o.pos = p; o.c = t.SampleLevel(s, uv * 0.3, uv.x); return o;
}`,
		want:     []string{"vs_3_0", "dcl_2d s0", "texldl r"},
		textures: []interp.TextureInput{texData("t", 4, 4, 1, 3, false)},
		samplers: samplerStates("s"),
	},
}

// TestTexturesMatchInterp compiles texture shaders for SM3 and runs each
// on the emulator, which samples through the interpreter's own code
// (interp.SampledTexture), and on the interpreter, with random inputs
// under point and linear filtering, every address mode, mip levels through
// texldl, gradients through texldd, cube and volume textures and FXC's
// SM1 tex2D & co.: the results must be bit-identical (but for the 1 ULP
// of SM3's rcp-based division in tex2Dproj).
func TestTexturesMatchInterp(t *testing.T) {
	t.Parallel()
	runs := 0
	for _, tc := range texCases {
		m, err := loadSource(tc.name+".hlsl", "hlsl", []byte(tc.src))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		ref, _ := loadSource(tc.name+".hlsl", "hlsl", []byte(tc.src))
		asm, err := compileSM3(m)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(asm, w) {
				t.Errorf("%s: assembly lacks %q:\n%s", tc.name, w, asm)
			}
		}
		r := rand.New(rand.NewPCG(uint64(len(tc.name)), 17))
		for si, smp := range tc.samplers {
			for k := 0; k < 6; k++ {
				c, err := prepare(ref, asm, r)
				if err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
				if err := bindTextures(c, ref, asm, tc.textures, smp); err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
				c.tol = 1e-12 // the same sampling code: bit-exact
				if tc.tol != 0 {
					c.tol = tc.tol
				}
				diff, err := runDiff(ref, asm, c)
				if err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
				if diff != "" {
					t.Errorf("%s sampler set %d run %d: %s\ninputs %v\n%s", tc.name, si, k, diff, c.interpIn.Inputs, asm)
				}
				runs++
			}
		}
	}
	t.Logf("%d runs agree", runs)
}

// TestTexturesNegativeControl: the texture comparison bites. The emulator
// reads with wrap addressing where the interpreter clamps, and some run
// must differ.
func TestTexturesNegativeControl(t *testing.T) {
	t.Parallel()
	tc := texCases[0]
	m, _ := loadSource("neg.hlsl", "hlsl", []byte(tc.src))
	ref, _ := loadSource("neg.hlsl", "hlsl", []byte(tc.src))
	asm, err := compileSM3(m)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	differ := 0
	for k := 0; k < 20; k++ {
		c, err := prepare(ref, asm, r)
		if err != nil {
			t.Fatal(err)
		}
		if err := bindTextures(c, ref, asm, tc.textures, []interp.SamplerInput{{Name: "s", Filter: "point", AddressU: "wrap", AddressV: "wrap"}}); err != nil {
			t.Fatal(err)
		}
		c.interpIn.Samplers = []interp.SamplerInput{{Name: "s", Filter: "point", AddressU: "clamp", AddressV: "clamp"}}
		c.tol = 1e-12
		if diff, err := runDiff(ref, asm, c); err != nil {
			t.Fatal(err)
		} else if diff != "" {
			differ++
		}
	}
	if differ == 0 {
		t.Errorf("wrap on the emulator and clamp in the interpreter agreed on all 20 runs")
	}
	t.Logf("%d of 20 runs differ", differ)
}

// TestTextureGolden: testdata/textures.hlsl (texld, texldl, texldd, texldb
// on 2D, cube and volume textures; three samplers shared by four pairs)
// prints exactly testdata/textures.golden.asm. The golden file was checked
// by hand: each pair keeps its sampler's register when free (t2+s: s1,
// t2+p: s0) and the others take the lowest free ones (tc+s: s2, tv+p:
// s3), dcl_2d/cube/volume match the texture types, texldl and texldb
// carry the level or bias in .w, texldd its gradients in the two
// registers after the scratch register, and only the y of the volume read
// is copied out.
func TestTextureGolden(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("testdata/textures.hlsl")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/textures.golden.asm")
	if err != nil {
		t.Fatal(err)
	}
	m, err := loadSource("testdata/textures.hlsl", "hlsl", src)
	if err != nil {
		t.Fatal(err)
	}
	asm, err := compileSM3(m)
	if err != nil {
		t.Fatal(err)
	}
	if asm != string(want) {
		t.Errorf("assembly differs from testdata/textures.golden.asm:\n%s", asm)
	}
	// And it runs as the interpreter does.
	ref, _ := loadSource("testdata/textures.hlsl", "hlsl", src)
	texs := []interp.TextureInput{texData("t2", 8, 8, 1, 4, false), texData("tc", 4, 4, 6, 3, false), texData("tv", 4, 4, 4, 3, true)}
	r := rand.New(rand.NewPCG(5, 6))
	for _, smp := range samplerStates("s") {
		smp = append(smp, interp.SamplerInput{Name: "p", Filter: "linear", AddressU: "wrap", AddressV: "mirror", AddressW: "clamp"})
		c, err := prepare(ref, asm, r)
		if err != nil {
			t.Fatal(err)
		}
		if err := bindTextures(c, ref, asm, texs, smp); err != nil {
			t.Fatal(err)
		}
		c.tol = 1e-12
		if diff, err := runDiff(ref, asm, c); err != nil || diff != "" {
			t.Errorf("sampler %+v: %v %s", smp[0], err, diff)
		}
	}
}

// TestTextureRejections: what SM3 cannot express is a located error that
// names the construct.
func TestTextureRejections(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"load", "return t.Load(int3(1, 2, 0));", []string{"5:12", "texture Load and operator[]"}},
		{"subscript", "return t[int2(1, 2)];", []string{"5:12", "texture Load and operator[]"}},
		{"gather", "return t.Gather(s, uv);", []string{"5:12", "Gather (tex.gather) needs shader model 4.1"}},
		{"dims", "uint w, h; t.GetDimensions(w, h); return w;", []string{"5:16", "GetDimensions"}},
		{"cmp", "return a.SampleCmp(c, uv, 0.5);", []string{"5:12", "SampleCmp (tex.sample_cmp)"}},
		{"cmp-level-zero", "return a.SampleCmpLevelZero(c, uv, 0.5);", []string{"5:12", "SampleCmp (tex.sample_cmp_level_zero)"}},
		{"array", "return arr.Sample(s, float3(uv, 1));", []string{"5:12", "Texture2DArray @arr is not available in shader model 3"}},
		{"offset", "return t.Sample(s, uv, int2(1, 0));", []string{"5:12", "texel offsets are not available in shader model 3"}},
		{"int-texels", "return it.SampleLevel(s, uv, 0);", []string{"5:12", "texture @it has <4 x i32> texels"}},
	} {
		src := `Texture2D t; Texture2D<float> a; Texture2DArray arr; Texture2D<int4> it;
SamplerState s; SamplerComparisonState c;
float4 main(float2 uv : TEXCOORD0) : SV_Target
{
    ` + tc.body + `
}`
		m, err := loadSource(tc.name+".hlsl", "hlsl", []byte(src))
		if err != nil {
			t.Errorf("%s: frontend: %v", tc.name, err)
			continue
		}
		_, err = compileSM3(m)
		if err == nil {
			t.Errorf("%s: compiled for SM3", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", tc.name, err, w)
			}
		}
	}
	// A vertex shader has no derivatives: only SampleLevel (texldl).
	for _, call := range []string{"t.Sample(s, uv)", "t.SampleBias(s, uv, 1)", "t.SampleGrad(s, uv, uv, uv)"} {
		src := "Texture2D t; SamplerState s;\nfloat4 main(float2 uv : TEXCOORD0) : POSITION\n{\n    return " + call + ";\n}"
		m, err := loadSource("vs.hlsl", "hlsl", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := compileSM3(m); err == nil || !strings.Contains(err.Error(), "4:12") || !strings.Contains(err.Error(), "needs derivatives: a vertex shader can only sample at an explicit level") {
			t.Errorf("vertex %s: error %v", call, err)
		}
	}
	// vs_3_0 has four sampler registers.
	src := `Texture2D t; SamplerState s : register(s5);
float4 main(float2 uv : TEXCOORD0) : POSITION { return t.SampleLevel(s, uv, 0); }`
	m, _ := loadSource("vs5.hlsl", "hlsl", []byte(src))
	if _, err := compileSM3(m); err == nil || !strings.Contains(err.Error(), "2:56") || !strings.Contains(err.Error(), "needs sampler register s5; vs_3_0 has s0-s3") {
		t.Errorf("vs s5: error %v", err)
	}
}
