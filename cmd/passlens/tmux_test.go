package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// requireTool finds an external tool; in CI (CI=true) a missing tool fails
// the test, elsewhere it skips with a message.
func requireTool(t *testing.T, name, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed (apt-get install -y %s); CI requires it", name, pkg)
		}
		t.Skipf("%s not installed (apt-get install -y %s); skipping", name, pkg)
	}
	return p
}

// TestExplorerInTmux starts the real binary in tmux and drives it with
// keys (testdata/tmux-explorer.sh).
func TestExplorerInTmux(t *testing.T) {
	requireTool(t, "tmux", "tmux")
	bin := filepath.Join(t.TempDir(), "passlens")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	out, err := exec.Command("bash", "testdata/tmux-explorer.sh", bin, "samples/divergent-loop").CombinedOutput()
	t.Logf("\n%s", out)
	if err != nil {
		t.Fatalf("tmux session failed: %v", err)
	}
}
