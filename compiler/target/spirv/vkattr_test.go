package spirv

import (
	"regexp"
	"strings"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/hlsl/lower"
	"passlens/compiler/interp"
	"passlens/compiler/ir"
)

// lowerHLSL compiles an HLSL compute shader and runs the spirv pipeline.
func lowerHLSL(t *testing.T, src string) *ir.Module {
	t.Helper()
	opts := hlsl.Options{}
	prog, diags := hlsl.Frontend("test.hlsl", []byte(src), opts)
	if diags.HasErrors() {
		t.Fatalf("frontend: %s", diags)
	}
	m, ld := lower.Lower(prog, opts)
	if m == nil || ld.HasErrors() {
		t.Fatalf("lowering: %s", ld)
	}
	if err := runSpirvPipeline(m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestVkAttributesSPIRV: [[vk::binding(b, s)]] wins over register() for
// the descriptor set and binding, [[vk::push_constant]] buffers are
// PushConstant blocks without a descriptor; spirv-val accepts the result.
func TestVkAttributesSPIRV(t *testing.T) {
	m := lowerHLSL(t, `struct S { float a; uint b; };
[[vk::push_constant]] S pc;
[[vk::binding(3, 1)]] RWStructuredBuffer<float> o : register(u0);
[[vk::binding(5)]] cbuffer C : register(b2) { float k; };
struct T2 { float v; };
ConstantBuffer<T2> cbs[2] : register(b6);
StructuredBuffer<float> in0 : register(t1);
[numthreads(4,1,1)]
void main(uint i : SV_DispatchThreadID) { o[i] = pc.a * k + pc.b + in0[i] + cbs[1].v; }
`)
	words, err := Assemble(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if msg := spirvVal(t, words, "vulkan1.1"); msg != "" {
		t.Fatalf("spirv-val: %s", msg)
	}
	dis := spirvDis(t, words)
	for _, want := range []string{
		"OpDecorate %o DescriptorSet 1", "OpDecorate %o Binding 3", // vk::binding over u0
		"DescriptorSet 0\n", "Binding 5\n", // cbuffer C: vk::binding(5) over b2
		"OpDecorate %in0 Binding 1", // register(t1) without vk::binding
		"OpVariable %_ptr_PushConstant_pc PushConstant",
	} {
		if !strings.Contains(dis, want) {
			t.Errorf("missing %q in\n%s", want, dis)
		}
	}
	if regexp.MustCompile(`OpDecorate %pc\S* (Binding|DescriptorSet)`).MatchString(dis) {
		t.Errorf("the push constant block has a descriptor binding:\n%s", dis)
	}
}

// TestLavapipeResourceArrays runs a shader indexing resource arrays with
// constants, a loop counter and NonUniformResourceIndex of a divergent
// value on lavapipe and compares every buffer with the interpreter. The
// module as emitted for a device with descriptor indexing (DXC's form)
// declares each array as one arrayed descriptor indexed by access chains,
// NonUniform only on the divergent index; spirv-val checks it, and the
// device runs the form for what it supports (deviceOptions).
func TestLavapipeResourceArrays(t *testing.T) {
	info := needDevice(t)
	m := lowerHLSL(t, `RWStructuredBuffer<uint> A[2] : register(u0);
RWStructuredBuffer<uint> B[3] : register(u2);
[numthreads(8,1,1)]
void main(uint GI : SV_GroupIndex) {
  for (uint i = 0; i < 3; i++)
    B[i][GI] = A[0][GI] * (i + 1);
  A[1][GI] = B[NonUniformResourceIndex(GI % 3)][GI] + 100 * (GI % 3);
}
`)
	if err := runSpirvPipeline(m); err != nil {
		t.Fatal(err)
	}
	for _, o := range []Options{{}, deviceOptions(info)} {
		words, err := Assemble(m, o)
		if err != nil {
			t.Fatal(err)
		}
		if msg := spirvVal(t, words, "vulkan1.1"); msg != "" {
			t.Fatalf("spirv-val %+v: %s", o, msg)
		}
		dis := spirvDis(t, words)
		if mine, err := Disassemble(words); err != nil || mine != dis {
			t.Errorf("disassembly differs from spirv-dis (%v):\n%s", err, mine)
		}
		wants := []string{"OpDecorate %A Binding 0", "OpDecorate %B Binding 2", "OpTypeArray %type_A_0 %uint_3",
			// The loop counter is uniform: a dynamic index without NonUniform.
			"= OpAccessChain %_ptr_StorageBuffer_type_A_0 %B %i"}
		if !o.NoNonUniformIndexing {
			wants = append(wants, "OpCapability ShaderNonUniform", "OpCapability StorageBufferArrayNonUniformIndexing",
				"OpExtension \"SPV_EXT_descriptor_indexing\"", " NonUniform\n", "= OpAccessChain %_ptr_StorageBuffer_type_A_0 %B %rem")
		} else {
			wants = append(wants, "OpCapability VariablePointersStorageBuffer")
		}
		for _, want := range wants {
			if !strings.Contains(dis, want) {
				t.Errorf("%+v: missing %q in\n%s", o, want, dis)
			}
		}
		if n := strings.Count(dis, "OpDecorate %B Binding"); n != 1 {
			t.Errorf("%+v: %d bindings of B, want one arrayed descriptor", o, n)
		}
	}
	data := u32s(3, 1, 4, 1, 5, 9, 2, 6)
	in := &interp.Input{Dispatch: [3]int{1, 1, 1}, Buffers: []interp.BufferInput{
		{Name: "A.0", Data: data}, {Name: "A.1", Data: u32s(0, 0, 0, 0, 0, 0, 0, 0)},
		{Name: "B.0", Data: u32s(0, 0, 0, 0, 0, 0, 0, 0)}, {Name: "B.1", Data: u32s(0, 0, 0, 0, 0, 0, 0, 0)},
		{Name: "B.2", Data: u32s(0, 0, 0, 0, 0, 0, 0, 0)}}}
	res, err := interp.Run(m, in, interp.Options{WaveSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	// The expected values, computed here: A.1[g] = A.0[g]*(g%3+1) + 100*(g%3).
	got := res.Buffer("A.1").Cells
	for g, d := range data {
		want := uint64(d.(uint32))*uint64(g%3+1) + uint64(100*(g%3))
		if got[g] != want {
			t.Fatalf("interpreter A.1[%d] = %d, want %d", g, got[g], want)
		}
	}
	diff, err := runBoth(t, gpuCase{name: "resource arrays", m: m, in: in, groups: [3]int{1, 1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if diff != "" {
		t.Error(diff)
	}
}

// TestSpecConstantsSPIRV: [[vk::constant_id(n)]] constants are
// OpSpecConstant(True/False) decorated SpecId n initializing the Private
// variable the code reads; spirv-val accepts it, the disassembly equals
// spirv-dis, and with the defaults lavapipe computes what the interpreter
// does.
func TestSpecConstantsSPIRV(t *testing.T) {
	m := lowerHLSL(t, `[[vk::constant_id(2)]] const uint N = 7;
[[vk::constant_id(5)]] const float F = 1.5;
[[vk::constant_id(6)]] const bool B = true;
RWStructuredBuffer<float> o : register(u0);
[numthreads(8,1,1)]
void main(uint i : SV_DispatchThreadID) { o[i] = (N + i) * F + (B ? 100 : 0); }
`)
	words, err := Assemble(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if msg := spirvVal(t, words, "vulkan1.1"); msg != "" {
		t.Fatalf("spirv-val: %s", msg)
	}
	dis := spirvDis(t, words)
	if mine, err := Disassemble(words); err != nil || mine != dis {
		t.Errorf("disassembly differs from spirv-dis (%v):\n%s", err, mine)
	}
	for _, want := range []string{"OpDecorate %N_default SpecId 2", "%N_default = OpSpecConstant %uint 7",
		"%F_default = OpSpecConstant %float 1.5", "%B_default = OpSpecConstantTrue %bool",
		"%N = OpVariable %_ptr_Private_uint Private %N_default"} {
		if !strings.Contains(dis, want) {
			t.Errorf("missing %q in\n%s", want, dis)
		}
	}
	needDevice(t)
	in := &interp.Input{Dispatch: [3]int{1, 1, 1}, Buffers: []interp.BufferInput{{Name: "o", Data: u32s(0, 0, 0, 0, 0, 0, 0, 0)}}}
	diff, err := runBoth(t, gpuCase{name: "spec constants", m: m, in: in, groups: [3]int{1, 1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if diff != "" {
		t.Error(diff)
	}
}

// TestVkLocationSPIRV: [[vk::location(n)]] fixes a stage input's
// Location; the others take the free ones in order.
func TestVkLocationSPIRV(t *testing.T) {
	opts := hlsl.Options{}
	src := "float4 main([[vk::location(3)]] float4 c : COLOR0, float4 d : COLOR1, float4 e : COLOR2, [[vk::location(0)]] float2 u : TEXCOORD0) : SV_Target { return c + d + e + u.xyxy; }\n"
	prog, diags := hlsl.Frontend("loc.hlsl", []byte(src), opts)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m, ld := lower.Lower(prog, opts)
	if ld.HasErrors() {
		t.Fatal(ld)
	}
	if err := runSpirvPipeline(m); err != nil {
		t.Fatal(err)
	}
	words, err := Assemble(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if msg := spirvVal(t, words, "vulkan1.1"); msg != "" {
		t.Fatalf("spirv-val: %s", msg)
	}
	dis := spirvDis(t, words)
	for _, want := range []string{"OpDecorate %c Location 3", "OpDecorate %d Location 1", "OpDecorate %e Location 2", "OpDecorate %u Location 0"} {
		if !strings.Contains(dis, want) {
			t.Errorf("missing %q in\n%s", want, dis)
		}
	}
}
