package hlsl

import "testing"

// TestWaveBitOpsKeepWidth: WaveActiveBitAnd/Or/Xor return the unsigned
// type of their operand's width (DXC's overloads; vkd3d's
// wave-ops-uint.shader_test ORs uint64_t2 values and expects the high
// words), not a 32-bit uint.
func TestWaveBitOpsKeepWidth(t *testing.T) {
	opts := Options{Library: true, Enable16BitTypes: true}
	for _, tt := range []struct{ prelude, expr, want string }{
		{"uniform uint64_t2 a;", "WaveActiveBitOr(a)", "uint64_t2"},
		{"uniform int64_t a;", "WaveActiveBitAnd(a)", "uint64_t"},
		{"uniform uint16_t3 a;", "WaveActiveBitXor(a)", "uint16_t3"},
		{"uniform int2 a;", "WaveActiveBitXor(a)", "uint2"},
		{"uniform bool a;", "WaveActiveBitOr(a)", "uint"},
	} {
		src := tt.prelude + "\nvoid __t() {\n" + tt.expr + ";\n}\n"
		prog, diags := compile(t, src, opts)
		if diags.HasErrors() {
			t.Errorf("%s: %s", tt.expr, messages(diags))
			continue
		}
		if got := findFunc(prog, "__t").Body.Stmts[0].(*ExprStmt).X.Type().String(); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.expr, got, tt.want)
		}
	}
}
