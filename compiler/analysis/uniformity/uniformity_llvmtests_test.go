package uniformity_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"passlens/compiler/analysis/uniformity"
	"passlens/compiler/analysis/uniformity/uniformitytest"
	"passlens/compiler/ir"
	"passlens/compiler/llvm"
)

// llvmTestsDir is where LLVM's own test files are: env PASSLENS_LLVM_TESTS,
// else <repo>/testdata/llvm-tests (git-ignored: LLVM's files are kept out of
// the repository).
func llvmTestsDir() string {
	if d := os.Getenv("PASSLENS_LLVM_TESTS"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "..", "testdata", "llvm-tests")
}

// importerClassification lists the functions of LLVM's tests on which
// passlens differs from opt-22 only because compiler/llvm classifies an
// intrinsic (compiler/llvm/facts.go) as LLVM's main branch does rather than
// as opt-22 does: the tests come from main, where these intrinsics were
// added to (or removed from) AMDGPU's divergence tables. Each entry names a
// function-name prefix and the intrinsic prefix it calls; the test checks the
// call is there, and reports entries that no longer differ.
var importerClassification = map[string][][2]string{}

// knownClassification reports whether f is listed in importerClassification
// for file rel and calls the listed intrinsic.
func knownClassification(rel string, f *ir.Function) bool {
	for _, e := range importerClassification[rel] {
		if !strings.HasPrefix(f.Name(), e[0]) {
			continue
		}
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Op == ir.OpIntrinsic && in.Intr != nil && strings.HasPrefix(in.Intr.Name, e[1]) {
					return true
				}
			}
		}
	}
	return false
}

var runFlag = regexp.MustCompile(`-(mtriple|mcpu)[= ]([A-Za-z0-9_.\-]+)`)

// runFlags returns the -mtriple and -mcpu options of the first RUN line of
// an LLVM test that runs print<uniformity>.
func runFlags(src string) []string {
	for _, line := range strings.Split(src, "\n") {
		if !strings.Contains(line, "RUN:") || !strings.Contains(line, "print<uniformity>") {
			continue
		}
		var out []string
		for _, m := range runFlag.FindAllStringSubmatch(line, -1) {
			out = append(out, "-"+m[1]+"="+m[2])
		}
		return out
	}
	return nil
}

// TestUniformityLLVMTests runs opt-22 on LLVM's own UniformityAnalysis tests
// (llvm/test/Analysis/UniformityAnalysis/AMDGPU) that compiler/llvm can
// import and compares every function with passlens. Files outside the
// importer's subset are listed with the reason and skipped.
func TestUniformityLLVMTests(t *testing.T) {
	root := filepath.Join(llvmTestsDir(), "UniformityAnalysis")
	var files []string
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && strings.HasSuffix(p, ".ll") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	if len(files) == 0 {
		t.Skipf("no LLVM UniformityAnalysis tests in %s (set PASSLENS_LLVM_TESTS); LLVM's files are not part of the repository", root)
	}
	opt := requireOptU(t)
	var nFiles, nImported, nFuncs, nEqual, nTolerated, nKnown, nSingle int
	for _, file := range files {
		rel, _ := filepath.Rel(root, file)
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		nFiles++
		m, err := llvm.Import(rel, src)
		if err != nil {
			t.Logf("%s: not imported: %v", rel, err)
			continue
		}
		args := append([]string{"-passes=print<uniformity>", "-disable-output"}, runFlags(string(src))...)
		if !strings.Contains(strings.Join(args, " "), "-mtriple") {
			args = append(args, "-mtriple=amdgcn--")
		}
		errb, err := runOptArgs(opt, append(args, file))
		if err != nil && strings.Contains(errb.String(), "unrecognized architecture") {
			// Triples such as amdgpu7.00-- are newer than opt-22; the
			// analysis does not depend on the subtarget's name.
			for i, a := range args {
				if strings.HasPrefix(a, "-mtriple=") {
					args[i] = "-mtriple=amdgcn--"
				}
			}
			t.Logf("%s: opt-22 does not know its triple; using amdgcn--", rel)
			errb, err = runOptArgs(opt, append(args, file))
		}
		if err != nil {
			t.Logf("%s: opt-22 fails on it: %v: %s", rel, err, lastLine(errb.String()))
			continue
		}
		sets, err := uniformitytest.ParseUniformity(errb)
		if err != nil {
			t.Fatalf("%s: parsing opt-22 output: %v", rel, err)
		}
		nImported++
		for _, w := range sets {
			f := m.Func(w.Func)
			if f == nil || f.IsDeclaration() {
				t.Errorf("%s: opt printed %s, which the import lacks", rel, w.Func)
				continue
			}
			nFuncs++
			got := uniformitytest.Sets(uniformity.Uniformity(f))
			d := uniformitytest.CompareUniformity(w, got, uniformitytest.CompareUniformityOptions{CommonValues: true})
			known := knownClassification(rel, f)
			if len(d) == 0 {
				nEqual++
				if known {
					t.Logf("%s: @%s now agrees with opt-22; remove it from importerClassification", rel, f.Name())
				}
				continue
			}
			if known {
				nKnown++
				t.Logf("%s: @%s: differs because of compiler/llvm's intrinsic classification (known): %s", rel, f.Name(), strings.Join(d, "; "))
				continue
			}
			if w.AllUniform && singleLane(string(src), f.Name()) {
				// opt-22 skips the analysis for a workgroup of one lane
				// (hasBranchDivergence is false); passlens does not model
				// it (docs/analyses.md).
				nSingle++
				t.Logf("%s: @%s: single-lane workgroup, not modelled (documented): %s", rel, f.Name(), strings.Join(d, "; "))
				continue
			}
			if orderDependent(w, got, uniformitytest.Sets(uniformity.Uniformity(f, uniformity.WithAllExitsForTest()))) {
				nTolerated++
				t.Logf("%s: @%s: order-dependent difference (documented): %s", rel, f.Name(), strings.Join(d, "; "))
				continue
			}
			var sb strings.Builder
			uniformity.Uniformity(f).WriteOpt(&sb)
			t.Errorf("%s: @%s differs from opt-22:\n  %s\npasslens:\n%s", rel, f.Name(), strings.Join(d, "\n  "), sb.String())
		}
	}
	t.Logf("LLVM tests: %d files, %d imported and run by opt-22, %d functions, %d equal to opt-22, %d order-dependent (documented), %d differing by compiler/llvm's intrinsic table (known), %d single-lane (not modelled)",
		nFiles, nImported, nFuncs, nEqual, nTolerated, nKnown, nSingle)
}

// singleLane reports whether function fn of the LLVM source src has a
// workgroup of at most one lane ("amdgpu-flat-work-group-size"="1,1",
// inline or through an attribute group).
func singleLane(src, fn string) bool {
	const attr = `"amdgpu-flat-work-group-size"="1,1"`
	def := regexp.MustCompile(`(?m)^define [^\n]*@"?` + regexp.QuoteMeta(fn) + `"?\([^\n]*$`).FindString(src)
	if def == "" {
		return false
	}
	if strings.Contains(def, attr) {
		return true
	}
	for _, ref := range regexp.MustCompile(`#(\d+)`).FindAllStringSubmatch(def, -1) {
		group := regexp.MustCompile(`(?m)^attributes #` + ref[1] + ` = \{[^\n]*$`).FindString(src)
		if strings.Contains(group, attr) {
			return true
		}
	}
	return false
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

func runOptArgs(opt string, args []string) (*bytes.Buffer, error) {
	cmd := exec.Command(opt, args...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err := cmd.Run()
	return &errb, err
}
