// Package graph is the one control-flow-graph layer of passlens: an
// integer-indexed CFG (Graph, node 0 is the entry), depth-first orders and
// reverse postorder, dominator and post-dominator trees (Semi-NCA) with O(1)
// dominance queries, dominance frontiers, and the cycle hierarchy.
//
// It depends on nothing else in passlens, so the IR (compiler/ir, which
// caches the trees of a function), the scalar back end's IR (compiler/sir),
// the interpreter and the analyses (compiler/analysis, which prints the
// trees exactly as opt-22 does) all build on it.
//
// The analyses are written to agree exactly with LLVM (opt-22): the same
// blocks are in the trees, the same immediate (post)dominators are chosen,
// the same post-dominator roots are picked for infinite loops, and the same
// cycles, headers and entries are found. Where LLVM's result depends on
// traversal order (children order in trees, cycle block order), the
// traversal orders of LLVM are mirrored too, so that the printers in
// compiler/analysis print byte-identical output for IR parsed from text.
// See docs/analyses.md.
//
// Every traversal is iterative: graphs with 100k+ blocks and deep nesting must
// not overflow the goroutine stack, and the algorithms are near-linear.
//
// The analyses expect a valid graph (see Graph.Validate) and may panic on an
// invalid one; they never modify the graph.
package graph

import (
	"fmt"
	"strconv"
)

// Graph is a CFG: node 0 is the entry; Succs in terminator order (order
// matters for DFS-based results).
//
// Node indices are also the block layout order of the function (the order in
// which blocks appear in the IR text). LLVM uses the layout order to pick
// post-dominator roots inside infinite loops and, for IR parsed from text, it
// determines the order of predecessor lists; see Preds.
//
// Succs[n] may contain the same successor more than once (a switch with
// duplicate targets, or a conditional branch whose targets coincide): each
// entry is one CFG edge, as in LLVM.
type Graph struct {
	// Names are the block names, used by the IR emitter and the formatters.
	// It may be nil or shorter than Succs; missing or empty names default to
	// "bb<N>" (see Name). A name consisting only of decimal digits denotes
	// an unnamed block with that slot number (LLVM prints it as %N).
	Names []string
	// Succs[n] lists the successors of node n in terminator order: for a
	// conditional branch the true target first, for a switch the default
	// target first and then the cases in order.
	Succs [][]int
}

// Len returns the number of nodes.
func (g *Graph) Len() int { return len(g.Succs) }

// Name returns the name of node n, defaulting to "bb<n>" when Names does not
// provide one.
func (g *Graph) Name(n int) string {
	if n < len(g.Names) && g.Names[n] != "" {
		return g.Names[n]
	}
	return "bb" + strconv.Itoa(n)
}

// NumEdges returns the number of CFG edges (duplicate edges counted).
func (g *Graph) NumEdges() int {
	e := 0
	for _, s := range g.Succs {
		e += len(s)
	}
	return e
}

// Validate reports whether g is well formed: it has at least one node, every
// successor index is in range, and the effective names are unique.
// Analyses assume a valid graph; they do not require that the entry has no
// predecessors (LLVM IR does, the analyses do not).
func (g *Graph) Validate() error {
	n := g.Len()
	if n == 0 {
		return fmt.Errorf("graph: graph has no nodes")
	}
	if n > 1<<30 {
		return fmt.Errorf("graph: graph too large (%d nodes)", n)
	}
	if len(g.Names) > n {
		return fmt.Errorf("graph: %d names for %d nodes", len(g.Names), n)
	}
	for u, ss := range g.Succs {
		for _, v := range ss {
			if v < 0 || v >= n {
				return fmt.Errorf("graph: edge %d->%d out of range", u, v)
			}
		}
	}
	seen := make(map[string]int, n)
	for i := 0; i < n; i++ {
		name := g.Name(i)
		if j, dup := seen[name]; dup {
			return fmt.Errorf("graph: nodes %d and %d are both named %q", j, i, name)
		}
		seen[name] = i
	}
	return nil
}

// Preds returns the predecessor lists in the order LLVM's pred_begin reports
// them for IR parsed from text whose block layout is the node order: a
// block's use list holds the most recently created use first, and the
// parser creates uses in text order, so predecessors appear in decreasing
// node index. A predecessor appears once per edge (duplicate edges give
// duplicate entries).
func (g *Graph) Preds() [][]int {
	p := buildPreds(g)
	out := make([][]int, g.Len())
	for v := range out {
		l := p.of(v)
		r := make([]int, len(l))
		for i, u := range l {
			r[len(l)-1-i] = int(u)
		}
		out[v] = r
	}
	return out
}

// csr is a compressed adjacency structure: the neighbours of node n are
// list[start[n]:start[n+1]].
type csr struct {
	start []int32
	list  []int32
}

func (a *csr) of(n int) []int32 { return a.list[a.start[n]:a.start[n+1]] }

// CSR is a compressed adjacency structure: the neighbours of node n are
// List[Start[n]:Start[n+1]] (see Of). It is the allocation-light form the
// analyses iterate over.
type CSR struct {
	Start []int32
	List  []int32
}

// Of returns the neighbours of node n. The slice must not be modified.
func (a *CSR) Of(n int) []int32 { return a.List[a.Start[n]:a.Start[n+1]] }

// SuccsCSR returns g's successor lists (terminator order) as a CSR.
func SuccsCSR(g *Graph) CSR { a := buildSuccs(g); return CSR{a.start, a.list} }

// PredsCSR returns g's predecessor lists as a CSR, in increasing
// predecessor index with one entry per edge (the reverse of LLVM's order
// for text-parsed IR, see Preds).
func PredsCSR(g *Graph) CSR { a := buildPreds(g); return CSR{a.start, a.list} }

// buildSuccs copies g.Succs into a csr, preserving terminator order.
func buildSuccs(g *Graph) csr {
	n := g.Len()
	a := csr{start: make([]int32, n+1), list: make([]int32, 0, g.NumEdges())}
	for u, ss := range g.Succs {
		for _, v := range ss {
			a.list = append(a.list, int32(v))
		}
		a.start[u+1] = int32(len(a.list))
	}
	return a
}

// buildPreds returns the predecessor lists in increasing predecessor index
// (one entry per edge), which is the reverse of LLVM's predecessor order
// for text-parsed IR (see Graph.Preds).
func buildPreds(g *Graph) csr {
	n := g.Len()
	a := csr{start: make([]int32, n+1)}
	for _, ss := range g.Succs {
		for _, v := range ss {
			a.start[v+1]++
		}
	}
	for i := 0; i < n; i++ {
		a.start[i+1] += a.start[i]
	}
	a.list = make([]int32, a.start[n])
	fill := make([]int32, n)
	copy(fill, a.start[:n])
	for u, ss := range g.Succs {
		for _, v := range ss {
			a.list[fill[v]] = int32(u)
			fill[v]++
		}
	}
	return a
}
