package hlsl

import "testing"

// TestTextureMethods checks the texture and sampler types and the
// signatures of their methods: what DXC accepts compiles, and misuse gets
// the error DXC's overload resolution would give in spirit.
func TestTextureMethods(t *testing.T) {
	const decls = `Texture2D<float4> t : register(t0);
Texture2DArray ta : register(t1);
Texture1D<float> t1 : register(t2);
TextureCube<float4> tc : register(t3);
Texture3D<uint2> t3 : register(t4);
SamplerState s : register(s0);
SamplerComparisonState sc : register(s1);
`
	for _, c := range []struct{ body, want string }{
		{"float4 r = t.Sample(s, float2(0, 0));", ""},
		{"float4 r = t.Sample(s, float2(0, 0), int2(1, -1));", ""},
		{"float4 r = t.SampleLevel(s, float2(0, 0), 2);", ""},
		{"float4 r = t.SampleBias(s, float2(0, 0), 0.5, int2(0, 1));", ""},
		{"float4 r = t.SampleGrad(s, float2(0, 0), float2(1, 0), float2(0, 1));", ""},
		{"float r = t.SampleCmp(sc, float2(0, 0), 0.5);", ""},
		{"float r = t.SampleCmpLevelZero(sc, float2(0, 0), 0.5, int2(1, 1));", ""},
		{"float4 r = t.Load(int3(1, 2, 0));", ""},
		{"float4 r = t.Load(int3(1, 2, 0), int2(1, 1));", ""},
		{"float4 r = t[uint2(1, 2)];", ""},
		{"float4 r = t.Gather(s, float2(0, 0));", ""},
		{"float4 r = t.GatherAlpha(s, float2(0, 0), int2(1, 0));", ""},
		{"float4 r = t.GatherRed(s, float2(0, 0), int2(0, 0), int2(1, 0), int2(0, 1), int2(1, 1));", ""},
		{"float4 r = t.GatherCmpGreen(sc, float2(0, 0), 0.5);", ""},
		{"uint w, h, l; t.GetDimensions(0, w, h, l);", ""},
		{"float w, h; t.GetDimensions(w, h);", ""},
		{"uint w, h, e; ta.GetDimensions(w, h, e);", ""},
		{"float4 r = ta.SampleLevel(s, float3(0, 0, 1), 0, int2(1, 1));", ""},
		{"float r = t1.Load(int2(3, 0)) + t1.SampleLevel(s, 0.5, 0);", ""},
		{"float4 r = tc.Sample(s, float3(1, 0, 0));", ""},
		{"uint2 r = t3.Load(int4(1, 2, 3, 0));", ""},
		// Misuse.
		{"float4 r = t.Sample(s);", "error: 'Sample' of 'Texture2D<float4>' expects 2 arguments, have 1"},
		{"float4 r = t.Sample(sc, float2(0, 0));", "error: cannot implicitly convert from"},
		{"float r = t.SampleCmp(s, float2(0, 0), 0.5);", "error: cannot implicitly convert from"},
		{"float4 r = t.Load(int2(1, 2));", "error"},
		{"float4 r = tc.Load(int4(0, 0, 0, 0));", "error: no member function named 'Load' in 'TextureCube<float4>'"},
		{"float4 r = tc.Sample(s, float3(1, 0, 0), int3(1, 0, 0));", "error: 'Sample' of 'TextureCube<float4>' expects 2 arguments, have 3"},
		{"float r = t1.Gather(s, 0.5);", "error: no member function named 'Gather' in 'Texture1D<float>'"},
		{"float4 r = s.Sample(t, float2(0, 0));", "error: no member function named 'Sample' in 'SamplerState'"},
		{"t[uint2(0, 0)] = 1;", "error"},
	} {
		expectDiag(t, decls+"void f() { "+c.body+" }", Options{Library: true}, c.want)
	}
	// Register classes: textures t, samplers s.
	expectDiag(t, "SamplerState s : register(t0);", Options{Library: true}, "error: invalid register class 't' for 'SamplerState': expected 's'")
	expectDiag(t, "Texture2D t : register(s0);", Options{Library: true}, "error: invalid register class 's' for 'Texture2D<float4>': expected 't'")
	expectDiag(t, "Texture2D<float2x2> t;", Options{Library: true}, "error: elements of typed buffer 'Texture2D' must be scalars or vectors")
	expectDiag(t, "SamplerState<float> s;", Options{Library: true}, "error: 'SamplerState' is not a template")
}

// TestRegisterProfiles checks DXC's SM6 rules for register(profile, ...)
// and register spaces, which textures reach (vkd3d's
// register-reservations tests).
func TestRegisterProfiles(t *testing.T) {
	for _, c := range []struct{ decl, want string }{
		{"Texture2D t : register(ps, t1);", ""},
		{"Texture2D t : register(ps_5_0, t1) : register(vs, t2);", ""},
		{"Texture2D t : register(ps, t1) : register(ps, t1);", ""},
		{"Texture2D t : register(t1, space0);", ""},
		{"Texture2D t : register(space0);", ""},
		{"Texture2D t : register(ps, space0);", ""},
		{"Texture2D t : register(PS, t1);", "error: invalid shader profile 'PS' in register()"},
		{"Texture2D t : register(qs, t1);", "error: invalid shader profile 'qs' in register()"},
		{"Texture2D t : register(space0, t1);", "error: the register space must follow the register in register()"},
		{"Texture2D t : register(vs, t1) : register(vs, t2);", "error: conflicting register reservations for profile 'vs'"},
		{"Texture2D t : register(ps_4_0, t1) : register(t2);", "error: register() without a shader profile cannot be combined"},
	} {
		expectDiag(t, c.decl, Options{Library: true}, c.want)
	}
}
