package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// -T/--profile (docs/cli.md, "Profiles"): a bad profile, a conflict with
// --target or -enable-16bit-types is one usage line (exit 2); a feature
// newer than the profile's shader model is a located compile error
// (exit 1); ps_3_0 selects the sm3 target.
func TestProfileFlag(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cs := write("dot.hlsl", "RWStructuredBuffer<uint> Out;\n[numthreads(4, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) {\n    Out[id.x] = dot4add_u8packed(id.x, 0x01010101u, 0u);\n}\n")
	ps3 := write("ps3.hlsl", "float4 main(float4 c : COLOR0) : COLOR0 { return c * 2; }\n")
	usage := func(cmd, msg string) string {
		return `^passlens ` + cmd + `: ` + regexp.QuoteMeta(msg) + `\nRun 'passlens ` + cmd + ` --help' for usage\.\n$`
	}
	cases := []struct {
		args     []string
		code     int
		stderrRE string
	}{
		{[]string{"compile", cs, "-T", "cs_7_0"}, 2, usage("compile", `-T: unknown profile "cs_7_0" (want cs_6_0…cs_6_8, ps_6_0…ps_6_8, vs_6_0…vs_6_8, lib_6_3…lib_6_8, ps_3_0, vs_3_0)`)},
		{[]string{"analyze", cs, "--profile", "gs_6_0"}, 2, usage("analyze", `-T: unknown profile "gs_6_0" (want cs_6_0…cs_6_8, ps_6_0…ps_6_8, vs_6_0…vs_6_8, lib_6_3…lib_6_8, ps_3_0, vs_3_0)`)},
		{[]string{"run", cs, "-T", "cs_6"}, 2, usage("run", `-T: unknown profile "cs_6" (want cs_6_0…cs_6_8, ps_6_0…ps_6_8, vs_6_0…vs_6_8, lib_6_3…lib_6_8, ps_3_0, vs_3_0)`)},
		{[]string{"compile", ps3, "-T", "ps_3_0", "--target", "spirv"}, 2, usage("compile", "-T ps_3_0 is a shader model 3 profile: it needs --target sm3 (or pir, or no --target), not spirv")},
		{[]string{"compile", cs, "-T", "cs_6_6", "--target", "sm3"}, 2, usage("compile", "--target sm3 needs a shader model 3 profile (-T ps_3_0 or vs_3_0), not cs_6_6")},
		{[]string{"run", cs, "-T", "cs_6_1", "-enable-16bit-types"}, 2, usage("run", "-enable-16bit-types requires shader model 6.2 or greater (profile cs_6_1 is shader model 6.1)")},
		// The feature's use is located, as DXC's validator locates it.
		{[]string{"compile", cs, "-T", "cs_6_3"}, 1, `^` + regexp.QuoteMeta(cs) + `:4:17: error: 'dot4add_u8packed' requires shader model 6\.4 or greater \(profile cs_6_3 is shader model 6\.3\)\n`},
		{[]string{"analyze", cs, "-T", "cs_6_0"}, 1, `^` + regexp.QuoteMeta(cs) + `:4:17: error: 'dot4add_u8packed' requires shader model 6\.4`},
		{[]string{"compile", cs, "-T", "ps_6_4"}, 1, `^` + regexp.QuoteMeta(cs) + `:2:1: error: attribute 'numthreads' is only valid for compute shaders, not with the pixel profile ps_6_4\n`},
		{[]string{"compile", cs, "-T", "cs_6_4"}, 0, ""},
		{[]string{"compile", cs, "--profile=cs_6_8", "--target", "spirv"}, 0, ""},
		{[]string{"run", cs, "-T", "cs_6_4"}, 0, ""},
		{[]string{"compile", ps3, "-T", "ps_3_0", "--target", "sm3"}, 0, ""},
	}
	for _, c := range cases {
		code, _, stderr := run(c.args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d\n%s", c.args, code, c.code, stderr)
			continue
		}
		if c.stderrRE == "" && stderr != "" || c.stderrRE != "" && !regexp.MustCompile(c.stderrRE).MatchString(stderr) {
			t.Errorf("%v: stderr\n%s\nwant match of %s", c.args, stderr, c.stderrRE)
		}
	}
	// ps_3_0 without --target compiles for sm3, exactly as --target sm3.
	_, viaProfile, _ := run("compile", ps3, "-T", "ps_3_0")
	_, viaTarget, _ := run("compile", ps3, "--target", "sm3")
	if viaProfile == "" || viaProfile != viaTarget || !strings.Contains(viaProfile, "ps_3_0") {
		t.Errorf("-T ps_3_0 output differs from --target sm3:\n%s\n---\n%s", viaProfile, viaTarget)
	}
	// Every command that takes a shader documents -T on standard output.
	for _, cmd := range []string{"compile", "analyze", "run", "explore"} {
		code, out, _ := run(cmd, "--help")
		if code != 0 || !strings.Contains(out, "-T, --profile P") {
			t.Errorf("%s --help does not list -T (exit %d)", cmd, code)
		}
	}
}
