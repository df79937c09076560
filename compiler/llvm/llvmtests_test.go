package llvm

import (
	"os"
	"os/exec"
	"passlens/internal/testtool"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// llvmTestsDir is where LLVM's own test files are read from: env
// PASSLENS_LLVM_TESTS, else <repo>/testdata/llvm-tests (git-ignored; see
// bench/fetch-llvm-tests.md for how to fill it). LLVM's files never enter
// the repository.
func llvmTestsDir() string {
	if d := os.Getenv("PASSLENS_LLVM_TESTS"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "testdata", "llvm-tests")
}

// expectedImportFailures are the LLVM test files the importer rejects,
// with the construct that stops them. Since the opaque fallback
// (opaque.go) there are none: inline asm, callbr, convergence tokens and
// unknown address spaces import as opaque operations.
var expectedImportFailures = map[string]string{}

func llvmTestFiles(t *testing.T) (string, []string) {
	dir := llvmTestsDir()
	var files []string
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && strings.HasSuffix(p, ".ll") {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(files)
	if len(files) == 0 {
		msg := "no LLVM test files in " + dir + " (set PASSLENS_LLVM_TESTS or see bench/fetch-llvm-tests.md)"
		if os.Getenv("CI") == "true" {
			t.Skip(msg + "; LLVM's files are not part of the repository")
		}
		t.Skip(msg)
	}
	return dir, files
}

func requireOpt(t *testing.T) string {
	t.Helper()
	return testtool.Require(t, "opt-22", "llvm-22")
}

// optVerify runs opt-22 -passes=verify on text.
func optVerify(t *testing.T, opt, text string) (string, bool) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "x.ll")
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(opt, "-mtriple=amdgcn-amd-amdhsa", "-passes=verify", "-disable-output", f).CombinedOutput()
	return string(out), err == nil
}

// TestLLVMTestFiles imports every LLVM test file; those that import must
// export to LLVM that opt-22 verifies and re-import to the same passlens
// text. The report lists every file and why the others do not import.
func TestLLVMTestFiles(t *testing.T) {
	t.Parallel()
	dir, files := llvmTestFiles(t)
	opt := requireOpt(t)
	imported, roundTripped := 0, 0
	for _, rel := range files {
		src, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		m, err := Import(rel, src)
		if want, bad := expectedImportFailures[rel]; bad {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: want import error containing %q, got %v", rel, want, err)
			} else {
				t.Logf("does not import: %v", err)
			}
			continue
		}
		if err != nil {
			t.Errorf("import: %v", err)
			continue
		}
		imported++
		text, err := Export(m)
		if err != nil && strings.Contains(err.Error(), "opaque") {
			t.Logf("imports with opaque operations, not exportable: %s: %v", rel, err)
			continue
		}
		if err != nil {
			t.Errorf("%s: export: %v", rel, err)
			continue
		}
		if out, ok := optVerify(t, opt, text); !ok {
			t.Errorf("%s: opt-22 rejects the export:\n%s", rel, out)
			continue
		}
		m2, err := Import(rel, []byte(text))
		if err != nil {
			t.Errorf("%s: re-import of the export: %v", rel, err)
			continue
		}
		if a, b := m.String(), m2.String(); a != b {
			t.Errorf("%s: import -> export -> import changed the module:\n--- first\n%s\n--- second\n%s", rel, a, b)
			continue
		}
		roundTripped++
		t.Logf("imports and round-trips: %s", rel)
	}
	t.Logf("%d files: %d import, %d round-trip through opt-22, %d outside the subset",
		len(files), imported, roundTripped, len(files)-imported)
}
