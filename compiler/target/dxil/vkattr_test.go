package dxil

import (
	"strings"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/hlsl/lower"
)

// TestDXILDeclarations: shaders with Vulkan attributes, a root signature
// and a wave size, ConstantBuffer<T>, specialization constants and
// resource arrays indexed by constants and dynamically go through the
// dxil pipeline and back end, and llvm-as-22 and opt-22 accept the output.
// The Vulkan attributes do not change DXIL (registers stay the binding).
func TestDXILDeclarations(t *testing.T) {
	srcs := map[string]string{
		"attributes": `struct S { float a; uint b; };
[[vk::push_constant]] S pc;
[[vk::binding(3, 1)]] RWStructuredBuffer<float> o : register(u0);
[[vk::binding(5)]] ConstantBuffer<S> cb : register(b2);
[[vk::constant_id(2)]] const uint N = 7;
ConstantBuffer<S> cbs[2] : register(b4);
[RootSignature("CBV(b2), UAV(u0), RootConstants(num32BitConstants=2, b0)")]
[WaveSize(32)]
[numthreads(4,1,1)]
void main(uint i : SV_DispatchThreadID) { o[i] = pc.a * cb.a + pc.b + N + cbs[1].a; }
`,
		"resource-arrays": `RWStructuredBuffer<uint> A[2] : register(u0);
RWStructuredBuffer<uint> M[2][3] : register(u2);
[numthreads(8,1,1)]
void main(uint GI : SV_GroupIndex) {
  for (uint i = 0; i < 3; i++)
    M[1][i][GI] = A[0][GI] + i;
  A[1][GI] = M[1][NonUniformResourceIndex(GI % 3)][GI];
  M[0][2].IncrementCounter();
}
`,
	}
	for name, src := range srcs {
		prog, diags := hlsl.Frontend(name+".hlsl", []byte(src), hlsl.Options{})
		if diags.HasErrors() {
			t.Fatalf("%s: %s", name, diags)
		}
		m, ld := lower.Lower(prog, hlsl.Options{})
		if m == nil || ld.HasErrors() {
			t.Fatalf("%s: %s", name, ld)
		}
		text := runDXIL(t, name, m)
		checkLLVM(t, name, text)
		if name == "attributes" && strings.Contains(text, "vk") {
			t.Errorf("Vulkan attributes leak into DXIL:\n%s", text)
		}
	}
}
