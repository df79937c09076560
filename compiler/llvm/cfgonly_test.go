package llvm

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"passlens/compiler/analysis"
	"passlens/compiler/analysis/analysistest"
	"passlens/compiler/analysis/uniformity/uniformitytest"
	"passlens/compiler/ir"
	"passlens/samples"
)

// cfgPrintouts prints, per defined function in module order, opt-22's
// print<domtree>, print<postdomtree> and print<cycles> of m, as
// `passlens analyze --print=domtree,postdomtree,cycles` does.
func cfgPrintouts(m *ir.Module) (string, error) {
	var b bytes.Buffer
	for _, f := range m.Funcs {
		if f.IsDeclaration() {
			continue
		}
		fg := analysis.NewFuncGraph(f)
		if err := analysis.WriteDomTree(&b, f.Name(), fg.Graph, fg.CFG.Dom()); err != nil {
			return "", err
		}
		if err := analysis.WriteDomTree(&b, f.Name(), fg.Graph, fg.CFG.PostDom()); err != nil {
			return "", err
		}
		if err := analysis.WriteCycles(&b, f.Name(), fg.Graph, fg.CFG.Cycles()); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// compareImportModes imports src fully (ImportListing, as analyze did for
// every request) and CFG-only, and describes the first difference ("" if
// none): the same error text, or both succeed with byte-identical
// dominator, post-dominator and cycle printouts, the CFG-only module
// holding exactly one instruction, the terminator, per block and
// verifying as passlens IR when the full import does.
func compareImportModes(name, src string) string {
	full, _, errF := ImportListing(name, []byte(src))
	cfg, errC := ImportWith(name, []byte(src), ImportOptions{CFGOnly: true})
	switch {
	case errF != nil || errC != nil:
		if errF == nil || errC == nil || errF.Error() != errC.Error() {
			return fmt.Sprintf("%s: the modes disagree:\n  full:     %v\n  CFG-only: %v", name, errF, errC)
		}
		return ""
	}
	if len(full.Funcs) != len(cfg.Funcs) {
		return fmt.Sprintf("%s: %d functions in the full import, %d CFG-only", name, len(full.Funcs), len(cfg.Funcs))
	}
	for _, f := range cfg.Funcs {
		for _, b := range f.Blocks {
			if len(b.Instrs) != 1 || b.Terminator() == nil {
				return fmt.Sprintf("%s: @%s %%%s: CFG-only block holds %d instructions, want its terminator alone", name, f.Name(), b.Name(), len(b.Instrs))
			}
		}
	}
	// The reader accepts some CFGs passlens's verifier refuses (a branch
	// to the entry block); the CFG-only module verifies when the full one
	// does.
	if err := ir.Verify(cfg); err != nil && ir.Verify(full) == nil {
		return fmt.Sprintf("%s: the CFG-only import does not verify, the full one does: %v", name, err)
	}
	pf, err := cfgPrintouts(full)
	if err != nil {
		return fmt.Sprintf("%s: full: %v", name, err)
	}
	pc, err := cfgPrintouts(cfg)
	if err != nil {
		return fmt.Sprintf("%s: CFG-only: %v", name, err)
	}
	if pf != pc {
		return fmt.Sprintf("%s: the printouts differ:\n--- full\n%s\n--- CFG-only\n%s", name, lastLines(pf, 40), lastLines(pc, 40))
	}
	return ""
}

func lastLines(s string, n int) string {
	ls := strings.Split(s, "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}

// fuzzCorpus returns the inputs stored in testdata/fuzz/FuzzImport.
func fuzzCorpus(t *testing.T) map[string]string {
	files, err := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzImport", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no FuzzImport corpus: %v", err)
	}
	out := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, rest, ok := strings.Cut(string(data), "\n")
		rest = strings.TrimSpace(rest)
		var lit string
		if s, ok2 := strings.CutPrefix(rest, "string("); ok2 {
			lit = strings.TrimSuffix(s, ")")
		} else if s, ok2 := strings.CutPrefix(rest, "[]byte("); ok2 {
			lit = strings.TrimSuffix(s, ")")
		}
		src, err := strconv.Unquote(lit)
		if !ok || err != nil {
			t.Fatalf("%s: not a fuzz corpus entry of one string: %v", f, err)
		}
		out[f] = src
	}
	return out
}

// generatedLL is the generated functions the llvm tests import: the dense
// benchmark shape (denseLL), the uniformity generator's other shape, and
// every random CFG shape of analysistest (switches with duplicate
// targets, irreducible cycles, unreachable blocks, infinite loops).
func generatedLL(t *testing.T) map[string]string {
	out := map[string]string{"dense-2000": string(denseLL(t, 2000))}
	rng := rand.New(rand.NewPCG(7, 12))
	var vfs []*uniformitytest.ValueFunc
	for i := range 6 {
		vfs = append(vfs, uniformitytest.DecorateFunc(rng, uniformitytest.DenseFunc(rng, fmt.Sprintf("d%d", i), 50+40*i), uniformitytest.DenseValueOptions))
	}
	var buf bytes.Buffer
	if err := uniformitytest.WriteValueLL(&buf, vfs); err != nil {
		t.Fatal(err)
	}
	out["dense-funcs"] = buf.String()
	shapes := []analysistest.Shape{analysistest.ShapeMixed, analysistest.ShapeReducible, analysistest.ShapeIrreducible,
		analysistest.ShapeLocal, analysistest.ShapeChain, analysistest.ShapeNested}
	for si, sh := range shapes {
		var fs []*analysistest.Func
		for i := range 8 {
			fs = append(fs, analysistest.RandomFunc(rng, fmt.Sprintf("f%d_%d", si, i), analysistest.RandOptions{Blocks: 1 + 37*i, Shape: sh}))
		}
		buf.Reset()
		if err := analysistest.WriteLL(&buf, fs, nil); err != nil {
			t.Fatal(err)
		}
		out[fmt.Sprintf("random-shape-%d", si)] = buf.String()
	}
	return out
}

// TestCFGOnlyMatchesFull runs both import modes on every .ll input the
// package's tests use without external tools — the construct modules,
// the error cases, the fuzz seeds and stored corpus, the embedded .ll
// samples, generated functions and, when present, the LLVM test files —
// and requires the same error or byte-identical CFG analyses (the opt-22
// corpora compare the modes too, in compareModule). Half of the
// inputs fail to import, which checks that an invalid file fails the same
// way in both modes.
func TestCFGOnlyMatchesFull(t *testing.T) {
	t.Parallel()
	inputs := map[string]string{}
	files, err := filepath.Glob(filepath.Join("testdata", "constructs", "*.ll"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/constructs: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[f] = string(data)
	}
	for i, c := range importErrorCases {
		inputs[fmt.Sprintf("error-case-%d", i)] = c.src
	}
	for i, s := range fuzzSeeds {
		inputs[fmt.Sprintf("fuzz-seed-%d", i)] = s
	}
	for k, v := range fuzzCorpus(t) {
		inputs[k] = v
	}
	for _, s := range samples.All() {
		if filepath.Ext(s.File) == ".ll" {
			inputs["samples/"+s.File] = string(s.Source)
		}
	}
	for k, v := range generatedLL(t) {
		inputs[k] = v
	}
	if dir := llvmTestsDir(); dir != "" {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".ll") {
				if data, err := os.ReadFile(p); err == nil {
					inputs[p] = string(data)
				}
			}
			return nil
		})
	}
	failing := 0
	for name, src := range inputs {
		if msg := compareImportModes(name, src); msg != "" {
			t.Error(msg)
		}
		if _, err := Import(name, []byte(src)); err != nil {
			failing++
		}
	}
	if failing == 0 || failing == len(inputs) {
		t.Fatalf("%d of %d inputs fail to import: the test needs both kinds", failing, len(inputs))
	}
	t.Logf("%d inputs (%d fail to import) give the same result in both modes", len(inputs), failing)
}
