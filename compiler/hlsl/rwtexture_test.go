package hlsl

import "testing"

// TestRWTextureMethods checks the read-write texture types: element
// reads, writes, component writes and atomics, Load and GetDimensions
// with DXC's signatures, u registers, and misuse.
func TestRWTextureMethods(t *testing.T) {
	const decls = `RWTexture2D<float4> t : register(u0);
RWTexture1D<float> t1 : register(u1);
RWTexture1DArray<uint2> t1a : register(u2);
RWTexture2DArray<int> t2a : register(u3);
globallycoherent RWTexture3D<uint> t3 : register(u4);
RWTexture2D<float4> plain;
`
	for _, c := range []struct{ body, want string }{
		{"float4 r = t[uint2(1, 2)];", ""},
		{"t[uint2(1, 2)] = float4(1, 2, 3, 4);", ""},
		{"t[uint2(1, 2)].yz = float2(1, 2);", ""},
		{"t[uint2(1, 2)].x += 3;", ""},
		{"float4 r = t.Load(int2(1, 2));", ""},
		{"uint w, h; t.GetDimensions(w, h);", ""},
		{"float w, h; t.GetDimensions(w, h);", ""},
		{"uint w, e; t1a.GetDimensions(w, e);", ""},
		{"uint w, h, d; t3.GetDimensions(w, h, d);", ""},
		{"float r = t1[3] + t1.Load(2);", ""},
		{"t1a[uint2(0, 1)] = uint2(4, 5);", ""},
		{"InterlockedAdd(t3[uint3(0, 1, 2)], 1);", ""},
		{"int o; InterlockedMax(t2a[uint3(0, 1, 2)], 5, o);", ""},
		{"uint o; InterlockedCompareExchange(t3[uint3(0, 0, 0)], 1, 2, o);", ""},
		// Misuse.
		{"float4 r = t.Sample(s, float2(0, 0));", "error"},
		{"float4 r = t.Load(int3(1, 2, 0));", "warning: implicit truncation of vector type"},
		{"uint w, h, l; t.GetDimensions(0, w, h, l);", "error: 'GetDimensions' of 'RWTexture2D<float4>' expects 2 arguments, have 4"},
		{"float4 r = t.Gather(s, float2(0, 0));", "error"},
		{"float4 r = t[uint3(1, 2, 3)];", "warning: implicit truncation of vector type"},
		{"t[uint2(0, 0)] = t;", "error"},
	} {
		expectDiag(t, "SamplerState s;\n"+decls+"void f() { "+c.body+" }", Options{Library: true}, c.want)
	}
	expectDiag(t, "RWTexture2D<float> t : register(t0);", Options{Library: true}, "error: invalid register class 't' for 'RWTexture2D<float>': expected 'u'")
	expectDiag(t, "RWTexture2D<float2x2> t;", Options{Library: true}, "error: elements of typed buffer 'RWTexture2D' must be scalars or vectors")
	expectDiag(t, "Texture2D<float> t; void f() { InterlockedAdd(t[uint2(0, 0)], 1); }", Options{Library: true}, "error")
}
