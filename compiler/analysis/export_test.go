package analysis

// Access for the external tests (package analysis_test), which use the
// oracles and generators of analysis/analysistest (an internal test cannot
// import it: analysistest imports analysis).

// ReversedDepthFirst is the DFS of the cycle analysis: successors visited
// in reverse list order, as LLVM's LIFO stack does.
func ReversedDepthFirst(g *Graph) *Order {
	s := buildSuccs(g)
	return depthFirst(&s, g.Len(), true)
}
