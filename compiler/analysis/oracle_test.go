package analysis_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"passlens/compiler/analysis"
	"passlens/compiler/analysis/analysistest"
	"passlens/internal/testtool"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// optPasses is the pipeline whose output the formatters reproduce.
const optPasses = "print<domtree>,print<postdomtree>,print<cycles>"

// requireOpt returns the path of opt-22. If it is missing the test fails
// when CI=true and is skipped otherwise.
func requireOpt(t testing.TB) string {
	t.Helper()
	return testtool.Require(t, "opt-22", "llvm-22")
}

// runOpt runs opt-22 with the printer pipeline on IR text and returns what
// it printed (the printers write to stderr).
func runOpt(opt string, ll []byte) ([]byte, error) {
	cmd := exec.Command(opt, "-mtriple=amdgcn--", "-passes="+optPasses, "-disable-output", "-")
	cmd.Stdin = bytes.NewReader(ll)
	var out, errb bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("opt-22 failed: %v\n%s\ninput:\n%s", err, errb.Bytes(), ll)
	}
	return errb.Bytes(), nil
}

// formatAll prints passlens's results for funcs in the same order and shape
// as opt's printer pipeline.
func formatAll(funcs []*analysistest.Func) []byte {
	var b bytes.Buffer
	for _, f := range funcs {
		// Writes to a bytes.Buffer cannot fail.
		_ = analysis.WriteDomTree(&b, f.Name, f.Graph, analysis.Dominators(f.Graph))
		_ = analysis.WriteDomTree(&b, f.Name, f.Graph, analysis.PostDominators(f.Graph))
		_ = analysis.WriteCycles(&b, f.Name, f.Graph, analysis.Cycles(f.Graph))
	}
	return b.Bytes()
}

// splitByFunction splits printer output at each "DominatorTree for
// function:" line (the first section printed per function).
func splitByFunction(out []byte) []string {
	const hdr = "DominatorTree for function: "
	text := string(out)
	var chunks []string
	start := 0
	for i := 0; i < len(text); {
		if strings.HasPrefix(text[i:], hdr) && i > 0 {
			chunks = append(chunks, text[start:i])
			start = i
		}
		nl := strings.IndexByte(text[i:], '\n')
		if nl < 0 {
			break
		}
		i += nl + 1
	}
	return append(chunks, text[start:])
}

// oracleStats counts what an oracle run covered.
type oracleStats struct {
	funcs, blocks, unreachable, domNodes, pdomNodes, fakeRoots int
	cycles, irreducible, nested, textEqual                     int
}

// compareWithOpt checks passlens against opt-22 on funcs (all written to one
// module): as sets (idoms, roots, cycles) and textually. It may run on any
// goroutine, so it reports with t.Errorf only.
func compareWithOpt(t *testing.T, opt string, funcs []*analysistest.Func, st *oracleStats, mu *sync.Mutex) {
	var ll bytes.Buffer
	if err := analysistest.WriteLL(&ll, funcs, nil); err != nil {
		t.Errorf("WriteLL: %v", err)
		return
	}
	optOut, err := runOpt(opt, ll.Bytes())
	if err != nil {
		t.Error(err)
		return
	}
	parsed, err := analysistest.ParseOpt(bytes.NewReader(optOut))
	if err != nil {
		t.Errorf("parsing opt output: %v", err)
		return
	}
	if len(parsed) != len(funcs) {
		t.Errorf("opt printed %d functions, want %d", len(parsed), len(funcs))
		return
	}
	mine := formatAll(funcs)
	optChunks, myChunks := splitByFunction(optOut), splitByFunction(mine)
	var local oracleStats
	for i, f := range funcs {
		of := parsed[i]
		if of.Name != f.Name || of.DomTree == nil || of.PostDomTree == nil || of.Cycles == nil {
			t.Errorf("function %d: opt printed %q with missing sections", i, of.Name)
			return
		}
		dt, pdt, ci := analysis.Dominators(f.Graph), analysis.PostDominators(f.Graph), analysis.Cycles(f.Graph)
		var diffs []string
		for _, d := range analysistest.CompareTrees(of.DomTree, analysistest.TreeOf(f.Graph, dt), 5) {
			diffs = append(diffs, "domtree: "+d)
		}
		for _, d := range analysistest.CompareTrees(of.PostDomTree, analysistest.TreeOf(f.Graph, pdt), 5) {
			diffs = append(diffs, "postdomtree: "+d)
		}
		for _, d := range analysistest.CompareCycles(of.Cycles, analysistest.CyclesOf(f.Graph, ci), 5) {
			diffs = append(diffs, "cycles: "+d)
		}
		// The formatters must also reproduce opt byte for byte.
		if len(diffs) == 0 && optChunks[i] != myChunks[i] {
			diffs = append(diffs, "text differs:\n--- opt-22\n"+optChunks[i]+"--- passlens\n"+myChunks[i])
		}
		if len(diffs) > 0 {
			var one bytes.Buffer
			_ = analysistest.WriteLL(&one, []*analysistest.Func{f}, nil)
			t.Errorf("function %s differs from opt-22:\n  %s\nIR:\n%s", f.Name, strings.Join(diffs, "\n  "), one.Bytes())
			continue
		}
		local.textEqual++
		local.funcs++
		local.blocks += f.Graph.Len()
		local.domNodes += dt.Len()
		local.pdomNodes += pdt.Len() - 1
		local.unreachable += f.Graph.Len() - dt.Len()
		for _, r := range pdt.Roots() {
			if len(f.Graph.Succs[r]) > 0 {
				local.fakeRoots++
			}
		}
		local.cycles += ci.Len()
		for c := 0; c < ci.Len(); c++ {
			if !ci.IsReducible(c) {
				local.irreducible++
			}
			if ci.Depth(c) > 1 {
				local.nested++
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	st.funcs += local.funcs
	st.blocks += local.blocks
	st.unreachable += local.unreachable
	st.domNodes += local.domNodes
	st.pdomNodes += local.pdomNodes
	st.fakeRoots += local.fakeRoots
	st.cycles += local.cycles
	st.irreducible += local.irreducible
	st.nested += local.nested
	st.textEqual += local.textEqual
}

// oracleSeed returns PASSLENS_SEED if set, else a fresh seed; it is logged
// so that failures can be reproduced.
func oracleSeed(t *testing.T) uint64 {
	if s := os.Getenv("PASSLENS_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 0, 64)
		if err != nil {
			t.Fatalf("bad PASSLENS_SEED %q: %v", s, err)
		}
		return v
	}
	return uint64(time.Now().UnixNano())
}

// oracleFunc draws one random function for the opt comparison: mostly
// small graphs of every shape, some larger ones.
func oracleFunc(rng *rand.Rand, name string) *analysistest.Func {
	var opts analysistest.RandOptions
	switch r := rng.IntN(100); {
	case r < 55:
		opts = analysistest.RandOptions{Blocks: 1 + rng.IntN(16), Shape: analysistest.ShapeMixed}
	case r < 70:
		opts = analysistest.RandOptions{Blocks: 10 + rng.IntN(50), Shape: analysistest.ShapeMixed}
	case r < 78:
		opts = analysistest.RandOptions{Blocks: 5 + rng.IntN(40), Shape: analysistest.ShapeIrreducible}
	case r < 86:
		opts = analysistest.RandOptions{Blocks: 5 + rng.IntN(40), Shape: analysistest.ShapeReducible}
	case r < 94:
		opts = analysistest.RandOptions{Blocks: 20 + rng.IntN(200), Shape: analysistest.ShapeLocal}
	case r < 97:
		opts = analysistest.RandOptions{Blocks: 2 + rng.IntN(30), Shape: analysistest.ShapeNested}
	default:
		opts = analysistest.RandOptions{Blocks: 1 + rng.IntN(10), Shape: analysistest.ShapeChain}
	}
	return analysistest.RandomFunc(rng, name, opts)
}

// TestOracleOpt compares dominator trees, post-dominator trees and cycles
// with opt-22 on random functions (50 per module, one opt run per module).
// PASSLENS_ORACLE_FUNCS overrides the number of functions (default 600).
func TestOracleOpt(t *testing.T) {
	opt := requireOpt(t)
	seed := oracleSeed(t)
	t.Logf("seed %d (rerun with PASSLENS_SEED=%d)", seed, seed)
	total := 600
	if s := os.Getenv("PASSLENS_ORACLE_FUNCS"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v <= 0 {
			t.Fatalf("bad PASSLENS_ORACLE_FUNCS %q", s)
		}
		total = v
	}
	if testing.Short() {
		total = min(total, 100)
	}
	const perModule = 50
	var (
		st  oracleStats
		mu  sync.Mutex
		wg  sync.WaitGroup
		sem = make(chan struct{}, 4)
	)
	for m := 0; m*perModule < total; m++ {
		rng := rand.New(rand.NewPCG(seed, uint64(m)))
		var funcs []*analysistest.Func
		for i := 0; i < perModule && m*perModule+i < total; i++ {
			funcs = append(funcs, oracleFunc(rng, fmt.Sprintf("f%d_%d", m, i)))
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			compareWithOpt(t, opt, funcs, &st, &mu)
		}()
	}
	wg.Wait()
	t.Logf("opt-22 agreed on %d/%d functions (%d blocks, %d unreachable from entry): "+
		"%d domtree nodes, %d postdomtree nodes (%d infinite-loop roots), "+
		"%d cycles (%d irreducible, %d nested); text identical for %d functions",
		st.funcs, total, st.blocks, st.unreachable, st.domNodes, st.pdomNodes, st.fakeRoots,
		st.cycles, st.irreducible, st.nested, st.textEqual)
}

// TestOracleOptLarge compares with opt-22 on a few functions with thousands
// of blocks (one module). opt's own cycle printer is quadratic on these, so
// the sizes stay moderate.
func TestOracleOptLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large oracle comparison skipped in -short mode")
	}
	opt := requireOpt(t)
	seed := oracleSeed(t)
	t.Logf("seed %d (rerun with PASSLENS_SEED=%d)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, 1<<40))
	var funcs []*analysistest.Func
	for i, s := range []analysistest.Shape{analysistest.ShapeLocal, analysistest.ShapeMixed, analysistest.ShapeIrreducible, analysistest.ShapeReducible, analysistest.ShapeLocal, analysistest.ShapeNested} {
		n := 1500
		if s == analysistest.ShapeNested {
			n = 500
		}
		funcs = append(funcs, analysistest.RandomFunc(rng, fmt.Sprintf("big%d", i), analysistest.RandOptions{Blocks: n, Shape: s}))
	}
	var (
		st oracleStats
		mu sync.Mutex
	)
	compareWithOpt(t, opt, funcs, &st, &mu)
	t.Logf("opt-22 agreed on %d/%d large functions (%d blocks, %d cycles, %d irreducible, %d infinite-loop roots)",
		st.funcs, len(funcs), st.blocks, st.cycles, st.irreducible, st.fakeRoots)
}
