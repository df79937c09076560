package analysis_test

import (
	"bytes"
	"os"
	"passlens/compiler/analysis"
	"passlens/compiler/analysis/analysistest"
	"strings"
	"testing"
)

// loadHandwritten reads testdata/handwritten.ll.
func loadHandwritten(t *testing.T) []*analysistest.Func {
	t.Helper()
	src, err := os.ReadFile("testdata/handwritten.ll")
	if err != nil {
		t.Fatal(err)
	}
	funcs, err := analysistest.ReadLL(src)
	if err != nil {
		t.Fatal(err)
	}
	return funcs
}

// handwritten returns the function with the given name.
func handwritten(t *testing.T, name string) *analysistest.Func {
	t.Helper()
	for _, f := range loadHandwritten(t) {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no function %q in testdata/handwritten.ll", name)
	return nil
}

// TestHandwrittenGolden checks that the formatters reproduce opt-22's output
// on the hand-written cases byte for byte. The golden file was produced by
// opt-22 (see the header of handwritten.ll); TestHandwrittenGoldenIsFresh
// re-checks it when opt-22 is installed.
func TestHandwrittenGolden(t *testing.T) {
	want, err := os.ReadFile("testdata/handwritten.opt.txt")
	if err != nil {
		t.Fatal(err)
	}
	got := formatAll(loadHandwritten(t))
	if !bytes.Equal(got, want) {
		gc, wc := splitByFunction(got), splitByFunction(want)
		for i := range min(len(gc), len(wc)) {
			if gc[i] != wc[i] {
				t.Fatalf("output differs from opt-22:\n--- want\n%s--- got\n%s", wc[i], gc[i])
			}
		}
		t.Fatalf("output differs from opt-22 in the number of functions (%d vs %d)", len(gc), len(wc))
	}
	// The parser and the structural converters agree with each other.
	parsed, err := analysistest.ParseOpt(bytes.NewReader(want))
	if err != nil {
		t.Fatal(err)
	}
	funcs := loadHandwritten(t)
	if len(parsed) != len(funcs) {
		t.Fatalf("parsed %d functions, want %d", len(parsed), len(funcs))
	}
	for i, f := range funcs {
		of := parsed[i]
		if of.Name != f.Name {
			t.Fatalf("function %d is %q, want %q", i, of.Name, f.Name)
		}
		if d := analysistest.CompareTrees(of.DomTree, analysistest.TreeOf(f.Graph, analysis.Dominators(f.Graph)), 0); len(d) > 0 {
			t.Errorf("%s domtree: %v", f.Name, d)
		}
		if d := analysistest.CompareTrees(of.PostDomTree, analysistest.TreeOf(f.Graph, analysis.PostDominators(f.Graph)), 0); len(d) > 0 {
			t.Errorf("%s postdomtree: %v", f.Name, d)
		}
		if d := analysistest.CompareCycles(of.Cycles, analysistest.CyclesOf(f.Graph, analysis.Cycles(f.Graph)), 0); len(d) > 0 {
			t.Errorf("%s cycles: %v", f.Name, d)
		}
	}
}

func TestHandwrittenGoldenIsFresh(t *testing.T) {
	opt := requireOpt(t)
	src, err := os.ReadFile("testdata/handwritten.ll")
	if err != nil {
		t.Fatal(err)
	}
	got, err := runOpt(opt, src)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/handwritten.opt.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("testdata/handwritten.opt.txt is stale; regenerate it with the command in handwritten.ll")
	}
}

func TestParseOpt(t *testing.T) {
	const out = `DominatorTree for function: f
=============================--------------------------------
Inorder Dominator Tree: DFSNumbers invalid: 0 slow queries.
  [1] %entry {4294967295,4294967295} [0]
    [2] %"a b" {4294967295,4294967295} [1]
      [3] %0 {4294967295,4294967295} [2]
    [2] %c {4294967295,4294967295} [1]
Roots: %entry 
PostDominatorTree for function: f
=============================--------------------------------
Inorder PostDominator Tree: DFSNumbers invalid: 0 slow queries.
  [1]  <<exit node>> {4294967295,4294967295} [0]
    [2] %c {4294967295,4294967295} [1]
      [3] %entry {4294967295,4294967295} [2]
    [2] %"a\22b" {4294967295,4294967295} [1]
Roots: %c %"a\22b" 
CycleInfo for function: f
    depth=1: entries(h) x y
        depth=2: entries(x y)
    depth=1: entries(z)
CycleInfo for function: g
`
	fs, err := analysistest.ParseOpt(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 2 || fs[0].Name != "f" || fs[1].Name != "g" || fs[1].Cycles == nil || len(fs[1].Cycles.Cycles) != 0 {
		t.Fatalf("bad functions: %+v", fs)
	}
	dt := fs[0].DomTree
	idoms := dt.IDoms()
	if len(idoms) != 3 || idoms["a b"] != "entry" || idoms["0"] != "a b" || idoms["c"] != "entry" {
		t.Fatalf("dom idoms %v", idoms)
	}
	pdt := fs[0].PostDomTree
	if !pdt.Post || pdt.Nodes[0].Name != analysis.VirtualExitName || pdt.IDoms()[`a"b`] != analysis.VirtualExitName {
		t.Fatalf("postdom %+v", pdt)
	}
	if strings.Join(pdt.Roots, ",") != `c,a"b` {
		t.Fatalf("roots %q", pdt.Roots)
	}
	cs := fs[0].Cycles.Cycles
	if len(cs) != 3 || cs[1].Parent != 0 || cs[2].Parent != -1 || strings.Join(cs[1].Entries, ",") != "x,y" ||
		strings.Join(cs[0].Blocks, ",") != "x,y" {
		t.Fatalf("cycles %+v", cs)
	}
	if k := cs[1].Key(); k != "depth=2 header=x entries=[x y] blocks=[x y]" {
		t.Fatalf("key %q", k)
	}

	for _, bad := range []string{
		"DominatorTree for function: f\n  [2] %a {1,1} [1]\nRoots: %a \n",
		"DominatorTree for function: f\n  [1] %a {1,1} [0]\n",
		"CycleInfo for function: f\n        depth=2: entries(a)\n",
		"CycleInfo for function: f\n    depth=1: entries() a\n",
		"something else\n",
	} {
		if _, err := analysistest.ParseOpt(strings.NewReader(bad)); err == nil {
			t.Errorf("analysistest.ParseOpt accepted %q", bad)
		}
	}
}

func TestCompareReportsDifferences(t *testing.T) {
	g := &analysis.Graph{Succs: [][]int{{1, 2}, {3}, {3}, {}}}
	dt := analysistest.TreeOf(g, analysis.Dominators(g))
	other := analysistest.TreeOf(g, analysis.Dominators(&analysis.Graph{Succs: [][]int{{1}, {2}, {3}, {}}}))
	if d := analysistest.CompareTrees(dt, dt, 0); len(d) != 0 {
		t.Fatalf("self comparison: %v", d)
	}
	if d := analysistest.CompareTrees(dt, other, 0); len(d) != 2 {
		t.Fatalf("want 2 differences (bb2, bb3), got %v", d)
	}
	c1 := analysistest.CyclesOf(g, analysis.Cycles(g))
	g2 := &analysis.Graph{Succs: [][]int{{1}, {1}}}
	c2 := analysistest.CyclesOf(g2, analysis.Cycles(g2))
	if d := analysistest.CompareCycles(c1, c2, 0); len(d) != 1 || !strings.HasPrefix(d[0], "unexpected") {
		t.Fatalf("cycle differences %v", d)
	}
}

func TestLLVMNames(t *testing.T) {
	for name, want := range map[string]string{
		"bb0":       "bb0",
		"a.b-c_d":   "a.b-c_d",
		"x y":       `"x y"`,
		"9lives":    `"9lives"`,
		"12":        "12",
		`q"\`:       `"q\22\5C"`,
		"d$":        `"d$"`,
		"tab\there": `"tab\09here"`,
	} {
		if got := analysis.LLVMLocalName(name); got != want {
			t.Errorf("llvmLocalName(%q) = %s, want %s", name, got, want)
		}
		if analysis.IsSlotName(name) {
			continue
		}
		back, rest, err := analysistest.ParseLLName([]byte(want))
		if err != nil || len(rest) != 0 || back != name {
			t.Errorf("parseLLName(%s) = %q, %q, %v", want, back, rest, err)
		}
	}
}
