package analysis

import "passlens/compiler/ir"

// FuncGraph is the control-flow graph of an ir.Function as a Graph, together
// with the mapping between node indices and blocks.
//
// Node i is f.Blocks[i] (layout order, so node 0 is the entry) and its
// successors are Block.Successors() in LLVM's order (a switch lists its
// default target first, then one edge per case value). Every analysis in
// this package that works on IR goes through this adapter, so they agree on
// what a CFG edge is.
type FuncGraph struct {
	Graph  *Graph
	Blocks []*ir.Block
	index  map[*ir.Block]int
}

// NewFuncGraph builds the CFG of f. Edges to blocks that are not in f (a
// malformed function) are dropped rather than reported: the verifier is the
// place for such errors, and analyses must not panic on them.
func NewFuncGraph(f *ir.Function) *FuncGraph {
	fg := &FuncGraph{
		Graph:  &Graph{Names: make([]string, len(f.Blocks)), Succs: make([][]int, len(f.Blocks))},
		Blocks: f.Blocks,
		index:  make(map[*ir.Block]int, len(f.Blocks)),
	}
	for i, b := range f.Blocks {
		fg.index[b] = i
		fg.Graph.Names[i] = b.Name()
	}
	for i, b := range f.Blocks {
		succs := b.Successors()
		if len(succs) == 0 {
			continue
		}
		s := make([]int, 0, len(succs))
		for _, t := range succs {
			if j, ok := fg.index[t]; ok {
				s = append(s, j)
			}
		}
		fg.Graph.Succs[i] = s
	}
	return fg
}

// Index returns the node index of b, or -1 if b is not a block of the
// function.
func (fg *FuncGraph) Index(b *ir.Block) int {
	if i, ok := fg.index[b]; ok {
		return i
	}
	return -1
}

// Block returns the block of node i.
func (fg *FuncGraph) Block(i int) *ir.Block { return fg.Blocks[i] }
