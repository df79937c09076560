package analysis

import (
	"slices"
	"testing"

	"passlens/compiler/graph"
)

func TestDepthFirstHandwritten(t *testing.T) {
	// 0 -> {1, 2}, 1 -> 3, 2 -> 3, 3 -> 1, 4 unreachable -> 0.
	g := &Graph{Succs: [][]int{{1, 2}, {3}, {3}, {1}, {0}}}
	o := graph.DepthFirst(g)
	if !slices.Equal(o.Pre, []int{0, 1, 3, 2}) || !slices.Equal(o.Post, []int{3, 1, 2, 0}) ||
		!slices.Equal(o.RPO(), []int{0, 2, 1, 3}) {
		t.Fatalf("pre %v post %v rpo %v", o.Pre, o.Post, o.RPO())
	}
	if !slices.Equal(o.Parent, []int{-1, 0, 0, 1, -1}) || o.Reachable(4) || o.PreNum[4] != -1 || o.PostNum[4] != -1 {
		t.Fatalf("parents %v", o.Parent)
	}
	if !o.IsAncestor(1, 3) || o.IsAncestor(2, 3) || !o.IsAncestor(0, 0) || o.IsAncestor(4, 4) || o.Last[1] != 2 {
		t.Fatalf("ancestry wrong")
	}
	if !slices.Equal(graph.Reachable(g), []bool{true, true, true, true, false}) {
		t.Fatalf("Reachable wrong")
	}
	// The cycle analysis' DFS visits successors in reverse order.
	if r := graph.DepthFirstReversed(g); !slices.Equal(r.Pre, []int{0, 2, 3, 1}) {
		t.Fatalf("reversed preorder %v", r.Pre)
	}
}
