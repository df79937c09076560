package ir

import (
	"sync"

	"passlens/compiler/graph"
)

// CFG is the control-flow graph of a function in the integer-indexed form
// of compiler/graph, with its predecessor lists and, computed on first use,
// its depth-first order, dominator tree, post-dominator trees and dominance
// frontiers. Node i is Blocks[i] (the layout order, so node 0 is the entry);
// a block's node is its Index.
//
// Function.CFG returns it and caches it on the function: every consumer
// (the verifier, the passes, the analyses, the interpreter) shares one
// graph and one dominator tree for as long as the CFG does not change. A
// CFG is immutable once built and safe for concurrent use; after the
// function's CFG changes, call Function.CFG again for a fresh one.
type CFG struct {
	// Blocks are the function's blocks in layout order when the graph was
	// built. The slice must not be modified.
	Blocks []*Block
	// Graph holds the successor lists in Instr.Successors order (LLVM's:
	// one entry per edge, a switch's default first) and the block names.
	// Edges to blocks that are not in the function (a malformed function)
	// are dropped: the verifier reports them, analyses must not panic on
	// them. The graph must not be modified.
	Graph *graph.Graph

	// What the graph was built from, to tell whether it is still current.
	terms []*Instr   // terminator of each block (nil: none)
	raw   [][]*Block // successors of each block as the terminator lists them
	names []string

	preds   [][]*Block // one entry per edge, in layout order of the source
	predIdx graph.CSR  // the same as node indices
	bad     bool       // nil or repeated blocks: never reused

	orderOnce, domOnce, pdomOnce, epdomOnce, dfOnce, cyclesOnce, byPtrOnce sync.Once

	byPtr map[*Block]int // node of each block, for blocks whose Index moved on

	order  *graph.Order
	dom    *graph.DomTree
	pdom   *graph.DomTree
	epdom  *graph.DomTree
	df     [][]int
	cycles *graph.CycleInfo
}

// CFG returns the control-flow graph of f, from the cache when f's CFG has
// not changed since it was built.
//
// Passes edit terminators in many ways (through Builder and Instr methods,
// and by writing Succs, Cases and Instrs directly), so the cache does not
// trust edits to announce themselves: it checks that the blocks, their
// terminators, their successors and their names are still the ones it was
// built from. The check walks every block and edge once without allocating,
// which costs a small fraction of building the graph and a much smaller one
// of a dominator tree; a rebuild also renumbers Block.Index. Callers that
// ask many questions take the CFG once and query it.
func (f *Function) CFG() *CFG {
	if c := f.cfg.Load(); c != nil && c.current(f) {
		return c
	}
	c := newCFG(f)
	f.cfg.Store(c)
	return c
}

// InvalidateCFG drops f's cached CFG. Function.CFG detects changes by
// itself; this only releases the memory (e.g. before a pass replaces the
// whole body).
func (f *Function) InvalidateCFG() { f.cfg.Store(nil) }

// newCFG builds the graph of f and renumbers its blocks. Per-block lists
// are cut from a few shared arrays: a pass that changes the CFG pays for
// one rebuild, so it should cost a handful of allocations, not several per
// block.
func newCFG(f *Function) *CFG {
	n := len(f.Blocks)
	names := make([]string, n)
	c := &CFG{
		Blocks: append([]*Block(nil), f.Blocks...),
		Graph:  &graph.Graph{Names: names, Succs: make([][]int, n)},
		terms:  make([]*Instr, n),
		raw:    make([][]*Block, n),
		names:  names,
		preds:  make([][]*Block, n),
	}
	// Number the blocks; a block listed twice (a malformed layout the
	// verifier reports) keeps its first position, and its later slots are
	// left without edges.
	for i := n - 1; i >= 0; i-- {
		b := f.Blocks[i]
		if b == nil {
			c.bad = true
			continue
		}
		if b.Index != i { // no write when current: readers may share f
			b.Index = i
		}
	}
	// The successors as the terminators list them, copied: for br and
	// condbr Successors returns the Succs slice itself, which a pass may
	// overwrite in place.
	var slab []*Block
	end := make([]int32, n+1)
	for i, b := range f.Blocks {
		end[i+1] = end[i]
		if b == nil {
			continue
		}
		names[i] = b.name
		if b.Index != i {
			c.bad = true
			continue
		}
		t := terminator(b)
		c.terms[i] = t
		if t == nil {
			continue
		}
		slab = appendSuccessors(slab, t)
		end[i+1] = int32(len(slab))
	}
	ints := make([]int, 0, len(slab))
	for i := range n {
		raw := slab[end[i]:end[i+1]:end[i+1]]
		c.raw[i] = raw
		k := len(ints)
		for _, sb := range raw {
			if j, ok := c.node(sb); ok {
				ints = append(ints, j)
			}
		}
		if len(ints) > k {
			c.Graph.Succs[i] = ints[k:len(ints):len(ints)]
		}
	}
	c.predIdx = graph.PredsCSR(c.Graph)
	pb := make([]*Block, len(c.predIdx.List))
	for j, u := range c.predIdx.List {
		pb[j] = c.Blocks[u]
	}
	for v := range n {
		lo, hi := c.predIdx.Start[v], c.predIdx.Start[v+1]
		if hi > lo {
			c.preds[v] = pb[lo:hi:hi]
		}
	}
	return c
}

// node returns the node of b if b is a block of the graph. Normally that is
// b.Index; when a pass still queries this CFG after changing the layout
// (so indices moved on), a map built on first need answers instead.
func (c *CFG) node(b *Block) (int, bool) {
	if b == nil {
		return 0, false
	}
	if i := b.Index; i >= 0 && i < len(c.Blocks) && c.Blocks[i] == b {
		return i, true
	}
	c.byPtrOnce.Do(func() {
		c.byPtr = make(map[*Block]int, len(c.Blocks))
		for i := len(c.Blocks) - 1; i >= 0; i-- {
			if b := c.Blocks[i]; b != nil {
				c.byPtr[b] = i
			}
		}
	})
	i, ok := c.byPtr[b]
	return i, ok
}

// current reports whether c still describes f.
func (c *CFG) current(f *Function) bool {
	if c.bad || len(f.Blocks) != len(c.Blocks) {
		return false
	}
	for i, b := range f.Blocks {
		if b != c.Blocks[i] {
			return false
		}
		if b == nil {
			continue
		}
		if b.Index != i || b.name != c.names[i] {
			return false
		}
		t := terminator(b)
		if t != c.terms[i] {
			return false
		}
		if t != nil && !sameSuccessors(t, c.raw[i]) {
			return false
		}
	}
	return true
}

// appendSuccessors appends t.Successors() to dst without building the
// switch's list separately.
func appendSuccessors(dst []*Block, t *Instr) []*Block {
	if t.Op != OpSwitch {
		return append(dst, t.Successors()...)
	}
	for _, sc := range t.Cases {
		if sc.Default {
			dst = append(dst, sc.Target)
		}
	}
	for _, sc := range t.Cases {
		for range sc.Values {
			dst = append(dst, sc.Target)
		}
	}
	return dst
}

// sameSuccessors reports whether t.Successors() would return want, without
// allocating.
func sameSuccessors(t *Instr, want []*Block) bool {
	switch t.Op {
	case OpBr, OpCondBr:
		if len(t.Succs) != len(want) {
			return false
		}
		for i, s := range t.Succs {
			if s != want[i] {
				return false
			}
		}
		return true
	case OpSwitch:
		k := 0
		for _, sc := range t.Cases {
			if sc.Default {
				if k >= len(want) || want[k] != sc.Target {
					return false
				}
				k++
			}
		}
		for _, sc := range t.Cases {
			for range sc.Values {
				if k >= len(want) || want[k] != sc.Target {
					return false
				}
				k++
			}
		}
		return k == len(want)
	}
	return len(want) == 0
}

// Len returns the number of blocks.
func (c *CFG) Len() int { return len(c.Blocks) }

// Index returns the node of b, or -1 if b is not a block of the function.
func (c *CFG) Index(b *Block) int {
	if i, ok := c.node(b); ok {
		return i
	}
	return -1
}

// Preds returns b's predecessors: one entry per CFG edge (a condbr whose
// targets coincide contributes two), in layout order of the predecessor.
// The slice must not be modified.
func (c *CFG) Preds(b *Block) []*Block {
	if i, ok := c.node(b); ok {
		return c.preds[i]
	}
	return nil
}

// Order returns the depth-first traversal from the entry that visits
// successors in terminator order (its RPO is the reverse postorder every
// pass iterates in).
func (c *CFG) Order() *graph.Order {
	c.orderOnce.Do(func() {
		if c.Len() == 0 {
			c.order = &graph.Order{}
			return
		}
		c.order = graph.DepthFirst(c.Graph)
	})
	return c.order
}

// RPO returns the blocks reachable from the entry in reverse postorder.
func (c *CFG) RPO() []*Block {
	o := c.Order()
	out := make([]*Block, len(o.Post))
	for i, n := range o.Post {
		out[len(out)-1-i] = c.Blocks[n]
	}
	return out
}

// Reachable reports whether b is reachable from the entry.
func (c *CFG) Reachable(b *Block) bool {
	i, ok := c.node(b)
	return ok && c.Order().Reachable(i)
}

// Dom returns the dominator tree (graph.Dominators: Semi-NCA, children in
// LLVM's order); nil for a declaration. Blocks unreachable from the entry
// are not in it.
func (c *CFG) Dom() *graph.DomTree {
	c.domOnce.Do(func() {
		if c.Len() > 0 {
			c.dom = graph.Dominators(c.Graph)
		}
	})
	return c.dom
}

// PostDom returns the post-dominator tree with LLVM's semantics
// (graph.PostDominators: a virtual exit, fake roots for infinite loops);
// nil for a declaration.
func (c *CFG) PostDom() *graph.DomTree {
	c.pdomOnce.Do(func() {
		if c.Len() > 0 {
			c.pdom = graph.PostDominators(c.Graph)
		}
	})
	return c.pdom
}

// ExitPostDom returns the post-dominator tree relative to the real exits
// (graph.ExitPostDominators: blocks that cannot leave the function are not
// in it); nil for a declaration.
func (c *CFG) ExitPostDom() *graph.DomTree {
	c.epdomOnce.Do(func() {
		if c.Len() > 0 {
			c.epdom = graph.ExitPostDominators(c.Graph)
		}
	})
	return c.epdom
}

// Frontiers returns the dominance frontier of every node (graph.Frontiers).
// The lists must not be modified.
func (c *CFG) Frontiers() [][]int {
	c.dfOnce.Do(func() {
		if c.Len() > 0 {
			c.df = graph.Frontiers(c.Graph, c.Dom())
		}
	})
	return c.df
}

// Cycles returns the cycle hierarchy (graph.Cycles, LLVM's
// GenericCycleInfo); nil for a declaration.
func (c *CFG) Cycles() *graph.CycleInfo {
	c.cyclesOnce.Do(func() {
		if c.Len() > 0 {
			c.cycles = graph.Cycles(c.Graph)
		}
	})
	return c.cycles
}

// Dominates reports whether block a dominates block b (every block
// dominates itself); false if either is unreachable or not in the
// function. O(1).
func (c *CFG) Dominates(a, b *Block) bool {
	i, oka := c.node(a)
	j, okb := c.node(b)
	return oka && okb && c.Dom().Dominates(i, j)
}

// IDom returns the immediate dominator of b, or nil for the entry and for
// blocks that are unreachable or not in the function.
func (c *CFG) IDom(b *Block) *Block {
	i, ok := c.node(b)
	if !ok {
		return nil
	}
	if d := c.Dom().IDom(i); d >= 0 {
		return c.Blocks[d]
	}
	return nil
}
