package replay

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestReplayLoadsPassLog: a script loads a pass log (by content) and moves,
// prints, diffs and analyses its steps.
func TestReplayLoadsPassLog(t *testing.T) {
	log, _ := filepath.Abs("../../compiler/passdump/testdata/dxc-legacy.txt")
	script := "load " + log + `
goto Simplify the CFG
print ir
goto Dead Code Elimination#2
diff input
analyze domtree
print passes
`
	var out bytes.Buffer
	if err := Run("t.replay", strings.NewReader(script), &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	got := out.String()
	for _, want := range []string{
		"(pass log, legacy pass manager, 4 steps)",
		"at step 1/3: Simplify the CFG (changed)",
		"*** IR after Simplify the CFG ***\n; ModuleID = 'main.hlsl'",
		"at step 3/3: Dead Code Elimination (changed)",
		"-  %x = call float @dx.op.loadInput.f32",
		"DominatorTree for function: main",
		">  3 Dead Code Elimination",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	err := Run("t.replay", strings.NewReader("load "+log+"\ntarget spirv\n"), &out)
	if err == nil || !strings.Contains(err.Error(), "does not apply to a pass log") {
		t.Fatalf("target on a log: %v", err)
	}
}
