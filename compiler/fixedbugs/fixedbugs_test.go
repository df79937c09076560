package fixedbugs

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/load"
	"passlens/compiler/passes"
	"passlens/compiler/pipeline"
	"passlens/compiler/target"
	_ "passlens/compiler/target/all" // every back end, and sm3-lower
	"passlens/compiler/target/spirv"
	"passlens/internal/testtool/llvmverify"
	"passlens/internal/testtool/spirvval"
)

var (
	rejectsRE = regexp.MustCompile(`fixedbugs: (\S+) rejects "([^"]+)"`)
	bufferRE  = regexp.MustCompile(`fixedbugs: buffer (\S+) = ([-0-9 ]+)`)
)

// inputs returns the regression files in testdata.
func inputs(t *testing.T) []string {
	var out []string
	for _, ext := range []string{"hlsl", "pir", "ll"} {
		fs, err := filepath.Glob(filepath.Join("testdata", "*."+ext))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fs...)
	}
	if len(out) == 0 {
		t.Fatal("no regression inputs in testdata")
	}
	return out
}

func TestFixedBugs(t *testing.T) {
	for _, path := range inputs(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rejects := map[target.Name]string{}
		for _, m := range rejectsRE.FindAllStringSubmatch(string(src), -1) {
			rejects[target.Name(m[1])] = m[2]
		}
		var in *interp.Input
		if data, err := os.ReadFile(strings.TrimSuffix(path, filepath.Ext(path)) + ".json"); err == nil {
			if in, err = interp.ParseInputFile(path, data); err != nil {
				t.Fatalf("%s input: %v", path, err)
			}
		}
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			m, _, err := load.File(path, load.Options{})
			if err != nil {
				t.Fatalf("does not load: %v", err)
			}
			want, runErr := interp.Run(ir.CloneModule(m), in, interp.Options{})
			if runErr == nil {
				for _, bm := range bufferRE.FindAllStringSubmatch(string(src), -1) {
					checkBuffer(t, want, bm[1], bm[2])
				}
			} else if bufferRE.Match(src) {
				t.Fatalf("the input does not run, so its buffer lines cannot be checked: %v", runErr)
			}
			for _, tg := range passes.Targets {
				t.Run(string(tg), func(t *testing.T) {
					t.Parallel()
					var ref *interp.Result
					if runErr == nil {
						ref = want
					}
					compile(t, path, tg, rejects[tg], in, ref)
				})
			}
		})
	}
}

// compile runs target tg's default pipeline and back end on the file and
// checks the outcome (see the package doc).
func compile(t *testing.T, path string, tg target.Name, rejects string, in *interp.Input, want *interp.Result) {
	m, _, err := load.File(path, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	spec, err := pipeline.Default(tg)
	if err != nil {
		t.Fatal(err)
	}
	res := pipeline.Run(context.Background(), m, spec, pipeline.Options{Target: tg, VerifyEach: true})
	failure := ""
	var out *target.Output
	if res.Err != nil {
		failure = res.Err.Error()
	} else if out, err = target.Emit(tg, m); err != nil {
		failure = err.Error()
	}
	if rejects != "" {
		if !strings.Contains(failure, rejects) {
			t.Fatalf("want a rejection mentioning %q, got %q", rejects, failure)
		}
		return
	}
	if failure != "" {
		t.Fatalf("%s pipeline: %s", tg, failure)
	}
	if want != nil {
		for _, snap := range res.Snapshots[1:] {
			sm, err := snap.FreshModule()
			if err != nil {
				t.Fatalf("after %s: %v", snap.Pass, err)
			}
			got, err := interp.Run(sm, in, interp.Options{})
			if err != nil {
				t.Fatalf("after %s: %v", snap.Pass, err)
			}
			if ok, diff := want.Equal(got); !ok {
				t.Fatalf("after %s the results differ: %s", snap.Pass, diff)
			}
		}
	}
	validate(t, tg, out)
}

// validate runs the target's external validator on its output: spirv-val
// (internal/testtool/spirvval) and llvm-as-22's check (llvmverify); sm3
// has none.
func validate(t *testing.T, tg target.Name, out *target.Output) {
	switch tg {
	case target.SPIRV:
		words, err := spirv.Words(out.Binary)
		if err != nil {
			t.Fatal(err)
		}
		if msg := spirvval.Words(t, words, "vulkan1.1"); msg != "" {
			t.Fatalf("spirv-val rejects the spirv output: %s", msg)
		}
	case target.DXIL:
		if err := llvmverify.Text(t, "out.ll", out.Text); err != nil {
			t.Fatalf("llvm-as-22 rejects the dxil output: %v", err)
		}
	}
}

// checkBuffer requires buffer name of r to start with the integers ints.
func checkBuffer(t *testing.T, r *interp.Result, name, ints string) {
	t.Helper()
	b := r.Buffer(name)
	if b == nil {
		t.Fatalf("no buffer %s in the results", name)
	}
	for i, f := range strings.Fields(ints) {
		w, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			t.Fatalf("buffer line: %v", err)
		}
		if i >= len(b.Cells) || int32(uint32(b.Cells[i])) != int32(w) {
			t.Fatalf("buffer %s = %v, want %s (the bug report's values)", name, b.Cells, ints)
		}
	}
}
