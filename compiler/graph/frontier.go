package graph

// Frontiers returns the dominance frontier of every node of g in the
// dominator tree t (t must be Dominators(g)): DF(x) is the set of nodes y
// such that x dominates a predecessor of y but does not strictly dominate
// y. It is the set of join points where SSA construction places phis for a
// definition in x.
//
// The frontiers are computed with the predecessor walk of Cooper, Harvey and
// Kennedy ("A Simple, Fast Dominance Algorithm"): for every join node y (or
// the entry, whose start is an implicit incoming edge) and
// every reachable predecessor p, the nodes from p up the tree to (but not
// including) idom(y) have y in their frontier. Each list is in increasing
// node index without duplicates; nodes outside the tree have empty
// frontiers and contribute nothing.
func Frontiers(g *Graph, t *DomTree) [][]int {
	n := g.Len()
	df := make([][]int, n)
	preds := buildPreds(g)
	for y := 0; y < n; y++ {
		ps := preds.of(y)
		// A join has two predecessors; the entry counts its implicit
		// incoming edge as one.
		if (len(ps) < 2 && y != t.Root()) || !t.Contains(y) {
			continue
		}
		iy := t.IDom(y)
		for _, p := range ps {
			if !t.Contains(int(p)) {
				continue
			}
			for r := int(p); r != iy && r >= 0; r = t.IDom(r) {
				if l := df[r]; len(l) == 0 || l[len(l)-1] != y {
					df[r] = append(df[r], y)
				}
			}
		}
	}
	return df
}
