package analysis

import "passlens/compiler/graph"

// SuccLists returns g's successor lists in compressed form, in terminator
// order: the successors of node n are list[start[n]:start[n+1]]. Analyses
// outside this package (uniformity) walk edges in this form.
func SuccLists(g *Graph) (start, list []int32) {
	a := graph.SuccsCSR(g)
	return a.Start, a.List
}

// PredLists returns g's predecessor lists in compressed form, one entry per
// edge in increasing predecessor index.
func PredLists(g *Graph) (start, list []int32) {
	a := graph.PredsCSR(g)
	return a.Start, a.List
}
