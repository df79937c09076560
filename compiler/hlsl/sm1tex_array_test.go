package hlsl

import "testing"

// TestSM1SamplerArrays: with Options.SM1Textures, tex2D & co. read an
// element of a global sampler array at a constant index (FXC; vkd3d's
// combined-samplers.shader_test :119, :166 and sampler.shader_test
// :211), each element with its own dimension (combined-samplers :166:
// tex2D(sam[0]) and tex1D(sam[1])); a run-time or out-of-range index is a
// located error. FXC's texture1D/2D/3D/CUBE read as the SM4 textures
// (combined-samplers :187), and stay unsupported types without SM1
// textures.
func TestSM1SamplerArrays(t *testing.T) {
	const decls = "sampler sam[2]; sampler3D v[3]; Texture2D tex; int i;\n"
	sm3 := Options{Library: true, SM1Textures: true}
	sm6 := Options{Library: true}
	for _, c := range []struct {
		body string
		opts Options
		want string
	}{
		{"float4 r = tex2D(sam[1], float2(0, 0)) + 10 * tex.Sample(sam[0], float2(0, 0));", sm3, ""},
		{"float4 r = tex2D(sam[0], float2(0, 0)) + tex1D(sam[1], 0) + tex3D(v[2], float3(0, 0, 0));", sm3, ""},
		{"float4 r = tex2D(sam[0], float2(0, 0)) + tex3D(sam[0], float3(0, 0, 0));", sm3, "error: sampler 'sam' is read as a 3D texture here and as a 2D texture elsewhere"},
		{"float4 r = tex2D(sam[i], float2(0, 0));", sm3, "error: the index of a sampler array read by 'tex2D' is not an integer constant expression"},
		{"float4 r = tex2D(sam[2], float2(0, 0));", sm3, "error: array index 2 is out of bounds (the array has 2 elements)"},
		{"float4 r = tex2D(v[0], float2(0, 0));", sm3, "error: 'tex2D' reads a 2D texture through sampler 'v', which is declared 'sampler3D'"},
	} {
		expectDiag(t, decls+"void f() { "+c.body+" }", c.opts, c.want)
	}
	expectDiag(t, "texture2D t2; sampler s; float4 f() { return t2.Sample(s, float2(0, 0)); }", sm3, "")
	expectDiag(t, "textureCUBE tc; sampler s; float4 f() { return tc.Sample(s, float3(0, 0, 1)); }", sm3, "")
	expectDiag(t, "texture2D t2;", sm6, "error: unsupported type 'texture2D'")
}
