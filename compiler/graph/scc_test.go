package graph

import (
	"math/rand/v2"
	"testing"
)

// TestTarjanAgainstDefinition checks Tarjan on random graphs against the
// definition: u and v share a component exactly when each reaches the
// other, every node reachable from the roots (through kept nodes) is in
// one component, and components come in reverse topological order (no
// edge leads from a component to a later one).
func TestTarjanAgainstDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for iter := 0; iter < 300; iter++ {
		n := 1 + rng.IntN(14)
		succ := make([][]int, n)
		for v := range succ {
			for k := rng.IntN(4); k > 0; k-- {
				succ[v] = append(succ[v], rng.IntN(n))
			}
		}
		keep := make([]bool, n)
		for v := range keep {
			keep[v] = rng.IntN(5) > 0
		}
		keep[0] = true
		// reach[u][v]: v reachable from u through kept nodes (u itself
		// counts when kept).
		reach := make([][]bool, n)
		for u := range reach {
			reach[u] = make([]bool, n)
			if !keep[u] {
				continue
			}
			work := []int{u}
			reach[u][u] = true
			for len(work) > 0 {
				x := work[len(work)-1]
				work = work[:len(work)-1]
				for _, y := range succ[x] {
					if keep[y] && !reach[u][y] {
						reach[u][y] = true
						work = append(work, y)
					}
				}
			}
		}
		comp := make([]int, n)
		for i := range comp {
			comp[i] = -1
		}
		nc := 0
		Tarjan(n, []int{0}, func(v int) []int { return succ[v] }, func(v int) bool { return keep[v] }, func(c []int) {
			for _, v := range c {
				if comp[v] >= 0 {
					t.Fatalf("graph %v: node %d in two components", succ, v)
				}
				comp[v] = nc
			}
			nc++
		})
		for v := 0; v < n; v++ {
			if (comp[v] >= 0) != reach[0][v] {
				t.Fatalf("graph %v keep %v: node %d in a component = %v, reachable = %v", succ, keep, v, comp[v] >= 0, reach[0][v])
			}
		}
		for u := 0; u < n; u++ {
			for v := 0; v < n; v++ {
				if comp[u] < 0 || comp[v] < 0 {
					continue
				}
				if same := reach[u][v] && reach[v][u]; same != (comp[u] == comp[v]) {
					t.Fatalf("graph %v: %d and %d share a component = %v, mutually reachable = %v", succ, u, v, comp[u] == comp[v], same)
				}
				for _, w := range succ[u] {
					if w == v && comp[v] > comp[u] {
						t.Fatalf("graph %v: edge %d->%d goes to a later component", succ, u, v)
					}
				}
			}
		}
	}
}
