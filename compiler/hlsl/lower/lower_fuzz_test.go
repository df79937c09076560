package lower

import (
	"os"
	"path/filepath"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
)

// FuzzLower checks that every program the frontend accepts lowers without
// an internal compiler error (a recovered panic or a module that does not
// verify). Seeds: the frontend's fuzz seeds and the lowering test shaders.
func FuzzLower(f *testing.F) {
	addSeeds(f)
	for _, dir := range []string{"lower", filepath.Join("lower", "exec")} {
		files, _ := filepath.Glob(filepath.Join("testdata", dir, "*.hlsl"))
		for _, p := range files {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		opts := fuzzOptions()
		prog, diags := hlsl.Frontend("fuzz.hlsl", src, opts)
		if diags.HasErrors() {
			return
		}
		m, ld := Lower(prog, opts)
		noICE(t, ld)
		if m != nil {
			if err := ir.Verify(m); err != nil {
				t.Fatalf("module does not verify: %v", err)
			}
		}
	})
}
