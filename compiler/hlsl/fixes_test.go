package hlsl

import (
	"strings"
	"testing"
)

// Regression tests for frontend bugs whose expected behaviour comes from
// DXC: vkd3d's majority-pragma.shader_test and intrinsic-override.shader_test
// (probed at shader model 6, i.e. against DXC) and DXC's own issue 1887.

// globalType returns the type of the named global variable.
func globalType(t *testing.T, prog *Program, name string) *Type {
	t.Helper()
	for _, v := range prog.Globals {
		if v.Name == name {
			return v.Type
		}
	}
	t.Fatalf("no global %s", name)
	return nil
}

// A typedef keeps the matrix majority in effect where it was declared
// (majority-pragma.shader_test:116 probes this on DXC).
func TestTypedefKeepsMajority(t *testing.T) {
	prog, diags := compile(t, `
#pragma pack_matrix(row_major)
typedef float2x2 rm_t;
typedef rm_t rm2_t;
#pragma pack_matrix(column_major)
typedef float2x2 cm_t;
#pragma pack_matrix(row_major)
uniform rm_t a;
uniform rm2_t b;
uniform cm_t c;
uniform float2x2 d;
#pragma pack_matrix(column_major)
uniform float2x2 e;
uniform row_major rm_t f;
`, Options{Library: true})
	if diags.HasErrors() {
		t.Fatal(messages(diags))
	}
	for name, want := range map[string]bool{"a": true, "b": true, "c": false, "d": true, "e": false, "f": true} {
		if got := globalType(t, prog, name).RowMajor; got != want {
			t.Errorf("%s: RowMajor %v, want %v", name, got, want)
		}
	}
	// Layout follows: a row-major float2x2 spans 16+8 bytes either way,
	// but a float2x3 does not.
	prog, diags = compile(t, "#pragma pack_matrix(row_major)\ntypedef float2x3 m_t;\n#pragma pack_matrix(column_major)\nuniform m_t m; uniform float x;", Options{Library: true})
	if diags.HasErrors() {
		t.Fatal(messages(diags))
	}
	for _, v := range prog.Globals {
		if v.Name == "x" && v.Offset != 28 { // row-major 2x3: (2-1)*16 + 3*4
			t.Errorf("x at offset %d, want 28 (m row-major)", v.Offset)
		}
	}
	// Without an explicit pragma the typedef has no fixed majority: the
	// one at the use applies (and modifiers may be added).
	prog, diags = compile(t, "typedef float2x2 m_t;\nrow_major m_t r;\n#pragma pack_matrix(row_major)\nuniform m_t p;", Options{Library: true})
	if diags.HasErrors() {
		t.Fatal(messages(diags))
	}
	if !globalType(t, prog, "r").RowMajor || !globalType(t, prog, "p").RowMajor {
		t.Errorf("typedef without pragma: r %v p %v, want both row-major", globalType(t, prog, "r").RowMajor, globalType(t, prog, "p").RowMajor)
	}
}

// Macros in the operands of #pragma pack_matrix are expanded, not the
// pragma name (clang's pragma handling; majority-pragma.shader_test:95).
func TestPackMatrixPragmaMacros(t *testing.T) {
	prog, diags := compile(t, "#define VALUE row_major\n#pragma pack_matrix(VALUE)\nuniform float2x2 r;", Options{Library: true})
	if diags.HasErrors() || len(diags) != 0 {
		t.Fatalf("diagnostics: %s", messages(diags))
	}
	if !globalType(t, prog, "r").RowMajor {
		t.Error("pack_matrix(VALUE) with VALUE=row_major not honoured")
	}
	prog, diags = compile(t, "#define ARGS (row_major)\n#pragma pack_matrix ARGS\nuniform float2x2 r;", Options{Library: true})
	if diags.HasErrors() || !globalType(t, prog, "r").RowMajor {
		t.Errorf("pack_matrix ARGS: %s, row-major %v", messages(diags), globalType(t, prog, "r").RowMajor)
	}
	prog, diags = compile(t, "#define KEY pack_matrix\n#pragma KEY(row_major)\nuniform float2x2 r;", Options{Library: true})
	if got := messages(diags); !strings.Contains(got, "unknown pragma ignored") || globalType(t, prog, "r").RowMajor {
		t.Errorf("#pragma KEY(...): %q, row-major %v; want the pragma name unexpanded (ignored)", got, globalType(t, prog, "r").RowMajor)
	}
	if out, _ := Preprocess("t.hlsl", []byte("#define V column_major\n#pragma pack_matrix(V)\n"), Options{}); strings.TrimSpace(out) != "#pragma pack_matrix(column_major)" {
		t.Errorf("Preprocess: %q", out)
	}
}

// A user function with an intrinsic's name and the same signature does
// not replace the intrinsic: DXC picks the intrinsic on a tie, and the user
// function only when it is a strictly better match.
func TestUserFunctionVsIntrinsic(t *testing.T) {
	prelude := `
float2 max(float2 a, float2 b) { return a + b; }
int abs(int x) { return 42; }
int length(int3 v) { return 7; }
struct S { float x; };
float dot(S a, S b) { return a.x * b.x; }
`
	tests := []struct {
		expr      string
		intrinsic bool
		typ       string
	}{
		{"max(float2(0.1, 0.2), float2(0.3, 0.4))", true, "float2"}, // same signature: intrinsic
		{"max(0.1, 0.2)", true, "float"},                            // intrinsic exact, user needs a splat
		{"abs(-1)", true, "int"},                                    // DXC issue 1887
		{"length(int3(1, 2, 3))", false, "int"},                     // user exact, intrinsic converts to float3
		{"length(float3(1, 2, 3))", true, "float"},
		{"dot((S)0, (S)0)", false, "float"}, // the intrinsic does not apply
	}
	for _, tt := range tests {
		x, diags := exprOf(t, prelude, tt.expr)
		if diags.HasErrors() {
			t.Errorf("%s: %s", tt.expr, messages(diags))
			continue
		}
		c, ok := stripCasts(x).(*Call)
		if !ok {
			t.Errorf("%s: %T", tt.expr, x)
			continue
		}
		if got := c.Intrinsic != nil; got != tt.intrinsic || (c.Func != nil) == tt.intrinsic {
			t.Errorf("%s: intrinsic %v (func %v), want intrinsic %v", tt.expr, got, c.Func != nil, tt.intrinsic)
		}
		if got := x.Type().String(); got != tt.typ {
			t.Errorf("%s: type %s, want %s", tt.expr, got, tt.typ)
		}
	}
	// The vkd3d unit expected to fail at SM6: max(0.1, 0.2) is a float, so
	// the float4 constructor gets 3 components.
	_, diags := compile(t, prelude+"float4 main() : SV_Target { return float4(max(0.1, 0.2), max(float2(0.1, 0.2), float2(0.3, 0.4))); }", Options{})
	if !strings.Contains(messages(diags), "too few elements in vector initialization") {
		t.Errorf("want a float4 constructor error, got %s", messages(diags))
	}
}

// Entry parameters declared 'uniform' are members of $Globals after the
// global uniforms, laid out like them.
func TestUniformEntryParamsInGlobals(t *testing.T) {
	prog, diags := compile(t, `
uniform float s;
float4 main(uniform float4 tint, float4 pos : SV_Position, uniform float2x2 m) : SV_Target
{
	return tint * s + pos + m[0].x;
}
`, Options{})
	if diags.HasErrors() {
		t.Fatal(messages(diags))
	}
	if len(prog.Buffers) == 0 || !prog.Buffers[0].Implicit {
		t.Fatalf("no $Globals")
	}
	g := prog.Buffers[0]
	var names []string
	for _, m := range g.Members {
		names = append(names, m.Name)
		if m.Buffer != g {
			t.Errorf("%s: Buffer %v, want $Globals", m.Name, m.Buffer)
		}
	}
	if strings.Join(names, " ") != "s tint m" {
		t.Fatalf("$Globals members %v, want [s tint m]", names)
	}
	if g.Members[1].Offset != 16 || g.Members[2].Offset != 32 {
		t.Errorf("offsets tint %d m %d, want 16 32", g.Members[1].Offset, g.Members[2].Offset)
	}
	if len(prog.Entry.Uniforms) != 2 {
		t.Errorf("Entry.Uniforms %d, want 2", len(prog.Entry.Uniforms))
	}
	// Only uniform parameters: $Globals still exists.
	prog, diags = compile(t, "float4 main(uniform float4 c) : SV_Target { return c; }", Options{})
	if diags.HasErrors() {
		t.Fatal(messages(diags))
	}
	if len(prog.Buffers) != 1 || !prog.Buffers[0].Implicit || len(prog.Buffers[0].Members) != 1 {
		t.Fatalf("buffers %d", len(prog.Buffers))
	}
	// Still read-only, with the parameter wording.
	_, diags = compile(t, "float4 main(uniform float4 c) : SV_Target { c = 1; return c; }", Options{})
	if !strings.Contains(messages(diags), "cannot assign to uniform parameter 'c'") {
		t.Errorf("got %s", messages(diags))
	}
}
