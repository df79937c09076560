package hlsl

// Rule cases of docs/hlsl-rules.md, "intr.atomic64" (issue 17: 64-bit
// atomics on byte address buffers) and "decl.raw-template" (Store's
// deduced T), appended to ruleCases (TestRules).
func init() {
	ruleCases = append(ruleCases, atomic64RuleCases...)
}

const rab = "RWByteAddressBuffer B : register(u1);\n"

var atomic64RuleCases = []ruleCase{
	{"intr.atomic64", rab + rcs("uint64_t o; int64_t s; B.InterlockedAdd64(0, 1); B.InterlockedAdd64(8, id.x, o); B.InterlockedMin64(16, (int64_t)-1, s); B.InterlockedMax64(24, o); "+
		"B.InterlockedAnd64(32, o); B.InterlockedOr64(40, o, o); B.InterlockedXor64(48, 3); B.InterlockedExchange64(56, o, o); B.InterlockedCompareStore64(64, o, 2); "+
		"B.InterlockedCompareExchange64(72, s, (int64_t)2, s); Out[0] = (float)(o + s);"), ""},
	{"intr.atomic64", rab + rcs("uint64_t o; @B.InterlockedExchange64(0, 1);"), "error: 'InterlockedExchange64' of 'RWByteAddressBuffer' expects 3 arguments, have 2"},
	{"intr.atomic64", rab + rcs("uint64_t o; @B.InterlockedCompareExchange64(0, 1, 2);"), "error: 'InterlockedCompareExchange64' of 'RWByteAddressBuffer' expects 4 arguments, have 3"},
	{"intr.atomic64", "ByteAddressBuffer R : register(t0);\n" + rcs("@R.InterlockedAdd64(0, 1);"), "error: no member function named 'InterlockedAdd64' in 'ByteAddressBuffer'"},
	{"intr.atomic64", "RWStructuredBuffer<uint64_t> S : register(u2);\n" + rcs("@S.InterlockedAdd64(0, 1);"), "error: no member function named 'InterlockedAdd64' in 'RWStructuredBuffer<uint64_t>'"},
	{"intr.atomic64", rab + rcs("uint64_t o; B.InterlockedAdd64(0, 1, @1);"), "error: "},
	// Store(offset, v) deduces Store<T> from v (rawbuffer.go).
	{"decl.raw-template", rab + rcs("B.Store(0, 11.5f); B.Store(8, (double)2); B.Store(16, uint2(1, 2)); B.Store(24, 3); B.Store(28, 2.5); B.Store(32, float2x2(1, 2, 3, 4)); Out[0] = 1;"), ""},
	{"decl.raw-template", rab + rcs("B.Store(0, @Out); Out[0] = 1;"), "error: cannot"},
	// A static resource without an initializer: declared, read for nothing,
	// or read in a branch never taken (static_resource.go).
	{"decl.static-resource", "static Texture2D<float4> tex;\nSamplerState sam;\n" + rcs("float4 unused = tex.SampleLevel(sam, float2(0, 0), 0); tex.SampleLevel(sam, float2(0, 0), 0); if (0) Out[1] = tex.Load(int3(0, 0, 0)); Out[0] = 1;"), ""},
	{"decl.static-resource", "static Texture2D<float4> tex;\nSamplerState sam;\n" + rcs("Out[0] = @tex.SampleLevel(sam, float2(0, 0), 0);"), "error: static resource 'tex' has no initializer and its value is used: it cannot be mapped to a global resource"},
	{"decl.static-resource", "static Texture2D<float4> tex;\nSamplerState sam;\n" + rcs("static Texture2D<float4> t2 = @tex; Out[0] = t2.Load(int3(0, 0, 0));"), "error: static resource 'tex' has no initializer"},
	// Derivatives in compute need numthreads that define quads.
	{"intr.quad", "RWStructuredBuffer<float> O;\n[numthreads(4, 2, 1)]\nvoid main(uint3 t : SV_GroupThreadID) { O[0] = ddx(t.x) + ddy_fine((float)t.y); }\n", ""},
	{"intr.quad", "RWStructuredBuffer<float> O;\n[numthreads(8, 1, 1)]\nvoid main(uint3 t : SV_GroupThreadID) { O[0] = fwidth((float)t.x); }\n", ""},
	{"intr.quad", "RWStructuredBuffer<float> O;\n[numthreads(6, 1, 1)]\nvoid main(uint3 t : SV_GroupThreadID) { O[0] = @ddx((float)t.x); }\n", "error: 'ddx' in a compute shader needs quads: numthreads(6, 1, 1) must have X a multiple of 4 with Y and Z 1, or X and Y multiples of 2"},
	{"intr.quad", "RWStructuredBuffer<float> O;\n[numthreads(4, 3, 1)]\nvoid main(uint3 t : SV_GroupThreadID) { O[0] = @ddy((float)t.y); }\n", "error: 'ddy' in a compute shader needs quads"},
	{"decl.static-resource", "static Texture2D<float4> tex;\nSamplerState sam;\nfloat4 f() { return @tex.Load(int3(0, 0, 0)); }\n" + rcs("if (id.x > 0) Out[0] = f();"), "error: static resource 'tex' has no initializer"},
}
