package uniformity

import "passlens/compiler/analysis"

// csr is a compressed adjacency structure: the neighbours of node n are
// list[start[n]:start[n+1]]. The engine walks edges in this form; the lists
// come from package analysis.
type csr struct {
	start []int32
	list  []int32
}

func (a *csr) of(n int) []int32 { return a.list[a.start[n]:a.start[n+1]] }

// buildSuccs returns g's successors in terminator order.
func buildSuccs(g *analysis.Graph) csr {
	s, l := analysis.SuccLists(g)
	return csr{start: s, list: l}
}

// buildPreds returns g's predecessors, one entry per edge, in increasing
// predecessor index.
func buildPreds(g *analysis.Graph) csr {
	s, l := analysis.PredLists(g)
	return csr{start: s, list: l}
}
