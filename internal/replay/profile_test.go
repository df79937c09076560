package replay

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `load FILE --profile=P` compiles with dxc's profile (docs/replay.md): a
// feature newer than the profile's shader model fails the load, located;
// a bad profile is an error naming the valid ones; the recorder writes
// the profile back.
func TestLoadProfile(t *testing.T) {
	dir := t.TempDir()
	src := "RWStructuredBuffer<uint> Out;\n[numthreads(4, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) {\n    Out[id.x] = dot4add_u8packed(id.x, 0x01010101u, 0u);\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "dot.hlsl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "s.replay")
	run := func(text string) (string, error) {
		var out strings.Builder
		err := Run(script, strings.NewReader(text), &out)
		return out.String(), err
	}
	if out, err := run("load dot.hlsl --profile=cs_6_4\ntarget spirv\n"); err != nil {
		t.Fatalf("cs_6_4: %v\n%s", err, out)
	}
	if _, err := run("load dot.hlsl\n"); err != nil {
		t.Fatalf("no profile: %v", err)
	}
	_, err := run("load dot.hlsl --profile=cs_6_3\n")
	if err == nil || !strings.Contains(err.Error(), "dot.hlsl:4:17: error: 'dot4add_u8packed' requires shader model 6.4 or greater (profile cs_6_3") {
		t.Errorf("cs_6_3: want the located shader-model error, got %v", err)
	}
	_, err = run("load dot.hlsl --profile=cs_9_9\n")
	if err == nil || !strings.Contains(err.Error(), `unknown profile "cs_9_9" (want cs_6_0`) {
		t.Errorf("cs_9_9: want an unknown-profile error, got %v", err)
	}
	r := NewRecorder(filepath.Join(dir, "dot.hlsl"), "main", "cs_6_6", "spirv", "")
	if text := r.Script(dir); !strings.Contains(text, "load dot.hlsl --entry=main --profile=cs_6_6\n") {
		t.Errorf("recorded script lacks the profile:\n%s", text)
	}
}
