package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompileDotCFG: --dot-cfg writes the input's and every changed
// pass's CFG into the directory, with instructions and edge labels.
func TestCompileDotCFG(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "cfgs")
	var out, errb bytes.Buffer
	if err := runCompile([]string{"samples/wave-switch-42", "--target", "spirv", "--dot-cfg", dir, "-o", os.DevNull}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	data, err := os.ReadFile(filepath.Join(dir, "04-switch-to-if.main.dot"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`condbr bool %isCase0, %sw.case0, %sw.case0.after\l`, `label="T"`, "color=darkgreen", "color=red"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("DOT lacks %q:\n%s", want, data)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "05-eliminate-multilevel-break.main.dot")); err == nil {
		t.Error("an unchanged pass got a DOT file")
	}
}
