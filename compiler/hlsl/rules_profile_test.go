package hlsl

import (
	"strings"
	"testing"
)

// Rule cases of docs/hlsl-rules.md, "Shader models" (issue 17 item 3),
// appended to ruleCases (TestRules). A case's source may start with a
// "//! " line of dxc options (-T PROFILE, -enable-16bit-types) that
// ruleOptions applies; it is a comment, so line numbers stay as written.
func init() {
	ruleCases = append(ruleCases, profileRuleCases...)
}

// ruleOptions reads a case's "//! -T cs_6_0 -enable-16bit-types" line.
func ruleOptions(t *testing.T, src string) Options {
	var o Options
	first, _, _ := strings.Cut(src, "\n")
	rest, ok := strings.CutPrefix(first, "//! ")
	if !ok {
		return o
	}
	f := strings.Fields(rest)
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case "-T":
			i++
			p, err := ParseProfile(f[i])
			if err != nil {
				t.Fatal(err)
			}
			o.Profile = p
		case "-enable-16bit-types":
			o.Enable16BitTypes = true
		default:
			t.Fatalf("unknown option %q in a rule case", f[i])
		}
	}
	return o
}

// pcs is a compute shader under profile p.
func pcs(p, body string) string { return "//! -T " + p + "\n" + rcs(body) }

const sampleDecls = "Texture2D<float4> Tex;\nSamplerState Smp;\n"

var profileRuleCases = []ruleCase{
	// The profile's stage is the entry point's.
	{"sm.profile", pcs("cs_6_0", "Out[0] = 1;"), ""},
	{"sm.profile", "//! -T ps_6_0\nRWStructuredBuffer<float4> Out;\n@[numthreads(1, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) {\nOut[0] = 1;\n}\n", "error: attribute 'numthreads' is only valid for compute shaders"},
	{"sm.profile", "//! -T cs_6_0\nfloat4 @main() : SV_Target { return 1; }\n", "error: compute entry point 'main' requires a [numthreads(x, y, z)] attribute"},
	{"sm.profile", "//! -T ps_6_0\nfloat4 main(float4 p : SV_Position) : SV_Target { return p; }\n", ""},
	// Without a profile nothing is gated (the newest model, 6.8).
	{"sm.profile", "Texture2D<float4> Tex;\nSamplerState Smp;\nRWStructuredBuffer<float4> Out;\n[WaveSize(32)]\n[numthreads(32, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) {\nOut[0] = Tex.Sample(Smp, id.xy / 8.0) + ddx(id.x) + dot4add_u8packed(id.x, 2u, 3u);\n}\n", ""},
	// The target macros follow the profile.
	{"sm.profile", "//! -T cs_6_6\n#if __SHADER_TARGET_MAJOR == 6 && __SHADER_TARGET_MINOR == 6 && __SHADER_TARGET_STAGE == __SHADER_STAGE_COMPUTE\n" + rcs("Out[0] = 1;") + "#endif\n", ""},
	{"sm.profile", "//! -T vs_6_2\n#if __SHADER_TARGET_MINOR == 2 && __SHADER_TARGET_STAGE == __SHADER_STAGE_VERTEX\nfloat4 main(float4 p : P) : SV_Position { return p; }\n#endif\n", ""},
	// -enable-16bit-types needs 6.2.
	{"sm.16bit", "//! -T cs_6_2 -enable-16bit-types\n" + rcs("float16_t h = 1.5; Out[0] = h;"), ""},
	{"sm.16bit", "//! -T cs_6_1 -enable-16bit-types\n" + rcs("Out[0] = 1;"), "error: -enable-16bit-types requires shader model 6.2 or greater (profile cs_6_1 is shader model 6.1)"},
	// Without -enable-16bit-types, half and min-precision types are fine at 6.0.
	{"sm.16bit", pcs("cs_6_0", "half h = 1.5; min16float m = h; Out[0] = m;"), ""},
	// dot4add_*/dot2add need 6.4.
	{"sm.dot4add", pcs("cs_6_4", "Out[0] = dot4add_u8packed(id.x, 2u, 3u) + dot4add_i8packed(id.x, 2u, 3) + dot2add(half2(1, 2), half2(3, 4), 1.0f);"), ""},
	{"sm.dot4add", pcs("cs_6_3", "Out[0] = @dot4add_u8packed(id.x, 2u, 3u);"), "error: 'dot4add_u8packed' requires shader model 6.4 or greater (profile cs_6_3 is shader model 6.3)"},
	{"sm.dot4add", pcs("cs_6_0", "Out[0] = @dot2add(half2(1, 2), half2(3, 4), 1.0f);"), "error: 'dot2add' requires shader model 6.4 or greater"},
	// Only what the entry point reaches is checked.
	{"sm.dot4add", "//! -T cs_6_0\nuint unused(uint x) { return dot4add_u8packed(x, 2u, 3u); }\n" + rcs("Out[0] = 1;"), ""},
	{"sm.dot4add", "//! -T cs_6_0\nuint used(uint x) { return @dot4add_u8packed(x, 2u, 3u); }\n" + rcs("Out[0] = used(id.x);"), "error: 'dot4add_u8packed' requires shader model 6.4 or greater"},
	// [WaveSize(n)] needs 6.6.
	{"sm.wavesize", "//! -T cs_6_6\nRWStructuredBuffer<float4> Out;\n[WaveSize(32)]\n[numthreads(32, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) {\nOut[0] = WaveGetLaneCount();\n}\n", ""},
	{"sm.wavesize", "//! -T cs_6_5\nRWStructuredBuffer<float4> Out;\n@[WaveSize(32)]\n[numthreads(32, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) {\nOut[0] = WaveGetLaneCount();\n}\n", "error: attribute 'WaveSize' requires shader model 6.6 or greater (profile cs_6_5 is shader model 6.5)"},
	// 64-bit atomics need 6.6; 32-bit ones do not.
	{"sm.atomic64", "//! -T cs_6_6\nRWStructuredBuffer<int64_t> B;\n" + rcs("InterlockedAdd(B[0], 1); InterlockedMax(B[1], (int64_t)id.x); Out[0] = 1;"), ""},
	{"sm.atomic64", "//! -T cs_6_5\nRWStructuredBuffer<int64_t> B;\n" + rcs("@InterlockedAdd(B[0], 1); Out[0] = 1;"), "error: 64-bit atomic 'InterlockedAdd' requires shader model 6.6 or greater"},
	{"sm.atomic64", "//! -T cs_6_0\nRWStructuredBuffer<int> B;\ngroupshared uint G;\n" + rcs("InterlockedAdd(B[0], 1); InterlockedOr(G, id.x); Out[0] = 1;"), ""},
	// Derivatives and implicit-LOD sampling in compute shaders need 6.6;
	// in pixel shaders, and quad reads anywhere they exist, 6.0.
	{"sm.derivatives", "//! -T cs_6_6\nRWStructuredBuffer<float4> Out;\n[numthreads(4, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) {\nfloat v = id.x; Out[0] = ddx(v) + fwidth(v);\n}\n", ""},
	{"sm.derivatives", pcs("cs_6_5", "float v = id.x; Out[0] = @ddx_fine(v);"), "error: derivative 'ddx_fine' in a compute shader requires shader model 6.6 or greater"},
	{"sm.derivatives", "//! -T cs_6_0\n" + sampleDecls + rcs("Out[0] = @Tex.Sample(Smp, id.xy / 8.0);"), "error: 'Sample' (implicit level of detail) in a compute shader requires shader model 6.6 or greater"},
	{"sm.derivatives", "//! -T cs_6_0\n" + sampleDecls + rcs("Out[0] = Tex.SampleLevel(Smp, id.xy / 8.0, 0) + QuadReadAcrossX(id.x) + QuadAny(id.x > 2);"), ""},
	{"sm.derivatives", "//! -T ps_6_0\n" + sampleDecls + "float4 main(float2 uv : UV) : SV_Target { return Tex.Sample(Smp, uv) + ddx(uv.x) + QuadReadAcrossY(uv.y); }\n", ""},
	// Wave operations and quad reads need 6.0: not in ps_3_0.
	{"sm.wave", "//! -T ps_3_0\nfloat4 main(float4 c : COLOR0) : COLOR0 { return c * 2; }\n", ""},
	{"sm.wave", "//! -T ps_3_0\nfloat4 main(float4 c : COLOR0) : COLOR0 { return @WaveActiveSum(c.x); }\n", "error: wave operation 'WaveActiveSum' requires shader model 6.0 or greater (profile ps_3_0 is shader model 3.0)"},
	{"sm.wave", "//! -T ps_3_0\nfloat4 main(float4 c : COLOR0) : COLOR0 { return @QuadReadAcrossX(c); }\n", "error: 'QuadReadAcrossX' requires shader model 6.0 or greater"},
}
