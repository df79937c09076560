package hlsl

import "testing"

// TestPackedDotIntrinsics: DXC's SM6.4 signatures int
// dot4add_i8packed(uint, uint, int), uint dot4add_u8packed(uint, uint,
// uint) and float dot2add(half2, half2, float), with the usual implicit
// conversions of the arguments and the usual errors for the wrong
// number or shape of arguments.
func TestPackedDotIntrinsics(t *testing.T) {
	for _, native := range []bool{false, true} {
		opts := Options{Library: true, Enable16BitTypes: native}
		for _, tt := range []struct{ prelude, expr, want string }{
			{"uniform uint a, b; uniform int c;", "dot4add_i8packed(a, b, c)", "int"},
			{"uniform uint a, b;", "dot4add_i8packed(a, b, 0u)", "int"},
			{"uniform uint a, b, c;", "dot4add_u8packed(a, b, c)", "uint"},
			{"uniform half2 a, b; uniform float c;", "dot2add(a, b, c)", "float"},
			{"uniform float2 a, b;", "dot2add(a, b, 0)", "float"},
		} {
			src := tt.prelude + "\nvoid __t() {\n" + tt.expr + ";\n}\n"
			prog, diags := compile(t, src, opts)
			if diags.HasErrors() {
				t.Errorf("%s: %s", tt.expr, messages(diags))
				continue
			}
			if got := findFunc(prog, "__t").Body.Stmts[0].(*ExprStmt).X.Type().String(); got != tt.want {
				t.Errorf("%s (16-bit %v): %s, want %s", tt.expr, native, got, tt.want)
			}
		}
		expectDiag(t, "uniform uint a; int f() { return dot4add_i8packed(a, a); }", opts, "dot4add_i8packed")
		expectDiag(t, "uniform float3x3 a; float f() { return dot2add(a, a, 0); }", opts, "dot2add")
	}
}
