package hlsl

import (
	"strings"
	"testing"
)

// The declaration attributes: each with a valid use (no diagnostic, the
// value recorded) and invalid ones (a located diagnostic).

const vkMain = "\n[numthreads(1,1,1)] void main() {}\n"

func TestVkAttributesValid(t *testing.T) {
	src := `struct S { float a; uint b; };
[[vk::push_constant]] S pc;
[[vk::binding(3, 1)]] RWStructuredBuffer<float> o : register(u0);
[[vk::binding(5)]] cbuffer C : register(b2) { float k; };
[[vk::push_constant]] cbuffer P { float p; };
[[vk::constant_id(2)]] const uint N = 7;
[numthreads(1,1,1)] void main() { o[0] = pc.a + k + N + p; }
`
	prog, diags := compile(t, src, Options{})
	if len(diags) > 0 {
		t.Fatalf("unexpected diagnostics:\n%s", render(prog, diags))
	}
	byName := map[string]*VarDecl{}
	for _, v := range prog.Globals {
		byName[v.Name] = v
	}
	if vk := byName["o"].Vk; !vk.HasBinding || vk.Binding != 3 || vk.Set != 1 {
		t.Errorf("o: %+v", vk)
	}
	if vk := byName["N"].Vk; !vk.HasSpecID || vk.SpecID != 2 || byName["N"].Buffer != nil {
		t.Errorf("N: %+v (a specialization constant is no uniform)", vk)
	}
	bufs := map[string]*CBuffer{}
	for _, b := range prog.Buffers {
		bufs[b.Name] = b
	}
	if b := bufs["C"]; b == nil || !b.Vk.HasBinding || b.Vk.Binding != 5 || b.Vk.Set != 0 {
		t.Errorf("C: %+v", b)
	}
	if b := bufs["P"]; b == nil || !b.Vk.PushConstant {
		t.Errorf("P: %+v", b)
	}
	if b := bufs["pc"]; b == nil || !b.Vk.PushConstant || len(b.Members) != 1 || b.Members[0] != byName["pc"] {
		t.Errorf("pc is not its own push constant buffer: %+v", b)
	}
}

func TestVkAttributesInvalid(t *testing.T) {
	tests := []struct{ src, want string }{
		{"[[vk::binding(1, 2, 3)]] RWStructuredBuffer<float> o;", "1:3: error: 'vk::binding' takes 1 or 2 arguments, have 3"},
		{"[[vk::binding(-1)]] RWStructuredBuffer<float> o;", "1:15: error: 'vk::binding' argument must be between 0 and 2147483647 (is -1)"},
		{"[[vk::binding(1.5)]] RWStructuredBuffer<float> o;", "1:15: error: 'vk::binding' argument must be an integer constant, not 'float'"},
		{"[[vk::binding(0)]] static float x;", "1:3: error: 'vk::binding' applies to resources and constant buffers, not to 'x'"},
		{"[[vk::push_constant(1)]] cbuffer C { float k; };", "1:3: error: 'vk::push_constant' takes no arguments, have 1"},
		{"[[vk::push_constant]] float f;", "1:3: error: 'vk::push_constant' applies to a constant buffer or a uniform of struct type, not to 'f'"},
		{"[[vk::push_constant]] [[vk::binding(0)]] cbuffer C { float k; };", "1:3: error: a push constant buffer has no descriptor binding"},
		{"[[vk::location(0)]] cbuffer C { float k; };", "1:3: error: 'vk::location' does not apply to a constant buffer"},
		{"[[vk::constant_id(0)]] static const int x = 1;", "1:3: error: 'vk::constant_id' applies to a non-static 'const' global"},
		{"[[vk::constant_id(0)]] const int x;", "1:3: error: 'vk::constant_id' applies to a non-static 'const' global"},
		{"[[vk::constant_id]] const int x = 1;", "1:3: error: 'vk::constant_id' takes 1 argument, have 0"},
		{"[[vk::location(1)]] static float x;", "1:3: error: 'vk::location' applies to entry point parameters"},
		{"[[vk::binding(0) RWStructuredBuffer<float> o;", "1:18: error: expected ']'"},
		{"[[vk::binding(\"a\")]] RWStructuredBuffer<float> o;", "1:15: error: 'vk::binding' takes integer arguments, not a string"},
		// Unknown attributes are warnings, as in DXC.
		{"[[vk::image_format(\"rgba8\")]] RWStructuredBuffer<float> o;", "1:3: warning: unknown attribute 'vk::image_format' ignored"},
		{"[[gnu::packed]] RWStructuredBuffer<float> o;", "1:3: warning: unknown attribute 'gnu::packed' ignored"},
	}
	for _, tc := range tests {
		_, diags := compile(t, tc.src+vkMain, Options{})
		got := diags.String()
		if !strings.Contains(got, "test.hlsl:"+tc.want) {
			t.Errorf("%s\ngot  %s\nwant test.hlsl:%s", tc.src, got, tc.want)
		}
	}
}

func TestVkLocationParam(t *testing.T) {
	prog, diags := compile(t, "float4 main([[vk::location(3)]] float4 c : COLOR0) : SV_Target { return c; }\n", Options{})
	if len(diags) > 0 {
		t.Fatalf("%s", render(prog, diags))
	}
	if p := prog.Entry.Func.Params[0]; !p.Vk.HasLocation || p.Vk.Location != 3 {
		t.Errorf("location %+v", p.Vk)
	}
	expectDiag(t, "float4 main([[vk::location(-2)]] float4 c : COLOR0) : SV_Target { return c; }\n", Options{}, "'vk::location' argument must be between 0 and 2147483647 (is -2)")
}

func TestWaveSize(t *testing.T) {
	prog, diags := compile(t, "[WaveSize(16)] [numthreads(4,1,1)] void main() {}\n", Options{})
	if len(diags) > 0 || prog.Entry.WaveSize != 16 {
		t.Fatalf("wave size %d, %s", prog.Entry.WaveSize, diags)
	}
	for _, tc := range []struct{ attr, want string }{
		{"[WaveSize(2)]", "1:11: error: WaveSize must be a power of two from 4 to 128 (is 2)"},
		{"[WaveSize(48)]", "1:11: error: WaveSize must be a power of two from 4 to 128 (is 48)"},
		{"[WaveSize(256)]", "1:11: error: WaveSize must be a power of two from 4 to 128 (is 256)"},
		{"[WaveSize()]", "1:1: error: 'WaveSize' takes 1 argument"},
	} {
		_, diags := compile(t, tc.attr+" [numthreads(4,1,1)] void main() {}\n", Options{})
		if got := diags.String(); !strings.Contains(got, "test.hlsl:"+tc.want) {
			t.Errorf("%s: got %s want %s", tc.attr, got, tc.want)
		}
	}
}

func TestRootSignature(t *testing.T) {
	src := `#define RS "RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT | DENY_PIXEL_SHADER_ROOT_ACCESS), " \
  "CBV(b0, space=1), DescriptorTable(SRV(t0, numDescriptors=unbounded), UAV(u1, space = 4), visibility=SHADER_VISIBILITY_ALL), " \
  "rootconstants(num32BitConstants=+4, b1), StaticSampler(s0, filter=FILTER_MIN_MAG_POINT_MIP_LINEAR, addressU=TEXTURE_ADDRESS_CLAMP, mipLODBias=-0.5)"
[RootSignature(RS)]
[numthreads(1,1,1)] void main() {}
`
	prog, diags := compile(t, src, Options{})
	if len(diags) > 0 {
		t.Fatalf("%s", render(prog, diags))
	}
	want := "RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT | DENY_PIXEL_SHADER_ROOT_ACCESS), CBV(b0, space=1), " +
		"DescriptorTable(SRV(t0, numDescriptors=unbounded), UAV(u1, space=4), visibility=SHADER_VISIBILITY_ALL), " +
		"RootConstants(b1, num32BitConstants=+4), StaticSampler(s0, filter=FILTER_MIN_MAG_POINT_MIP_LINEAR, addressU=TEXTURE_ADDRESS_CLAMP, mipLODBias=-0.5)"
	if got := prog.Entry.RootSignature.String(); got != want {
		t.Errorf("canonical form\ngot  %s\nwant %s", got, want)
	}
	// Errors are located inside the string (column of the offending
	// token), also in the second literal of a concatenation.
	for _, tc := range []struct{ rs, want string }{
		{`"CBV(t0)"`, "1:21: error: root signature: invalid register class 't' for CBV: expected 'b'"},
		{`"CBV(b0, spce=1)"`, "1:25: error: root signature: unknown parameter 'spce' for CBV"},
		{`"UAV(u0), " "SRV(t0, space=x)"`, "1:43: error: root signature: invalid value 'x' for 'space': expected an unsigned integer"},
		{`"Table(SRV(t0))"`, "1:17: error: root signature: unknown element 'Table'"},
		{`"DescriptorTable(RootFlags(0))"`, "1:33: error: root signature: unknown element 'RootFlags': expected a descriptor range"},
		{`"RootConstants(b0)"`, "1:17: error: root signature: RootConstants requires num32BitConstants"},
		{`"StaticSampler(s0, filter=FILTER_FAST)"`, "1:42: error: root signature: invalid value 'FILTER_FAST' for 'filter'"},
		{`"RootFlags(0), RootFlags(0)"`, "root signature: RootFlags may appear only once"},
		{`"CBV(b0"`, "1:23: error: root signature: expected ')', found the end of the string"},
		{`"CBV(b0, space=1, space=2)"`, "1:34: error: root signature: duplicate parameter 'space'"},
		{`"CBV(b0) $"`, "1:25: error: root signature: unexpected character '$'"},
	} {
		_, diags := compile(t, "[RootSignature("+tc.rs+")]\n[numthreads(1,1,1)] void main() {}\n", Options{})
		if got := diags.String(); !strings.Contains(got, tc.want) {
			t.Errorf("%s\ngot  %s\nwant %s", tc.rs, got, tc.want)
		}
	}
	expectDiag(t, "[RootSignature(1)]\n[numthreads(1,1,1)] void main() {}\n", Options{}, "'RootSignature' takes one string literal argument")
	// A string literal anywhere else is still rejected.
	expectDiag(t, "[numthreads(1,1,1)] void main() { int x = \"a\"; }\n", Options{}, "string literals are not supported")
}

func TestVkLocationChecks(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"float4 main([[vk::location(1)]] float4 p : SV_Position) : SV_Target { return p; }\n",
			"1:15: warning: 'vk::location' ignored on the system value 'SV_Position'"},
		{"struct I { float4 c : COLOR0; };\nfloat4 main([[vk::location(1)]] I i) : SV_Target { return i.c; }\n",
			"2:15: warning: 'vk::location' ignored on a struct parameter"},
		{"float4 main([[vk::location(1)]] float4 a : COLOR0, [[vk::location(1)]] float4 b : COLOR1) : SV_Target { return a + b; }\n",
			"1:79: error: 'a' and 'b' have the same location 1"},
	} {
		_, diags := compile(t, tc.src, Options{})
		if got := diags.String(); !strings.Contains(got, "test.hlsl:"+tc.want) {
			t.Errorf("%s\ngot  %s\nwant test.hlsl:%s", tc.src, got, tc.want)
		}
	}
}
