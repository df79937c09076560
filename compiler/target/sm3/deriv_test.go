package sm3

import (
	"math/rand/v2"
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
)

// derivCases are pixel shaders whose results depend on the other lanes of
// their quad: ddx/ddy (dsx/dsy), fwidth, and implicit-LOD texture reads
// (texld, texldb) whose level comes from the coordinates' derivatives.
var derivCases = []texCase{
	{
		name: "ddx-ddy",
		src: `float4 main(float4 a : TEXCOORD0, float2 b : TEXCOORD1) : SV_Target {
    float n = a.x * a.y - b.x * (a.z + 0.5);
    return float4(ddx(n), ddy(n), ddx(a.w * b.y), ddy(a.zw).y);
}`,
		want: []string{"dsx r", "dsy r"},
	},
	{
		name: "fwidth-position",
		src: `float4 main(float4 pos : SV_Position, float3 c : COLOR0) : SV_Target {
    return float4(fwidth(c * pos.x), ddx(pos.x * pos.y));
}`,
		want: []string{"dsx r", "dsy r", "abs r"},
	},
	{
		// A derivative under uniform control flow and in a loop.
		name: "control-flow",
		src: `int n; float k;
float4 main(float2 uv : TEXCOORD0) : SV_Target {
    float acc = 0;
    for (int i = 0; i < n; i++)
        acc += ddx(uv.x * uv.y * i) + ddy(uv.y * (i + 1));
    if (k > 0)
        acc += fwidth(uv.x * k);
    return acc;
}`,
		want: []string{"dsx r", "rep i0"},
	},
	{
		// discard demotes (ps.demote, texkill): the killed pixel keeps
		// running, so its quad's derivatives stay defined.
		name: "discard-demote",
		src: `float4 main(float2 uv : TEXCOORD0) : SV_Target {
    if (uv.x > 0.3)
        discard;
    return float4(ddx(uv.y * uv.x), ddy(uv.x), 1, 0);
}`,
		want: []string{"texkill", "dsx r", "dsy r"},
	},
	{
		name: "sample-implicit-lod",
		src: `Texture2D t; SamplerState s;
float4 main(float2 uv : TEXCOORD0) : SV_Target { return t.Sample(s, uv * 3); }`,
		want:     []string{"texld r"},
		textures: []interp.TextureInput{texData("t", 8, 8, 1, 4, false)},
		samplers: samplerStates("s"),
	},
	{
		name: "sample-bias-lod",
		src: `Texture2D t; SamplerState s; float b;
float4 main(float2 uv : TEXCOORD0) : SV_Target { return t.SampleBias(s, uv * 2, b * 2); }`,
		want:     []string{"texldb r"},
		textures: []interp.TextureInput{texData("t", 8, 4, 1, 4, false)},
		samplers: samplerStates("s"),
	},
	{
		name: "sm1-tex2D",
		src: `sampler2D s; sampler v;
float4 main(float4 uv : TEXCOORD0) : SV_Target {
    return tex2D(s, uv.xy * 2.5) + tex2Dbias(s, float4(uv.yx, 0, uv.w)) * 2 + tex3D(v, uv.xyz) * 4;
}`,
		want: []string{"texld r", "texldb r", "dcl_volume"},
		textures: []interp.TextureInput{
			texData("s.texture", 8, 8, 1, 4, false),
			texData("v.texture", 4, 4, 4, 3, true),
		},
		samplers: sm1States("s", "v"),
	},
	{
		name: "texture-1d-volume",
		src: `Texture1D t; Texture3D u; SamplerState s;
float4 main(float3 p : TEXCOORD0) : SV_Target { return t.Sample(s, p.x * 4) + u.Sample(s, p * 1.5) * 3; }`,
		want:     []string{"texld r", "dcl_volume"},
		textures: []interp.TextureInput{texData("t", 16, 1, 1, 5, false), texData("u", 4, 4, 4, 3, true)},
		samplers: samplerStates("s"),
	},
}

// TestDerivativesMatchInterp runs derivCases on the emulator, which shades
// 2×2 quads (emu_quad_test.go), and on the interpreter, with different
// random inputs in every lane of a quad of which one to four pixels are
// covered (the rest are helpers): ddx/ddy/fwidth and the level of detail
// of implicit-LOD reads must agree bit for bit.
func TestDerivativesMatchInterp(t *testing.T) {
	t.Parallel()
	runs, nonzero, mips, killed := 0, 0, 0, 0
	for _, tc := range derivCases {
		asm, ref := compileCase(t, tc)
		if asm == "" {
			continue
		}
		smps := tc.samplers
		if smps == nil {
			smps = [][]interp.SamplerInput{nil}
		}
		r := rand.New(rand.NewPCG(uint64(len(tc.name)), 23))
		for si, smp := range smps {
			for k := 0; k < 8; k++ {
				c, err := prepareQuad(ref, asm, r, true)
				if err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
				if tc.textures != nil {
					if err := bindTextures(c, ref, asm, tc.textures, smp); err != nil {
						t.Fatalf("%s: %v", tc.name, err)
					}
				}
				c.tol = 1e-12
				diff, err := runDiff(ref, asm, c)
				if err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
				if diff != "" {
					t.Errorf("%s sampler set %d run %d: %s\ninputs %v\n%s", tc.name, si, k, diff, c.interpIn.Inputs, asm)
				}
				runs++
				if c.killed {
					killed++
				}
				if quadVaries(c) {
					nonzero++
				}
				if tc.textures != nil && lodAboveZero(c) {
					mips++
				}
			}
		}
	}
	t.Logf("%d quad runs agree (%d with inputs that differ across the quad, %d texture runs whose coordinates step more than a texel, %d with a discarded pixel)", runs, nonzero, mips, killed)
	if killed == 0 {
		t.Errorf("no run discarded a pixel")
	}
	if nonzero < runs/2 {
		t.Errorf("only %d of %d runs had inputs that differ across the quad", nonzero, runs)
	}
}

// compileCase compiles tc for SM3 and checks the expected lines; it also
// returns a fresh module for the interpreter.
func compileCase(t *testing.T, tc texCase) (string, *ir.Module) {
	t.Helper()
	m, err := loadSource(tc.name+".hlsl", "hlsl", []byte(tc.src))
	if err != nil {
		t.Fatalf("%s: %v", tc.name, err)
	}
	ref, _ := loadSource(tc.name+".hlsl", "hlsl", []byte(tc.src))
	asm, err := compileSM3(m)
	if err != nil {
		t.Errorf("%s: %v", tc.name, err)
		return "", nil
	}
	for _, w := range tc.want {
		if !strings.Contains(asm, w) {
			t.Errorf("%s: assembly lacks %q:\n%s", tc.name, w, asm)
		}
	}
	return asm, ref
}

// quadVaries reports whether lane 0's and lane 1's first input differ.
func quadVaries(c *diffCase) bool {
	for k, v := range c.lanes[0] {
		if k != "vPos" && c.lanes[1][k] != v {
			return true
		}
	}
	return false
}

// lodAboveZero reports whether a TEXCOORD0 that the shaders scale by at
// least 1 steps across the quad by more than 1/8 (a texel of the 8-wide
// textures): then level 0 is not the level of detail.
func lodAboveZero(c *diffCase) bool {
	for k, v := range c.lanes[0] {
		if k == "vPos" {
			continue
		}
		w := c.lanes[1][k]
		if d := v[0] - w[0]; d > 0.125 || d < -0.125 {
			return true
		}
	}
	return false
}

// TestDerivativesNegativeControl: the comparison bites. For ddx/ddy the
// interpreter gets the quad's inputs transposed (lanes 1 and 2 swapped, so
// its ddx is the emulator's ddy); for an implicit-LOD read it gets the
// top-left lane's coordinates in all four lanes (zero derivatives, level
// 0). Most runs must differ.
func TestDerivativesNegativeControl(t *testing.T) {
	t.Parallel()
	for _, tc := range []texCase{derivCases[0], derivCases[4]} {
		asm, ref := compileCase(t, tc)
		if asm == "" {
			continue
		}
		r := rand.New(rand.NewPCG(7, 8))
		differ := 0
		for k := 0; k < 20; k++ {
			c, err := prepareQuad(ref, asm, r, true)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.interpIn.Pixels) != 4 {
				k-- // a quad with helpers: draw again
				continue
			}
			for key, in := range c.interpIn.Inputs {
				p := in.PerLane
				if tc.textures == nil {
					// Transpose: the interpreter's top-right lane gets
					// the emulator's bottom-left inputs and vice versa.
					c.interpIn.Inputs[key] = interp.LaneInput{PerLane: []any{p[0], p[2], p[1], p[3]}}
				} else {
					// The level of detail is symmetric in x and y:
					// instead the interpreter's quad has the top-left
					// lane's coordinates everywhere (level 0), and only
					// that lane is compared.
					c.interpIn.Inputs[key] = interp.LaneInput{PerLane: []any{p[0], p[0], p[0], p[0]}}
					c.covered = [4]bool{true}
				}
			}
			if tc.textures != nil {
				if err := bindTextures(c, ref, asm, tc.textures, []interp.SamplerInput{{Name: "s", Filter: "point", AddressU: "wrap", AddressV: "wrap"}}); err != nil {
					t.Fatal(err)
				}
			}
			c.tol = 1e-12
			diff, err := runDiff(ref, asm, c)
			if err != nil {
				t.Fatal(err)
			}
			if diff != "" {
				differ++
			}
		}
		if differ < 10 {
			t.Errorf("%s: transposed quads differ in only %d of 20 runs", tc.name, differ)
		}
		t.Logf("%s: %d of 20 transposed runs differ", tc.name, differ)
	}
}
