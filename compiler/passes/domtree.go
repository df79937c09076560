package passes

import "passlens/compiler/ir"

// domTree is a pass-local dominator tree over the blocks reachable from a
// function's entry. Passes need dominance for SSA construction (sroa) and
// scoped CSE (simplify) on a CFG they are rewriting, so they build this
// small, allocation-light structure themselves instead of going through the
// LLVM-matching analyses of compiler/analysis (which are tuned for
// reproducing opt's printed output, not for use inside transformations).
//
// It uses the iterative algorithm of Cooper, Harvey and Kennedy ("A Simple,
// Fast Dominance Algorithm") on reverse postorder, which is near-linear on
// the reducible CFGs shaders have and correct on irreducible ones.
type domTree struct {
	rpo      []*ir.Block       // reachable blocks in reverse postorder
	num      map[*ir.Block]int // block -> index in rpo (absent: unreachable)
	idom     []int             // idom[i] is the rpo index of i's immediate dominator; idom[0] = 0
	children [][]int           // dominator-tree children (rpo indices), in rpo order
	preds    [][]int           // reachable predecessors, one entry per CFG edge
	pre      []int             // preorder number in the dominator tree
	post     []int             // last preorder number in i's subtree
}

// newDomTree computes the dominator tree of f's reachable blocks.
func newDomTree(f *ir.Function) *domTree {
	d := &domTree{num: make(map[*ir.Block]int, len(f.Blocks))}
	if len(f.Blocks) == 0 {
		return d
	}
	d.rpo = reversePostorder(f)
	for i, b := range d.rpo {
		d.num[b] = i
	}
	n := len(d.rpo)
	d.preds = make([][]int, n)
	for i, b := range d.rpo {
		for _, s := range b.Successors() {
			if j, ok := d.num[s]; ok {
				d.preds[j] = append(d.preds[j], i)
			}
		}
	}
	d.idom = make([]int, n)
	for i := range d.idom {
		d.idom[i] = -1
	}
	d.idom[0] = 0
	for changed := true; changed; {
		changed = false
		for i := 1; i < n; i++ {
			newIdom := -1
			for _, p := range d.preds[i] {
				if d.idom[p] < 0 {
					continue
				}
				if newIdom < 0 {
					newIdom = p
				} else {
					newIdom = d.intersect(p, newIdom)
				}
			}
			if newIdom >= 0 && d.idom[i] != newIdom {
				d.idom[i] = newIdom
				changed = true
			}
		}
	}
	d.children = make([][]int, n)
	for i := 1; i < n; i++ {
		d.children[d.idom[i]] = append(d.children[d.idom[i]], i)
	}
	// Preorder numbering of the tree for O(1) dominance queries.
	d.pre = make([]int, n)
	d.post = make([]int, n)
	counter := 0
	type frame struct{ node, next int }
	stack := []frame{{0, 0}}
	d.pre[0] = counter
	counter++
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(d.children[top.node]) {
			c := d.children[top.node][top.next]
			top.next++
			d.pre[c] = counter
			counter++
			stack = append(stack, frame{c, 0})
			continue
		}
		d.post[top.node] = counter - 1
		stack = stack[:len(stack)-1]
	}
	return d
}

func (d *domTree) intersect(a, b int) int {
	for a != b {
		for a > b {
			a = d.idom[a]
		}
		for b > a {
			b = d.idom[b]
		}
	}
	return a
}

// reachable reports whether b is reachable from the entry.
func (d *domTree) reachable(b *ir.Block) bool {
	_, ok := d.num[b]
	return ok
}

// dominates reports whether a dominates b (both must be reachable).
func (d *domTree) dominates(a, b *ir.Block) bool {
	ia, oka := d.num[a]
	ib, okb := d.num[b]
	if !oka || !okb {
		return false
	}
	return d.pre[ia] <= d.pre[ib] && d.pre[ib] <= d.post[ia]
}

// frontiers computes the dominance frontier of every reachable block (rpo
// indices), using the predecessor-walk formulation of Cooper et al.
func (d *domTree) frontiers() [][]int {
	n := len(d.rpo)
	df := make([][]int, n)
	for b := 0; b < n; b++ {
		if len(d.preds[b]) < 2 {
			continue
		}
		for _, p := range d.preds[b] {
			runner := p
			for runner != d.idom[b] {
				if l := df[runner]; len(l) == 0 || l[len(l)-1] != b {
					df[runner] = append(df[runner], b)
				}
				if runner == 0 && d.idom[b] != 0 {
					break
				}
				runner = d.idom[runner]
			}
		}
	}
	return df
}

// reversePostorder returns f's blocks reachable from the entry in reverse
// postorder of an iterative depth-first search that visits successors in
// terminator order.
func reversePostorder(f *ir.Function) []*ir.Block {
	if len(f.Blocks) == 0 {
		return nil
	}
	seen := make(map[*ir.Block]bool, len(f.Blocks))
	var post []*ir.Block
	type frame struct {
		b     *ir.Block
		succs []*ir.Block
		next  int
	}
	entry := f.Blocks[0]
	seen[entry] = true
	stack := []frame{{entry, entry.Successors(), 0}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(top.succs) {
			s := top.succs[top.next]
			top.next++
			if !seen[s] {
				seen[s] = true
				stack = append(stack, frame{s, s.Successors(), 0})
			}
			continue
		}
		post = append(post, top.b)
		stack = stack[:len(stack)-1]
	}
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	return post
}
