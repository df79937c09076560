package graph

import "slices"

// PostDominators computes the post-dominator tree of g with LLVM's semantics.
//
// The tree is rooted at a virtual exit (node index g.Len()) whose children
// include the roots: every block without successors (ret, unreachable), in
// block order, followed by one "fake root" per region from which no such
// block can be reached (infinite loops), chosen exactly as LLVM's
// SemiNCAInfo::FindRoots does (see postDomRoots). Every block is in the tree,
// including blocks unreachable from the entry, as in LLVM.
//
// The tree is computed with Semi-NCA over the reverse CFG. Its DFS starts at
// the virtual exit, visits the roots in order and then predecessors in
// increasing block index, which is the order LLVM visits them for IR parsed
// from text (see Graph.Preds); so the children order matches opt's output.
func PostDominators(g *Graph) *DomTree {
	n := g.Len()
	succs := buildSuccs(g)
	preds := buildPreds(g)
	roots := postDomRoots(n, &succs, &preds)

	num := make([]int32, n+1)
	for i := range num {
		num[i] = -1
	}
	num[n] = 0
	vert := make([]int32, 1, n+1)
	vert[0] = int32(n)
	parent := make([]int32, 1, n+1)
	isRoot := make([]bool, n)
	for _, r := range roots {
		isRoot[r] = true
		if num[r] < 0 {
			vert, parent = numberDFS(&preds, num, vert, parent, int32(r), 0)
		}
	}
	if len(vert) != n+1 {
		panic("graph: post-dominator roots do not cover the graph")
	}

	// Search-graph predecessors of x (reverse CFG plus exit->root edges):
	// the CFG successors of x, and the virtual exit if x is a root.
	m := n + 1
	ps := csr{start: make([]int32, m+1), list: make([]int32, 0, succs.start[n]+int32(len(roots)))}
	for i := 1; i < m; i++ {
		x := vert[i]
		for _, s := range succs.of(int(x)) {
			ps.list = append(ps.list, num[s])
		}
		if isRoot[x] {
			ps.list = append(ps.list, 0)
		}
		ps.start[i+1] = int32(len(ps.list))
	}
	idom := semiNCA(parent, &ps)
	return newDomTree(true, n, n+1, roots, vert, idom)
}

// postDomRoots returns the post-dominator roots in LLVM's order (see
// SemiNCAInfo::FindRoots and RemoveRedundantRoots in LLVM's
// GenericDomTreeConstruction.h):
//
//  1. Trivial roots: the blocks without successors, in block order. Every
//     block that reaches one of them is marked visited.
//  2. For every still unvisited block I, in block order: a forward DFS from
//     I over unvisited blocks, visiting successors in decreasing block index
//     (LLVM sorts them by block order and pops them from a stack, which makes
//     the choice immune to swapped branch successors), finds the "furthest
//     away" block (the last one in preorder). It becomes a root and every
//     unvisited block that reaches it is marked visited. Blocks only seen by
//     the forward DFS stay unvisited for the next I.
//  3. A non-trivial root from which another current root is forward-reachable
//     is redundant: it is removed by swapping the last root into its place,
//     and that root is examined next.
//
// succs is the CFG in terminator order and preds the predecessor lists.
func postDomRoots(n int, succs, preds *csr) []int {
	visited := make([]bool, n)
	var stack []int32
	nVisited := 0
	// markReverse marks every unvisited block that reaches r (r included).
	markReverse := func(r int32) {
		visited[r] = true
		nVisited++
		stack = append(stack[:0], r)
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, p := range preds.of(int(u)) {
				if !visited[p] {
					visited[p] = true
					nVisited++
					stack = append(stack, p)
				}
			}
		}
	}
	hasSuccs := func(v int) bool { return succs.start[v] != succs.start[v+1] }

	var roots []int
	for v := 0; v < n; v++ {
		if !hasSuccs(v) {
			roots = append(roots, v)
			markReverse(int32(v))
		}
	}
	if nVisited == n {
		return roots
	}

	// Successor lists in decreasing block index for the blocks that are
	// still unvisited (the only ones the forward walks expand).
	desc := csr{start: succs.start, list: make([]int32, len(succs.list))}
	copy(desc.list, succs.list)
	for v := 0; v < n; v++ {
		if !visited[v] {
			l := desc.of(v)
			slices.Sort(l)
			slices.Reverse(l)
		}
	}

	stamp := make([]int32, n) // forward-walk marks; cur is the current walk
	cur := int32(0)
	type frame struct{ node, next int32 }
	var fstack []frame
	for i := 0; i < n; i++ {
		if visited[i] {
			continue
		}
		// Forward DFS over unvisited blocks, recursive-equivalent, in
		// decreasing successor index; remember the last block in preorder.
		cur++
		last := int32(i)
		stamp[i] = cur
		fstack = append(fstack[:0], frame{int32(i), desc.start[i]})
	walk:
		for len(fstack) > 0 {
			top := &fstack[len(fstack)-1]
			hi := desc.start[top.node+1]
			for top.next < hi {
				v := desc.list[top.next]
				top.next++
				if !visited[v] && stamp[v] != cur {
					stamp[v] = cur
					last = v
					fstack = append(fstack, frame{v, desc.start[v]})
					continue walk
				}
			}
			fstack = fstack[:len(fstack)-1]
		}
		roots = append(roots, int(last))
		markReverse(last)
	}

	// Remove redundant non-trivial roots.
	isRoot := make([]bool, n)
	for _, r := range roots {
		isRoot[r] = true
	}
	for i := 0; i < len(roots); i++ {
		r := roots[i]
		if !hasSuccs(r) {
			continue
		}
		cur++
		stamp[r] = cur
		stack = append(stack[:0], int32(r))
		found := false
	search:
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, v := range succs.of(int(u)) {
				if stamp[v] == cur {
					continue
				}
				if isRoot[v] {
					found = true
					break search
				}
				stamp[v] = cur
				stack = append(stack, v)
			}
		}
		if found {
			isRoot[r] = false
			last := len(roots) - 1
			roots[i] = roots[last]
			roots = roots[:last]
			i--
		}
	}
	return roots
}

// ExitPostDominators computes the post-dominator tree of g relative to its
// real exits only: the virtual exit (node g.Len(), the root) has an edge from
// every block without successors (ret, discard, unreachable), and blocks
// from which no such block is reachable (infinite loops) are not in the
// tree. Unlike PostDominators there are no fake roots, so a block's
// immediate post-dominator only considers paths that leave the function;
// the control-flow passes and the interpreter's scheduler need exactly that
// ("where do all exiting paths meet again").
//
// Roots returns the exits in block order. Children are in the preorder of
// the construction DFS, which visits the exits in block order and then
// predecessors in increasing block index.
func ExitPostDominators(g *Graph) *DomTree {
	n := g.Len()
	preds := buildPreds(g)
	var exits []int
	for u, ss := range g.Succs {
		if len(ss) == 0 {
			exits = append(exits, u)
		}
	}
	// The reverse graph plus the virtual exit n, whose successors are the
	// exits.
	rev := csr{start: make([]int32, n+2), list: make([]int32, 0, len(preds.list)+len(exits))}
	for v := 0; v < n; v++ {
		rev.list = append(rev.list, preds.of(v)...)
		rev.start[v+1] = int32(len(rev.list))
	}
	for _, e := range exits {
		rev.list = append(rev.list, int32(e))
	}
	rev.start[n+1] = int32(len(rev.list))
	return dominatorsFrom(true, n+1, &rev, int32(n), exits)
}
