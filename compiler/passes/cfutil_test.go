package passes

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
)

var updateCF = flag.Bool("update-cf", false, "rewrite the control-flow passes' golden outputs in testdata/cf/golden")

// Test helpers shared by the control-flow pass tests. Test modules live in
// testdata/cf/golden: compute shaders that read @In[tid] (an i32 per thread, when
// present) and write @Out[tid], so one run exercises many paths at once
// and the interpreter's buffers are the observable result.

// cfLoad parses testdata/cf/golden/<name>.pir and verifies it.
func cfLoad(t *testing.T, name string) *ir.Module {
	t.Helper()
	path := filepath.Join("testdata", "cf", "golden", name+".pir")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return cfParse(t, path, string(src))
}

// cfParse parses IR text and verifies it.
func cfParse(t *testing.T, name, src string) *ir.Module {
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

// cfApply runs p (with option opt, "" for none) on a clone of m and
// verifies the result. It returns the transformed module and whether the
// pass reported a change.
func cfApply(t *testing.T, p *Pass, m *ir.Module, opt string) (*ir.Module, bool) {
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
	if textChanged := out.String() != m.String(); changed != textChanged {
		t.Fatalf("%s reported changed=%v, but the text changed=%v:\n%s", p.Name, changed, textChanged, out)
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

// cfRun runs m's entry point.
func cfRun(t *testing.T, m *ir.Module, in *interp.Input, policy interp.Policy) *interp.Result {
	t.Helper()
	res, err := interp.Run(m, in, interp.Options{Policy: policy, WaveSize: 16, MaxSteps: 2_000_000})
	if err != nil {
		t.Fatalf("run: %v\n%s", err, m)
	}
	return res
}

// cfSameRun checks that before and after produce bit-identical results on
// the input, under the maximal reconvergence policy.
func cfSameRun(t *testing.T, before, after *ir.Module, in *interp.Input) {
	t.Helper()
	rb := cfRun(t, before, in, interp.PolicyMaximal)
	ra := cfRun(t, after, in, interp.PolicyMaximal)
	if ok, why := rb.Equal(ra); !ok {
		t.Fatalf("results differ after the pass: %s\nbefore:\n%s\nafter:\n%s", why, before, after)
	}
}

// cfOutI32 returns the first n elements of buffer name as int32s.
func cfOutI32(t *testing.T, r *interp.Result, name string, n int) []int32 {
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

// cfFuncText prints function name of m.
func cfFuncText(t *testing.T, m *ir.Module, name string) string {
	t.Helper()
	f := m.Func(name)
	if f == nil {
		t.Fatalf("no function @%s", name)
	}
	return f.String()
}

// cfDiffLines returns a compact line diff of want and got for failure
// messages.
func cfDiffLines(want, got string) string {
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

// cfGolden is a table-driven before/after test: a module from
// testdata/cf/golden, a pass sequence, and the expected output text in
// testdata/cf/golden/<want>.want.pir (rewritten by -update-cf). Every step
// is verified, must report "changed" exactly when the text changed, must
// round-trip through the parser, and must compute the same results as the
// input on the given data (differential execution with the interpreter).
type cfGolden struct {
	file   string
	passes string // comma-separated, with <option>s
	want   string // golden output stem ("" = file with the passes' names)
	data   []int32
	input  *interp.Input // instead of data (pixel shaders)
}

// cfData feeds @In when a case gives none: small values, negatives,
// repeats, in 16 lanes.
var cfData = []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, -1, 13, 3}

func cfRunGolden(t *testing.T, cases []cfGolden) {
	for _, tc := range cases {
		name := tc.want
		if name == "" {
			name = tc.file + "." + strings.NewReplacer(",", "+", "<", "(", ">", ")").Replace(tc.passes)
		}
		t.Run(name, func(t *testing.T) {
			orig := cfLoad(t, tc.file)
			in := tc.input
			if in == nil {
				d := tc.data
				if d == nil {
					d = cfData
				}
				in = cfInput(orig, d)
			}
			want := cfRun(t, orig, in, interp.PolicyMaximal)
			cur := orig
			for _, step := range strings.Split(tc.passes, ",") {
				pname, opt, _ := strings.Cut(step, "<")
				opt = strings.TrimSuffix(opt, ">")
				p := Lookup(pname)
				if p == nil {
					t.Fatalf("unknown pass %q", pname)
				}
				cur, _ = cfApply(t, p, cur, opt)
				text := cur.String()
				back, err := ir.ParseModule("reparse", []byte(text))
				if err != nil || back.String() != text {
					t.Fatalf("%s output does not round-trip: %v", pname, err)
				}
				got := cfRun(t, stripRepMarkers(cur), in, interp.PolicyMaximal)
				if ok, why := want.Equal(got); !ok {
					t.Fatalf("after %s the results differ: %s\n%s", pname, why, cur)
				}
			}
			path := filepath.Join("testdata", "cf", "golden", name+".want.pir")
			got := cur.String()
			if *updateCF {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			wb, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update-cf to create it)", err)
			}
			if string(wb) != got {
				t.Errorf("output differs from %s:\n%s\ngot:\n%s", path, cfDiffLines(string(wb), got), got)
			}
		})
	}
}

// stripRepMarkers returns a copy of m without sm3.rep loop markers: they
// are metadata for the SM3 back end, which the interpreter does not know.
// The iteration cap they describe is ordinary code and stays.
func stripRepMarkers(m *ir.Module) *ir.Module {
	c := ir.CloneModule(m)
	for _, f := range c.Funcs {
		for _, b := range f.Blocks {
			for _, in := range append([]*ir.Instr(nil), b.Instrs...) {
				if in.Op == ir.OpIntrinsic && in.Intr != nil && in.Intr.Name == SM3RepIntrinsic {
					in.Remove()
				}
			}
		}
	}
	return c
}
