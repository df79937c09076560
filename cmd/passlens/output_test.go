package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"passlens/internal/testtool"
)

// `-o x.spv` writes a binary module (the extension decides) that
// spirv-val accepts; `-o x.spvasm` writes the assembly text.
func TestCompileSPVIsBinary(t *testing.T) {
	t.Parallel()
	val := testtool.Require(t, "spirv-val", "spirv-tools")
	dir := t.TempDir()
	spv, asm := filepath.Join(dir, "x.spv"), filepath.Join(dir, "x.spvasm")
	for _, out := range []string{spv, asm} {
		if code, _, stderr := run("compile", "--target", "spirv", "samples/wave-switch-42", "-o", out); code != 0 {
			t.Fatalf("-o %s: exit %d: %s", out, code, stderr)
		}
	}
	b, _ := os.ReadFile(spv)
	if len(b) < 20 || b[0] != 0x03 || b[1] != 0x02 || b[2] != 0x23 || b[3] != 0x07 {
		t.Fatalf("x.spv does not start with the SPIR-V magic number: % x", b[:min(len(b), 8)])
	}
	if out, err := exec.Command(val, "--target-env", "vulkan1.1", spv).CombinedOutput(); err != nil {
		t.Fatalf("spirv-val rejects x.spv: %v\n%s", err, out)
	}
	if a, _ := os.ReadFile(asm); !strings.Contains(string(a), "OpCapability Shader") {
		t.Errorf("x.spvasm is not assembly text:\n%.200s", a)
	}
	// --emit overrides the extension.
	if code, _, stderr := run("compile", "--target", "spirv", "--emit", "asm", "samples/wave-switch-42", "-o", spv); code != 0 {
		t.Fatalf("--emit asm -o x.spv: exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(spv); !strings.Contains(string(b), "OpCapability") {
		t.Errorf("--emit asm did not override the .spv extension")
	}
}

// Binary output never goes to a terminal (the real binary under script(1),
// which gives it a pseudo-terminal).
func TestBinaryNotToTerminal(t *testing.T) {
	t.Parallel()
	script := testtool.Require(t, "script", "bsdutils")
	bin := binary(t)
	cmd := exec.Command(script, "-qec", bin+" compile --target spirv --emit bin samples/add-mul", "/dev/null")
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "refusing to write binary SPIR-V to a terminal") {
		t.Fatalf("err %v, output %q", err, out)
	}
	if strings.ContainsRune(string(out), 0x07230203) || strings.Contains(string(out), "\x03\x02\x23\x07") {
		t.Errorf("binary reached the terminal")
	}
	// To a pipe it is fine.
	b, err := exec.Command(bin, "compile", "--target", "spirv", "--emit", "bin", "samples/add-mul").Output()
	if err != nil || len(b) < 20 || b[0] != 0x03 {
		t.Errorf("binary to a pipe: err %v, %d bytes", err, len(b))
	}
}

// Outputs are written atomically: a failing compile leaves no file and
// keeps an existing one; links are refused; -o INPUT is refused.
func TestCompileOutputSafety(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.hlsl")
	if err := os.WriteFile(bad, []byte("[numthreads(1,1,1)]\nvoid main() { undeclared = 1; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ls := func() string {
		ents, _ := os.ReadDir(dir)
		var n []string
		for _, e := range ents {
			n = append(n, e.Name())
		}
		return strings.Join(n, ",")
	}

	// A failing compile (frontend, pass and back end) writes nothing.
	out := filepath.Join(dir, "out.spv")
	for _, args := range [][]string{
		{"compile", "--target", "spirv", bad, "-o", out},
		{"compile", "--target", "sm3", "samples/wave-divergent", "-o", out + ".asm"},
		{"compile", "--target", "sm3", "samples/nested-loops", "-o", out + ".asm"},
	} {
		if code, _, _ := run(args...); code != 1 {
			t.Fatalf("%v: exit %d, want 1", args, code)
		}
		if got := ls(); got != "bad.hlsl" {
			t.Fatalf("%v left %s", args, got)
		}
	}
	// ... and keeps an existing file.
	if err := os.WriteFile(out, []byte("previous"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := run("compile", "--target", "spirv", bad, "-o", out); code != 1 {
		t.Fatalf("exit %d", code)
	}
	if b, _ := os.ReadFile(out); string(b) != "previous" {
		t.Errorf("failed compile changed the existing output to %q", b)
	}
	// A successful one replaces it (-o is the user's say-so), atomically:
	// no temporary file remains.
	if code, _, stderr := run("compile", "--target", "spirv", "samples/add-mul", "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(out); len(b) < 20 || b[0] != 0x03 {
		t.Errorf("output not replaced by the module")
	}
	if got := ls(); got != "bad.hlsl,out.spv" {
		t.Errorf("directory holds %s", got)
	}

	// Symbolic links at the output, dangling or not, are refused.
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("keep"), 0o644)
	os.Symlink(victim, filepath.Join(dir, "link.spv"))
	os.Symlink(filepath.Join(dir, "created"), filepath.Join(dir, "dangling.spv"))
	for _, l := range []string{"link.spv", "dangling.spv"} {
		code, _, stderr := run("compile", "--target", "spirv", "samples/add-mul", "-o", filepath.Join(dir, l))
		if code != 1 || !strings.Contains(stderr, "symbolic link") {
			t.Errorf("-o %s: exit %d, stderr %q", l, code, stderr)
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("link target overwritten: %q", b)
	}
	if _, err := os.Lstat(filepath.Join(dir, "created")); err == nil {
		t.Errorf("the dangling link's target was created")
	}

	// -o naming the input (directly or through another path) is refused.
	src := filepath.Join(dir, "in.pir")
	text := "define void @f() {\nentry:\n  ret\n}\n"
	os.WriteFile(src, []byte(text), 0o644)
	for _, o := range []string{src, dir + "/./in.pir"} {
		code, _, stderr := run("compile", src, "-o", o)
		if code != 2 || !strings.Contains(stderr, "names the input file") {
			t.Errorf("-o %s: exit %d, stderr %q", o, code, stderr)
		}
	}
	if b, _ := os.ReadFile(src); string(b) != text {
		t.Errorf("input changed")
	}
}

// compile --target amdgcn-ll writes LLVM IR that opt-22 reads for amdgcn.
func TestCompileAMDGCN(t *testing.T) {
	t.Parallel()
	opt := testtool.Require(t, "opt-22", "llvm-22")
	for _, s := range []string{"samples/wave-switch-42", "samples/structs-arrays", "samples/divergent-loop"} {
		for _, passes := range []string{"", "inline,sroa,simplify"} {
			args := []string{"compile", "--target", "amdgcn-ll", s}
			if passes != "" {
				args = append(args, "--passes", passes)
			}
			code, stdout, stderr := run(args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, stderr)
			}
			cmd := exec.Command(opt, "-mtriple=amdgcn--", "-passes=verify", "-disable-output")
			cmd.Stdin = strings.NewReader(stdout)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%v: opt-22 rejects the output: %v\n%s", args, err, out)
			}
		}
	}
}

// analyze --target analyzes the explorer's final snapshot; --after stops
// the pipeline after a pass.
func TestAnalyzeTargetAfter(t *testing.T) {
	t.Parallel()
	code, _, stderr := run("analyze", "--explain=%isCase0", "samples/wave-switch-42")
	if code != 1 || !strings.Contains(stderr, "--target spirv") {
		t.Errorf("input module: exit %d, stderr %q (want a pointer to --target)", code, stderr)
	}
	code, stdout, stderr := run("analyze", "--target", "spirv", "--explain=%isCase0", "samples/wave-switch-42")
	if code != 0 || !strings.Contains(stdout, "%isCase0 is divergent") {
		t.Errorf("--target spirv: exit %d\n%s%s", code, stdout, stderr)
	}
	// %isCase0 is made by switch-to-if: after sroa it does not exist yet.
	code, _, _ = run("analyze", "--target", "spirv", "--after", "sroa", "--explain=%isCase0", "samples/wave-switch-42")
	if code != 1 {
		t.Errorf("--after sroa: exit %d, want 1 (no such value yet)", code)
	}
	code, stdout, _ = run("analyze", "--target", "spirv", "--after", "switch-to-if", "--explain=%isCase0", "samples/wave-switch-42")
	if code != 0 || !strings.Contains(stdout, "%isCase0 is divergent") {
		t.Errorf("--after switch-to-if: exit %d\n%s", code, stdout)
	}
	code, _, stderr = run("analyze", "--target", "spirv", "--after", "no-such-pass", "samples/wave-switch-42")
	if code != 2 || !strings.Contains(stderr, "no such pass") {
		t.Errorf("--after no-such-pass: exit %d, %q", code, stderr)
	}
}
