package passes

import (
	"fmt"
	"path/filepath"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/passes/passtest"
)

// Test helpers shared by the control-flow pass tests, over passtest. Test
// modules live in testdata/<pass>/: compute shaders that read @In[tid] (an
// i32 per thread, when present) and write @Out[tid], so one run exercises
// many paths at once and the interpreter's buffers are the observable
// result. TestPassCases runs every case file there (passtest.RunDir).

// runByName runs a registered pass with an option, for passtest.
func runByName(name, opt string, m *ir.Module) (bool, error) {
	p := Lookup(name)
	if p == nil {
		return false, fmt.Errorf("unknown pass %q", name)
	}
	ctx := &Context{}
	if opt != "" {
		ctx.Options = map[string]string{name: opt}
	}
	return p.Run(m, ctx)
}

// TestPassCases runs the case files testdata/<pass>/*.pir: every pass
// sequence named in a file, checked step by step and against its
// .want.pir (go test -update rewrites them).
func TestPassCases(t *testing.T) {
	t.Parallel()
	passtest.RunDir(t, "testdata", runByName, nil)
}

// cfLoad parses testdata/<pass>/<name>.pir and verifies it.
func cfLoad(t *testing.T, name string) *ir.Module {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join("testdata", "*", name+".pir"))
	if len(paths) != 1 {
		t.Fatalf("want one testdata/*/%s.pir, found %v", name, paths)
	}
	return passtest.Load(t, paths[0])
}

// cfParse parses IR text and verifies it.
func cfParse(t *testing.T, name, src string) *ir.Module { return passtest.Parse(t, name, src) }

// cfApply runs p (with option opt, "" for none) on a clone of m and
// verifies the result (passtest.Apply). It returns the transformed module
// and whether the pass reported a change.
func cfApply(t *testing.T, p *Pass, m *ir.Module, opt string) (*ir.Module, bool) {
	t.Helper()
	return passtest.Apply(t, runByName, p.Name, opt, m)
}

// cfInput returns an input that dispatches one workgroup and fills @In
// with data (if the module has @In).
func cfInput(m *ir.Module, data []int32) *interp.Input { return passtest.Input(m, data) }

// cfRun runs m's entry point.
func cfRun(t *testing.T, m *ir.Module, in *interp.Input, policy interp.Policy) *interp.Result {
	t.Helper()
	return passtest.Run(t, m, in, policy)
}

// cfSameRun checks that before and after produce bit-identical results on
// the input, under the maximal reconvergence policy.
func cfSameRun(t *testing.T, before, after *ir.Module, in *interp.Input) {
	t.Helper()
	passtest.SameRun(t, before, after, in)
}

// cfOutI32 returns the first n elements of buffer name as int32s.
func cfOutI32(t *testing.T, r *interp.Result, name string, n int) []int32 {
	t.Helper()
	return passtest.OutI32(t, r, name, n)
}

// cfFuncText prints function name of m.
func cfFuncText(t *testing.T, m *ir.Module, name string) string {
	t.Helper()
	f := m.Func(name)
	if f == nil {
		t.Fatalf("no function @%s", name)
	}
	return f.String()
}

// cfData feeds @In when a case gives none.
var cfData = passtest.Data
