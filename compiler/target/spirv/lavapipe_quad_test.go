package spirv

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/hlsl/lower"
	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/target/spirv/vkrun"
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
	// vkd3d's discard.shader_test: derivatives after half the quad's
	// pixels are discarded (demoted to helpers: OpDemoteToHelperInvocation).
	"discard-then-derivative": `
float4 main(float4 pos : SV_Position) : SV_Target {
	if (frac((floor(pos.x) + floor(pos.y)) / 2) == 0.5)
		discard;
	return float4(ddx(pos.x), ddy(pos.y), ddx_fine(pos.x * pos.y), ddy_fine(pos.x * pos.y));
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
		discarded := 0
		if strings.HasPrefix(name, "discard") {
			discarded = pixelW * pixelH / 2
		}
		if diff != "" || st.close != 0 || st.written != pixelW*pixelH*len(p.targets)-discarded || st.discarded != discarded {
			t.Errorf("%s: %s (%d exact, %d close, %d pixels written, %d discarded)", name, diff, st.exact, st.close, st.written, st.discarded)
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

// lodShader samples a 16×16 texture of five levels, whose red channel is
// the level and green, blue the texel's x and y, with implicit levels of
// detail: one and three texels per pixel (levels 0 and log2(3) ≈ 1.58 →
// 2), one texel per pixel with a bias of one level (level 1), and
// anisotropic derivatives, one texel per pixel along x and four along y
// (the longer axis wins: level 2).
const lodShader = `
Texture2D<float4> t : register(t1);
SamplerState s : register(s2);
struct Out { float4 a : SV_Target0; float4 b : SV_Target1; float4 c : SV_Target2; float4 d : SV_Target3; };
Out main(float4 pos : SV_Position) {
	Out o;
	o.a = t.Sample(s, pos.xy / 16);
	o.b = t.Sample(s, pos.xy * 3 / 16);
	o.c = t.SampleBias(s, pos.xy / 16, 1.0);
	o.d = t.Sample(s, float2(pos.x / 16, pos.y / 4));
	return o;
}`

// TestLavapipeImplicitLOD draws lodShader on lavapipe (nearest filters,
// nearest mip) and compares every component of the four targets with the
// interpreter, whose level of detail comes from the coarse derivatives of
// the coordinates across each quad: bit-exact. The levels differ in red,
// so a wrong level is visible; a negative control interprets the shader
// with every Sample at level 0 (tex.sample_level 0) and must differ.
func TestLavapipeImplicitLOD(t *testing.T) {
	needDevice(t)
	m := compilePixel(t, "lod", lodShader)
	words, err := Assemble(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if msg := spirvVal(t, words, "vulkan1.1"); msg != "" {
		t.Fatalf("spirv-val: %s", msg)
	}
	var levels [][]any
	var texels []byte
	for k, n := 0, 16; n >= 1; k, n = k+1, n/2 {
		var lv []any
		for y := 0; y < n; y++ {
			for x := 0; x < n; x++ {
				for _, c := range []float32{float32(k), float32(x), float32(y), 1} {
					lv = append(lv, fmt.Sprintf("0x%08X", math.Float32bits(c)))
					texels = binary.LittleEndian.AppendUint32(texels, math.Float32bits(c))
				}
			}
		}
		levels = append(levels, lv)
	}
	in := &interp.Input{Rect: &interp.Rect{Width: pixelW, Height: pixelH},
		Textures: []interp.TextureInput{{Name: "t", Format: "RGBA32F", Width: 16, Height: 16, Levels: levels}},
		Samplers: []interp.SamplerInput{{Name: "s", MinFilter: "point", MagFilter: "point", MipFilter: "point",
			AddressU: "wrap", AddressV: "wrap", AddressW: "wrap"}},
	}
	job := vkrun.Job{SPIRV: words, Entry: "main", Draw: &vkrun.Draw{Vertex: vertexShader(t, pixelPlan{}), VertexEntry: "main",
		Width: pixelW, Height: pixelH, Targets: []vkrun.TargetKind{vkrun.Float, vkrun.Float, vkrun.Float, vkrun.Float}}}
	for _, b := range Bindings(m) {
		switch b.Global.Name() {
		case "t":
			job.Buffers = append(job.Buffers, vkrun.Buffer{Set: b.Set, Binding: b.Binding, ArrayElement: b.ArrayIndex, Image: &vkrun.Image{
				Format: 109 /* R32G32B32A32_SFLOAT */, TexelBytes: 16, Width: 16, Height: 16, Layers: 1, Levels: 5, ViewType: 1 /* 2D */, Data: texels}})
		case "s":
			job.Buffers = append(job.Buffers, vkrun.Buffer{Set: b.Set, Binding: b.Binding, ArrayElement: b.ArrayIndex, Sampler: &vkrun.Sampler{MaxLOD: 1000}})
		}
	}
	_, pix, err := vkrun.RunDraw(job)
	if err != nil {
		t.Fatal(err)
	}
	compare := func(ref *ir.Module) (string, map[float32]int) {
		res, err := interp.Run(ref, in, interp.Options{})
		if err != nil {
			t.Fatal(err)
		}
		levelsSeen := map[float32]int{}
		for loc, tg := range res.Targets {
			for y := 0; y < pixelH; y++ {
				for x := 0; x < pixelW; x++ {
					want := tg.Pixel(x, y)
					levelsSeen[math.Float32frombits(uint32(want[0]))]++
					for c := 0; c < 4; c++ {
						if got := pix[loc][(y*pixelW+x)*4+c]; got != uint32(want[c]) {
							return fmt.Sprintf("%s pixel (%d, %d) component %d: device %g, interpreter %g", tg.Semantic, x, y, c,
								math.Float32frombits(got), math.Float32frombits(uint32(want[c]))), levelsSeen
						}
					}
				}
			}
		}
		return "", levelsSeen
	}
	diff, seen := compare(m)
	if diff != "" {
		t.Fatal(diff)
	}
	if seen[0] != pixelW*pixelH || seen[1] != pixelW*pixelH || seen[2] != 2*pixelW*pixelH {
		t.Errorf("levels read: %v, want level 0 in one target, 1 in one and 2 in two", seen)
	}
	// Negative control: level 0 everywhere.
	ref := compilePixel(t, "lod", lodShader)
	for _, f := range ref.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Intr != nil && (in.Intr.Name == "tex.sample" || in.Intr.Name == "tex.sample_bias") {
					args := append([]ir.Value(nil), in.Args[:3]...)
					args = append(args, ir.ConstFloat(ir.F32, 0), in.Args[len(in.Args)-1])
					in.Intr, in.Args = ir.LookupIntrinsic("tex.sample_level"), args
				}
			}
		}
	}
	if diff, _ := compare(ref); diff == "" {
		t.Error("negative control: level 0 everywhere agrees with the device")
	}
}
