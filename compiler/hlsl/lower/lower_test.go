package lower

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/internal/golden"
	"passlens/samples"
)

// lowerSource runs the frontend and the lowering over src and fails the
// test on any error; the module is verified and round-trips through the
// IR text format.
func lowerSource(t *testing.T, file, src string, opts hlsl.Options) *ir.Module {
	t.Helper()
	prog, diags := hlsl.Frontend(file, []byte(src), opts)
	if diags.HasErrors() {
		t.Fatalf("%s: frontend errors:\n%s", file, render(prog, diags))
	}
	m, ld := Lower(prog, opts)
	if m == nil || ld.HasErrors() {
		t.Fatalf("%s: lowering errors:\n%s", file, render(prog, ld))
	}
	if err := ir.Verify(m); err != nil {
		t.Fatalf("%s: module does not verify: %v\n%s", file, err, m)
	}
	text := m.String()
	back, err := ir.ParseModule(file, []byte(text))
	if err != nil {
		t.Fatalf("%s: printed module does not parse: %v\n%s", file, err, text)
	}
	if again := back.String(); again != text {
		t.Fatalf("%s: print/parse/print is not the identity", file)
	}
	return m
}

// run interprets m with waves of 4 lanes.
func run(t *testing.T, m *ir.Module, in *interp.Input, policy interp.Policy) *interp.Result {
	t.Helper()
	res, err := interp.Run(m, in, interp.Options{WaveSize: 4, Policy: policy})
	if err != nil {
		t.Fatalf("run: %v\n%s", err, m)
	}
	return res
}

// bufferText formats the first n elements of a buffer.
func bufferText(t *testing.T, res *interp.Result, name string, n int) string {
	t.Helper()
	b := res.Buffer(name)
	if b == nil {
		t.Fatalf("no buffer %s", name)
	}
	var parts []string
	for i := 0; i < n && i < b.Count; i++ {
		parts = append(parts, interp.FormatValue(b.Elem, b.Element(i)))
	}
	return strings.Join(parts, " ")
}

// TestLowerSamples lowers every embedded HLSL sample.
func TestLowerSamples(t *testing.T) {
	n := 0
	for _, s := range samples.All() {
		if !strings.HasSuffix(s.File, ".hlsl") {
			continue
		}
		n++
		t.Run(s.Name, func(t *testing.T) {
			m := lowerSource(t, s.File, string(s.Source), hlsl.Options{})
			if len(m.EntryPoints()) != 1 {
				t.Fatalf("want one entry point, have %d", len(m.EntryPoints()))
			}
			ep := m.EntryPoints()[0]
			if ep.Name() != "main" || len(ep.Params) != 0 || ep.Ret != ir.Void {
				t.Errorf("entry point @%s has %d params and returns %s; want @main() void", ep.Name(), len(ep.Params), ep.Ret)
			}
		})
	}
	if n < 10 {
		t.Errorf("only %d HLSL samples found", n)
	}
}

// sampleInputs are the interpreter inputs of the sample execution tests.
var sampleInputs = map[string]*interp.Input{
	"wave-switch-42": {Buffers: []interp.BufferInput{{Name: "value", Data: []any{0, 0, 1, 2}}}},
	"nested-loops":   {Uniforms: map[string]any{"rows": 4, "cols": 5}},
	"sm3-loop-m":     {Uniforms: map[string]any{"m": 3}, Rect: &interp.Rect{Width: 1, Height: 1}},
	"sm3-loop-mm":    {Uniforms: map[string]any{"m": 3}, Rect: &interp.Rect{Width: 1, Height: 1}},
	"pixel": {Uniforms: map[string]any{"tint": []any{1, 0.5, 0.25, 1}, "scale": 2}, Rect: &interp.Rect{Width: 4, Height: 2},
		Inputs: map[string]interp.LaneInput{"TEXCOORD0": {PerLane: []any{[]any{0.25, 0.5}, []any{-1, 0}, []any{0.5, 0}, []any{0, 1}}}}},
	"add-mul": {Uniforms: map[string]any{"x": []any{1, 2, 3, 4}, "y": []any{5, 6, 7, 8}}, Rect: &interp.Rect{Width: 1, Height: 1}},
	"bitcast": {Uniforms: map[string]any{"f": []any{1, 2, 3, 4}, "i": []any{0x3F800000, 0x40000000, 0, -0x80000000}}, Rect: &interp.Rect{Width: 1, Height: 1}},
	"cos-sin": {Uniforms: map[string]any{"a": []any{0, 0, 0, 0}}, Rect: &interp.Rect{Width: 1, Height: 1}},
	"vertex": {Uniforms: map[string]any{"worldViewProj": []any{[]any{1, 0, 0, 0}, []any{0, 2, 0, 0}, []any{0, 0, 3, 0}, []any{1, 2, 3, 1}}},
		Inputs:      map[string]interp.LaneInput{"POSITION": {PerLane: []any{[]any{1, 2, 3}, []any{0, 0, 0}}}, "TEXCOORD0": {Value: []any{0.25, 0.5}}, "COLOR0": {Value: []any{1, 0, 1, 1}}},
		VertexCount: 2},
}

// TestLowerSamplesRun runs the samples and checks the values computed by
// hand from their source.
func TestLowerSamplesRun(t *testing.T) {
	lowerSample := func(t *testing.T, name string) *ir.Module {
		s, ok := samples.Lookup(name)
		if !ok {
			t.Fatalf("no sample %s", name)
		}
		return lowerSource(t, s.File, string(s.Source), hlsl.Options{})
	}
	cases := []struct {
		sample, buffer string
		n              int
		policy         interp.Policy
		want           string
	}{
		// Lanes 0 and 1 take case 0 and fall through into default.
		{"wave-switch-42", "value", 4, interp.PolicyMaximal, "42 42 40 40"},
		{"wave-switch-42", "value", 4, interp.PolicySwitchSeparate, "22 22 20 20"},
		// tid 0 fills sharedData; each thread sums row tid.
		{"groupshared-store", "Out", 2, interp.PolicyMaximal, "6.0 12.0"},
		// acc = sum over i in {0,1,3} of i * (even j <= min(tid, 4)).
		{"nested-loops", "Out", 8, interp.PolicyMaximal, "0 0 8 8 24 24 24 24"},
		// trace digits per selector: 0->1, 1,3->3, 2->4, 4 (not cond) and 5 -> 2 then 3.
		{"switch-fallthrough", "Out", 16, interp.PolicyMaximal, "1 3 4 3 23 23 1 3 0 0 0 0 0 0 0 0"},
		// Odd lanes sum 1+3 = 4; every lane sums partials = 8; first lane id 0 or 4.
		{"wave-divergent", "Out", 8, interp.PolicyMaximal, "800 804 800 804 804 808 804 808"},
		// albedo.rgb * (2*dot(n,(0,1,0)) + 0.5*dot(n,(1,0,0))) with n = (1,1,0)/sqrt(2).
		{"structs-arrays", "Out", 2, interp.PolicyMaximal, "<0.17677669, 0.088388346, 0.044194173, 1.0> <0.35355338, 0.17677669, 0.088388346, 1.0>"},
	}
	for _, c := range cases {
		t.Run(c.sample+"/"+c.policy.String(), func(t *testing.T) {
			m := lowerSample(t, c.sample)
			res := run(t, m, sampleInputs[c.sample], c.policy)
			if got := bufferText(t, res, c.buffer, c.n); got != c.want {
				t.Errorf("%s = %s, want %s", c.buffer, got, c.want)
			}
		})
	}
	targets := []struct {
		sample string
		x, y   int
		want   string
	}{
		{"sm3-loop-m", 0, 0, "<3.0, 3.0, 3.0, 3.0>"},      // 0 + 1 + 2
		{"sm3-loop-mm", 0, 0, "<36.0, 36.0, 36.0, 36.0>"}, // 0 + ... + 8
		{"add-mul", 0, 0, "<11.0, 20.0, 31.0, 44.0>"},     // x + y + x * y
		{"bitcast", 0, 0, "<3.0, 8.0, 3.0, 4.0>"},         // f + asfloat(i) + f * asfloat(i)
		{"cos-sin", 0, 0, "<1.0, 1.0, 1.0, 1.0>"},         // cos(sin(0))
		// Pixel (0,0): cell 0, checker 0, rgb 0.1, uv.y + 0.5 saturates to 1.
		{"pixel", 0, 0, "<0.1, 0.1, 0.1, 1.0>"},
		// Pixel (2,0): pos.xy / 2 = (1.25, 0.25) -> cell (1, 0), checker 1
		// -> tint.rgb; uv.y = 0 -> times 0.5.
		{"pixel", 2, 0, "<0.5, 0.25, 0.125, 1.0>"},
		// Pixel (3,0): pos.xy / 2 = (1.75, 0.25) -> cell (1, 0), checker 1 -> tint.rgb.
		{"pixel", 3, 0, "<1.0, 0.5, 0.25, 1.0>"},
	}
	for _, c := range targets {
		t.Run(c.sample, func(t *testing.T) {
			m := lowerSample(t, c.sample)
			res := run(t, m, sampleInputs[c.sample], interp.PolicyMaximal)
			tg := res.Target("SV_Target0")
			if tg == nil {
				t.Fatal("no SV_Target0")
			}
			if got := interp.FormatValue(tg.Elem, tg.Pixel(c.x, c.y)); got != c.want {
				t.Errorf("pixel (%d,%d) = %s, want %s", c.x, c.y, got, c.want)
			}
		})
	}
	t.Run("pixel discard", func(t *testing.T) {
		// Pixel (1,0) has uv.x < 0 and is discarded.
		res := run(t, lowerSample(t, "pixel"), sampleInputs["pixel"], interp.PolicyMaximal)
		if tg := res.Target("SV_Target0"); tg.Written[1] || !tg.Written[0] {
			t.Errorf("written = %v, want pixel 1 discarded", tg.Written[:4])
		}
	})
	t.Run("vertex", func(t *testing.T) {
		res := run(t, lowerSample(t, "vertex"), sampleInputs["vertex"], interp.PolicyMaximal)
		want := [][]string{
			// (1,2,3,1) * M: row vector times the row-major matrix.
			{"SV_Position=<2.0, 6.0, 12.0, 1.0>", "COLOR0=<1.0, 0.0, 1.0, 1.0>", "TEXCOORD0=<-0.5, 0.0>"},
			{"SV_Position=<1.0, 2.0, 3.0, 1.0>", "COLOR0=<1.0, 0.0, 1.0, 1.0>", "TEXCOORD0=<-0.5, 0.0>"},
		}
		for i, lane := range res.Lanes {
			var got []string
			for _, o := range lane.Outputs {
				got = append(got, o.Semantic+"="+interp.FormatValue(o.Type, o.Cells))
			}
			if strings.Join(got, " ") != strings.Join(want[i], " ") {
				t.Errorf("vertex %d: %v, want %v", i, got, want[i])
			}
		}
	})
}

// TestLowerGolden compares the lowering of the small shaders in
// testdata/lower with their .pir files (-update-lower rewrites them).
func TestLowerGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "lower", "*.hlsl"))
	if len(files) == 0 {
		t.Fatal("no testdata/lower/*.hlsl")
	}
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			m := lowerSource(t, name, string(src), hlsl.Options{})
			got := m.String()
			goldenPath := strings.TrimSuffix(path, ".hlsl") + ".pir"
			golden.Check(t, goldenPath, []byte(got))
		})
	}
}

// TestLowerDiagnostics checks that constructs the IR cannot express are
// reported at their position, and that the module is then nil.
func TestLowerDiagnostics(t *testing.T) {
	cases := []struct{ src, want string }{
		{"struct S { RWBuffer<uint> b; uint n; };\nS s;\n[numthreads(1,1,1)] void main() {\n  s.b[0] = 1;\n}\n",
			"test.hlsl:2:1: error: a global struct holding resources may hold only buffers, not 'S'"},
		{"RWStructuredBuffer<uint> A;\n[numthreads(1,1,1)] void main() {\n  RWStructuredBuffer<uint> b;\n  A[0] = 2;\n  b[0] = 1;\n}\n",
			"test.hlsl:5:3: error: local resource 'b' is used but never assigned a global resource"},
		{"RWBuffer<uint> A;\nstruct H { RWStructuredBuffer<uint> b; };\n[numthreads(1,1,1)] void main() {\n  H h;\n  h.b[0] = 1;\n}\n",
			"test.hlsl:5:3: error: local resource of type 'RWStructuredBuffer<uint>' does not refer to a global resource: no global 'RWStructuredBuffer<uint>' is declared"},
		{"Texture2D<float4> T[] : register(t0);\nRWBuffer<float4> o;\n[numthreads(1,1,1)] void main() {\n  o[0] = T[1].Load(int3(0, 0, 0));\n}\n",
			"test.hlsl:4:10: error: unbounded resource array 'T' of textures or samplers is not supported: give it a size"},
		{"RWBuffer<uint> B[] : register(u0);\n[numthreads(1,1,1)] void main() {\n  RWBuffer<uint> b = B[1];\n  b[0] = 1;\n}\n",
			"test.hlsl:3:22: error: an element of the unbounded resource array 'B' held as a value (a local, a parameter) is not supported"},
		{"struct S { float x; };\nConstantBuffer<S> c[2];\nRWBuffer<float> o;\n[numthreads(2,1,1)] void main(uint i : SV_GroupIndex) { o[i] = c[i].x; }\n",
			"test.hlsl:4:66: error: an index into the ConstantBuffer array 'c' must be constant"},
	}
	for _, c := range cases {
		prog, diags := hlsl.Frontend("test.hlsl", []byte(c.src), hlsl.Options{})
		if diags.HasErrors() {
			t.Fatalf("frontend: %s", render(prog, diags))
		}
		m, ld := Lower(prog, hlsl.Options{})
		if m != nil {
			t.Errorf("%q: lowered, want an error", c.src)
		}
		if got := render(prog, ld); !strings.Contains(got, c.want) {
			t.Errorf("diagnostics:\n%s\nwant %q", got, c.want)
		}
	}
}

// TestLowerLocations checks that instructions carry their source position.
func TestLowerLocations(t *testing.T) {
	src := "RWStructuredBuffer<float> B;\n[numthreads(1,1,1)]\nvoid main() {\n  float x = B[0];\n  B[1] = x * 2;\n}\n"
	m := lowerSource(t, "test.hlsl", src, hlsl.Options{})
	found := map[ir.Op]ir.Loc{}
	for _, b := range m.Func("main").Blocks {
		for _, in := range b.Instrs {
			if in.Loc == (ir.Loc{}) && in.Op != ir.OpRet {
				t.Errorf("%s has no location", in.Op)
			}
			found[in.Op] = in.Loc
		}
	}
	if got, want := found[ir.OpFMul], (ir.Loc{Line: 5, Col: 10}); got != want {
		t.Errorf("fmul at %v, want %v", got, want)
	}
	if got, want := found[ir.OpAlloca], (ir.Loc{Line: 4, Col: 9}); got != want {
		t.Errorf("alloca at %v, want %v", got, want)
	}
	var sb strings.Builder
	p := ir.NewPrinter(&sb)
	p.Locs = true
	p.Module(m)
	if !strings.Contains(sb.String(), "!loc 5:10") {
		t.Errorf("printed module lacks !loc 5:10:\n%s", sb.String())
	}
}

// TestLowerLibrary lowers every function of a program without an entry
// point.
func TestLowerLibrary(t *testing.T) {
	src := "float f(float x) { return x + 1; }\nvoid g(inout float y) { y = f(y); }\n"
	m := lowerSource(t, "lib.hlsl", src, hlsl.Options{Library: true})
	if len(m.Funcs) != 2 || len(m.EntryPoints()) != 0 {
		t.Fatalf("want 2 functions and no entry point:\n%s", m)
	}
	g := m.Func("g")
	if g == nil || len(g.Params) != 1 || g.Params[0].Type() != ir.Ptr(ir.SpaceFunction, ir.F32) {
		t.Errorf("inout parameter should be ptr<function, f32>:\n%s", m)
	}
}

// TestLowerEntryInterface checks the entry point's globals: inputs and
// outputs with canonical semantics, uniform parameters in $Globals,
// buffers with their kinds and bindings.
func TestLowerEntryInterface(t *testing.T) {
	src := `float4 tint;
cbuffer Cam : register(b3, space1) { float4x4 view; };
StructuredBuffer<float4> Data : register(t2);
struct VOut { float4 pos : SV_POSITION; float2 uv[2] : TEXCOORD2; };
VOut main(uniform float scale, uint id : SV_VertexID, nointerpolation float3 n : NORMAL) {
  VOut o;
  o.pos = Data[id] * scale + tint + view[0];
  o.uv[0] = n.xy;
  o.uv[1] = n.yz;
  return o;
}
`
	m := lowerSource(t, "vs.hlsl", src, hlsl.Options{})
	want := []string{
		`@$Globals = global uniform %$Globals kind "cbuffer"`,
		`@Cam = global uniform %Cam binding 1, 3 kind "cbuffer"`,
		`@Data = global storage [? x <4 x f32>] binding 0, 2 readonly kind "StructuredBuffer"`,
		`@id = global input u32 semantic "SV_VertexID"`,
		`@n = global input <3 x f32> semantic "NORMAL" flat`,
		`@out.pos = global output <4 x f32> semantic "SV_Position"`,
		`@out.uv = global output [2 x <2 x f32>] semantic "TEXCOORD2"`,
		`type %$Globals = { <4 x f32> tint, f32 scale }`,
		`type %Cam = { <4 x 4 x f32> view }`,
		`define void @main() vertex {`,
		`%view.1 = load ptr<uniform, <4 x 4 x f32>> %view`,
		`intr <4 x 4 x f32> transpose(<4 x 4 x f32> %view.1)`,
	}
	text := m.String()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("module lacks %q:\n%s", w, text)
		}
	}
}

// TestLowerLoopShape checks the loop and switch shapes: each loop header's
// terminator carries loop_merge with the loop's continue block, which
// branches back to the header; the switch keeps its clauses in source
// order with default in place.
func TestLowerLoopShape(t *testing.T) {
	src := `RWStructuredBuffer<int> B;
[numthreads(1,1,1)]
void main() {
  int s = 0;
  for (int i = 0; i < 3; i++) s += i;
  while (s < 10) s++;
  do { s--; } while (s > 5);
  switch (s) { case 1: s = 0; default: s = 2; break; case 3: case 4: s = 1; }
  B[0] = s;
}
`
	f := lowerSource(t, "loops.hlsl", src, hlsl.Options{}).Func("main")
	loops := map[string]string{"for.cond": "for.inc", "while.cond": "while.cont", "do.header": "do.cond"}
	for header, cont := range loops {
		h := f.Block(header)
		if h == nil {
			t.Fatalf("no block %s:\n%s", header, f)
		}
		term := h.Terminator()
		if term.MergeKind != ir.MergeLoop || term.Continue.Name() != cont {
			t.Errorf("%s: terminator %v, want loop_merge with continue %s", header, term.Op, cont)
		}
		back := false
		for _, s := range f.Block(cont).Successors() {
			back = back || s == h
		}
		if !back {
			t.Errorf("continue block %s does not branch back to %s", cont, header)
		}
	}
	var sw *ir.Instr
	for _, b := range f.Blocks {
		if term := b.Terminator(); term.Op == ir.OpSwitch {
			sw = term
		}
	}
	if sw == nil || sw.MergeKind != ir.MergeSelection || sw.Merge.Name() != "sw.end" {
		t.Fatalf("no annotated switch:\n%s", f)
	}
	var got []string
	for _, c := range sw.Cases {
		got = append(got, c.Target.Name())
	}
	if strings.Join(got, " ") != "sw.case1 sw.default sw.case3" || len(sw.Cases[2].Values) != 2 {
		t.Errorf("switch cases %v, want sw.case1 sw.default sw.case3 (with values 3, 4)", got)
	}
	// Fallthrough from case 1 into default is an explicit branch.
	if s := f.Block("sw.case1").Successors(); len(s) != 1 || s[0].Name() != "sw.default" {
		t.Errorf("sw.case1 should branch to sw.default")
	}
}

// TestLowerSplitLoopCondition: a loop condition that needs blocks (&&, a
// control-flow ternary) is evaluated after a header block that only
// carries the loop_merge.
func TestLowerSplitLoopCondition(t *testing.T) {
	src := execShader(t, "split")
	m := lowerSource(t, "split.hlsl", src, hlsl.Options{})
	f := m.Func("main")
	for _, name := range []string{"for.header", "while.header"} {
		h := f.Block(name)
		if h == nil || h.Terminator().MergeKind != ir.MergeLoop || h.Terminator().Op != ir.OpBr || len(h.Instrs) != 1 {
			t.Errorf("%s should hold only `loop_merge; br`:\n%s", name, f)
		}
	}
	res := run(t, m, nil, interp.PolicyMaximal)
	// i = 0..6: k counts the calls for i >= 3 (k = 1..5 at i = 3..7; the
	// fifth call gives 5 and stops the loop at i = 7); n = 0+...+6 = 21,
	// then 21 -> -3 in steps of 4.
	if got := bufferText(t, res, "B", 3); got != "-3 5 7" {
		t.Errorf("B = %s, want -3 5 7", got)
	}
}

// TestLowerPackOffset: a cbuffer with packoffset gives its struct the D3D
// byte offsets of all members (members without packoffset go where D3D's
// packing puts them, after the highest placed one); one without keeps
// no offsets, so back ends use their own layout rules.
func TestLowerPackOffset(t *testing.T) {
	src := `struct apple { float2 a; float b; float4 c; };
cbuffer placed {
    float4 foo : packoffset(c3);
    apple bar : packoffset(c1);
    float2 c : packoffset(c0.y);
    float3x2 m : packoffset(c4);
    float after;
};
cbuffer loose { float x; float4 y; };
float4 main() : sv_target { return foo + bar.c + c.xyxy + m[0].xyxy + after + x + y; }
`
	m := lowerSource(t, "po.hlsl", src, hlsl.Options{})
	text := m.String()
	for _, w := range []string{
		// The column-major float3x2 is stored as its 2 columns of 3
		// (c4, c5); after follows it at c5.w.
		`type %placed = { <4 x f32> foo offset 48, %apple bar offset 16, <2 x f32> c offset 4, <2 x 3 x f32> m offset 64, f32 after offset 92 }`,
		`type %loose = { f32 x, <4 x f32> y }`,
	} {
		if !strings.Contains(text, w) {
			t.Errorf("module lacks %q:\n%s", w, text)
		}
	}
}

// TestLowerRegisterC: register(cN) on a global uniform places that $Globals
// member at cN (DXC's test: int x : register(c1); int y : register(c0)
// puts x at 16 and y at 0); the others stay unplaced. Inside a cbuffer
// register(cN) is ignored.
func TestLowerRegisterC(t *testing.T) {
	src := `int x : register(c1);
int y : register(c0);
float4 z;
cbuffer cb { float4 w : register(c3); };
float4 main() : sv_target { return x + y + z + w; }
`
	text := lowerSource(t, "rc.hlsl", src, hlsl.Options{}).String()
	for _, w := range []string{
		`type %$Globals = { i32 x offset 16, i32 y offset 0, <4 x f32> z }`,
		`type %cb = { <4 x f32> w }`,
	} {
		if !strings.Contains(text, w) {
			t.Errorf("module lacks %q:\n%s", w, text)
		}
	}
}

// TestLowerRegisterShift: register(cN[k]) keeps N as the member's offset
// (DXC ignores k; vkd3d register-reservations-space: "Bracket syntax for
// registers. Ignored in SM>=6") and carries k as the field's regshift for
// the back ends that model FXC, which adds it (sm3). k is a constant
// integer expression and may be negative; register(u[1]) is u0 shifted
// by 1, so u0 here.
func TestLowerRegisterShift(t *testing.T) {
	src := `float4 a : register(c2[-1]);
float4 b : register(c0[1 + 2]);
float4 c : register(c4);
RWStructuredBuffer<float4> buf : register(u[1]);
float4 main() : sv_target { return a + b + c + buf[0]; }
`
	text := lowerSource(t, "shift.hlsl", src, hlsl.Options{}).String()
	want := `type %$Globals = { <4 x f32> a offset 32 regshift -1, <4 x f32> b offset 0 regshift 3, <4 x f32> c offset 64 }`
	if !strings.Contains(text, want) || !strings.Contains(text, `binding 0, 0 kind "RWStructuredBuffer"`) {
		t.Errorf("module lacks %q or buf at binding 0:\n%s", want, text)
	}
	for _, bad := range []string{"c1[", "c1[]", "c1[2 3]", "c1[2"} {
		expectDiag(t, "float4 a : register("+bad+");", hlsl.Options{Library: true}, "invalid register offset")
	}
}
