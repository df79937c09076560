package analysis_test

import (
	"passlens/compiler/analysis"
	"passlens/compiler/analysis/analysistest"
	"passlens/compiler/graph"
	"slices"
	"testing"
)

// node returns the index of the block called name in f.
func node(t *testing.T, f *analysistest.Func, name string) int {
	t.Helper()
	for i := 0; i < f.Graph.Len(); i++ {
		if f.Graph.Name(i) == name {
			return i
		}
	}
	t.Fatalf("%s: no block %q", f.Name, name)
	return -1
}

// names maps block indices to names.
func names(f *analysistest.Func, ns []int) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = f.Graph.Name(n)
	}
	return out
}

// wantIDoms checks idoms given as child -> parent names ("" for -1, "exit"
// for a post-dominator tree's virtual exit).
func wantIDoms(t *testing.T, f *analysistest.Func, dt *analysis.DomTree, want map[string]string) {
	t.Helper()
	for child, parent := range want {
		got := dt.IDom(node(t, f, child))
		var gotName string
		switch {
		case got < 0:
			gotName = ""
		case got == dt.VirtualExit():
			gotName = "exit"
		default:
			gotName = f.Graph.Name(got)
		}
		if gotName != parent {
			t.Errorf("%s: idom(%s) = %q, want %q", f.Name, child, gotName, parent)
		}
	}
}

func TestDominatorsHandwritten(t *testing.T) {
	f := handwritten(t, "diamond")
	dt := analysis.Dominators(f.Graph)
	wantIDoms(t, f, dt, map[string]string{"entry": "", "then": "entry", "else": "entry", "join": "entry"})
	entry, then, join := node(t, f, "entry"), node(t, f, "then"), node(t, f, "join")
	if !dt.Dominates(entry, join) || dt.Dominates(then, join) || !dt.Dominates(join, join) || dt.StrictlyDominates(join, join) {
		t.Errorf("diamond: Dominates wrong")
	}
	if got := names(f, dt.Children(entry)); !slices.Equal(got, []string{"then", "join", "else"}) {
		t.Errorf("diamond: children of entry %v (LLVM order: DFS preorder)", got)
	}
	if dt.NCA(then, node(t, f, "else")) != entry || dt.Level(join) != 1 || dt.Root() != entry || dt.VirtualExit() != -1 {
		t.Errorf("diamond: NCA/Level/Root wrong")
	}

	f = handwritten(t, "nested_loops")
	dt = analysis.Dominators(f.Graph)
	wantIDoms(t, f, dt, map[string]string{
		"outer": "entry", "middle": "outer", "inner": "middle",
		"middle.latch": "inner", "outer.latch": "middle.latch", "exit": "outer.latch",
	})
	if dt.Level(node(t, f, "exit")) != 6 {
		t.Errorf("nested_loops: level of exit %d", dt.Level(node(t, f, "exit")))
	}

	f = handwritten(t, "irreducible_two_entry")
	wantIDoms(t, f, analysis.Dominators(f.Graph), map[string]string{"a": "entry", "b": "entry", "exit": "entry"})

	f = handwritten(t, "switch_dup_succs")
	wantIDoms(t, f, analysis.Dominators(f.Graph), map[string]string{"a": "entry", "b": "entry", "c": "entry"})

	f = handwritten(t, "unreachable_blocks")
	dt = analysis.Dominators(f.Graph)
	wantIDoms(t, f, dt, map[string]string{"loop": "entry", "loop.body": "loop", "exit": "loop.body", "dead": ""})
	for _, name := range []string{"dead", "dead.cycle", "dead.cycle2", "dead.exit"} {
		n := node(t, f, name)
		if dt.Contains(n) || dt.Level(n) != -1 || dt.Dominates(n, n) || dt.NCA(n, 0) != -1 || dt.Children(n) != nil {
			t.Errorf("unreachable block %s is in the dominator tree", name)
		}
	}
	if dt.Len() != 4 {
		t.Errorf("unreachable_blocks: tree has %d nodes, want 4", dt.Len())
	}
}

// TestDeepGraphs runs all analyses on very deep graphs: nothing may
// recurse, and the results must be right.
func TestDeepGraphs(t *testing.T) {
	n := 300000
	if testing.Short() {
		n = 30000
	}
	chain := &analysis.Graph{Succs: analysistest.ChainSuccs(n)}
	dt := analysis.Dominators(chain)
	pdt := analysis.PostDominators(chain)
	if dt.Level(n-1) != n-1 || dt.IDom(n-1) != n-2 || !dt.Dominates(0, n-1) || dt.NCA(n-1, n/2) != n/2 {
		t.Fatalf("chain dominators wrong")
	}
	if pdt.Level(0) != n || pdt.IDom(0) != 1 || !pdt.Dominates(n-1, 0) || !slices.Equal(pdt.Roots(), []int{n - 1}) {
		t.Fatalf("chain post-dominators wrong")
	}
	if analysis.Cycles(chain).Len() != 0 || len(graph.DepthFirst(chain).Pre) != n {
		t.Fatalf("chain cycles/order wrong")
	}

	nest := &analysis.Graph{Succs: analysistest.NestedSuccs(n)}
	ci := analysis.Cycles(nest)
	d := (n - 2) / 2
	if ci.Len() != d {
		t.Fatalf("nest: %d cycles, want %d", ci.Len(), d)
	}
	for c := 0; c < ci.Len(); c++ {
		if ci.Depth(c) != c+1 || ci.Header(c) != c+1 || len(ci.Blocks(c)) != 2*(d-c) || !ci.IsReducible(c) {
			t.Fatalf("nest: cycle %d: depth %d header %d blocks %d", c, ci.Depth(c), ci.Header(c), len(ci.Blocks(c)))
		}
	}
	if ci.CycleOf(d) != d-1 || ci.BlockDepth(d) != d {
		t.Fatalf("nest: innermost block")
	}
	dt = analysis.Dominators(nest)
	if dt.Level(d) != d || dt.IDom(n-1) != 2*d {
		t.Fatalf("nest dominators wrong")
	}
	pdt = analysis.PostDominators(nest)
	if pdt.IDom(0) != 1 || pdt.IDom(2*d) != n-1 {
		t.Fatalf("nest post-dominators wrong")
	}
}
