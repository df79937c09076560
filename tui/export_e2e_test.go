package tui_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"passlens/internal/testtool"
	"passlens/tui"
)

// The export (x) offers both forms of SPIR-V: a name ending in .spv gets
// the binary module (spirv-val accepts it), .spvasm the assembly text.
func TestExportBinaryAndText(t *testing.T) {
	val := testtool.Require(t, "spirv-val", "spirv-tools")
	dir := t.TempDir()
	bin, asm := filepath.Join(dir, "out.spv"), filepath.Join(dir, "out.spvasm")
	tm := startExplorer(t, 120, 30, tui.Options{})
	keys(tm, "6")
	waitScreen(t, tm, "OpCapability Shader")
	keys(tm, "x")
	waitScreen(t, tm, ".spv: binary module")
	keys(tm, "ctrl+u")
	typeText(tm, bin)
	keys(tm, "enter")
	waitFile(t, bin)
	keys(tm, "x", "ctrl+u")
	typeText(tm, asm)
	keys(tm, "enter")
	waitFile(t, asm)
	if s := finalScreen(t, tm); !strings.Contains(s, "wrote "+asm) {
		t.Errorf("status after the second export:\n%s", s)
	}

	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte{0x03, 0x02, 0x23, 0x07}) {
		t.Fatalf("%s does not start with the SPIR-V magic number: % x", bin, data[:min(8, len(data))])
	}
	if out, err := exec.Command(val, bin).CombinedOutput(); err != nil {
		t.Fatalf("spirv-val %s: %v\n%s", bin, err, out)
	}
	text, err := os.ReadFile(asm)
	if err != nil || !bytes.Contains(text, []byte("OpCapability Shader")) {
		t.Fatalf("%s: %v %q", asm, err, text[:min(80, len(text))])
	}
}

// waitFile waits until the export (a command) has written path; the bound
// catches hangs, it is not a timing assumption.
func waitFile(t *testing.T, path string) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
	}
	t.Fatalf("%s was not written", path)
}
