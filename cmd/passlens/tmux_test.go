package main

import (
	"os/exec"
	"path/filepath"
	"testing"

	"passlens/internal/testtool"
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
	t.Parallel()
	requireTool(t, "tmux", "tmux")
	bin := binary(t)
	out, err := exec.Command("bash", "testdata/tmux-explorer.sh", bin, "samples/divergent-loop").CombinedOutput()
	t.Logf("\n%s", out)
	if err != nil {
		t.Fatalf("tmux session failed: %v", err)
	}
}

// TestExplorerRecordReplayInTmux steps through every pane of the real
// binary in tmux, records the session, quits, and replays it headless with
// the same interpreter result (testdata/tmux-record.sh).
func TestExplorerRecordReplayInTmux(t *testing.T) {
	t.Parallel()
	requireTool(t, "tmux", "tmux")
	bin := binary(t)
	script, err := filepath.Abs("testdata/tmux-record.sh")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("bash", script, bin, t.TempDir()).CombinedOutput()
	t.Logf("\n%s", out)
	if err != nil {
		t.Fatalf("tmux session failed: %v", err)
	}
}
