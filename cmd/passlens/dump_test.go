package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"passlens/compiler/passdump"
)

// optLog writes opt-22's -O3 -print-after-all log of the irreducible sample.
func optLog(t *testing.T, flags ...string) string {
	t.Helper()
	opt := requireTool(t, "opt-22", "llvm-22")
	dir := t.TempDir()
	in, _ := filepath.Abs("../../samples/irreducible.ll")
	args := append([]string{"-O3", "-mtriple=amdgcn--", "-S", in, "-o", os.DevNull}, flags...)
	out, err := exec.Command(opt, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("opt: %v\n%s", err, out)
	}
	p := filepath.Join(dir, "opt.txt")
	os.WriteFile(p, out, 0o644)
	return p
}

// TestDumpRoundTrip: `passlens dump` prints every step as a whole module in
// a format passlens reads back into the same steps.
func TestDumpRoundTrip(t *testing.T) {
	t.Parallel()
	log := optLog(t, "-print-after-all")
	var out, errb bytes.Buffer
	if code := runMain([]string{"dump", log}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	orig, err := passdump.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	defer orig.Close()
	back, err := passdump.Parse("dump", out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Steps) != len(orig.Steps) {
		t.Fatalf("%d steps read back, want %d", len(back.Steps), len(orig.Steps))
	}
	for i := range orig.Steps {
		a, _, _ := orig.Text(i)
		b, _, _ := back.Text(i)
		if strings.TrimRight(a, "\n") != strings.TrimRight(b, "\n") {
			t.Fatalf("step %d (%s) differs after the round trip", i, orig.Steps[i].Pass)
		}
	}
}

func TestDumpFlags(t *testing.T) {
	t.Parallel()
	log := optLog(t, "-print-changed")
	run := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if code := runMain(append([]string{"dump", log}, args...), &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		return out.String()
	}
	diff := run("--print-changed=diff", "--function", "closed_path")
	if !strings.Contains(diff, "omitted because no change") || !strings.Contains(diff, "\n+") || strings.Contains(diff, "; ModuleID") {
		t.Fatalf("--print-changed=diff --function:\n%s", diff)
	}
	only := run("--only-pass", "SROAPass")
	if n := strings.Count(only, "*** IR Dump After"); n == 0 || n != strings.Count(only, "*** IR Dump After SROAPass") {
		t.Fatalf("--only-pass SROAPass printed other passes:\n%s", only)
	}
	steps := run("--steps")
	if !strings.Contains(steps, "input") || !strings.Contains(steps, "unchanged") {
		t.Fatalf("--steps:\n%s", steps)
	}
	var out, errb bytes.Buffer
	if code := runMain([]string{"dump", log, "--step", "100000"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "no step 100000") {
		t.Fatalf("bad --step: exit %d, %q", code, errb.String())
	}
	if code := runMain([]string{"dump", "../../samples/irreducible.ll"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "no pass-dump banner") {
		t.Fatalf("a module given to dump: exit %d, %q", code, errb.String())
	}
}

// TestDumpStdin: "-" reads the log from standard input.
func TestDumpStdin(t *testing.T) {
	log := optLog(t, "-print-after-all")
	f, err := os.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	old := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = old }()
	var out, errb bytes.Buffer
	if code := runMain([]string{"dump", "-", "--steps"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "SROAPass") {
		t.Fatalf("steps:\n%s", out.String())
	}
}

// TestDumpExplorerInTmux steps through a real clang-22 OpenCL log in the
// real binary (testdata/tmux-dump.sh).
func TestDumpExplorerInTmux(t *testing.T) {
	t.Parallel()
	requireTool(t, "tmux", "tmux")
	clang := requireTool(t, "clang-22", "clang-22")
	dir := t.TempDir()
	src, _ := filepath.Abs("../../compiler/passdump/testdata/loops.cl")
	cmd := exec.Command(clang, "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", "-nogpulib", "-mcpu=gfx1100",
		"-O2", "-emit-llvm", "-S", src, "-o", os.DevNull, "-mllvm", "-print-after-all")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("clang: %v\n%s", err, stderr.String())
	}
	log := filepath.Join(dir, "clang-log.txt")
	os.WriteFile(log, stderr.Bytes(), 0o644)
	bin := filepath.Join(dir, "passlens")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	out, err := exec.Command("bash", "testdata/tmux-dump.sh", bin, log, "capped").CombinedOutput()
	t.Logf("\n%s", out)
	if err != nil {
		t.Fatalf("tmux session failed: %v", err)
	}
}

// TestDumpRoundTripStages: passlens's own sm3 log (IR passes, then SIR
// stages) reads back through `passlens dump` with the same languages.
func TestDumpRoundTripStages(t *testing.T) {
	t.Parallel()
	var log, errb bytes.Buffer
	if code := runMain([]string{"compile", "samples/sm3-loop-m", "--target", "sm3", "--print-after-all"}, &log, &errb); code != 0 {
		t.Fatalf("compile: %s", errb.String())
	}
	p := filepath.Join(t.TempDir(), "sm3.txt")
	os.WriteFile(p, log.Bytes(), 0o644)
	var out bytes.Buffer
	if code := runMain([]string{"dump", p}, &out, &errb); code != 0 {
		t.Fatalf("dump: %s", errb.String())
	}
	a, _ := passdump.Parse("a", log.Bytes())
	b, err := passdump.Parse("b", out.Bytes())
	if err != nil || len(a.Steps) != len(b.Steps) {
		t.Fatalf("%v: %d vs %d steps", err, len(a.Steps), len(b.Steps))
	}
	sir := 0
	for i := range a.Steps {
		ta, _, _ := a.Text(i)
		tb, _, _ := b.Text(i)
		if a.Steps[i].Lang != b.Steps[i].Lang || strings.TrimRight(ta, "\n") != strings.TrimRight(tb, "\n") {
			t.Fatalf("step %d (%s, %s) differs after the round trip (%s)", i, a.Steps[i].Pass, a.Steps[i].Lang, b.Steps[i].Lang)
		}
		if a.Steps[i].Lang == "sir" {
			sir++
		}
	}
	if sir == 0 {
		t.Fatal("no SIR stage in the sm3 log")
	}
}
