package offload

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/hlsl/lower"
	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/pipeline"
	_ "passlens/compiler/target/all"
)

// The offload-test-suite as a peer conformance suite. Every .test file of
// ../shared/conformance/offload-test-suite/test is classified: run (a
// compute pipeline whose resources are buffers, compiled by the frontend,
// its buffers converted to the interpreter's input), unsupported (with
// the reason: stage, resource kind, pipeline feature, REQUIRES, the
// frontend's rejection, a buffer whose layout is not one value per
// element leaf), or expected to fail (XFAIL for DirectX with DXC, the
// platform passlens models). Run tests execute on the interpreter
// (D3D's fp32 denormal rule, wave size 32, or 64 when required) through the lowered module
// and after the spirv and dxil pipelines, and each Results entry is
// compared by its rule (compare.go). OFFLOAD_VERBOSE=1 lists every
// failure and unsupported test.

// suiteRoot is the suite's test directory beside the checkout.
const suiteRoot = "../../../shared/conformance/offload-test-suite/test"

// features are the lit features of the platform passlens models.
// (The interpreter runs a test at wave size 64 when it requires
// WaveSize_64, else at 32.)
var features = map[string]bool{"DirectX": true, "DXC": true, "WaveSize_32": true, "WaveSize_64": true,
	"Half": true, "Int16": true, "Double": true, "Int64": true, "SM_6_6": true,
	"Int64GroupSharedAtomics": true, "Int64TypedResourceAtomics": true}

// knownFailures are executed tests that fail, with the reason.
var knownFailures = map[string]string{}

type outcome struct {
	kind   string // "pass", "fail", "xfail-pass", "xfail-fail", "unsupported"
	reason string
}

func TestOffloadSuite(t *testing.T) {
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
	counts := map[string]int{}
	reasons := map[string]int{}
	verbose := os.Getenv("OFFLOAD_VERBOSE") != ""
	var failures []string
	for _, rel := range paths {
		tst, err := Read(suiteRoot, rel)
		if err != nil {
			t.Fatal(err)
		}
		o := runTest(tst, interp.DenormFTZ)
		counts[o.kind]++
		switch o.kind {
		case "unsupported":
			reasons[o.reason]++
			if verbose {
				t.Logf("%s: unsupported: %s", rel, o.reason)
			}
		case "fail":
			if why, ok := knownFailures[rel]; ok {
				counts["known"]++
				t.Logf("%s: known failure (%s): %s", rel, why, o.reason)
				continue
			}
			failures = append(failures, fmt.Sprintf("%s: %s", rel, o.reason))
		case "xfail-fail", "xfail-pass":
			if verbose {
				t.Logf("%s: %s %s", rel, o.kind, o.reason)
			}
		}
	}
	accepted := 0
	for _, rel := range paths {
		tst, _ := Read(suiteRoot, rel)
		if frontendAccepts(tst) {
			accepted++
		}
	}
	t.Logf("frontend acceptance: %d of %d tests compile (every RUN line's shader, its flags and stage)", accepted, len(paths))
	var rs []string
	for r, n := range reasons {
		rs = append(rs, fmt.Sprintf("%s %d", r, n))
	}
	sort.Strings(rs)
	executed := counts["pass"] + counts["fail"]
	t.Logf("offload-test-suite: %d tests; %d executed: %d pass, %d fail (%d known); expected to fail (XFAIL): %d fail, %d pass; unsupported %d: %s",
		len(paths), executed, counts["pass"], counts["fail"], counts["known"], counts["xfail-fail"], counts["xfail-pass"], counts["unsupported"], strings.Join(rs, ", "))
	for _, f := range failures {
		t.Error(f)
	}
	if executed == 0 {
		t.Error("no test executed")
	}
}

// TestOffloadDetectsDifferences is the negative control: with float32
// denormals kept (IEEE) instead of D3D's flush, the HLSLLib tests that
// feed -denorm to log, log2, log10 and sqrt must fail (NaN instead of
// -inf or -0); all of them pass with the flush.
func TestOffloadDetectsDifferences(t *testing.T) {
	if _, err := os.Stat(suiteRoot); err != nil {
		t.Skipf("no offload-test-suite at %s", suiteRoot)
	}
	var failed []string
	for _, rel := range []string{"Feature/HLSLLib/log.32.test", "Feature/HLSLLib/log2.32.test", "Feature/HLSLLib/log10.32.test",
		"Feature/HLSLLib/sqrt.32.test", "Feature/HLSLLib/ceil.32.test", "Feature/HLSLLib/floor.32.test"} {
		tst, err := Read(suiteRoot, rel)
		if err != nil {
			t.Fatal(err)
		}
		if o := runTest(tst, interp.DenormFTZ); o.kind != "pass" {
			t.Errorf("%s with flushed denormals: %s %s", rel, o.kind, o.reason)
		}
		if o := runTest(tst, interp.DenormPreserve); o.kind == "fail" {
			failed = append(failed, rel)
		}
	}
	if len(failed) < 4 { // log, log2, log10 and sqrt of -denorm give NaN when it is kept
		t.Errorf("with denormals kept only %v fail; the comparison does not see the difference", failed)
	}
	t.Logf("with denormals kept, %d tests fail: %v", len(failed), failed)
}

// prepared is a test ready to run: its lowered module, the
// interpreter's input, the global of each buffer name, the wave size and
// whether an XFAIL holds.
type prepared struct {
	m     *ir.Module
	in    *interp.Input
	names map[string]string
	p     *Pipeline
	run   Run
	wave  int
	xfail bool
}

// prepare classifies a test and, when it can run, compiles it and
// converts its buffers; otherwise it returns the "unsupported" outcome.
func prepare(tst *Test) (*prepared, *outcome) {
	unsup := func(format string, args ...any) (*prepared, *outcome) {
		return nil, &outcome{"unsupported", fmt.Sprintf(format, args...)}
	}
	for _, r := range tst.Requires {
		for _, f := range strings.Split(r, ",") {
			if !Eval(strings.TrimSpace(f), func(s string) bool { return features[s] }) {
				return unsup("requires %s", strings.TrimSpace(f))
			}
		}
	}
	for _, u := range tst.Unsupported {
		for _, f := range strings.Split(u, ",") {
			if Eval(strings.TrimSpace(f), func(s string) bool { return features[s] }) {
				return unsup("unsupported on DirectX/DXC")
			}
		}
	}
	wave := 32
	for _, r := range tst.Requires {
		if strings.Contains(r, "WaveSize_64") {
			wave = 64
		}
	}
	xfail := false
	for _, x := range tst.XFail {
		for _, f := range strings.Split(x, ",") {
			xfail = xfail || Eval(strings.TrimSpace(f), func(s string) bool { return features[s] })
		}
	}
	p := tst.Pipeline
	switch {
	case tst.PipelineErr != nil:
		return unsup("pipeline.yaml not read: %v", tst.PipelineErr)
	case p == nil:
		return unsup("no pipeline.yaml")
	case len(p.Shaders) != 1 || p.Shaders[0].Stage != "Compute":
		var st []string
		for _, s := range p.Shaders {
			st = append(st, s.Stage)
		}
		return unsup("stage %s", strings.Join(st, "+"))
	case len(p.Other) > 0:
		return unsup("pipeline %s", p.Other[0])
	case len(p.Results) == 0:
		return unsup("checked by FileCheck")
	case len(tst.Runs) != 1:
		return unsup("%d compile RUN lines", len(tst.Runs))
	}
	for _, r := range p.Resources {
		switch r.Kind {
		case "StructuredBuffer", "RWStructuredBuffer", "Buffer", "RWBuffer", "ByteAddressBuffer", "RWByteAddressBuffer", "ConstantBuffer":
		default:
			return unsup("resource %s", r.Kind)
		}
	}
	run := tst.Runs[0]
	if !strings.HasPrefix(run.Profile, "cs_6_") {
		return unsup("profile %s", run.Profile)
	}
	src, ok := tst.Sections[run.Source]
	if !ok {
		return unsup("RUN compiles %q, which is no section", run.Source)
	}
	opts := hlsl.Options{Entry: run.Entry, Stage: hlsl.StageCompute, Defines: run.Defines, RowMajor: run.RowMaj, Enable16BitTypes: run.Half,
		ReadFile: func(path string) ([]byte, error) {
			if s, ok := tst.Sections[filepath.Base(path)]; ok {
				return []byte(s), nil
			}
			return nil, os.ErrNotExist
		}}
	prog, diags := hlsl.Frontend(run.Source, []byte(src), opts)
	if diags.HasErrors() {
		return unsup("frontend: %s", category(diags))
	}
	m, ld := lower.Lower(prog, opts)
	if m == nil || ld.HasErrors() {
		return unsup("lowering: %s", category(ld))
	}
	in, names, why := inputs(m, p, src)
	if why == "" {
		why = constantBuffers(prog, m, p, in)
	}
	if why != "" {
		return unsup("%s", why)
	}
	return &prepared{m: m, in: in, names: names, p: p, run: run, wave: wave, xfail: xfail}, nil
}

// runTest classifies, compiles, runs and compares one test.
func runTest(tst *Test, denorm interp.Denorm) outcome {
	pr, o := prepare(tst)
	if o != nil {
		return *o
	}
	m, in, names, p, run, wave, xfail := pr.m, pr.in, pr.names, pr.p, pr.run, pr.wave, pr.xfail
	check := func(m *ir.Module, where string) string {
		res, err := interp.Run(m, in, interp.Options{Entry: run.Entry, WaveSize: wave, Denorm: denorm})
		if err != nil {
			return fmt.Sprintf("%s: run: %v", where, err)
		}
		for _, r := range p.Results {
			want := p.Buffer(r.Expected)
			if want == nil || names[r.Actual] == "" {
				return fmt.Sprintf("result %s names unknown buffers", r.Name)
			}
			got := res.Buffer(names[r.Actual])
			if d := Compare(r, got.Cells, want.Data, want.Bits, want.Float); d != "" {
				return where + ": " + d
			}
		}
		return ""
	}
	msg := check(m, "lowered")
	if tst.OffloaderFails {
		// A negative test: the offloader must report a difference
		// (the comparison, not the run, fails).
		switch {
		case msg == "":
			return outcome{"fail", "a negative test (not %offloader) whose results match"}
		case strings.HasPrefix(msg, "lowered: run:") || strings.Contains(msg, "unknown buffers"):
			return outcome{"fail", msg}
		}
		return outcome{"pass", ""}
	}
	for _, tgt := range []string{"spirv", "dxil"} {
		if msg != "" {
			break
		}
		spec, err := pipeline.Default(tgt)
		if err != nil {
			return outcome{"fail", err.Error()}
		}
		pr := pipeline.Run(context.Background(), ir.CloneModule(m), spec, pipeline.Options{Target: tgt, VerifyEach: true})
		if pr.Err != nil {
			msg = fmt.Sprintf("%s pipeline: %v", tgt, pr.Err)
			break
		}
		fm, err := pr.Final().FreshModule()
		if err != nil {
			msg = err.Error()
			break
		}
		msg = check(fm, "after the "+tgt+" pipeline")
	}
	switch {
	case xfail && msg == "":
		return outcome{"xfail-pass", ""}
	case xfail:
		return outcome{"xfail-fail", msg}
	case msg != "":
		return outcome{"fail", msg}
	}
	return outcome{"pass", ""}
}

// inputs converts the pipeline's buffers to the interpreter's input: each
// resource's buffer fills the storage global bound at its register and
// space (t registers read-only, u writable), one data value per element
// leaf. It returns the global of each buffer name, or why the buffers
// cannot be given.
func inputs(m *ir.Module, p *Pipeline, src string) (*interp.Input, map[string]string, string) {
	in := &interp.Input{Dispatch: p.Shaders[0].Groups}
	names := map[string]string{}
	for _, r := range p.Resources {
		b := p.Buffer(r.Name)
		if b == nil {
			return nil, nil, "resource without a buffer"
		}
		if r.Kind == "ConstantBuffer" {
			continue // constantBuffers
		}
		if b.ArraySize > 0 {
			return nil, nil, "resource arrays"
		}
		readOnly := !strings.HasPrefix(r.Kind, "RW")
		// The global bound at the register; without one (a resource
		// declared without register(), which DXC numbers in declaration
		// order) the global of the resource's name.
		var g *ir.Global
		for _, c := range m.Globals {
			if c.Space == ir.SpaceStorage && c.Set == r.Space && c.Binding == r.Register && c.ReadOnly == readOnly && !strings.HasSuffix(c.Name(), ".counter") {
				g = c
			}
		}
		if named := m.Global(r.Name); named != nil && named.Space == ir.SpaceStorage && named.ReadOnly == readOnly && (g == nil || !hasRegister(src, r.Name)) {
			g = named
		}
		if g == nil {
			// A resource the shader does not use has no global.
			continue
		}
		names[r.Name] = g.Name()
		el := g.ValType
		if el.Kind != ir.KArray || el.Len >= 0 {
			return nil, nil, "buffer type " + el.String()
		}
		leaves := leafTypes(el.Elem)
		for _, l := range leaves {
			w := l.Bits
			if l.Kind == ir.KBool {
				w = 32
			}
			if w != b.Bits {
				return nil, nil, fmt.Sprintf("buffer layout (%s elements of %s, %d-bit data)", el.Elem, b.Format, b.Bits)
			}
		}
		if len(leaves) == 0 || len(b.Data)%len(leaves) != 0 {
			return nil, nil, fmt.Sprintf("buffer layout (%d values for %s elements)", len(b.Data), el.Elem)
		}
		if b.Stride != 0 && b.Stride != len(leaves)*b.Bits/8 {
			return nil, nil, fmt.Sprintf("buffer layout (stride %d for %s)", b.Stride, el.Elem)
		}
		bi := interp.BufferInput{Name: g.Name(), Count: len(b.Data) / len(leaves)}
		if len(b.Data) == 0 {
			return nil, nil, "empty buffer"
		}
		for i := 0; i < len(b.Data); i += len(leaves) {
			var e []any
			for k, l := range leaves {
				v := b.Data[i+k]
				if l.Kind == ir.KBool {
					e = append(e, v != 0)
				} else {
					e = append(e, fmt.Sprintf("0x%x", v))
				}
			}
			if len(e) == 1 {
				bi.Data = append(bi.Data, e[0])
			} else {
				bi.Data = append(bi.Data, e)
			}
		}
		in.Buffers = append(in.Buffers, bi)
	}
	return in, names, ""
}

// leafTypes lists the scalar leaves of t in cell order.
func leafTypes(t *ir.Type) []*ir.Type {
	switch t.Kind {
	case ir.KVector:
		out := make([]*ir.Type, t.Len)
		for i := range out {
			out[i] = t.Elem
		}
		return out
	case ir.KMatrix:
		var out []*ir.Type
		for i := 0; i < t.Len*t.Cols; i++ {
			out = append(out, t.Elem)
		}
		return out
	case ir.KArray:
		var out []*ir.Type
		for i := 0; i < t.Len; i++ {
			out = append(out, leafTypes(t.Elem)...)
		}
		return out
	case ir.KStruct:
		var out []*ir.Type
		for _, f := range t.Fields {
			out = append(out, leafTypes(f.Type)...)
		}
		return out
	}
	return []*ir.Type{t}
}

// category summarizes the first error of a rejection for the report.
func category(d hlsl.Diagnostics) string {
	for _, e := range d {
		if e.Severity == hlsl.Error {
			m := e.Message
			if i := strings.IndexAny(m, "'\""); i > 0 {
				if j := strings.IndexAny(m[i+1:], "'\""); j > 0 {
					return m[:i+j+2]
				}
			}
			return m
		}
	}
	return "errors"
}

// hasRegister reports whether the source declares name with register().
func hasRegister(src, name string) bool {
	for _, l := range strings.Split(src, "\n") {
		f := strings.FieldsFunc(l, func(r rune) bool { return r == ' ' || r == '\t' || r == ';' || r == ':' || r == '<' || r == '>' })
		for i, w := range f {
			if w == name && i > 0 && strings.Contains(l, "register(") {
				return true
			}
		}
	}
	return false
}

// constantBuffers gives the interpreter the members of each ConstantBuffer
// resource as uniforms: the buffer's bytes are read at the offsets the
// frontend's D3D layout gives the cbuffer's members (16-byte registers;
// rows of a matrix as the IR stores it, and array elements, each start a
// register). Members of 32-bit scalars, vectors, matrices and arrays of
// them are supported. It returns why the buffers cannot be given, or "".
func constantBuffers(prog *hlsl.Program, m *ir.Module, p *Pipeline, in *interp.Input) string {
	for _, r := range p.Resources {
		if r.Kind != "ConstantBuffer" {
			continue
		}
		b := p.Buffer(r.Name)
		if b.Bits != 32 {
			return "constant buffer of 16- or 64-bit data"
		}
		var cb *hlsl.CBuffer
		for _, c := range prog.Buffers {
			if reg := c.Register; reg != nil && reg.Class == 'b' && reg.Index == r.Register && reg.Space == r.Space {
				cb = c
			}
		}
		if cb == nil {
			for _, c := range prog.Buffers {
				if c.Name == r.Name {
					cb = c
				}
			}
		}
		if cb == nil {
			continue // not used by the shader
		}
		g := m.Global(cb.Name)
		if g == nil || g.Space != ir.SpaceUniform || g.ValType.Kind != ir.KStruct || len(g.ValType.Fields) != len(cb.Members) {
			return "constant buffer " + cb.Name + " not lowered as one struct"
		}
		if in.Uniforms == nil {
			in.Uniforms = map[string]any{}
		}
		for i, mem := range cb.Members {
			f := g.ValType.Fields[i]
			var cells []any
			if !cbRead(f.Type, mem.Offset, b.Data, &cells) {
				return fmt.Sprintf("constant buffer member of type %s", f.Type)
			}
			in.Uniforms[g.Name()+"."+f.Name] = cells
		}
	}
	return ""
}

// cbRead appends the values of a t at byte offset off of 32-bit words.
func cbRead(t *ir.Type, off int, words []uint64, out *[]any) bool {
	word := func(o int) (uint64, bool) {
		if o%4 != 0 || o/4 >= len(words) {
			return 0, o/4 >= len(words) // beyond the data: zero
		}
		return words[o/4], true
	}
	switch t.Kind {
	case ir.KBool, ir.KInt, ir.KUint, ir.KFloat:
		if t.Kind != ir.KBool && t.Bits != 32 {
			return false
		}
		w, ok := word(off)
		if !ok {
			return false
		}
		if t.Kind == ir.KBool {
			*out = append(*out, w != 0)
		} else {
			*out = append(*out, fmt.Sprintf("0x%x", w))
		}
		return true
	case ir.KVector:
		for i := 0; i < t.Len; i++ {
			if !cbRead(t.Elem, off+4*i, words, out) {
				return false
			}
		}
		return true
	case ir.KMatrix:
		for r := 0; r < t.Len; r++ {
			if !cbRead(ir.Vec(t.Elem, t.Cols), off+16*r, words, out) {
				return false
			}
		}
		return true
	case ir.KArray:
		stride := 16
		switch t.Elem.Kind {
		case ir.KMatrix:
			stride = 16 * t.Elem.Len
		case ir.KArray, ir.KStruct:
			return false
		}
		for k := 0; k < t.Len; k++ {
			if !cbRead(t.Elem, off+stride*k, words, out) {
				return false
			}
		}
		return true
	}
	return false
}

// frontendAccepts reports whether the frontend accepts the shader of
// every RUN line of tst (with the line's entry, defines, -Zpr and
// -enable-16bit-types, and the stage of its -T profile); a test without
// RUN lines or with a profile of a stage the frontend lacks is not
// accepted.
func frontendAccepts(tst *Test) bool {
	if tst == nil || len(tst.Runs) == 0 {
		return false
	}
	for _, run := range tst.Runs {
		src, ok := tst.Sections[run.Source]
		if !ok {
			return false
		}
		var st hlsl.Stage
		switch {
		case strings.HasPrefix(run.Profile, "cs_"):
			st = hlsl.StageCompute
		case strings.HasPrefix(run.Profile, "ps_"):
			st = hlsl.StagePixel
		case strings.HasPrefix(run.Profile, "vs_"):
			st = hlsl.StageVertex
		default:
			return false
		}
		opts := hlsl.Options{Entry: run.Entry, Stage: st, Defines: run.Defines, RowMajor: run.RowMaj, Enable16BitTypes: run.Half,
			ReadFile: func(path string) ([]byte, error) {
				if s, ok := tst.Sections[filepath.Base(path)]; ok {
					return []byte(s), nil
				}
				return nil, os.ErrNotExist
			}}
		if _, d := hlsl.Frontend(run.Source, []byte(src), opts); d.HasErrors() {
			return false
		}
	}
	return true
}
