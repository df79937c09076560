package offload

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"passlens/compiler/hlsl"
)

// The RUN line's -T reaches the frontend: suite tests that need shader
// model 6.6 (64-bit atomics, [WaveSize], implicit-LOD sampling in compute)
// compile at their cs_6_6 and are rejected, at the feature's use and
// naming the model, when the same RUN line says cs_6_5 — as dxc rejects
// them.
func TestOffloadProfileGates(t *testing.T) {
	if _, err := os.Stat(suiteRoot); err != nil {
		t.Skipf("no offload-test-suite at %s", suiteRoot)
	}
	for _, c := range []struct{ path, feature string }{
		{"Feature/HLSLLib/InterlockedMax.int64.test", "64-bit atomic 'InterlockedMax'"},
		{"WaveOps/WavePrefixCountBits.Wave64.test", "attribute 'WaveSize'"},
		{"Feature/RootSignatures/StaticSamplers.test", "(implicit level of detail) in a compute shader"},
	} {
		tst, err := Read(suiteRoot, c.path)
		if err != nil {
			t.Fatal(err)
		}
		if len(tst.Runs) != 1 || tst.Runs[0].Profile != "cs_6_6" {
			t.Fatalf("%s: want one cs_6_6 RUN line, have %+v", c.path, tst.Runs)
		}
		if why := frontendError(tst, tst.Runs[0]); why != "" {
			t.Errorf("%s at cs_6_6: rejected: %s", c.path, why)
		}
		run := tst.Runs[0]
		run.Profile = "cs_6_5"
		opts := hlsl.Options{Entry: run.Entry, Defines: run.Defines, Enable16BitTypes: run.Half,
			ReadFile: func(p string) ([]byte, error) { return []byte(tst.Sections[filepath.Base(p)]), nil }}
		if !applyProfile(&opts, run.Profile) {
			t.Fatal("cs_6_5 not applied")
		}
		_, diags := hlsl.Frontend(run.Source, []byte(tst.Sections[run.Source]), opts)
		found := false
		for _, d := range diags {
			if d.Severity == hlsl.Error && strings.Contains(d.Message, c.feature) &&
				strings.Contains(d.Message, "requires shader model 6.6 or greater (profile cs_6_5") && d.Pos.Line > 0 {
				found = true
			}
		}
		if !found {
			t.Errorf("%s at cs_6_5: want a located %q error, got %v", c.path, c.feature, diags)
		}
	}
}
