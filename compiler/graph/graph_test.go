package graph

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// randomGraph draws an arbitrary graph: self loops, multi-edges, edges into
// the entry, unreachable nodes and nodes without successors all occur.
func randomGraph(rng *rand.Rand, n int) *Graph {
	g := &Graph{Succs: make([][]int, n)}
	for u := range g.Succs {
		k := rng.IntN(4)
		if rng.IntN(5) == 0 {
			k = 0
		}
		for range k {
			g.Succs[u] = append(g.Succs[u], rng.IntN(n))
		}
	}
	return g
}

// naiveDom returns dom[v][a] = "a dominates v" for the nodes reachable from
// root over adj (n nodes), by the definition: a dominates v iff v is not
// reachable from root once a is removed (or a == v). Unreachable v: nil.
func naiveDom(n, root int, adj func(int) []int) [][]bool {
	reach := func(skip int) []bool {
		seen := make([]bool, n)
		if root == skip {
			return seen
		}
		seen[root] = true
		stack := []int{root}
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, v := range adj(u) {
				if v != skip && !seen[v] {
					seen[v] = true
					stack = append(stack, v)
				}
			}
		}
		return seen
	}
	all := reach(-1)
	dom := make([][]bool, n)
	for v := range dom {
		if all[v] {
			dom[v] = make([]bool, n)
		}
	}
	for a := 0; a < n; a++ {
		if !all[a] {
			continue
		}
		r := reach(a)
		for v := 0; v < n; v++ {
			if all[v] && (v == a || !r[v]) {
				dom[v][a] = true
			}
		}
	}
	return dom
}

// checkTree compares t against the naive dominance relation over the
// first len(t.idom) nodes.
func checkTree(t *testing.T, what string, g *Graph, tr *DomTree, dom [][]bool) {
	t.Helper()
	n := len(dom)
	for v := 0; v < n; v++ {
		if tr.Contains(v) != (dom[v] != nil) {
			t.Fatalf("%s %v: Contains(%d) = %v", what, g.Succs, v, tr.Contains(v))
		}
		for a := 0; a < n; a++ {
			want := dom[v] != nil && dom[v][a]
			if tr.Dominates(a, v) != want {
				t.Fatalf("%s %v: Dominates(%d,%d) = %v, want %v", what, g.Succs, a, v, !want, want)
			}
		}
		if dom[v] == nil || v == tr.Root() {
			continue
		}
		// The immediate dominator is the strict dominator dominated by
		// every other strict dominator.
		d := tr.IDom(v)
		if d < 0 || d == v || !dom[v][d] {
			t.Fatalf("%s %v: IDom(%d) = %d", what, g.Succs, v, d)
		}
		for a := 0; a < n; a++ {
			if a != v && dom[v][a] && !dom[d][a] {
				t.Fatalf("%s %v: IDom(%d) = %d is not dominated by %d", what, g.Succs, v, d, a)
			}
		}
		if !slices.Contains(tr.Children(d), v) {
			t.Fatalf("%s %v: %d missing from Children(%d)", what, g.Succs, v, d)
		}
	}
}

func TestDominatorsAgainstDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 1))
	for i := 0; i < 400; i++ {
		g := randomGraph(rng, 1+rng.IntN(12))
		checkTree(t, "dom", g, Dominators(g), naiveDom(g.Len(), 0, func(u int) []int { return g.Succs[u] }))
	}
}

// TestExitPostDominators checks the post-dominator tree relative to the
// real exits against the definition on the reverse graph with a virtual
// exit n whose predecessors are the nodes without successors.
func TestExitPostDominators(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 2))
	for i := 0; i < 400; i++ {
		g := randomGraph(rng, 1+rng.IntN(12))
		n := g.Len()
		preds := g.Preds()
		var exits []int
		for u, ss := range g.Succs {
			if len(ss) == 0 {
				exits = append(exits, u)
			}
		}
		rev := func(u int) []int {
			if u == n {
				return exits
			}
			return preds[u]
		}
		tr := ExitPostDominators(g)
		if !tr.IsPostDom() || tr.Root() != n || tr.VirtualExit() != n || !slices.Equal(tr.Roots(), exits) {
			t.Fatalf("%v: root %d exit %d roots %v, want exits %v", g.Succs, tr.Root(), tr.VirtualExit(), tr.Roots(), exits)
		}
		checkTree(t, "exit-postdom", g, tr, naiveDom(n+1, n, rev))
		for _, e := range exits {
			if tr.IDom(e) != n {
				t.Fatalf("%v: exit %d has ipdom %d", g.Succs, e, tr.IDom(e))
			}
		}
	}
}

// TestFrontiers checks dominance frontiers against their definition: y is
// in DF(x) iff x dominates a predecessor of y and does not strictly
// dominate y.
func TestFrontiers(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 3))
	for i := 0; i < 400; i++ {
		g := randomGraph(rng, 1+rng.IntN(12))
		tr := Dominators(g)
		df := Frontiers(g, tr)
		preds := g.Preds()
		for x := 0; x < g.Len(); x++ {
			var want []int
			for y := 0; y < g.Len(); y++ {
				if !tr.Contains(x) || !tr.Contains(y) || tr.StrictlyDominates(x, y) {
					continue
				}
				for _, p := range preds[y] {
					if tr.Dominates(x, p) {
						want = append(want, y)
						break
					}
				}
			}
			if !slices.Equal(df[x], want) {
				t.Fatalf("%v: DF(%d) = %v, want %v", g.Succs, x, df[x], want)
			}
		}
	}
}

// TestDFSNumbers checks that DFSIn/DFSOut nest exactly as Dominates says.
func TestDFSNumbers(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 4))
	for i := 0; i < 200; i++ {
		g := randomGraph(rng, 1+rng.IntN(12))
		tr := PostDominators(g)
		for a := 0; a < tr.Len(); a++ {
			for b := 0; b < tr.Len(); b++ {
				nest := tr.DFSIn(a) <= tr.DFSIn(b) && tr.DFSOut(b) <= tr.DFSOut(a)
				if nest != tr.Dominates(a, b) {
					t.Fatalf("%v: DFS numbers of %d,%d disagree with Dominates", g.Succs, a, b)
				}
			}
		}
	}
}
