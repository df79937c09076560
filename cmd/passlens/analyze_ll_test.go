package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"passlens/compiler/analysis/uniformity/uniformitytest"
	"passlens/internal/testtool"
)

// `passlens analyze FILE.ll` prints what opt-22 prints for the four
// printers, line for line (after uniformitytest.NormalizeOptOrder), on clang-22
// output whose second function uses metadata and attribute-group numbers
// that opt renumbers: the instructions are LLVM text, not passlens IR.
func TestAnalyzeLLMatchesOptLineByLine(t *testing.T) {
	t.Parallel()
	opt := testtool.Require(t, "opt-22", "llvm-22")
	clang := testtool.Require(t, "clang-22", "clang-22")
	dir := t.TempDir()
	for _, k := range []string{"25-select-minmax", "14-amdgcn-builtins", "06-nested-loops"} {
		cl := filepath.Join("..", "..", "compiler", "llvm", "testdata", "opencl", k+".cl")
		if _, err := os.Stat(cl); err != nil {
			t.Fatalf("%s: %v", cl, err)
		}
		ll := filepath.Join(dir, k+".ll")
		if out, err := exec.Command(clang, "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", "-nogpulib",
			"-mcpu=gfx1100", "-O2", "-emit-llvm", "-S", "-o", ll, cl).CombinedOutput(); err != nil {
			t.Fatalf("clang-22 %s: %v\n%s", k, err, out)
		}
		want, err := exec.Command(opt, "-mtriple=amdgcn--",
			"-passes=print<domtree>,print<postdomtree>,print<cycles>,print<uniformity>", "-disable-output", ll).CombinedOutput()
		if err != nil {
			t.Fatalf("opt-22 %s: %v\n%s", k, err, want)
		}
		code, got, stderr := run("analyze", ll)
		if code != 0 {
			t.Fatalf("analyze %s: exit %d: %s", k, code, stderr)
		}
		if !strings.Contains(got, "DIVERGENT:   %") || strings.Contains(got, "ptr<") {
			t.Errorf("%s: uniformity does not print LLVM instructions:\n%s", k, got)
		}
		w, g := uniformitytest.NormalizeOptOrder(string(want)), uniformitytest.NormalizeOptOrder(got)
		if w == g {
			continue
		}
		wl, gl := strings.Split(w, "\n"), strings.Split(g, "\n")
		for i := range max(len(wl), len(gl)) {
			var a, b string
			if i < len(wl) {
				a = wl[i]
			}
			if i < len(gl) {
				b = gl[i]
			}
			if a != b {
				t.Errorf("%s: line %d:\n  opt-22:   %q\n  passlens: %q", k, i+1, a, b)
				break
			}
		}
	}
}
