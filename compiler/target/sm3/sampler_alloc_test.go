package sm3

import (
	"strings"
	"testing"
)

// TestSamplerArrayAllocation: FXC's sampler register allocation with SM1
// sampler arrays and texture2D, as vkd3d's probes measure it (each
// register's texture has a distinct value there, so the expected colour
// names the register of every read): combined-samplers.shader_test :119
// (21 = 10·s2 + s1), :166 (s0, s1), :187 (453021: samB s4, samC s5,
// samA s3, tex+samA s0, tex+samC s2, tex+samB s1), :208 (4351: texA+samA
// s4, samA[1] s3, samB s5, texB[1]+samB s1), sampler.shader_test :211
// (243: samC[2] s2, samB[0] s4, samA s3). The register table must list
// exactly these.
func TestSamplerArrayAllocation(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src string
		want      []string // "name reg" rows
	}{
		{"array-and-pair", `Texture2D tex; sampler sam[2];
float4 main() : sv_target { return 10 * tex.Sample(sam[0], float2(0, 0)) + tex2D(sam[1], float2(0, 0)); }`,
			[]string{"tex+sam.0 s2", "sam.1 s1"}},
		{"array-dims", `sampler sam[2];
float4 main() : sv_target { return 10 * tex2D(sam[0], float2(0, 0)) + tex1D(sam[1], 0); }`,
			[]string{"sam.0 s0", "sam.1 s1"}},
		{"texture2D", `sampler samA; sampler samB; sampler samC; texture2D tex;
float4 main() : sv_target {
    return 100000 * tex2D(samB, float2(0, 0)) + 10000 * tex2D(samC, float2(0, 0)) + 1000 * tex2D(samA, float2(0, 0))
        + 100 * tex.Sample(samA, float2(0, 0)) + 10 * tex.Sample(samC, float2(0, 0)) + tex.Sample(samB, float2(0, 0));
}`,
			[]string{"samB s4", "samC s5", "samA s3", "tex+samA s0", "tex+samC s2", "tex+samB s1"}},
		{"texture-array", `Texture2D texA; sampler samA[2]; Texture2D texB[2]; sampler samB;
float4 main() : sv_target {
    return 1000 * texA.Sample(samA[0], float2(0, 0)) + 100 * tex2D(samA[1], float2(0, 0))
        + 10 * tex2D(samB, float2(0, 0)) + texB[1].Sample(samB, float2(0, 0));
}`,
			[]string{"texA+samA.0 s4", "samA.1 s3", "samB s5", "texB.1+samB s1"}},
		{"used-size", `sampler samA; sampler samB[2]; sampler samC[3];
float4 main() : sv_target { return 100 * tex2D(samC[2], float2(0, 0)) + 10 * tex2D(samB[0], float2(0, 0)) + tex2D(samA, float2(0, 0)); }`,
			[]string{"samC.2 s2", "samB.0 s4", "samA s3"}},
	} {
		m, err := loadSource(tc.name+".hlsl", "hlsl", []byte(tc.src))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		asm, err := compileSM3(m)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		var got []string
		for _, r := range tableRows(asm) {
			if r.reg[0] == 's' {
				got = append(got, r.name+" "+r.reg)
			}
		}
		if strings.Join(got, ", ") != strings.Join(tc.want, ", ") {
			t.Errorf("%s: sampler registers %v, want %v\n%s", tc.name, got, tc.want, asm)
		}
	}
}
