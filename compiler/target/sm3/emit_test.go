package sm3

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"passlens/compiler/ir"
	"passlens/compiler/target"
)

// testdata/*.sm3.pir are samples/sm3-loop-*.hlsl after the default sm3
// pipeline, so these tests do not depend on the HLSL front end.
func emitFile(t *testing.T, name string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	m, err := ir.ParseModule(name, src)
	if err != nil {
		t.Fatal(err)
	}
	out, err := target.Emit("sm3", m)
	if err != nil {
		t.Fatal(err)
	}
	if out.Lang != "sm3" || out.Ext != ".asm" {
		t.Errorf("Output Lang/Ext = %q/%q", out.Lang, out.Ext)
	}
	return out.Text
}

var spaces = regexp.MustCompile(`[ \t]+`)

// norm collapses runs of blanks so column alignment does not matter.
func norm(s string) string { return spaces.ReplaceAllString(s, " ") }

func wantLines(t *testing.T, asm string, lines ...string) {
	t.Helper()
	n := norm(asm)
	for _, l := range lines {
		if !strings.Contains(n, l) {
			t.Errorf("missing %q in\n%s", l, asm)
		}
	}
}

// The seed's second loop (k < m*m): m is a float constant c0, the loop is
// "rep i0" with "defi i0, 255, 0, 0, 0" and a break_ge exit test.
func TestLoopMMShape(t *testing.T) {
	t.Parallel()
	asm := emitFile(t, "sm3-loop-mm.sm3.pir")
	wantLines(t, asm,
		"// Name Reg Size",
		"// m c0 1",
		"ps_3_0",
		"defi i0, 255, 0, 0, 0",
		"mul r", // m * m
		"rep i0",
		"break_ge ",
		"endrep",
		"mov oC0, r", // the four components merged, as in the seed
	)
	if strings.Count(asm, "rep i0") != 1 || strings.Count(asm, "endrep") != 1 {
		t.Errorf("want one rep/endrep pair:\n%s", asm)
	}
	// As in the seed: m*m is computed once, before the loop, and the sum
	// is one vector add of the counter.
	if mul, rep := strings.Index(asm, "mul r"), strings.Index(asm, "rep i0"); mul < 0 || mul > rep {
		t.Errorf("m*m should be hoisted before rep:\n%s", asm)
	}
	if !regexp.MustCompile(`add (r\d+), (r\d+), r\d+\.[xyzw]\n`).MatchString(norm(asm)) {
		t.Errorf("want a four-component add of the counter (add r0, r0, r1.x):\n%s", asm)
	}
}

// The seed's first loop with the trip count bound to the integer uniform:
// "rep i0" on m itself, no defi, and the register table lists m in i0.
func TestLoopMUniformRep(t *testing.T) {
	t.Parallel()
	asm := emitFile(t, "sm3-loop-m-uniform.sm3.pir")
	wantLines(t, asm, "// m i0 1", "rep i0", "endrep")
	if strings.Contains(asm, "defi") {
		t.Errorf("uniform trip count should not defi i0:\n%s", asm)
	}
}

// Without the uniform binding (what sm3-lower currently emits for k < m)
// the loop falls back to the 255 cap.
func TestLoopMCapped(t *testing.T) {
	t.Parallel()
	asm := emitFile(t, "sm3-loop-m.sm3.pir")
	wantLines(t, asm, "defi i0, 255, 0, 0, 0", "rep i0", "break_ge ", "endrep")
}

// A vertex shader: vs_3_0 with dcl_<usage> declarations for inputs and
// outputs (vs_3_0 has no oPos: the position is an o# declared
// dcl_position), and the per-component code merged into write masks.
func TestVertexDeclarations(t *testing.T) {
	t.Parallel()
	asm := emitFile(t, "vs-scale.sm3.pir")
	wantLines(t, asm,
		"vs_3_0",
		"dcl_position v0",
		"dcl_texcoord v1",
		"dcl_position o0",
		"dcl_texcoord o1",
		"mul r0, v0, c0", // four scalar multiplies merged
		"mov o1.xy, v1",
	)
}

// Constructs SM3 cannot express are errors naming them and their location.
func TestRejectsWithLocation(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(filepath.Join("..", "..", "sir", "testdata", "pixel.sm3.pir"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := ir.ParseModule("pixel", []byte(strings.ReplaceAll(string(src), "fmod", "ldexp")))
	if err != nil {
		t.Fatal(err)
	}
	_, err = target.Emit("sm3", m)
	if err == nil || !strings.Contains(err.Error(), "intrinsic ldexp") || !strings.Contains(err.Error(), "block entry") {
		t.Fatalf("err = %v, want an ldexp rejection in block entry (.pir input has no line:col)", err)
	}
	// From HLSL the messages carry line:col.
	for _, c := range []struct{ src, want string }{
		{"float4 a;\nfloat4 main() : SV_Target {\n  return isinf(a.x) ? 1.0 : 0.0;\n}\n", "3:10: intrinsic isinf"},
		{"float4 a;\nint i, j;\nfloat4 main() : SV_Target {\n  float m[2][2] = {1, 2, 3, 4};\n  return m[i][j];\n}\n", "5:10: second dynamic index"},
		{"float4 main(float4 p : SV_Position) : SV_Target {\n  return p.zzzz;\n}\n", "2:3: read of p.z: ps_3_0 vPos has only x and y"},
	} {
		wantSM3Error(t, c.src, c.want)
	}
}

func TestRejectsComputeShader(t *testing.T) {
	t.Parallel()
	m, err := ir.ParseModule("cs.pir", []byte(`define void @main() compute numthreads(1, 1, 1) {
entry:
  ret
}
`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = target.Emit("sm3", m)
	if err == nil || !strings.Contains(err.Error(), "compute shaders have no SM3 profile") {
		t.Fatalf("err = %v", err)
	}
}

// TestRegisterReservations: register(cN) keeps a uniform's whole size at
// cN, read or not, and the other uniforms take the first free range that
// fits (vkd3d's sm1-const-allocation tests record fxc doing this);
// immediates go after every allocated register; a packoffset inside a
// register keeps its components. Overlaps and placements straddling a
// register are errors.
func TestRegisterReservations(t *testing.T) {
	t.Parallel()
	cases := []struct {
		src  string
		want map[string]string
		def  string
	}{
		{"float a[4] : register(c1);\nfloat b[4];\nfloat4 main() : sv_target { return float4(a[0], b[1], 0, 0); }\n",
			map[string]string{"a": "c1", "b": "c5"}, "def c7,"},
		{"float4x4 unused : register(c1);\nfloat b[4];\nfloat4 main() : sv_target { return float4(0, b[1], 0, 0); }\n",
			map[string]string{"b": "c5"}, "def c7,"},
		{"float unused[2] : register(c2);\nfloat size3[3];\nfloat size2[2];\nfloat4 main() : sv_target { return float4(size3[2], size2[1], 0, 0); }\n",
			map[string]string{"size3": "c4", "size2": "c0"}, "def c7,"},
		{"float4 tint;\nfloat4 far : register(c20);\nfloat4 main() : sv_target { return tint + far; }\n",
			map[string]string{"tint": "c0", "far": "c20"}, ""},
		// register(cN[k]): fxc adds the bracketed constant to N (DXC ignores
		// it), so c2[-1] is c1 and c0[1+2] is c3; tint takes c0.
		{"float4 a : register(c2[-1]);\nfloat4 b : register(c0[1 + 2]);\nfloat4 tint;\nfloat4 main() : sv_target { return a + b + tint; }\n",
			map[string]string{"a": "c1", "b": "c3", "tint": "c0"}, ""},
	}
	for _, c := range cases {
		m, err := loadSource("r.hlsl", "hlsl", []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		asm, err := compileSM3(m)
		if err != nil {
			t.Errorf("%s: %v", c.src, err)
			continue
		}
		got := map[string]string{}
		for _, r := range tableRows(asm) {
			got[r.name] = r.reg
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: registers %v, want %v", c.src, got, c.want)
		}
		if c.def != "" {
			wantLines(t, asm, c.def)
		}
	}
	for _, c := range []struct{ src, want string }{
		{"float4 a : register(c1);\nfloat4x4 b : register(c0);\nfloat4 main() : sv_target { return a + b[0]; }\n", "uniforms a (c1-c1) and b (c0-c3) are given overlapping registers"},
		{"float4 a : register(c1[1]);\nfloat4x4 b : register(c0);\nfloat4 main() : sv_target { return a + b[0]; }\n", "uniforms a (c2-c2) and b (c0-c3) are given overlapping registers"},
		{"float4 a : register(c0[-1]);\nfloat4 main() : sv_target { return a; }\n", "uniform a is placed at c-1, before c0"},
	} {
		wantSM3Error(t, c.src, c.want)
	}
	// packoffset inside a register: the scalar and the vector keep their
	// components.
	m, err := loadSource("pc.hlsl", "hlsl", []byte("cbuffer cb { float x : packoffset(c0.y); float2 v : packoffset(c0.z); float4 w : packoffset(c2); }\n"+
		"float4 main() : sv_target { return float4(x, v, 0) + w; }\n"))
	if err != nil {
		t.Fatal(err)
	}
	asm, err := compileSM3(m)
	if err != nil {
		t.Fatal(err)
	}
	wantLines(t, asm, "add r0.x, c0.y, c2.x", "add r0.y, c0.z, c2.y", "add r0.z, c0.w, c2.z", "def c3,")
	// A placement that straddles a register (only .pir can say it).
	m, err = loadSource("bad.pir", "pir", []byte(`type %G = { <2 x f32> v offset 12 }

@G = global uniform %G kind "cbuffer"
@o = global output <4 x f32> semantic "SV_Target0"

define void @main() pixel {
entry:
  %p = access ptr<uniform, %G> @G, i32 0
  %v = load ptr<uniform, <2 x f32>> %p
  %x = extractelement <2 x f32> %v, i32 1
  %c = construct <4 x f32> (f32 %x, f32 %x, f32 %x, f32 %x)
  store <4 x f32> %c, ptr<output, <4 x f32>> @o
  ret
}
`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := compileSM3(m); err == nil || !strings.Contains(err.Error(), "uniform v at byte offset 12 does not fit in c0") {
		t.Errorf("straddling placement: err = %v", err)
	}
}

// wantSM3Error compiles HLSL src for SM3 and expects an error containing
// want.
func wantSM3Error(t *testing.T, src, want string) {
	t.Helper()
	m, err := loadSource("bad.hlsl", "hlsl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := compileSM3(m); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%s: err = %v, want %q", src, err, want)
	}
}

// Render-target outputs take their index from the semantic (SV_TargetN or
// COLORN): oC1 for SV_Target1, oC2 for COLOR2, oC0 without a number.
func TestRenderTargetIndex(t *testing.T) {
	t.Parallel()
	src := `struct PSOut { float4 a : SV_Target; float4 b : SV_Target1; float4 c : COLOR2; };
float4 k;
PSOut main() {
  PSOut o;
  o.a = k; o.b = k * 2; o.c = k * 3;
  return o;
}
`
	m, err := loadSource("mrt.hlsl", "hlsl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	asm, err := compileSM3(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, reg := range []string{"oC0", "oC1", "oC2"} {
		if !strings.Contains(asm, reg) {
			t.Errorf("no %s in\n%s", reg, asm)
		}
	}
}
