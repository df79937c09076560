package diag

import (
	"context"
	"testing"

	"passlens/compiler/load"
	"passlens/compiler/pipeline"
	"passlens/compiler/target"
	_ "passlens/compiler/target/all"
)

// TestEmitCaret compiles HLSL for SM3 whose uniform placement the back end
// refuses and checks that the message points at the register() with the
// source line and a caret, as frontend errors do.
func TestEmitCaret(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"float4 a : register(c0[-1]);\nfloat4 main() : sv_target { return a; }\n",
			"s.hlsl:1:12: sm3: uniform a is placed at c-1, before c0 (register(c0[-1]))\nfloat4 a : register(c0[-1]);\n           ^"},
		{"float4 t;\n  float4 a : register(c2[-3]), b;\nfloat4 main() : sv_target { return a + b + t; }\n",
			"s.hlsl:2:14: sm3: uniform a is placed at c-1, before c0 (register(c2[-3]))\n  float4 a : register(c2[-3]), b;\n             ^"},
		{"float4 a : register(c1);\nfloat4x4 b : register(c0);\nfloat4 main() : sv_target { return a + b[0]; }\n",
			"s.hlsl:2:14: sm3: uniforms a (c1-c1) and b (c0-c3) are given overlapping registers\nfloat4x4 b : register(c0);\n             ^"},
	} {
		src := &load.Source{Name: "s.hlsl", Path: "s.hlsl", Kind: "hlsl", Text: []byte(c.src)}
		m, err := load.Module(src, load.Options{})
		if err != nil {
			t.Fatal(err)
		}
		spec, err := pipeline.Default("sm3")
		if err != nil {
			t.Fatal(err)
		}
		res := pipeline.Run(context.Background(), m, spec, pipeline.Options{Target: "sm3"})
		if res.Err != nil {
			t.Fatalf("%q: %v", c.src, res.Err)
		}
		_, err = target.Emit("sm3", m)
		if err == nil {
			t.Fatalf("%q: emitted", c.src)
		}
		if got := Emit(src, "sm3", err).Error(); got != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.src, got, c.want)
		}
	}
}
