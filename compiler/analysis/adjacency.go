package analysis

// SuccLists returns g's successor lists in compressed form, in terminator
// order: the successors of node n are list[start[n]:start[n+1]]. Analyses
// outside this package (uniformity) walk edges in this form.
func SuccLists(g *Graph) (start, list []int32) {
	a := buildSuccs(g)
	return a.start, a.list
}

// PredLists returns g's predecessor lists in compressed form, one entry per
// edge in increasing predecessor index (see buildPreds).
func PredLists(g *Graph) (start, list []int32) {
	a := buildPreds(g)
	return a.start, a.list
}

// DFSNumbers returns the tree's preorder entry and exit numbers: v
// dominates w exactly when in[v] <= in[w] && out[w] <= out[v]. Callers
// that test many nodes against one subtree use them directly (a binary
// search over sorted entry numbers); the slices must not be modified.
func (t *DomTree) DFSNumbers() (in, out []int32) { return t.in, t.out }
