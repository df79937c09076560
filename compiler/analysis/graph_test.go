package analysis

import (
	"slices"
	"strings"
	"testing"
)

func TestGraphValidate(t *testing.T) {
	ok := &Graph{Names: []string{"entry", ""}, Succs: [][]int{{1, 1}, {}}}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	if ok.Len() != 2 || ok.NumEdges() != 2 || ok.Name(0) != "entry" || ok.Name(1) != "bb1" {
		t.Fatalf("Len/NumEdges/Name wrong")
	}
	for _, tc := range []struct {
		g    *Graph
		want string
	}{
		{&Graph{}, "no nodes"},
		{&Graph{Succs: [][]int{{1}}}, "out of range"},
		{&Graph{Succs: [][]int{{-1}}}, "out of range"},
		{&Graph{Names: []string{"a", "a"}, Succs: [][]int{{1}, {}}}, "both named"},
		{&Graph{Names: []string{"bb1"}, Succs: [][]int{{1}, {}}}, "both named"},
		{&Graph{Names: []string{"a", "b"}, Succs: [][]int{{}}}, "names for"},
	} {
		err := tc.g.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate(%+v) = %v, want %q", tc.g, err, tc.want)
		}
	}
}

// TestPredsOrder pins the predecessor order: LLVM's use-list order for IR
// parsed from text, i.e. decreasing predecessor index, one entry per edge.
func TestPredsOrder(t *testing.T) {
	g := &Graph{Succs: [][]int{{1, 2}, {3, 3}, {3}, {1}}}
	want := [][]int{nil, {3, 0}, {0}, {2, 1, 1}}
	for v, p := range g.Preds() {
		if !slices.Equal(p, want[v]) && !(len(p) == 0 && len(want[v]) == 0) {
			t.Errorf("Preds[%d] = %v, want %v", v, p, want[v])
		}
	}
}
