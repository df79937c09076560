package analysis_test

import (
	"bytes"
	"os"
	"os/exec"
	"passlens/internal/testtool"
	"path/filepath"
	"strings"
	"testing"

	"passlens/compiler/analysis"
	"passlens/compiler/analysis/analysistest"
	"passlens/compiler/llvm"
)

// TestLLVMTestFilesCFG compares passlens's dominator tree, post-dominator
// tree and cycles with opt-22's on LLVM's own CycleInfo and
// UniformityAnalysis/AMDGPU test files (every file compiler/llvm imports),
// as sets. The files are not in the repository: they are read from
// PASSLENS_LLVM_TESTS (default testdata/llvm-tests, see
// bench/fetch-llvm-tests.md) and the test skips when it is absent.
func TestLLVMTestFilesCFG(t *testing.T) {
	dir := os.Getenv("PASSLENS_LLVM_TESTS")
	if dir == "" {
		dir = filepath.Join("..", "..", "testdata", "llvm-tests")
	}
	var files []string
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".ll") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		t.Skipf("no LLVM test files in %s (they are kept out of the repository; see bench/fetch-llvm-tests.md)", dir)
	}
	opt := testtool.Require(t, "opt-22", "llvm-22")
	imported, funcs, equal := 0, 0, 0
	for _, path := range files {
		src, _ := os.ReadFile(path)
		m, err := llvm.Import(path, src)
		if err != nil {
			continue
		}
		out, err := exec.Command(opt, "-mtriple=amdgcn--", "-passes=print<domtree>,print<postdomtree>,print<cycles>", "-disable-output", path).CombinedOutput()
		if err != nil {
			continue // opt-22 rejects a few of main's files
		}
		want, err := analysistest.ParseOpt(bytes.NewReader(out))
		if err != nil {
			t.Errorf("%s: parsing opt output: %v", path, err)
			continue
		}
		imported++
		byName := map[string]*analysistest.OptFunc{}
		for _, f := range want {
			byName[f.Name] = f
		}
		for _, f := range m.Funcs {
			if f.IsDeclaration() {
				continue
			}
			w := byName[f.Name()]
			if w == nil {
				t.Errorf("%s: opt printed nothing for @%s", path, f.Name())
				continue
			}
			funcs++
			fg := analysis.NewFuncGraph(f)
			var diffs []string
			diffs = append(diffs, analysistest.CompareTrees(w.DomTree, analysistest.TreeOf(fg.Graph, analysis.Dominators(fg.Graph)), 3)...)
			diffs = append(diffs, analysistest.CompareTrees(w.PostDomTree, analysistest.TreeOf(fg.Graph, analysis.PostDominators(fg.Graph)), 3)...)
			diffs = append(diffs, analysistest.CompareCycles(w.Cycles, analysistest.CyclesOf(fg.Graph, analysis.Cycles(fg.Graph)), 3)...)
			if len(diffs) > 0 {
				t.Errorf("%s @%s: %s", path, f.Name(), strings.Join(diffs, "; "))
				continue
			}
			equal++
		}
	}
	t.Logf("LLVM test files: %d, imported and run by opt-22: %d, functions: %d, domtree+postdomtree+cycles equal to opt-22: %d", len(files), imported, funcs, equal)
}
