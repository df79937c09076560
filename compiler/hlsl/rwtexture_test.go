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

// TestMSTextureMethods checks Texture2DMS and Texture2DMSArray: Load with
// a sample index (and offset), operator[], GetDimensions with the sample
// count, the sample count as a constant that makes distinct types, and
// misuse.
func TestMSTextureMethods(t *testing.T) {
	const decls = `Texture2DMS<float4, 4> t : register(t0);
Texture2DMSArray<uint2> ta : register(t1);
static const int n = 3;
Texture2DMS<float, n - 1> t2;
SamplerState s;
`
	for _, c := range []struct{ body, want string }{
		{"float4 r = t.Load(int2(1, 2), 3);", ""},
		{"float4 r = t.Load(int2(1, 2), 3, int2(1, -1));", ""},
		{"float4 r = t[uint2(1, 2)];", ""},
		{"uint2 r = ta.Load(int3(1, 2, 1), 0);", ""},
		{"uint w, h, c; t.GetDimensions(w, h, c);", ""},
		{"float w, h, e, c; ta.GetDimensions(w, h, e, c);", ""},
		{"float r = t2.Load(int2(0, 0), 1);", ""},
		// Misuse.
		{"float4 r = t.Load(int2(1, 2));", "error: 'Load' of 'Texture2DMS<float4, 4>' expects 2 arguments, have 1"},
		{"float4 r = t.Sample(s, float2(0, 0));", "error: no member function named 'Sample' in 'Texture2DMS<float4, 4>'"},
		{"uint w, h, l; t.GetDimensions(0, w, h, l);", "error: 'GetDimensions' of 'Texture2DMS<float4, 4>' expects 3 arguments, have 4"},
		{"t[uint2(0, 0)] = 1;", "error: expression is not assignable"},
	} {
		expectDiag(t, decls+"void f() { "+c.body+" }", Options{Library: true}, c.want)
	}
	expectDiag(t, "Texture2DMS<float4, 0> t;", Options{Library: true}, "error: the sample count of 'Texture2DMS' must be between 1 and 128 (is 0)")
	expectDiag(t, "uniform int k; Texture2DMS<float4, k> t;", Options{Library: true}, "error")
	expectDiag(t, "Texture2DMS<float4, 2> t : register(u0);", Options{Library: true}, "error: invalid register class 'u' for 'Texture2DMS<float4, 2>': expected 't'")
	if !Identical(&Type{Kind: KindResource, Resource: ResTexture2DMS, Elem: VectorOf(TypeFloat, 4), Len: 2},
		&Type{Kind: KindResource, Resource: ResTexture2DMS, Elem: VectorOf(TypeFloat, 4), Len: 2}) ||
		Identical(&Type{Kind: KindResource, Resource: ResTexture2DMS, Elem: VectorOf(TypeFloat, 4), Len: 2},
			&Type{Kind: KindResource, Resource: ResTexture2DMS, Elem: VectorOf(TypeFloat, 4)}) {
		t.Error("Texture2DMS types with different sample counts must differ, with the same count be identical")
	}
}
