package hlsl

import (
	"strings"
	"testing"
)

// TestSM1Samplers checks FXC's shader model 1-3 sampler syntax: the sampler
// type spellings are sampler states at shader model 6 too (as DXC, vkd3d's
// sampler.shader_test :11), sampler_state blocks are skipped (vkd3d's
// state-block-syntax.shader_test :13), and tex1D ... texCUBEproj are errors
// unless Options.SM1Textures is set, where each is checked against the
// sampler's declared dimension and its own signature.
func TestSM1Samplers(t *testing.T) {
	const decls = `Texture2D t; sampler s : register(s1); sampler2D s2; sampler3D s3; samplerCUBE sc; sampler1D s1;
SamplerComparisonState cmp;
`
	sm6 := Options{Library: true}
	sm3 := Options{Library: true, SM1Textures: true}
	for _, c := range []struct {
		body string
		opts Options
		want string
	}{
		{"float4 r = t.Sample(s, float2(0, 0)) + t.Sample(s2, float2(0, 0));", sm6, ""},
		{"float4 r = tex2D(s2, float2(0, 0));", sm6, "error: 'tex2D' is a shader model 1-3 texture intrinsic, which DXC does not compile: use Texture2D.Sample with a SamplerState"},
		{"float4 r = texCUBElod(sc, float4(1, 0, 0, 2));", sm6, "error: 'texCUBElod' is a shader model 1-3 texture intrinsic, which DXC does not compile: use TextureCube.Sample"},
		// With SM1 textures.
		{"float4 r = tex2D(s2, float2(0, 0)) + tex2Dlod(s2, float4(0, 0, 0, 1)) + tex2Dbias(s2, float4(0.5, 0.5, 0, 0)) + tex2Dproj(s2, float4(1, 1, 1, 2)) + tex2Dgrad(s2, float2(0.5, 0.5), float2(0.1, 0.1), float2(0.1, 0.1)) + tex2D(s2, float2(0.5, 0.5), float2(0.1, 0.1), float2(0.2, 0.2));", sm3, ""},
		{"float4 r = tex1D(s1, 0.5) + tex3D(s3, float3(0.5, 0.5, 0.5)) + texCUBE(sc, float3(1, 0, 0)) + tex2D(s, float2(0.5, 0.5));", sm3, ""},
		{"float4 r = tex3D(s2, float3(0.5, 0.5, 0.5));", sm3, "error: 'tex3D' reads a 3D texture through sampler 's2', which is declared 'sampler2D'"},
		{"float4 r = tex2D(s, float2(0.5, 0.5)) + tex3D(s, float3(0.5, 0.5, 0.5));", sm3, "error: sampler 's' is read as a 3D texture here and as a 2D texture elsewhere"},
		{"float4 r = tex2D(t, float2(0.5, 0.5));", sm3, "error: the first argument of 'tex2D' must be a sampler variable (sampler, sampler2D), not 'Texture2D<float4>'"},
		{"float4 r = tex2D(cmp, float2(0.5, 0.5));", sm3, "error: the first argument of 'tex2D' must be a sampler variable"},
		{"float4 r = tex2Dlod(s2, float2(0.5, 0.5));", sm3, "error: cannot implicitly convert"},
		{"float4 r = tex2D(s2);", sm3, "error: 'tex2D' expects 2 arguments, have 1"},
		{"float4 r = tex2Dgrad(s2, float2(0.5, 0.5), float2(0.5, 0.5));", sm3, "error: 'tex2Dgrad' expects 4 arguments, have 3"},
	} {
		expectDiag(t, decls+"void f() { "+c.body+" }", c.opts, c.want)
	}
	// The error is at the intrinsic's name.
	_, diags := compile(t, decls+"void f() { float4 r = tex2D(s2, float2(0, 0)); }", sm6)
	if len(diags) != 1 || !strings.HasSuffix(diags[0].Pos.String(), ":3:23") {
		t.Errorf("want one error at 3:23, got %v", diags)
	}
	// A static sampler is not a sampler register (vkd3d's
	// static-initializer.shader_test :132).
	expectDiag(t, "static sampler ss; float4 f() { return tex2D(ss, float2(0.5, 0.5)); }", Options{Library: true, SM1Textures: true}, "error: 'tex2D' reads sampler 'ss', which is not a global sampler variable")
	// sampler_state blocks are parsed and ignored; the bare keyword is not
	// an initializer.
	expectDiag(t, "sampler s = sampler_state { Texture = <t>; MinFilter = LINEAR; };", Options{Library: true}, "")
	expectDiag(t, "sampler s = sampler_state;", Options{Library: true}, "error: use of undeclared identifier 'sampler_state'")
}

// TestTextureSubscriptLocation: a texture's subscript takes exactly its
// coordinates, as DXC (tools/clang/test/HLSL/indexing-operator.hlsl:
// g_t2d[0] has no viable operator[]) and vkd3d's load-level.shader_test
// :32 (t[uint3(...)] on a Texture2D fails) say; a Texture1D takes a scalar.
func TestTextureSubscriptLocation(t *testing.T) {
	const decls = "Texture2D t; Texture1D t1; Texture3D t3;\n"
	for _, c := range []struct{ body, want string }{
		{"float4 r = t[uint2(0, 1)] + t1[2] + t3[uint3(1, 2, 3)];", ""},
		{"float4 r = t[uint3(0, 0, 0)];", "error: no viable operator[] for 'Texture2D<float4>': the location must be uint2, not 'uint3'"},
		{"float4 r = t[0];", "error: no viable operator[] for 'Texture2D<float4>': the location must be uint2, not 'int'"},
		{"float4 r = t3[uint2(0, 0)];", "error: no viable operator[] for 'Texture3D<float4>': the location must be uint3, not 'uint2'"},
	} {
		expectDiag(t, decls+"void f() { "+c.body+" }", Options{Library: true}, c.want)
	}
}
