package lower

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
	"passlens/internal/vkd3d"
)

// TestLowerConformanceVKD3D lowers every shader of the vkd3d
// .shader_test files that applies to shader model 6 and that the
// frontend accepts, and checks that the module verifies. It logs the
// counts; it fails on internal compiler errors (panics, modules that do
// not verify) and if fewer than 95% of the accepted shaders lower.
// Lowering diagnostics for unsupported constructs are counted by message.
// Set HLSL_CONFORMANCE_VERBOSE=1 to list every shader that does not lower.
func TestLowerConformanceVKD3D(t *testing.T) {
	files := vkd3d.Load(t)
	verbose := os.Getenv("HLSL_CONFORMANCE_VERBOSE") != ""
	var applicable, accepted, lowered, instrs int
	unsupported := map[string]int{}
	var failures []string
	for _, f := range files {
		for _, u := range f.Units() {
			sm, ok := u.SM6()
			if !ok || u.ExpectFail(sm) {
				continue
			}
			opts, ok := unitOptions(u)
			if !ok {
				continue
			}
			applicable++
			prog, diags := hlsl.Frontend(u.File, []byte(u.Src), opts)
			if diags.HasErrors() {
				continue
			}
			accepted++
			label := u.Label()
			m, ld := Lower(prog, opts)
			for _, d := range ld {
				if isInternalError(d.Message) {
					t.Errorf("%s: %s", label, d.Message)
				}
			}
			if m == nil {
				first := ""
				for _, d := range ld {
					if d.Severity == hlsl.Error {
						first = d.Message
						unsupported[classifyLowerError(d.Message)]++
						break
					}
				}
				failures = append(failures, fmt.Sprintf("%s: %s", label, first))
				continue
			}
			if err := ir.Verify(m); err != nil {
				t.Errorf("%s: module does not verify: %v", label, err)
				continue
			}
			lowered++
			for _, f := range m.Funcs {
				instrs += f.NumInstrs()
			}
		}
	}
	t.Logf("vkd3d HLSL conformance, lowering (shader model 6): %d applicable shaders, %d accepted by the frontend, %d lowered and verified (%d instructions)",
		applicable, accepted, lowered, instrs)
	var cats []string
	for c, n := range unsupported {
		cats = append(cats, fmt.Sprintf("%s=%d", c, n))
	}
	sort.Strings(cats)
	t.Logf("  not lowered: %d [%s]", accepted-lowered, strings.Join(cats, ", "))
	if verbose {
		for _, f := range failures {
			t.Log(f)
		}
	}
	if accepted > 0 && lowered*100 < accepted*95 {
		t.Errorf("only %d of %d accepted shaders lowered (want at least 95%%)", lowered, accepted)
	}
}

// classifyLowerError names the kind of a lowering diagnostic for the
// summary.
func classifyLowerError(msg string) string {
	switch {
	case strings.Contains(msg, "derivative"):
		return "derivatives"
	case strings.Contains(msg, "GetDimensions"):
		return "GetDimensions"
	case strings.Contains(msg, "resources"):
		return "resource aggregates"
	case isInternalError(msg):
		return "internal error"
	}
	if i := strings.IndexAny(msg, ":'"); i > 0 {
		return msg[:i]
	}
	return msg
}
