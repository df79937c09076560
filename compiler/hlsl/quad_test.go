package hlsl

import "testing"

// TestQuadIntrinsics checks the type and stage rules of the derivatives
// and Quad* intrinsics: float derivatives (of scalars, vectors and
// matrices), Quad* reads on any scalar or vector type but not matrices,
// QuadAny/QuadAll on bool, and pixel or compute (SM6.6) entry points only.
func TestQuadIntrinsics(t *testing.T) {
	ps := Options{Entry: "main", Stage: StagePixel}
	for _, c := range []struct {
		src  string
		opts Options
		want string
	}{
		{"float4 main(float4 p : SV_Position) : SV_Target { return float4(ddx(p.xy), ddy_fine(p.x), fwidth(p.y)); }", ps, ""},
		{"float4 main(float4 p : SV_Position) : SV_Target { float2x2 m = float2x2(p); return ddx_coarse(m)[0].xyxy; }", ps, ""},
		{"float4 main(float4 p : SV_Position) : SV_Target { int i = QuadReadAcrossX(int(p.x)); bool b = QuadReadLaneAt(p.x > 1, 3); return float4(i, b, QuadAny(b), QuadAll(p.y > 0)); }", ps, ""},
		{"float4 main(float4 p : SV_Position) : SV_Target { return QuadReadAcrossY(float2x2(p))[0].xyxy; }", ps, "error: 'QuadReadAcrossY' does not accept matrices"},
		{"float4 main(float4 p : SV_Position) : SV_Target { return QuadReadLaneAt(p); }", ps, "error: too few arguments to function call 'QuadReadLaneAt'"},
		{"RWBuffer<float> o;\n[numthreads(4,1,1)] void main(uint i : SV_GroupIndex) { o[i] = ddx(float(i)) + QuadReadAcrossDiagonal(float(i)); }", Options{}, ""},
		{"float4 main(float4 p : POSITION) : SV_Position { return ddx(p); }", Options{Entry: "main", Stage: StageVertex}, "error: 'ddx' needs 2×2 quads: it is only available in pixel and (shader model 6.6) compute shaders, not in a vertex shader"},
		{"float f(float x) { return QuadReadAcrossX(x); }\nfloat4 main(float4 p : POSITION) : SV_Position { return f(p.x); }", Options{Entry: "main", Stage: StageVertex}, "error: 'QuadReadAcrossX' needs 2×2 quads"},
	} {
		expectDiag(t, c.src, c.opts, c.want)
	}
}
