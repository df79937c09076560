package passes

import (
	"slices"

	"passlens/compiler/ir"
)

// domTree is the passes' view of a function's dominator tree, numbered in
// reverse postorder: SSA construction (sroa), scoped CSE (simplify) and the
// CFG clean-ups walk blocks dominators first and keep per-block state in
// slices indexed by that number.
//
// The tree itself is the function's cached one (Function.CFG, compiler/graph's
// Semi-NCA), so a pass that does not change the CFG does not recompute it,
// and neither does the verifier or the next pass. A domTree is a snapshot:
// it keeps answering for the CFG it was built from while the pass edits
// the function, and the pass builds a new one when it needs fresh facts.
type domTree struct {
	cfg      *ir.CFG
	rpo      []*ir.Block // reachable blocks in reverse postorder
	rpoNum   []int       // per CFG node: index in rpo, -1 if unreachable
	children [][]int     // dominator-tree children (rpo indices), in rpo order
	preds    [][]int     // reachable predecessors, one entry per CFG edge, in rpo order
}

// newDomTree returns the dominator tree of f's reachable blocks.
func newDomTree(f *ir.Function) *domTree {
	c := f.CFG()
	d := &domTree{cfg: c}
	if c.Len() == 0 {
		return d
	}
	o := c.Order()
	n := len(o.Post)
	d.rpo = make([]*ir.Block, n)
	d.rpoNum = make([]int, c.Len())
	for i := range d.rpoNum {
		d.rpoNum[i] = -1
	}
	for i, x := range o.Post {
		r := n - 1 - i
		d.rpo[r] = c.Blocks[x]
		d.rpoNum[x] = r
	}
	dom := c.Dom()
	d.children = make([][]int, n)
	d.preds = make([][]int, n)
	for r, b := range d.rpo {
		x := c.Index(b)
		if r > 0 {
			p := d.rpoNum[dom.IDom(x)]
			d.children[p] = append(d.children[p], r)
		}
		for _, s := range c.Graph.Succs[x] {
			if j := d.rpoNum[s]; j >= 0 {
				d.preds[j] = append(d.preds[j], r)
			}
		}
	}
	return d
}

// number returns b's index in rpo, or false if b is unreachable or not in
// the function.
func (d *domTree) number(b *ir.Block) (int, bool) {
	x := d.cfg.Index(b)
	if x < 0 || d.rpoNum[x] < 0 {
		return 0, false
	}
	return d.rpoNum[x], true
}

// reachable reports whether b is reachable from the entry.
func (d *domTree) reachable(b *ir.Block) bool {
	_, ok := d.number(b)
	return ok
}

// dominates reports whether a dominates b (false if either is unreachable).
func (d *domTree) dominates(a, b *ir.Block) bool { return d.cfg.Dominates(a, b) }

// frontiers returns the dominance frontier of every reachable block, in rpo
// indices (each list ascending).
func (d *domTree) frontiers() [][]int {
	df := make([][]int, len(d.rpo))
	all := d.cfg.Frontiers()
	for r, b := range d.rpo {
		l := all[d.cfg.Index(b)]
		if len(l) == 0 {
			continue
		}
		out := make([]int, len(l))
		for i, y := range l {
			out[i] = d.rpoNum[y]
		}
		slices.Sort(out)
		df[r] = out
	}
	return df
}

// reversePostorder returns f's blocks reachable from the entry in reverse
// postorder of the depth-first search that visits successors in terminator
// order.
func reversePostorder(f *ir.Function) []*ir.Block { return f.CFG().RPO() }
