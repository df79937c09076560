package interp

import (
	"math"
	"testing"
)

// TestTextureReadsWideTypes checks that a read of a Texture2D<half4> or
// <double4> converts the 32-bit float texel to the declared type (vkd3d's
// conditional.shader_test reads a half4 texture), rather than keeping the
// low bits of the float's pattern.
func TestTextureReadsWideTypes(t *testing.T) {
	call := "tex.load(T, <2 x i32> <2, 1>, i32 0, <2 x i32> <0, 0>)" // (12, 0.5, 0, 1)
	h := runTex(t, texModule(t, "Texture2D", "<4 x f16>", "<4 x f16>", call), grid4x2, "")
	if want := []uint64{0x4a00, 0x3800, 0, 0x3c00}; len(h) != 4 || h[0] != want[0] || h[1] != want[1] || h[2] != want[2] || h[3] != want[3] {
		t.Errorf("half4 load: %#x, want %#x", h, want)
	}
	d := runTex(t, texModule(t, "Texture2D", "<4 x f64>", "<4 x f64>", call), grid4x2, "")
	if len(d) != 4 || math.Float64frombits(d[0]) != 12 || math.Float64frombits(d[1]) != 0.5 || math.Float64frombits(d[3]) != 1 {
		t.Errorf("double4 load: %#x, want 12, 0.5, 0, 1", d)
	}
}
