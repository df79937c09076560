package analysis_test

import (
	"passlens/compiler/analysis"
	"slices"
	"testing"
)

func TestPostDominatorsHandwritten(t *testing.T) {
	f := handwritten(t, "diamond")
	pdt := analysis.PostDominators(f.Graph)
	wantIDoms(t, f, pdt, map[string]string{"entry": "join", "then": "join", "else": "join", "join": "exit"})
	if pdt.VirtualExit() != 4 || pdt.Root() != 4 || pdt.IDom(4) != -1 || !pdt.Dominates(4, 0) || !pdt.IsPostDom() {
		t.Errorf("diamond: virtual exit wrong")
	}
	if got := names(f, pdt.Roots()); !slices.Equal(got, []string{"join"}) {
		t.Errorf("diamond: roots %v", got)
	}

	// No exit at all: LLVM walks forward from the entry, visiting
	// successors in decreasing block order, and roots the tree at the last
	// block reached (side).
	f = handwritten(t, "infinite_loop_no_exit")
	pdt = analysis.PostDominators(f.Graph)
	if got := names(f, pdt.Roots()); !slices.Equal(got, []string{"side"}) {
		t.Errorf("infinite_loop_no_exit: roots %v, want [side]", got)
	}
	wantIDoms(t, f, pdt, map[string]string{"side": "exit", "body": "side", "h": "body", "entry": "h"})

	f = handwritten(t, "infinite_loop_and_exit")
	pdt = analysis.PostDominators(f.Graph)
	if got := names(f, pdt.Roots()); !slices.Equal(got, []string{"exit", "spin2"}) {
		t.Errorf("infinite_loop_and_exit: roots %v, want [exit spin2]", got)
	}
	wantIDoms(t, f, pdt, map[string]string{"entry": "exit", "spin": "spin2", "spin2": "exit", "exit": "exit"})

	// The fake root b found first reaches the later fake root spin, so it is
	// removed again.
	f = handwritten(t, "redundant_root")
	pdt = analysis.PostDominators(f.Graph)
	if got := names(f, pdt.Roots()); !slices.Equal(got, []string{"spin"}) {
		t.Errorf("redundant_root: roots %v, want [spin]", got)
	}
	wantIDoms(t, f, pdt, map[string]string{"entry": "spin", "a": "b", "b": "spin", "spin": "exit"})

	f = handwritten(t, "infinite_loops_chained")
	if got := names(f, analysis.PostDominators(f.Graph).Roots()); !slices.Equal(got, []string{"l2.body"}) {
		t.Errorf("infinite_loops_chained: roots %v", got)
	}

	// Every block is in the post-dominator tree, including blocks that are
	// unreachable from the entry (as in LLVM).
	f = handwritten(t, "unreachable_blocks")
	pdt = analysis.PostDominators(f.Graph)
	if pdt.Len() != f.Graph.Len()+1 {
		t.Errorf("unreachable_blocks: %d tree nodes, want %d", pdt.Len(), f.Graph.Len()+1)
	}
	if got := names(f, pdt.Roots()); !slices.Equal(got, []string{"exit", "dead.exit", "dead.cycle2"}) {
		t.Errorf("unreachable_blocks: roots %v", got)
	}
	wantIDoms(t, f, pdt, map[string]string{"dead": "loop.body", "dead.cycle": "dead.cycle2", "dead.exit": "exit"})

	f = handwritten(t, "multiple_exits")
	pdt = analysis.PostDominators(f.Graph)
	if got := names(f, pdt.Roots()); !slices.Equal(got, []string{"r1", "r2", "trap"}) {
		t.Errorf("multiple_exits: roots %v", got)
	}
	wantIDoms(t, f, pdt, map[string]string{"entry": "exit"})

	f = handwritten(t, "switch_dup_succs")
	wantIDoms(t, f, analysis.PostDominators(f.Graph), map[string]string{"entry": "c", "a": "c", "b": "c"})
}
