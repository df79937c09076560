package dxil

import (
	"strings"
	"testing"

	"passlens/compiler/interp"
)

// TestDXILQuadPixel: a pixel shader that discards and then takes
// derivatives goes through the dxil pipeline with the interpreter's
// results unchanged (the discard is a demotion: derivatives of the
// discarded pixels stay defined), and the output is llvm-as-22 clean
// with dx.op.discard of true, the derivative and quad operations, and no
// vector type.
func TestDXILQuadPixel(t *testing.T) {
	t.Parallel()
	const src = "testdata/quad_ps.hlsl"
	in := &interp.Input{Rect: &interp.Rect{Width: 4, Height: 4}}
	want := runInterp(t, loadHLSL(t, src), in)
	m := loadHLSL(t, src)
	runSpec(t, m, "inline,sroa,simplify,scalarize,simplify")
	checkNoVectorValues(t, m)
	if ok, diff := want.Equal(runInterp(t, m, in)); !ok {
		t.Errorf("results differ after the pipeline: %s", diff)
	}
	discarded := 0
	for _, l := range want.Lanes {
		if l.Killed {
			discarded++
		}
	}
	if discarded != 8 {
		t.Errorf("%d pixels discarded, want 8", discarded)
	}
	out, err := Emit(m)
	if err != nil {
		t.Fatal(err)
	}
	checkScalar(t, "quad_ps", out.Text)
	checkLLVM(t, "quad_ps", out.Text)
	for _, w := range []string{"@dx.op.discard(i32 82, i1 true)", "@dx.op.unary.f32(i32 83,", "@dx.op.unary.f32(i32 84,",
		"@dx.op.unary.f32(i32 86,", "@dx.op.unary.f32(i32 6,", "@dx.op.quadOp.f32(i32 123,"} {
		if !strings.Contains(out.Text, w) {
			t.Errorf("no %q in the output", w)
		}
	}
}
