package analysis

import "passlens/compiler/ir"

// FuncGraph is the control-flow graph of an ir.Function as a Graph, together
// with the mapping between node indices and blocks.
//
// Node i is f.Blocks[i] (layout order, so node 0 is the entry) and its
// successors are Block.Successors() in LLVM's order (a switch lists its
// default target first, then one edge per case value). It is the function's
// shared CFG (ir.Function.CFG), so the analyses, the verifier and the passes
// agree on what a CFG edge is and share one graph while the CFG is
// unchanged. The graph must not be modified.
type FuncGraph struct {
	Graph  *Graph
	Blocks []*ir.Block
	// CFG is the function's cached CFG the graph belongs to; its Dom and
	// PostDom trees are the ones Dominators and PostDominators would build.
	CFG *ir.CFG
}

// NewFuncGraph returns the CFG of f. Edges to blocks that are not in f (a
// malformed function) are dropped rather than reported: the verifier is the
// place for such errors, and analyses must not panic on them.
func NewFuncGraph(f *ir.Function) *FuncGraph {
	c := f.CFG()
	return &FuncGraph{Graph: c.Graph, Blocks: c.Blocks, CFG: c}
}

// Index returns the node index of b, or -1 if b is not a block of the
// function.
func (fg *FuncGraph) Index(b *ir.Block) int {
	if fg.CFG == nil {
		return -1
	}
	return fg.CFG.Index(b)
}

// Block returns the block of node i.
func (fg *FuncGraph) Block(i int) *ir.Block { return fg.Blocks[i] }
