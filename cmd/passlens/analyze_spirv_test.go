package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"passlens/internal/testtool"
)

// `passlens analyze` and `passlens run` on SPIR-V: a glslang-compiled
// compute shader as a binary .spv and as spirv-dis text give the same
// trees and uniformity (OpName names in both), the shader runs, and a
// bad .spvasm is a located error.
func TestAnalyzeSPIRV(t *testing.T) {
	t.Parallel()
	glslang := testtool.Require(t, "glslangValidator", "glslang-tools")
	dis := testtool.Require(t, "spirv-dis", "spirv-tools")
	dir := t.TempDir()
	spv := filepath.Join(dir, "k.spv")
	src := filepath.Join("..", "..", "compiler", "spvread", "testdata", "glsl", "subgroup.comp")
	if out, err := exec.Command(glslang, "-V", "--target-env", "vulkan1.1", src, "-o", spv).CombinedOutput(); err != nil {
		t.Fatalf("glslang: %v\n%s", err, out)
	}
	asm := filepath.Join(dir, "k.txt") // by content, whatever the extension
	if out, err := exec.Command(dis, "--raw-id", spv, "-o", asm).CombinedOutput(); err != nil {
		t.Fatalf("spirv-dis: %v\n%s", err, out)
	}
	code, fromBin, stderr := run("analyze", spv)
	if code != 0 {
		t.Fatalf("analyze k.spv: exit %d: %s", code, stderr)
	}
	code, fromText, stderr := run("analyze", asm)
	if code != 0 {
		t.Fatalf("analyze k.txt: exit %d: %s", code, stderr)
	}
	if fromBin != fromText {
		t.Errorf("binary and --raw-id text analyze differently:\n%s\n----\n%s", fromBin, fromText)
	}
	for _, want := range []string{"DominatorTree for function: main", "CycleInfo for function: main", "DIVERGENT:", "WaveActiveSum"} {
		if !strings.Contains(fromBin, want) {
			t.Errorf("analyze output lacks %q:\n%s", want, fromBin)
		}
	}
	if code, out, stderr := run("run", spv); code != 0 || !strings.Contains(out, "Data") {
		t.Errorf("run k.spv: exit %d\n%s\n%s", code, out, stderr)
	}
	bad := filepath.Join(dir, "bad.spvasm")
	os.WriteFile(bad, []byte("OpCapability Shader\n%1 = OpTypeInt 32 0\n%2 = OpIAdd %1 %nope %nope\n"), 0o644)
	code, _, stderr = run("analyze", bad)
	if code == 0 || !strings.Contains(stderr, "bad.spvasm:3:") || !strings.Contains(stderr, "error:") {
		t.Errorf("bad .spvasm: exit %d, %s", code, stderr)
	}
}
