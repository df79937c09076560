// Package passtest runs pass test cases kept as files: every
// testdata/<pass>/<name>.pir holds an input module and, in comment lines at
// its top, the pass sequences to run over it and the input to run it on;
// the expected output of each sequence is testdata/<pass>/<name>.<seq>.want.pir
// (rewritten by `go test -update`). One runner (RunDir) checks every case
// the same way: each step verifies, reports "changed" exactly when the text
// changed, round-trips through the IR parser, and computes the same results
// as the input in the interpreter (differential execution).
//
// It also holds the helpers the control-flow pass tests share (loading,
// running, random CFG generators). The package is imported by tests only;
// it does not import package passes (whose own tests use it), so callers
// hand it a function that runs a pass by name.
//
// Directives, one per line, among the comment lines of a case file:
//
//	; run: out-of-ssa,structurize<ifs>   a pass sequence (repeatable)
//	; data: 0 1 2 -3                     the i32s of buffer @In (compute)
//	; pixel: m=37                        a 1x1 pixel draw with uniforms (none: "; pixel:")
//	; input: {"uniforms":{"x":"nan"}}     an interpreter input in the JSON form of
//	                                     docs/run.md, on one line (repeatable: the
//	                                     case runs on each)
//
// Without data, pixel or input a compute case gets Data. Input lines replace
// data and pixel (a case uses one kind). A file without run lines
// is an input that Go tests load (Load) and RunDir skips.
package passtest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/internal/golden"
)

// PassFunc runs the pass called name with option opt ("" for none) on m,
// in place, reporting whether it changed anything.
type PassFunc func(name, opt string, m *ir.Module) (changed bool, err error)

// Data feeds @In when a case gives none: small values, negatives, repeats,
// in 16 lanes.
var Data = []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, -1, 13, 3}

// Parse parses IR text and verifies it.
func Parse(t testing.TB, name, src string) *ir.Module {
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

// Load reads, parses and verifies the module in file path.
func Load(t testing.TB, path string) *ir.Module {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Parse(t, path, string(src))
}

// Apply runs pass name (option opt) through run on a clone of m and
// checks the result: no error, it verifies, and "changed" is reported
// exactly when the text changed. It returns the transformed clone and
// whether the pass reported a change.
func Apply(t testing.TB, run PassFunc, name, opt string, m *ir.Module) (*ir.Module, bool) {
	t.Helper()
	out := ir.CloneModule(m)
	changed, err := run(name, opt, out)
	if err != nil {
		t.Fatalf("%s: %v\ninput:\n%s", name, err, m)
	}
	if err := ir.Verify(out); err != nil {
		t.Fatalf("%s output does not verify: %v\n%s", name, err, out)
	}
	if textChanged := out.String() != m.String(); changed != textChanged {
		t.Fatalf("%s reported changed=%v, but the text changed=%v:\n%s", name, changed, textChanged, out)
	}
	return out, changed
}

// Input returns an input that dispatches one workgroup and fills @In with
// data (if the module has @In).
func Input(m *ir.Module, data []int32) *interp.Input {
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

// PixelInput shades one pixel with the given uniforms.
func PixelInput(uniforms map[string]any) *interp.Input {
	return &interp.Input{Rect: &interp.Rect{Width: 1, Height: 1}, Uniforms: uniforms}
}

// Run runs m's entry point under policy (16 lanes, 2M steps).
func Run(t testing.TB, m *ir.Module, in *interp.Input, policy interp.Policy) *interp.Result {
	t.Helper()
	res, err := interp.Run(m, in, interp.Options{Policy: policy, WaveSize: 16, MaxSteps: 2_000_000})
	if err != nil {
		t.Fatalf("run: %v\n%s", err, m)
	}
	return res
}

// SameRun checks that before and after produce bit-identical results on
// the input, under the maximal reconvergence policy.
func SameRun(t testing.TB, before, after *ir.Module, in *interp.Input) {
	t.Helper()
	rb := Run(t, before, in, interp.PolicyMaximal)
	ra := Run(t, after, in, interp.PolicyMaximal)
	if ok, why := rb.Equal(ra); !ok {
		t.Fatalf("results differ after the pass: %s\nbefore:\n%s\nafter:\n%s", why, before, after)
	}
}

// OutI32 returns the first n elements of buffer name as int32s.
func OutI32(t testing.TB, r *interp.Result, name string, n int) []int32 {
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

// WithoutIntrinsic returns a copy of m without calls of intrinsic name
// (markers for a back end, such as sm3.rep, that the interpreter runs as
// no-ops but a case may want gone).
func WithoutIntrinsic(m *ir.Module, name string) *ir.Module {
	c := ir.CloneModule(m)
	for _, f := range c.Funcs {
		for _, b := range f.Blocks {
			for _, in := range append([]*ir.Instr(nil), b.Instrs...) {
				if in.Op == ir.OpIntrinsic && in.Intr != nil && in.Intr.Name == name {
					in.Remove()
				}
			}
		}
	}
	return c
}

// Case is one case file: its input module's text and directives.
type Case struct {
	Path  string   // testdata/<pass>/<name>.pir
	Src   string   // the file's text
	Seqs  []string // pass sequences, comma-separated, with <option>s
	Data  []int32  // @In contents (nil: Data)
	Pixel map[string]any
	IsPix bool // a pixel draw (Pixel may be empty)
	// Inputs are the "; input:" lines; when there are any, the case runs on
	// each of them instead of Data, Pixel.
	Inputs []*interp.Input
}

// ReadCase reads and parses the directives of the case file path.
func ReadCase(path string) (*Case, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c := &Case{Path: path, Src: string(src)}
	for i, line := range strings.Split(c.Src, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), ";")
		if !ok {
			continue
		}
		key, val, ok := strings.Cut(strings.TrimSpace(rest), ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		where := fmt.Sprintf("%s:%d", path, i+1)
		switch key {
		case "run":
			if val == "" {
				return nil, fmt.Errorf("%s: empty pass sequence", where)
			}
			c.Seqs = append(c.Seqs, val)
		case "data":
			for _, f := range strings.Fields(val) {
				n, err := strconv.ParseInt(f, 10, 32)
				if err != nil {
					return nil, fmt.Errorf("%s: data: %v", where, err)
				}
				c.Data = append(c.Data, int32(n))
			}
		case "input":
			in, err := interp.ParseInputFile(where+": input", []byte(val))
			if err != nil {
				return nil, err
			}
			c.Inputs = append(c.Inputs, in)
		case "pixel":
			c.IsPix = true
			c.Pixel = map[string]any{}
			for _, f := range strings.Fields(val) {
				k, v, ok := strings.Cut(f, "=")
				n, err := strconv.Atoi(v)
				if !ok || err != nil {
					return nil, fmt.Errorf("%s: pixel: want name=integer, got %q", where, f)
				}
				c.Pixel[k] = n
			}
		}
	}
	if len(c.Inputs) > 0 && (c.IsPix || c.Data != nil) {
		return nil, fmt.Errorf("%s: input lines replace data and pixel; give one kind", path)
	}
	return c, nil
}

// WantPath is the expected-output file of sequence seq of the case: the
// case file's stem, the sequence with "," "<" ">" spelled "+" "(" ")", and
// ".want.pir".
func (c *Case) WantPath(seq string) string {
	stem := strings.TrimSuffix(c.Path, ".pir")
	return stem + "." + strings.NewReplacer(",", "+", "<", "(", ">", ")").Replace(seq) + ".want.pir"
}

// RunInputs returns the interpreter inputs of the case for module m: its
// input lines, or else the one input Input gives.
func (c *Case) RunInputs(m *ir.Module) []*interp.Input {
	if len(c.Inputs) > 0 {
		return c.Inputs
	}
	return []*interp.Input{c.Input(m)}
}

// Input returns the interpreter input of the case for module m (for a case
// with input lines, the first).
func (c *Case) Input(m *ir.Module) *interp.Input {
	if len(c.Inputs) > 0 {
		return c.Inputs[0]
	}
	if c.IsPix {
		return PixelInput(c.Pixel)
	}
	d := c.Data
	if d == nil {
		d = Data
	}
	return Input(m, d)
}

// Cases returns the case files under dir (dir/<pass>/*.pir, without the
// .want.pir outputs), sorted.
func Cases(dir string) ([]string, error) {
	all, err := filepath.Glob(filepath.Join(dir, "*", "*.pir"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range all {
		if !strings.HasSuffix(p, ".want.pir") {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out, nil
}

// RunDir runs every case under dir (see Cases) as a parallel subtest named
// <pass>/<name>/<seq>, and fails when a .want.pir file belongs to no case
// sequence (a stale expectation). prepare, if not nil, maps a pass's
// output to the module the interpreter runs (e.g. dropping back-end
// markers).
func RunDir(t *testing.T, dir string, run PassFunc, prepare func(*ir.Module) *ir.Module) {
	paths, err := Cases(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no case files in %s/*/", dir)
	}
	wanted := map[string]bool{}
	for _, p := range paths {
		c, err := ReadCase(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, strings.TrimSuffix(p, ".pir"))
		for _, seq := range c.Seqs {
			wanted[c.WantPath(seq)] = true
			t.Run(filepath.ToSlash(rel)+"/"+seq, func(t *testing.T) {
				t.Parallel()
				RunCase(t, c, seq, run, prepare)
			})
		}
	}
	wants, _ := filepath.Glob(filepath.Join(dir, "*", "*.want.pir"))
	for _, w := range wants {
		if !wanted[w] && !golden.Update() {
			t.Errorf("%s is the output of no \"; run:\" line of its case file", w)
		}
	}
}

// RunCase runs sequence seq of case c step by step (see Apply), requiring
// after every step a parser round trip and the results of every input, and
// compares the final text with the case's .want.pir (golden.Check).
func RunCase(t *testing.T, c *Case, seq string, run PassFunc, prepare func(*ir.Module) *ir.Module) {
	t.Helper()
	orig := Parse(t, c.Path, c.Src)
	ins := c.RunInputs(orig)
	want := make([]*interp.Result, len(ins))
	for i, in := range ins {
		want[i] = Run(t, orig, in, interp.PolicyMaximal)
	}
	cur := orig
	for _, step := range strings.Split(seq, ",") {
		name, opt, _ := strings.Cut(strings.TrimSpace(step), "<")
		opt = strings.TrimSuffix(opt, ">")
		cur, _ = Apply(t, run, name, opt, cur)
		text := cur.String()
		back, err := ir.ParseModule("reparse", []byte(text))
		if err != nil || back.String() != text {
			t.Fatalf("%s output does not round-trip: %v", name, err)
		}
		runnable := cur
		if prepare != nil {
			runnable = prepare(cur)
		}
		for i, in := range ins {
			got := Run(t, runnable, in, interp.PolicyMaximal)
			if ok, why := want[i].Equal(got); !ok {
				t.Fatalf("after %s the results on input %d differ: %s\n%s", name, i+1, why, cur)
			}
		}
	}
	golden.Check(t, c.WantPath(seq), []byte(cur.String()))
}
