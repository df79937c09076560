package passes

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
)

// Test helpers shared by the control-flow pass tests. Test modules live in
// testdata/cf: compute shaders that read @In[tid] (an i32 per thread, when
// present) and write @Out[tid], so one run exercises many paths at once
// and the interpreter's buffers are the observable result.

// loadCF parses testdata/cf/<name>.pir and verifies it.
func loadCF(t *testing.T, name string) *ir.Module {
	t.Helper()
	path := filepath.Join("testdata", "cf", name+".pir")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return parseCF(t, path, string(src))
}

// parseCF parses IR text and verifies it.
func parseCF(t *testing.T, name, src string) *ir.Module {
	t.Helper()
	m, err := ir.ParseModule(name, []byte(src))
	if err != nil {
		t.Fatalf("parse %s: %v", name, err)
	}
	if err := ir.Verify(m); err != nil {
		t.Fatalf("%s does not verify: %v", name, err)
	}
	return m
}

// applyPass runs p (with option opt, "" for none) on a clone of m and
// verifies the result. It returns the transformed module and whether the
// pass reported a change.
func applyPass(t *testing.T, p *Pass, m *ir.Module, opt string) (*ir.Module, bool) {
	t.Helper()
	out := ir.CloneModule(m)
	ctx := &Context{}
	if opt != "" {
		ctx.Options = map[string]string{p.Name: opt}
	}
	changed, err := p.Run(out, ctx)
	if err != nil {
		t.Fatalf("%s: %v\ninput:\n%s", p.Name, err, m)
	}
	if err := ir.Verify(out); err != nil {
		t.Fatalf("%s output does not verify: %v\n%s", p.Name, err, out)
	}
	if !changed && out.String() != m.String() {
		t.Fatalf("%s reported no change but changed the module:\n%s", p.Name, out)
	}
	return out, changed
}

// cfInput returns an input that dispatches one workgroup and fills @In
// with data (if the module has @In).
func cfInput(m *ir.Module, data []int32) *interp.Input {
	in := &interp.Input{Dispatch: [3]int{1, 1, 1}}
	if m.Global("In") != nil {
		d := make([]any, len(data))
		for i, x := range data {
			d[i] = x
		}
		in.Buffers = []interp.BufferInput{{Name: "In", Data: d}}
	}
	return in
}

// runCF runs m's entry point.
func runCF(t *testing.T, m *ir.Module, in *interp.Input, policy interp.Policy) *interp.Result {
	t.Helper()
	res, err := interp.Run(m, in, interp.Options{Policy: policy, WaveSize: 16, MaxSteps: 2_000_000})
	if err != nil {
		t.Fatalf("run: %v\n%s", err, m)
	}
	return res
}

// sameRun checks that before and after produce bit-identical results on
// the input, under the maximal reconvergence policy.
func sameRun(t *testing.T, before, after *ir.Module, in *interp.Input) {
	t.Helper()
	rb := runCF(t, before, in, interp.PolicyMaximal)
	ra := runCF(t, after, in, interp.PolicyMaximal)
	if ok, why := rb.Equal(ra); !ok {
		t.Fatalf("results differ after the pass: %s\nbefore:\n%s\nafter:\n%s", why, before, after)
	}
}

// outI32 returns the first n elements of buffer name as int32s.
func outI32(t *testing.T, r *interp.Result, name string, n int) []int32 {
	t.Helper()
	b := r.Buffer(name)
	if b == nil {
		t.Fatalf("no buffer %s", name)
	}
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(uint32(b.Cells[i]))
	}
	return out
}

// funcText prints function name of m.
func funcText(t *testing.T, m *ir.Module, name string) string {
	t.Helper()
	f := m.Func(name)
	if f == nil {
		t.Fatalf("no function @%s", name)
	}
	return f.String()
}

// diffLines returns a compact line diff of want and got for failure
// messages.
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var sb strings.Builder
	n := max(len(w), len(g))
	for i := 0; i < n; i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			sb.WriteString("  line " + strconv.Itoa(i+1) + ":\n    want: " + a + "\n    got:  " + b + "\n")
		}
	}
	return sb.String()
}
