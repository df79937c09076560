package analysis_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"passlens/compiler/analysis"
	"passlens/compiler/analysis/analysistest"
	"slices"
	"testing"

	"passlens/compiler/graph"
)

// arbitraryGraph draws a graph that need not be valid LLVM IR: edges into
// the entry are allowed, and so are multi-edges and self loops anywhere.
func arbitraryGraph(rng *rand.Rand, n int) *analysis.Graph {
	g := &analysis.Graph{Succs: make([][]int, n)}
	for u := range g.Succs {
		for k := rng.IntN(4); k > 0; k-- {
			g.Succs[u] = append(g.Succs[u], rng.IntN(n))
		}
	}
	return g
}

// testGraphs returns count small random graphs of all generator shapes plus
// arbitrary graphs, deterministically from seed.
func testGraphs(seed uint64, count int) []*analysis.Graph {
	rng := rand.New(rand.NewPCG(seed, 99))
	shapes := []analysistest.Shape{analysistest.ShapeMixed, analysistest.ShapeReducible, analysistest.ShapeIrreducible, analysistest.ShapeLocal, analysistest.ShapeNested, analysistest.ShapeChain}
	gs := make([]*analysis.Graph, 0, count)
	for i := 0; i < count; i++ {
		n := 1 + rng.IntN(40)
		if i%5 == 4 {
			gs = append(gs, arbitraryGraph(rng, n))
			continue
		}
		gs = append(gs, analysistest.RandomFunc(rng, "f", analysistest.RandOptions{Blocks: n, Shape: shapes[i%len(shapes)]}).Graph)
	}
	return gs
}

func TestDominatorsMatchNaive(t *testing.T) {
	for i, g := range testGraphs(1, 4000) {
		dt := analysis.Dominators(g)
		want := analysistest.NaiveIDoms(g)
		reach := analysistest.NaiveReach(g)
		for v := range want {
			if got := dt.IDom(v); got != want[v] {
				t.Fatalf("graph %d %v: idom(%d) = %d, want %d", i, g.Succs, v, got, want[v])
			}
			if dt.Contains(v) != reach[v] {
				t.Fatalf("graph %d: Contains(%d) = %v, want %v", i, v, dt.Contains(v), reach[v])
			}
		}
		// Dominates, Level and NCA against walks over the naive idoms.
		ancestors := func(v int) []int {
			var a []int
			for ; v >= 0; v = want[v] {
				a = append(a, v)
			}
			return a
		}
		for a := 0; a < g.Len(); a++ {
			if reach[a] && dt.Level(a) != len(ancestors(a))-1 {
				t.Fatalf("graph %d: Level(%d) = %d", i, a, dt.Level(a))
			}
			for b := 0; b < g.Len(); b++ {
				wantDom := reach[a] && reach[b] && slices.Contains(ancestors(b), a)
				if dt.Dominates(a, b) != wantDom {
					t.Fatalf("graph %d: Dominates(%d,%d) = %v, want %v", i, a, b, !wantDom, wantDom)
				}
				wantNCA := -1
				if reach[a] && reach[b] {
					aa := ancestors(a)
					for _, x := range ancestors(b) {
						if slices.Contains(aa, x) {
							wantNCA = x
							break
						}
					}
				}
				if got := dt.NCA(a, b); got != wantNCA {
					t.Fatalf("graph %d: NCA(%d,%d) = %d, want %d", i, a, b, got, wantNCA)
				}
			}
		}
		checkTreeShape(t, g, dt)
	}
}

// checkTreeShape checks that Children, Preorder and IDom describe the same
// tree and that children come in construction order.
func checkTreeShape(t *testing.T, g *analysis.Graph, dt *analysis.DomTree) {
	t.Helper()
	pos := map[int]int{}
	for i, v := range dt.Preorder() {
		pos[v] = i
	}
	if dt.Preorder()[0] != dt.Root() || dt.IDom(dt.Root()) != -1 || dt.Level(dt.Root()) != 0 {
		t.Fatalf("%v: bad root", g.Succs)
	}
	count := 1
	for _, v := range dt.Preorder() {
		ch := dt.Children(v)
		count += len(ch)
		for i, c := range ch {
			if dt.IDom(c) != v {
				t.Fatalf("%v: child %d of %d has idom %d", g.Succs, c, v, dt.IDom(c))
			}
			if i > 0 && pos[ch[i-1]] > pos[c] {
				t.Fatalf("%v: children of %d out of order", g.Succs, v)
			}
		}
	}
	if count != dt.Len() {
		t.Fatalf("%v: tree has %d nodes via children, %d in preorder", g.Succs, count, dt.Len())
	}
}

func TestPostDominatorsMatchNaive(t *testing.T) {
	for i, g := range testGraphs(2, 4000) {
		pdt := analysis.PostDominators(g)
		if err := analysistest.CheckPostDomRoots(g, pdt.Roots()); err != nil {
			t.Fatalf("graph %d %v: roots %v: %v", i, g.Succs, pdt.Roots(), err)
		}
		want := analysistest.NaivePostIDoms(g, pdt.Roots())
		n := g.Len()
		if pdt.VirtualExit() != n || pdt.Root() != n || pdt.Len() != n+1 {
			t.Fatalf("graph %d: bad virtual exit", i)
		}
		for v := 0; v <= n; v++ {
			if got := pdt.IDom(v); got != want[v] {
				t.Fatalf("graph %d %v roots %v: ipdom(%d) = %d, want %d", i, g.Succs, pdt.Roots(), v, got, want[v])
			}
		}
		for a := 0; a <= n; a++ {
			for b := 0; b <= n; b++ {
				w := a == b
				for x := b; x >= 0 && !w; x = want[x] {
					w = x == a
				}
				if pdt.Dominates(a, b) != w {
					t.Fatalf("graph %d: PostDominates(%d,%d) = %v", i, a, b, !w)
				}
			}
		}
		checkTreeShape(t, g, pdt)
	}
}

func TestCyclesMatchNaive(t *testing.T) {
	for i, g := range testGraphs(3, 4000) {
		ci := analysis.Cycles(g)
		if err := analysistest.CheckCycleInfo(g, ci); err != nil {
			t.Fatalf("graph %d %v: %v", i, g.Succs, err)
		}
		naive := analysistest.NaiveCycles(g)
		want := map[string]bool{}
		for _, c := range naive {
			k := c.Key()
			if c.Parent >= 0 {
				k += " in " + naive[c.Parent].Key()
			}
			want[k] = true
		}
		key := func(c int) string {
			e := slices.Clone(ci.Entries(c))
			b := slices.Clone(ci.Blocks(c))
			slices.Sort(e)
			slices.Sort(b)
			return analysistest.NaiveCycle{Header: ci.Header(c), Depth: ci.Depth(c), Entries: e, Blocks: b}.Key()
		}
		got := map[string]bool{}
		for c := 0; c < ci.Len(); c++ {
			k := key(c)
			if p := ci.Parent(c); p >= 0 {
				k += " in " + key(p)
			}
			got[k] = true
		}
		if fmt.Sprint(slices.Sorted(maps.Keys(got))) != fmt.Sprint(slices.Sorted(maps.Keys(want))) {
			t.Fatalf("graph %d %v:\n got %v\nwant %v", i, g.Succs, slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
		}
	}
}

func TestDepthFirstMatchesRecursive(t *testing.T) {
	for i, g := range testGraphs(4, 2000) {
		// Reference: recursive DFS (fine on these small graphs).
		pre, post := []int{}, []int{}
		seen := make([]bool, g.Len())
		var rec func(u int)
		rec = func(u int) {
			seen[u] = true
			pre = append(pre, u)
			for _, v := range g.Succs[u] {
				if !seen[v] {
					rec(v)
				}
			}
			post = append(post, u)
		}
		rec(0)
		o := graph.DepthFirst(g)
		if !slices.Equal(o.Pre, pre) || !slices.Equal(o.Post, post) {
			t.Fatalf("graph %d %v: pre %v post %v, want %v %v", i, g.Succs, o.Pre, o.Post, pre, post)
		}
		rpo := o.RPO()
		for j := range rpo {
			if rpo[j] != post[len(post)-1-j] {
				t.Fatalf("graph %d: bad RPO", i)
			}
		}
		reach := graph.Reachable(g)
		for v := 0; v < g.Len(); v++ {
			if reach[v] != seen[v] || o.Reachable(v) != seen[v] {
				t.Fatalf("graph %d: reachability of %d", i, v)
			}
			if !seen[v] {
				continue
			}
			if o.Pre[o.PreNum[v]] != v || o.Post[o.PostNum[v]] != v {
				t.Fatalf("graph %d: numbering of %d", i, v)
			}
			if p := o.Parent[v]; (v == 0) != (p < 0) || (p >= 0 && !slices.Contains(g.Succs[p], v)) {
				t.Fatalf("graph %d: parent of %d is %d", i, v, p)
			}
			// Ancestry: a is an ancestor of v iff it is on v's parent chain.
			for a := 0; a < g.Len(); a++ {
				onChain := false
				for x := v; x >= 0 && !onChain; x = o.Parent[x] {
					onChain = x == a
				}
				if o.IsAncestor(a, v) != onChain {
					t.Fatalf("graph %d: IsAncestor(%d,%d)", i, a, v)
				}
			}
		}
		// The reversed-order traversal used by cycles agrees with the naive
		// LIFO formulation.
		ro := graph.DepthFirstReversed(g)
		np := analysistest.NaivePreorder(g)
		for v := range np {
			if ro.PreNum[v] != np[v] {
				t.Fatalf("graph %d %v: reversed preorder of %d = %d, want %d", i, g.Succs, v, ro.PreNum[v], np[v])
			}
		}
	}
}

// TestLargeGraphsAgainstIterative checks the fast analyses on big graphs
// against the Cooper–Harvey–Kennedy oracle and the structural cycle checker.
func TestLargeGraphsAgainstIterative(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	sizes := 8000
	if testing.Short() {
		sizes = 2000
	}
	for _, shape := range []analysistest.Shape{analysistest.ShapeLocal, analysistest.ShapeMixed, analysistest.ShapeReducible, analysistest.ShapeIrreducible, analysistest.ShapeNested, analysistest.ShapeChain} {
		n := sizes
		if shape == analysistest.ShapeNested || shape == analysistest.ShapeLocal {
			// CHK is quadratic on deep nests, and CheckCycleInfo is linear
			// in the sum of the cycle sizes, which grows with nesting depth.
			n = sizes / 4
		}
		g := analysistest.RandomFunc(rng, "big", analysistest.RandOptions{Blocks: n, Shape: shape}).Graph
		dt := analysis.Dominators(g)
		want := analysistest.IterativeIDoms(g.Succs, 0)
		for v := range want {
			if dt.IDom(v) != want[v] {
				t.Fatalf("shape %d: idom(%d) = %d, want %d", shape, v, dt.IDom(v), want[v])
			}
		}
		pdt := analysis.PostDominators(g)
		if n <= 3000 { // analysistest.CheckPostDomRoots is quadratic
			if err := analysistest.CheckPostDomRoots(g, pdt.Roots()); err != nil {
				t.Fatalf("shape %d: %v", shape, err)
			}
		}
		rev := make([][]int, n+1)
		for u, ss := range g.Succs {
			for _, v := range ss {
				rev[v] = append(rev[v], u)
			}
		}
		rev[n] = slices.Clone(pdt.Roots())
		wantP := analysistest.IterativeIDoms(rev, n)
		for v := range wantP {
			if pdt.IDom(v) != wantP[v] {
				t.Fatalf("shape %d: ipdom(%d) = %d, want %d", shape, v, pdt.IDom(v), wantP[v])
			}
		}
		if err := analysistest.CheckCycleInfo(g, analysis.Cycles(g)); err != nil {
			t.Fatalf("shape %d: %v", shape, err)
		}
	}
}
