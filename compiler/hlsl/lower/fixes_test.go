package lower

import (
	"strings"
	"testing"

	"passlens/compiler/hlsl"
)

// TestUniformEntryParamsLowered: uniform entry parameters and global
// uniforms lower to one $Globals global with both members, and a parameter
// named like a global uniform gets its own field.
func TestUniformEntryParamsLowered(t *testing.T) {
	prog, diags := compile(t, "uniform float c;\nfloat4 main(uniform float4 c) : SV_Target { return c; }", hlsl.Options{})
	if diags.HasErrors() {
		t.Fatal(messages(diags))
	}
	m, ld := Lower(prog, hlsl.Options{})
	if m == nil || ld.HasErrors() {
		t.Fatalf("lower: %s", messages(ld))
	}
	n := 0
	for _, gl := range m.Globals {
		if gl.Kind != "cbuffer" {
			continue
		}
		n++
		st := gl.Type()
		if st.Elem != nil && len(st.Fields) == 0 {
			st = st.Elem
		}
		var fields []string
		for _, f := range st.Fields {
			fields = append(fields, f.Name)
		}
		if strings.Join(fields, " ") != "c c.1" {
			t.Errorf("$Globals fields %v, want [c c.1]\n%s", fields, m)
		}
	}
	if n != 1 {
		t.Errorf("%d cbuffer globals, want 1\n%s", n, m)
	}
}

// vkd3d units DXC accepts or rejects at shader model 6 that the frontend
// got wrong (array-parameters, initializer-implicit-array,
// precise-modifier, register-reservations-profile).
func TestVKD3DConformanceFixes(t *testing.T) {
	tests := []struct{ src, want string }{
		// Unsized array parameters: accepted, sized from the call.
		{"float fun(float a[]) { return a[1]; }\nfloat4 main() : sv_target { float f[2] = {1, 2}; return fun(f); }", ""},
		{"void fill(out float a[]) { a[0] = 1; }\nfloat4 main() : sv_target { float f[3]; fill(f); return f[0]; }", ""},
		{"float g(float4 a[]) { return a[0].x; }\nfloat4 main() : sv_target { float4 x[2] = {1,2,3,4,5,6,7,8}; float4 y[3] = {1,2,3,4,5,6,7,8,9,10,11,12}; return g(x) + g(y); }",
			"is passed arrays of different sizes"},
		{"float4 main(float a[] : A) : sv_target { return a[0]; }", "entry point parameter 'a' must have an explicit array size"},
		// An unsized array typedef: each variable is sized by its initializer.
		{"typedef float4 arrtype[];\nfloat4 main() : sv_target { arrtype a = {1, 2, 3, 4, 5, 6, 7, 8}; arrtype b = {1, 2, 3, 4}; return a[1] + b[0]; }", ""},
		{"typedef float4 arrtype[];\nstatic arrtype h[2];\nfloat4 main() : sv_target { return 0; }", "only the first array dimension can be implicit"},
		{"typedef float4 arrtype[];\narrtype f() { float4 r[1] = {0, 0, 0, 0}; return r; }\nfloat4 main() : sv_target { return 0; }", "cannot return an unsized array"},
		// 'precise' before an identifier is the modifier, even when a
		// typedef named precise exists.
		{"precise float4 var;\ntypedef float4 precise;\nprecise main() : sv_target { return var; }", "unknown type name 'main'"},
		{"float4 precise;\nprecise float4 var;\nfloat4 main() : sv_target { return precise; }", ""},
		// A subscripted profile in register() is rejected.
		{"float a : register(ps[5], c1);\nfloat4 main() : sv_target { return a; }", "invalid shader profile 'ps[5]'"},
		{"float a : register(ps, c1);\nfloat4 main() : sv_target { return a; }", ""},
	}
	for _, tt := range tests {
		prog, diags := compile(t, tt.src, hlsl.Options{})
		got := messages(diags)
		switch {
		case tt.want == "" && diags.HasErrors():
			t.Errorf("%s:\nunexpected errors:\n%s", tt.src, render(prog, diags))
		case tt.want != "" && (!diags.HasErrors() || !strings.Contains(got, tt.want)):
			t.Errorf("%s:\ngot  %s\nwant an error containing %q", tt.src, got, tt.want)
		}
		if tt.want == "" && !diags.HasErrors() {
			if m, ld := Lower(prog, hlsl.Options{}); m == nil {
				t.Errorf("%s: lowering failed: %s", tt.src, messages(ld))
			}
		}
	}
}
