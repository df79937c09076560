package llvm_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"passlens/compiler/analysis/analysistest"
	"passlens/compiler/analysis/uniformity/uniformitytest"
	"passlens/compiler/hlsl"
	"passlens/compiler/hlsl/lower"
	"passlens/compiler/ir"
	"passlens/compiler/llvm"
	"passlens/compiler/load"
	"passlens/compiler/pipeline"
	"passlens/compiler/target/dxil"
	"passlens/internal/headless"
	"passlens/internal/testtool"
	"passlens/internal/vkd3d"
	"passlens/samples"
)

// The corpus tests measure the importer on real compiler output: every
// module is produced at test time (clang-22 from the OpenCL kernels of
// testdata/opencl; opt-22 -O3 from passlens's own amdgcn export of the
// embedded samples and of the vkd3d shaders), imported, and for every
// defined function passlens's dominator tree, post-dominator tree, cycles
// and uniformity (as `passlens analyze --print=...` prints them, through
// internal/headless) must equal opt-22's as sets, the import must verify,
// and passlens's text of the import must parse back to the same text. opt-22 runs once per
// module, at most two at a time.

// analysisPasses are the printers opt-22 runs after the module's pipeline.
const analysisPasses = "print<domtree>,print<postdomtree>,print<cycles>,print<uniformity>"

var analysisKinds = []string{"domtree", "postdomtree", "cycles", "uniformity"}

// corpusStats counts what a corpus run covered.
type corpusStats struct {
	mu                                  sync.Mutex
	modules, imported, funcs            int
	dom, pdom, cycles, uniformity, full int
	opaque                              int // functions with at least one opaque operation
	exact                               int // modules whose analyze output equals opt's line by line
	notExported                         map[string]int
	opaqueOps                           map[string]int // opaque intrinsic -> functions using it
	failures                            []string
}

func (s *corpusStats) fail(format string, args ...any) {
	s.mu.Lock()
	s.failures = append(s.failures, fmt.Sprintf(format, args...))
	s.mu.Unlock()
}

func (s *corpusStats) String() string {
	msg := fmt.Sprintf("%d modules, %d imported; %d functions: domtree %d, postdomtree %d, cycles %d, uniformity %d equal to opt-22 (%d equal in all four; %d contain opaque operations)",
		s.modules, s.imported, s.funcs, s.dom, s.pdom, s.cycles, s.uniformity, s.full, s.opaque)
	if len(s.notExported) > 0 {
		var rs []string
		n := 0
		for r, k := range s.notExported {
			rs = append(rs, fmt.Sprintf("%q: %d", r, k))
			n += k
		}
		sort.Strings(rs)
		msg += fmt.Sprintf("; %d not exported (outside the exporter's subset) [%s]", n, strings.Join(rs, ", "))
	}
	if len(s.opaqueOps) > 0 {
		var os []string
		for k, n := range s.opaqueOps {
			os = append(os, fmt.Sprintf("%s: %d", strings.TrimPrefix(k, "llvm.opaque."), n))
		}
		sort.Strings(os)
		msg += "; opaque operations by function count [" + strings.Join(os, ", ") + "]"
	}
	return msg
}

// splitAnalyses separates printer output into the tree/cycle part (for
// analysistest.ParseOpt) and the uniformity part (for uniformitytest.ParseUniformity).
func splitAnalyses(text string) (trees, unif string) {
	var tb, ub strings.Builder
	inUnif := false
	for _, line := range strings.SplitAfter(text, "\n") {
		switch {
		case strings.HasPrefix(line, "UniformityInfo for function"):
			inUnif = true
		case strings.HasPrefix(line, "DominatorTree for function"),
			strings.HasPrefix(line, "PostDominatorTree for function"),
			strings.HasPrefix(line, "CycleInfo for function"):
			inUnif = false
		}
		if inUnif {
			ub.WriteString(line)
		} else {
			tb.WriteString(line)
		}
	}
	return tb.String(), ub.String()
}

// parseAnalyses parses the output of the four printers, by function name.
func parseAnalyses(text string) (map[string]*analysistest.OptFunc, map[string]*uniformitytest.UniformitySets, error) {
	trees, unif := splitAnalyses(text)
	fs, err := analysistest.ParseOpt(strings.NewReader(trees))
	if err != nil {
		return nil, nil, err
	}
	us, err := uniformitytest.ParseUniformity(strings.NewReader(unif))
	if err != nil {
		return nil, nil, err
	}
	fm := map[string]*analysistest.OptFunc{}
	for _, f := range fs {
		// Merge sections printed apart (opt prints pass by pass when
		// the printers are not grouped).
		if g := fm[f.Name]; g != nil {
			if f.DomTree != nil {
				g.DomTree = f.DomTree
			}
			if f.PostDomTree != nil {
				g.PostDomTree = f.PostDomTree
			}
			if f.Cycles != nil {
				g.Cycles = f.Cycles
			}
			continue
		}
		fm[f.Name] = f
	}
	um := map[string]*uniformitytest.UniformitySets{}
	for _, u := range us {
		um[u.Func] = u
	}
	return fm, um, nil
}

// compareModule imports ll (opt's or clang's output) and compares every
// defined function with optOut, opt-22's printer output for the same text.
func compareModule(t *testing.T, label string, ll []byte, optOut string, st *corpusStats) {
	if msg := cfgOnlyDiff(label, ll); msg != "" {
		st.fail("%s", msg)
	}
	m, err := llvm.Import(label, ll)
	if err != nil {
		st.fail("%s: import: %v", label, err)
		return
	}
	// The import is valid passlens IR (so passlens's passes can run on it).
	if err := ir.Verify(m); err != nil {
		st.fail("%s: the import does not verify: %v", label, err)
	}
	// passlens's own text of the import reads back to the same text.
	text := m.String()
	if m2, err := ir.ParseModule(label, []byte(text)); err != nil {
		st.fail("%s: the imported module's passlens text does not parse: %v", label, err)
	} else if text2 := m2.String(); text2 != text {
		st.fail("%s: print -> parse -> print changed the passlens text", label)
	}
	var mine bytes.Buffer
	if err := headless.Analyze(&mine, m, analysisKinds, ""); err != nil {
		if strings.Contains(err.Error(), "defines no function") {
			st.mu.Lock()
			st.imported++
			st.mu.Unlock()
			return
		}
		st.fail("%s: analyze: %v", label, err)
		return
	}
	wantF, wantU, err := parseAnalyses(optOut)
	if err != nil {
		st.fail("%s: parsing opt-22 output: %v", label, err)
		return
	}
	gotF, gotU, err := parseAnalyses(mine.String())
	if err != nil {
		st.fail("%s: parsing passlens output: %v", label, err)
		return
	}
	type res struct {
		dom, pdom, cyc, uni, opq bool
		ops                      map[string]bool
	}
	var local []res
	for _, f := range m.Funcs {
		if f.IsDeclaration() {
			continue
		}
		name := f.Name()
		w, g := wantF[name], gotF[name]
		wu, gu := wantU[name], gotU[name]
		if w == nil || g == nil || wu == nil || gu == nil || w.DomTree == nil || w.PostDomTree == nil || w.Cycles == nil {
			st.fail("%s: @%s: missing analyses (opt %v, passlens %v)", label, name, w != nil && wu != nil, g != nil && gu != nil)
			local = append(local, res{})
			continue
		}
		var r res
		var diffs []string
		d := analysistest.CompareTrees(w.DomTree, g.DomTree, 3)
		r.dom = len(d) == 0
		diffs = append(diffs, prefixed("domtree: ", d)...)
		d = analysistest.CompareTrees(w.PostDomTree, g.PostDomTree, 3)
		r.pdom = len(d) == 0
		diffs = append(diffs, prefixed("postdomtree: ", d)...)
		d = analysistest.CompareCycles(w.Cycles, g.Cycles, 3)
		r.cyc = len(d) == 0
		diffs = append(diffs, prefixed("cycles: ", d)...)
		d = uniformitytest.CompareUniformity(wu, gu, uniformitytest.CompareUniformityOptions{CommonValues: true, Temporal: true, Limit: 5})
		r.uni = len(d) == 0
		diffs = append(diffs, prefixed("uniformity: ", d)...)
		r.opq = hasOpaque(f)
		r.ops = opaqueNames(f)
		if len(diffs) > 0 {
			st.fail("%s: @%s differs from opt-22:\n    %s", label, name, strings.Join(diffs, "\n    "))
		}
		local = append(local, r)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.imported++
	for _, r := range local {
		st.funcs++
		st.dom += b2i(r.dom)
		st.pdom += b2i(r.pdom)
		st.cycles += b2i(r.cyc)
		st.uniformity += b2i(r.uni)
		st.full += b2i(r.dom && r.pdom && r.cyc && r.uni)
		st.opaque += b2i(r.opq)
		for k := range r.ops {
			if st.opaqueOps == nil {
				st.opaqueOps = map[string]int{}
			}
			st.opaqueOps[k]++
		}
	}
}

// compareExact loads ll as `passlens analyze` does (load.Module, so with
// the import's LLVM listing) and requires its output for the four
// analyses to equal opt-22's byte for byte, after NormalizeOptOrder on
// both (the order of three uniformity lists; docs/analyses.md).
func compareExact(label string, ll []byte, optOut string, st *corpusStats) {
	src := &load.Source{Name: label, Path: label, Kind: "ll", Text: ll}
	m, err := load.Module(src, load.Options{})
	if err != nil {
		st.fail("%s: load: %v", label, err)
		return
	}
	var mine bytes.Buffer
	if err := headless.AnalyzeListing(&mine, m, src.Listing, analysisKinds, ""); err != nil {
		st.fail("%s: analyze: %v", label, err)
		return
	}
	want := uniformitytest.NormalizeOptOrder(optOut)
	got := uniformitytest.NormalizeOptOrder(mine.String())
	if want == got {
		st.mu.Lock()
		st.exact++
		st.mu.Unlock()
		return
	}
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			st.fail("%s: line %d differs from opt-22:\n    opt:      %q\n    passlens: %q", label, i+1, w, g)
			return
		}
	}
}

func prefixed(p string, ds []string) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = p + d
	}
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func opaqueNames(f *ir.Function) map[string]bool {
	out := map[string]bool{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if llvm.IsOpaque(in) {
				out[in.Intr.Name] = true
			}
		}
	}
	return out
}

func hasOpaque(f *ir.Function) bool {
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if llvm.IsOpaque(in) {
				return true
			}
		}
	}
	return false
}

// runTool runs a command and returns its standard output and error.
func runTool(ctx context.Context, stdin []byte, name string, args ...string) (string, string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return out.String(), errb.String(), err
}

// corpusJob produces one module's text (nil when the job is to be
// skipped) and opt-22's output for the final text.
type corpusJob struct {
	label string
	run   func(ctx context.Context) (ll []byte, optOut string, err error)
	// exact also requires `passlens analyze`'s whole output (LLVM
	// instruction text on .ll input) to equal opt-22's line for line
	// (compareExact).
	exact bool
}

// runCorpus runs the jobs two at a time and compares each module.
func runCorpus(t *testing.T, jobs []corpusJob) *corpusStats {
	st := &corpusStats{}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	work := make(chan corpusJob)
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				ll, optOut, err := j.run(ctx)
				if ne, ok := err.(errNotExported); ok {
					st.mu.Lock()
					if st.notExported == nil {
						st.notExported = map[string]int{}
					}
					st.notExported[exportReason(ne.err.Error())]++
					st.mu.Unlock()
					continue
				}
				if err != nil {
					st.fail("%s: %v", j.label, err)
					continue
				}
				if ll == nil {
					continue
				}
				st.mu.Lock()
				st.modules++
				st.mu.Unlock()
				compareModule(t, j.label, ll, optOut, st)
				if j.exact {
					compareExact(j.label, ll, optOut, st)
				}
			}
		}()
	}
	for _, j := range jobs {
		work <- j
	}
	close(work)
	wg.Wait()
	sort.Strings(st.failures)
	for _, f := range st.failures {
		t.Error(f)
	}
	return st
}

// TestOpenCLCorpus compiles every kernel of testdata/opencl with clang-22
// for gfx1100 at -O2 and compares the imported functions with opt-22.
func TestOpenCLCorpus(t *testing.T) {
	t.Parallel()
	opt := testtool.Require(t, "opt-22", "llvm-22")
	clang := testtool.Require(t, "clang-22", "clang-22")
	files, err := filepath.Glob(filepath.Join("testdata", "opencl", "*.cl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 40 {
		t.Fatalf("%d OpenCL kernels in testdata/opencl, want at least 40", len(files))
	}
	var jobs []corpusJob
	for _, f := range files {
		jobs = append(jobs, corpusJob{label: filepath.Base(f), run: func(ctx context.Context) ([]byte, string, error) {
			ll, errs, err := runTool(ctx, nil, clang, "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa",
				"-nogpulib", "-mcpu=gfx1100", "-O2", "-emit-llvm", "-S", "-o", "-", f)
			if err != nil {
				return nil, "", fmt.Errorf("clang-22: %v\n%s", err, errs)
			}
			_, optOut, err := runTool(ctx, []byte(ll), opt, "-mtriple=amdgcn--", "-passes="+analysisPasses, "-disable-output", "-")
			if err != nil {
				return nil, "", fmt.Errorf("opt-22: %v\n%s", err, optOut)
			}
			return []byte(ll), optOut, nil
		}, exact: true})
	}
	st := runCorpus(t, jobs)
	t.Logf("OpenCL corpus (clang-22 -O2, gfx1100): %s; %d of %d modules print exactly as opt-22 (after NormalizeOptOrder)", st, st.exact, st.modules)
	if st.exact != st.modules {
		t.Errorf("%d of %d modules differ from opt-22 line by line", st.modules-st.exact, st.modules)
	}
}

// exportJob exports m to LLVM IR, runs opt-22 -O3 (amdgcn) with the
// printers after it, and returns the optimised text and the printers'
// output (one opt run).
func exportJob(label string, m *ir.Module, export func(*ir.Module) (string, error), opt string) corpusJob {
	return corpusJob{label: label, run: func(ctx context.Context) ([]byte, string, error) {
		text, err := export(m)
		if err != nil {
			return nil, "", errNotExported{err}
		}
		out, errs, err := runTool(ctx, []byte(text), opt, "-mtriple=amdgcn--",
			"-passes=default<O3>,function("+analysisPasses+")", "-S", "-o", "-", "-")
		if err != nil {
			return nil, "", fmt.Errorf("opt-22 -O3: %v\n%s", err, lastLines(errs, 5))
		}
		return []byte(out), errs, nil
	}}
}

// errNotExported marks a module outside llvm.Export's subset: counted by
// reason, not a failure of the importer.
type errNotExported struct{ err error }

func (e errNotExported) Error() string { return e.err.Error() }

// exportReason shortens an export error to its reason (no instruction
// text, no names).
func exportReason(msg string) string {
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	if len(msg) > 60 {
		msg = msg[:60]
	}
	return msg
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}

// corpusModule is one passlens module of the exported corpora.
type corpusModule struct {
	label string
	m     *ir.Module
}

// exportedModules returns every embedded sample that loads and every
// vkd3d shader unit the HLSL front end lowers (under -short every fourth
// unit), each freshly built, and the number of samples among them.
func exportedModules(t *testing.T) ([]corpusModule, int) {
	var out []corpusModule
	for _, s := range samples.All() {
		src := &load.Source{Name: s.Name, Path: "samples/" + s.File, Text: s.Source}
		switch filepath.Ext(s.File) {
		case ".hlsl":
			src.Kind = "hlsl"
		case ".pir":
			src.Kind = "pir"
		case ".ll":
			src.Kind = "ll"
		}
		m, err := load.Module(src, load.Options{})
		if err != nil {
			continue
		}
		out = append(out, corpusModule{"samples/" + s.File, m})
	}
	nSamples := len(out)
	if _, err := vkd3d.Dir(); err != nil {
		return out, nSamples
	}
	n := 0
	for _, f := range vkd3d.Load(t) {
		for _, u := range f.Units() {
			opts := hlsl.Options{Entry: "main"}
			switch u.Stage {
			case "pixel":
				opts.Stage = hlsl.StagePixel
			case "vertex":
				opts.Stage = hlsl.StageVertex
			case "compute":
				opts.Stage = hlsl.StageCompute
			default:
				continue
			}
			prog, diags := hlsl.Frontend(u.File, []byte(u.Src), opts)
			if diags.HasErrors() {
				continue
			}
			m, ld := lower.Lower(prog, opts)
			if m == nil || ld.HasErrors() {
				continue
			}
			n++
			if testing.Short() && n%4 != 0 {
				continue
			}
			out = append(out, corpusModule{u.Label(), m})
		}
	}
	return out, nSamples
}

// TestExportedCorpus exports every embedded sample and every vkd3d shader
// unit passlens compiles to amdgcn LLVM IR (llvm.Export of the front end's
// module), optimises it with opt-22 -O3 and compares the imported result
// with opt-22. Under -short only every fourth vkd3d unit runs.
func TestExportedCorpus(t *testing.T) {
	t.Parallel()
	opt := testtool.Require(t, "opt-22", "llvm-22")
	mods, nSamples := exportedModules(t)
	var jobs []corpusJob
	for _, cm := range mods {
		jobs = append(jobs, exportJob(cm.label, cm.m, llvm.Export, opt))
	}
	st := runCorpus(t, jobs)
	t.Logf("exported corpus (%d samples, %d vkd3d units; passlens amdgcn export, opt-22 -O3): %s", nSamples, len(jobs)-nSamples, st)
	if st.modules == 0 {
		t.Fatal("no module exported")
	}
}

// TestDXILCorpus is TestExportedCorpus for passlens's DXIL-style LLVM IR:
// each module goes through the default dxil pipeline and dxil.Emit, then
// opt-22 -O3 for amdgcn (this LLVM has no DirectX back end), and the
// imported result is compared with opt-22. Under -short only every fourth
// vkd3d unit runs.
func TestDXILCorpus(t *testing.T) {
	t.Parallel()
	opt := testtool.Require(t, "opt-22", "llvm-22")
	spec, err := pipeline.Default("dxil")
	if err != nil {
		t.Fatal(err)
	}
	mods, _ := exportedModules(t)
	var jobs []corpusJob
	notCompiled := 0
	for _, cm := range mods {
		res := pipeline.Run(context.Background(), cm.m, spec, pipeline.Options{Target: "dxil"})
		if res.Err != nil {
			notCompiled++
			continue
		}
		emit := func(m *ir.Module) (string, error) {
			out, err := dxil.Emit(m)
			if err != nil {
				return "", err
			}
			return out.Text, nil
		}
		jobs = append(jobs, exportJob(cm.label, cm.m, emit, opt))
	}
	st := runCorpus(t, jobs)
	t.Logf("dxil corpus (%d samples and vkd3d units; %d rejected by the dxil pipeline; dxil.Emit, opt-22 -O3 -mtriple=amdgcn--): %s", len(mods), notCompiled, st)
	if st.modules == 0 {
		t.Fatal("no module emitted")
	}
}

// TestConstructsMatchOpt imports the hand-written modules of
// testdata/constructs, one per family of constructs passlens IR lacks
// (odd integer widths, constant expressions, vectors of pointers, float
// atomics, inline asm, callbr, invoke, operand bundles and tokens, debug
// records, unknown address spaces, indirect and varargs calls), and
// compares every function with opt-22. Each module must contain opaque
// operations or types, so the fallback itself is what is checked.
func TestConstructsMatchOpt(t *testing.T) {
	t.Parallel()
	opt := testtool.Require(t, "opt-22", "llvm-22")
	files, err := filepath.Glob(filepath.Join("testdata", "constructs", "*.ll"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/constructs/*.ll: %v", err)
	}
	var jobs []corpusJob
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := llvm.Import(f, src)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		opaque := false
		for _, fn := range m.Funcs {
			opaque = opaque || hasOpaque(fn)
		}
		for _, st := range m.Structs {
			opaque = opaque || llvm.IsOpaqueType(st)
		}
		if !opaque {
			t.Errorf("%s: imports without opaque operations or types; it no longer tests the fallback", f)
		}
		jobs = append(jobs, corpusJob{label: filepath.Base(f), run: func(ctx context.Context) ([]byte, string, error) {
			_, out, err := runTool(ctx, src, opt, "-mtriple=amdgcn--", "-passes="+analysisPasses, "-disable-output", "-")
			if err != nil {
				return nil, "", fmt.Errorf("opt-22: %v\n%s", err, out)
			}
			return src, out, nil
		}})
	}
	st := runCorpus(t, jobs)
	t.Logf("constructs: %s", st)
}
