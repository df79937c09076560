package offload

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"passlens/compiler/hlsl"
)

// TestOffloadFrontendAcceptance measures how much of the suite the
// frontend accepts, whatever the test requires or runs: a test is
// accepted when the source of every compile RUN line checks without
// errors (with the line's entry point, stage, defines and -Zpr). It
// reports the count and the first error of each rejected test by
// category (OFFLOAD_VERBOSE=1 lists them); the measurement is the
// frontend's reach on real shaders, docs/conformance.md records it.
// It fails only if nothing is accepted or the frontend panics.
func TestOffloadFrontendAcceptance(t *testing.T) {
	if _, err := os.Stat(suiteRoot); err != nil {
		t.Skipf("no offload-test-suite at %s", suiteRoot)
	}
	var paths []string
	filepath.WalkDir(suiteRoot, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".test") {
			rel, _ := filepath.Rel(suiteRoot, p)
			paths = append(paths, rel)
		}
		return nil
	})
	sort.Strings(paths)
	verbose := os.Getenv("OFFLOAD_VERBOSE") != ""
	accepted, compiled := 0, 0
	reasons := map[string]int{}
	for _, rel := range paths {
		tst, err := Read(suiteRoot, rel)
		if err != nil {
			t.Fatal(err)
		}
		if len(tst.Runs) == 0 {
			continue
		}
		compiled++
		why := ""
		for _, run := range tst.Runs {
			if why = frontendError(tst, run); why != "" {
				break
			}
		}
		if why == "" {
			accepted++
			continue
		}
		reasons[why]++
		if verbose {
			t.Logf("%s: %s", rel, why)
		}
	}
	var rs []string
	for r, n := range reasons {
		rs = append(rs, fmt.Sprintf("%d %s", n, r))
	}
	sort.Slice(rs, func(i, j int) bool {
		var a, b int
		fmt.Sscan(rs[i], &a)
		fmt.Sscan(rs[j], &b)
		return a > b || a == b && rs[i] < rs[j]
	})
	t.Logf("offload-test-suite frontend: %d tests, %d with compile RUN lines, %d accepted (%.0f%% of all); rejected by first error: %s",
		len(paths), compiled, accepted, 100*float64(accepted)/float64(len(paths)), strings.Join(rs, "; "))
	if accepted == 0 {
		t.Error("the frontend accepts no test")
	}
}

// applyProfile gives the frontend the RUN line's -T, as dxc compiles
// it: the stage (a lib_6_x profile checks the file as a library) and the
// shader model that gates features (docs/hlsl-rules.md, "Shader
// models"). It reports false for a profile passlens has no stage for
// (hs_6_0, ms_6_5, ...).
func applyProfile(opts *hlsl.Options, profile string) bool {
	p, err := hlsl.ParseProfile(profile)
	if err != nil {
		return false
	}
	opts.Profile = p
	opts.Library = p.Library
	return true
}

// frontendError runs the frontend on one RUN line's source and returns
// its first error's category ("" when accepted).
func frontendError(tst *Test, run Run) string {
	src, ok := tst.Sections[run.Source]
	if !ok {
		return "RUN compiles no section"
	}
	opts := hlsl.Options{Entry: run.Entry, Defines: run.Defines, RowMajor: run.RowMaj, Enable16BitTypes: run.Half,
		ReadFile: func(path string) ([]byte, error) {
			if s, ok := tst.Sections[filepath.Base(path)]; ok {
				return []byte(s), nil
			}
			return nil, os.ErrNotExist
		}}
	if !applyProfile(&opts, run.Profile) {
		return "profile " + run.Profile
	}
	_, diags := hlsl.Frontend(run.Source, []byte(src), opts)
	if diags.HasErrors() {
		return category(diags)
	}
	return ""
}
