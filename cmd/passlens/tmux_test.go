package main

import (
	"os/exec"
	"passlens/internal/testtool"
	"testing"
)

// requireTool finds an external tool; in CI (CI=true) a missing tool fails
// the test, elsewhere it skips with a message.
func requireTool(t *testing.T, name, pkg string) string {
	t.Helper()
	return testtool.Require(t, name, pkg)
}

// TestExplorerInTmux starts the real binary in tmux and drives it with
// keys (testdata/tmux-explorer.sh).
func TestExplorerInTmux(t *testing.T) {
	requireTool(t, "tmux", "tmux")
	bin := binary(t)
	out, err := exec.Command("bash", "testdata/tmux-explorer.sh", bin, "samples/divergent-loop").CombinedOutput()
	t.Logf("\n%s", out)
	if err != nil {
		t.Fatalf("tmux session failed: %v", err)
	}
}
