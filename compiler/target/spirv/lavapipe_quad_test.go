package spirv

import (
	"strings"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/hlsl/lower"
	"passlens/compiler/ir"
)

// quadShaders are pixel shaders of derivatives and quad operations whose
// values are exact in float32 (pixel centres are halves): lavapipe and
// the interpreter must agree bit for bit. Fine derivatives take x*y, whose
// derivative differs between the rows and columns of a quad. Coarse ones
// (and fwidth, ddx, ddy) take separable functions f(x) + g(y), whose
// derivatives are the same in both rows (columns): SPIR-V only promises
// that OpDPdxCoarse is "at least as precise as" a coarse derivative, and
// llvmpipe computes it per pixel, as fine (measured: ddy_coarse(x*y) in
// the top-right pixel of a quad is 1.5, the right column's difference,
// where the interpreter's coarse derivative, from the left column, is
// 0.5).
var quadShaders = map[string]string{
	"derivatives": `
float4 main(float4 pos : SV_Position) : SV_Target {
	float v = pos.x * pos.y + pos.x * pos.x;
	float s = pos.x * pos.x + 3 * pos.y * pos.y;
	return float4(ddx_fine(v), ddy_fine(v), ddx_coarse(s), ddy_coarse(s));
}`,
	"ddx-vector-fwidth": `
struct Out { float4 a : SV_Target0; float4 b : SV_Target1; };
Out main(float4 pos : SV_Position) {
	float2 v = float2(pos.x * pos.x * 0.5 + pos.y, pos.y * 0.75 - pos.x * 2);
	Out o;
	o.a = float4(ddx(v), ddy(v));
	o.b = float4(fwidth(v), fwidth(pos.x * pos.x), ddy_fine(pos.x * pos.y));
	return o;
}`,
	"quad-reads": `
struct Out { float4 a : SV_Target0; uint4 b : SV_Target1; };
Out main(float4 pos : SV_Position) {
	float v = pos.x * 16 + pos.y;
	Out o;
	o.a = float4(QuadReadAcrossX(v), QuadReadAcrossY(v), QuadReadAcrossDiagonal(v), QuadReadLaneAt(v, 2));
	uint u = uint(pos.x) * 100 + uint(pos.y);
	o.b = uint4(QuadReadLaneAt(u, 1), QuadAny(pos.x > 2 && pos.y > 5), QuadAll(pos.x + pos.y > 2), QuadReadAcrossX(int2(u, -u)).y);
	return o;
}`,
}

// TestLavapipeQuads compiles quadShaders to SPIR-V (spirv-val clean),
// draws them on lavapipe over an 8x8 viewport and compares every
// component of every render target with the interpreter's, requiring
// bit-exact agreement; a shader of the interpreter that swapped coarse
// for fine derivatives (the negative control) must be caught.
func TestLavapipeQuads(t *testing.T) {
	needDevice(t)
	for name, src := range quadShaders {
		m := compilePixel(t, name, src)
		w, err := Assemble(m, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if msg := spirvVal(t, w, "vulkan1.1"); msg != "" {
			t.Fatalf("%s: spirv-val: %s", name, msg)
		}
		p := planPixel(m)
		if p.skip != "" {
			t.Fatalf("%s: %s", name, p.skip)
		}
		var st pixelStats
		diff, err := runPixel(t, name, m, p, &st, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff != "" || st.close != 0 || st.written != pixelW*pixelH*len(p.targets) {
			t.Errorf("%s: %s (%d exact, %d close, %d pixels written)", name, diff, st.exact, st.close, st.written)
		}
		t.Logf("%s: %d components bit-exact", name, st.exact)
	}
	// Negative control: coarse where the shader asks for fine differs.
	m := compilePixel(t, "derivatives", quadShaders["derivatives"])
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Intr != nil && in.Intr.Name == "ddx_fine" {
					in.Intr = ir.LookupIntrinsic("ddx_coarse")
				}
			}
		}
	}
	var st pixelStats
	dev := compilePixel(t, "derivatives", quadShaders["derivatives"])
	diff, err := runPixelRef(t, dev, m, planPixel(dev), &st, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(diff, "SV_Target0") {
		t.Errorf("negative control: fine vs coarse derivatives not detected (%q)", diff)
	}
}

// compilePixel compiles an HLSL pixel shader through the spirv pipeline.
func compilePixel(t *testing.T, name, src string) *ir.Module {
	t.Helper()
	opts := hlsl.Options{Entry: "main", Stage: hlsl.StagePixel}
	prog, diags := hlsl.Frontend(name+".hlsl", []byte(src), opts)
	if diags.HasErrors() {
		t.Fatalf("%s: %v", name, diags)
	}
	m, ld := lower.Lower(prog, opts)
	if m == nil || ld.HasErrors() {
		t.Fatalf("%s: %v", name, ld)
	}
	if err := runSpirvPipeline(m); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}
