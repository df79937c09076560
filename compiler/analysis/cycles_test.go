package analysis_test

import (
	"passlens/compiler/analysis"
	"passlens/compiler/analysis/analysistest"
	"slices"
	"strings"
	"testing"
)

// cycleNamed returns the cycle with the given header.
func cycleNamed(t *testing.T, f *analysistest.Func, ci *analysis.CycleInfo, header string) int {
	t.Helper()
	h := node(t, f, header)
	for c := 0; c < ci.Len(); c++ {
		if ci.Header(c) == h {
			return c
		}
	}
	t.Fatalf("%s: no cycle headed by %s", f.Name, header)
	return -1
}

func TestCyclesHandwritten(t *testing.T) {
	f := handwritten(t, "nested_loops")
	ci := analysis.Cycles(f.Graph)
	if ci.Len() != 3 || len(ci.TopLevel()) != 1 {
		t.Fatalf("nested_loops: %d cycles", ci.Len())
	}
	outer, middle, inner := cycleNamed(t, f, ci, "outer"), cycleNamed(t, f, ci, "middle"), cycleNamed(t, f, ci, "inner")
	if ci.Depth(outer) != 1 || ci.Depth(middle) != 2 || ci.Depth(inner) != 3 ||
		ci.Parent(middle) != outer || ci.Parent(inner) != middle || ci.Parent(outer) != -1 {
		t.Errorf("nested_loops: bad nesting")
	}
	if got := names(f, ci.Blocks(outer)); !slices.Equal(got, []string{"outer", "outer.latch", "middle", "middle.latch", "inner"}) {
		t.Errorf("nested_loops: outer blocks %v (LLVM order)", got)
	}
	if got := names(f, ci.ExitBlocks(outer)); !slices.Equal(got, []string{"exit"}) {
		t.Errorf("nested_loops: outer exits %v", got)
	}
	if got := names(f, ci.ExitBlocks(inner)); !slices.Equal(got, []string{"middle.latch"}) {
		t.Errorf("nested_loops: inner exits %v", got)
	}
	if got := names(f, ci.ExitingBlocks(middle)); !slices.Equal(got, []string{"middle.latch"}) {
		t.Errorf("nested_loops: middle exiting %v", got)
	}
	in := node(t, f, "inner")
	if ci.CycleOf(in) != inner || ci.BlockDepth(in) != 3 || !ci.Contains(outer, in) || ci.Contains(inner, node(t, f, "outer")) ||
		!ci.ContainsCycle(outer, inner) || ci.ContainsCycle(inner, outer) || ci.SmallestCommonCycle(inner, middle) != middle ||
		ci.CycleOf(node(t, f, "exit")) != -1 || ci.BlockDepth(node(t, f, "exit")) != 0 {
		t.Errorf("nested_loops: queries wrong")
	}
	for c := 0; c < ci.Len(); c++ {
		if !ci.IsReducible(c) {
			t.Errorf("nested_loops: cycle %d irreducible", c)
		}
	}

	// The DFS visits successors in reverse order, so b is reached first and
	// becomes the header; a is a second entry.
	f = handwritten(t, "irreducible_two_entry")
	ci = analysis.Cycles(f.Graph)
	if ci.Len() != 1 || ci.IsReducible(0) || !slices.Equal(names(f, ci.Entries(0)), []string{"b", "a"}) {
		t.Errorf("irreducible_two_entry: %d cycles, entries %v", ci.Len(), names(f, ci.Entries(0)))
	}

	f = handwritten(t, "irreducible_nested")
	ci = analysis.Cycles(f.Graph)
	outer = cycleNamed(t, f, ci, "header")
	child := cycleNamed(t, f, ci, "y")
	if ci.Len() != 2 || !ci.IsReducible(outer) || ci.IsReducible(child) || ci.Parent(child) != outer ||
		!slices.Equal(names(f, ci.Entries(child)), []string{"y", "x"}) {
		t.Errorf("irreducible_nested: wrong cycles")
	}
	if ci.SmallestCommonCycle(child, outer) != outer || ci.SmallestCommonCycle(-1, outer) != -1 {
		t.Errorf("irreducible_nested: SmallestCommonCycle wrong")
	}

	f = handwritten(t, "infinite_loop_no_exit")
	ci = analysis.Cycles(f.Graph)
	if ci.Len() != 1 || len(ci.Blocks(0)) != 3 || len(ci.ExitBlocks(0)) != 0 || len(ci.ExitingBlocks(0)) != 0 {
		t.Errorf("infinite_loop_no_exit: wrong cycle")
	}

	// Unreachable blocks are in no cycle, and an edge from an unreachable
	// block does not make its target an entry.
	f = handwritten(t, "unreachable_blocks")
	ci = analysis.Cycles(f.Graph)
	if ci.Len() != 1 || !slices.Equal(names(f, ci.Entries(0)), []string{"loop"}) ||
		ci.CycleOf(node(t, f, "dead.cycle")) != -1 {
		t.Errorf("unreachable_blocks: wrong cycles")
	}

	for _, name := range []string{"single", "diamond", "switch_dup_succs", "multiple_exits"} {
		f = handwritten(t, name)
		if n := analysis.Cycles(f.Graph).Len(); n != 0 {
			t.Errorf("%s: %d cycles, want 0", name, n)
		}
	}

	f = handwritten(t, "infinite_loops_chained")
	ci = analysis.Cycles(f.Graph)
	if ci.Len() != 2 || len(ci.TopLevel()) != 2 || len(ci.Blocks(cycleNamed(t, f, ci, "l1"))) != 1 {
		t.Errorf("infinite_loops_chained: wrong cycles")
	}
}

// TestCyclesTopLevelOrder pins LLVM's order of top-level cycles: creation
// order (reverse DFS preorder of the headers), except that when a top-level
// cycle is adopted as a child, the last top-level cycle moves into its slot.
func TestCyclesTopLevelOrder(t *testing.T) {
	// 0 -> 1; 1 -> {2, 3, 4}; 2 -> {2, 1}; 3 -> 3; 4 -> 4. The DFS visits
	// successors in reverse (preorder 0 1 4 3 2), so the cycles {2}, {3},
	// {4} are created in that order; then the cycle of 1 adopts {2} and {4}
	// takes its slot: [{4}, {3}, {1, 2}].
	g := &analysis.Graph{Succs: [][]int{{1}, {2, 3, 4}, {2, 1}, {3}, {4}}}
	ci := analysis.Cycles(g)
	var headers []int
	for _, c := range ci.TopLevel() {
		headers = append(headers, ci.Header(c))
	}
	if !slices.Equal(headers, []int{4, 3, 1}) {
		t.Fatalf("top-level headers %v, want [4 3 1]", headers)
	}
	var b strings.Builder
	if err := analysis.WriteCycles(&b, "f", g, ci); err != nil {
		t.Fatal(err)
	}
	const want = "CycleInfo for function: f\n" +
		"    depth=1: entries(bb4)\n" +
		"    depth=1: entries(bb3)\n" +
		"    depth=1: entries(bb1) bb2\n" +
		"        depth=2: entries(bb2)\n"
	if b.String() != want {
		t.Fatalf("got\n%swant\n%s", b.String(), want)
	}
}
