package graph

// DomTree is a dominator tree (Dominators) or post-dominator tree
// (PostDominators) of a Graph.
//
// Tree nodes are CFG node indices. A post-dominator tree additionally has a
// virtual exit node with index g.Len() (see VirtualExit), which is the root
// of the tree and the immediate post-dominator of every root returned by
// Roots.
//
// A dominator tree contains exactly the nodes reachable from the entry; a
// post-dominator tree contains every node (as LLVM's does).
//
// The children of each node are ordered as LLVM orders them: by the preorder
// of the depth-first search that numbered the CFG during construction.
type DomTree struct {
	post  bool
	n     int   // number of CFG nodes
	root  int   // 0, or the virtual exit n
	roots []int // CFG roots: [0], or the post-dominator roots in LLVM order

	idom  []int32 // per tree node; -1 for the root and nodes not in the tree
	level []int32 // depth in the tree; -1 if not in the tree
	in    []int32 // DFS numbers of the tree, for O(1) Dominates
	out   []int32

	childStart []int32 // children of v: childList[childStart[v]:childStart[v+1]]
	childList  []int
	order      []int // tree nodes in construction (search preorder) order
}

// Dominators computes the dominator tree of g with the Semi-NCA algorithm
// (Georgiadis 2005, as used by LLVM's GenericDomTreeConstruction). The DFS
// visits successors in terminator order, exactly like LLVM, so the children
// order matches opt's printed tree. Nodes unreachable from the entry are not
// in the tree.
func Dominators(g *Graph) *DomTree {
	succs := buildSuccs(g)
	return dominatorsFrom(false, g.Len(), &succs, 0, []int{0})
}

// dominatorsFrom computes the dominator tree of the graph adj (n nodes)
// rooted at root; nodes unreachable from root are not in the tree. post and
// roots are recorded in the tree as they are.
func dominatorsFrom(post bool, n int, adj *csr, root int32, roots []int) *DomTree {
	num := make([]int32, n)
	for i := range num {
		num[i] = -1
	}
	var vert, parent []int32
	vert, parent = numberDFS(adj, num, vert, parent, root, 0)
	m := len(vert)

	// Predecessors of each visited vertex in DFS-number space; edges from
	// unreachable nodes are ignored.
	ps := csr{start: make([]int32, m+1)}
	for u := 0; u < n; u++ {
		if num[u] < 0 {
			continue
		}
		for _, v := range adj.of(u) {
			ps.start[num[v]+1]++
		}
	}
	for i := 0; i < m; i++ {
		ps.start[i+1] += ps.start[i]
	}
	ps.list = make([]int32, ps.start[m])
	fill := make([]int32, m)
	copy(fill, ps.start[:m])
	for u := 0; u < n; u++ {
		nu := num[u]
		if nu < 0 {
			continue
		}
		for _, v := range adj.of(u) {
			nv := num[v]
			ps.list[fill[nv]] = nu
			fill[nv]++
		}
	}
	idom := semiNCA(parent, &ps)
	nodes := n
	if post {
		nodes = n - 1 // the virtual exit is the last node
	}
	return newDomTree(post, nodes, n, roots, vert, idom)
}

// numberDFS numbers the vertices reachable from root by an iterative DFS
// over adj that is equivalent to a recursive DFS visiting neighbours in list
// order (which is also the visiting order of LLVM's runDFS). num[v] receives
// v's DFS number (num must hold -1 for unvisited vertices), vert the vertex
// of each number and parent the DFS number of each vertex's spanning-tree
// parent; the root gets parent rootParent. Numbers continue from len(vert).
func numberDFS(adj *csr, num, vert, parent []int32, root, rootParent int32) ([]int32, []int32) {
	type frame struct{ node, next int32 }
	num[root] = int32(len(vert))
	vert = append(vert, root)
	parent = append(parent, rootParent)
	stack := []frame{{root, adj.start[root]}}
outer:
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		u, hi := top.node, adj.start[top.node+1]
		for top.next < hi {
			v := adj.list[top.next]
			top.next++
			if num[v] < 0 {
				num[v] = int32(len(vert))
				vert = append(vert, v)
				parent = append(parent, num[u])
				stack = append(stack, frame{v, adj.start[v]})
				continue outer
			}
		}
		stack = stack[:len(stack)-1]
	}
	return vert, parent
}

// semiNCA computes immediate dominators in DFS-number space. Vertex 0 is the
// root, parent[i] < i is the DFS spanning-tree parent of vertex i, and ps
// lists the predecessors (DFS numbers) of each vertex in the search graph.
//
// Step 1 computes semidominators in reverse preorder with Tarjan's eval over
// a virtual forest with path compression: vertices numbered above the
// current one are linked to their DFS parents, so "linked" is a numeric
// comparison and no separate link step is needed. Step 2 computes
// idom(i) = NCA(parent(i), sdom(i)) in the partially built dominator tree by
// climbing from the parent, in preorder.
func semiNCA(parent []int32, ps *csr) []int32 {
	m := len(parent)
	idom := make([]int32, m)
	copy(idom, parent)
	anc := make([]int32, m) // virtual forest; compressed by eval
	copy(anc, parent)
	label := make([]int32, m) // min semi on the compressed path; semi(v) once processed
	semi := make([]int32, m)
	for i := range label {
		label[i] = int32(i)
	}
	var stack []int32
	for w := int32(m - 1); w >= 1; w-- {
		s := parent[w]
		for _, v := range ps.list[ps.start[w]:ps.start[w+1]] {
			var sv int32
			if v <= w || anc[v] <= w {
				// v is not processed yet (its label is itself), is w
				// itself, or is the topmost linked vertex of its tree.
				sv = label[v]
			} else {
				// Collect the linked path v, anc(v), ... below the tree's
				// topmost linked vertex x, then compress it onto x's parent.
				stack = stack[:0]
				x := v
				for {
					stack = append(stack, x)
					x = anc[x]
					if anc[x] <= w {
						break
					}
				}
				top, pl := anc[x], label[x]
				for i := len(stack) - 1; i >= 0; i-- {
					y := stack[i]
					anc[y] = top
					if pl < label[y] {
						label[y] = pl
					} else {
						pl = label[y]
					}
				}
				sv = label[v]
			}
			if sv < s {
				s = sv
			}
		}
		semi[w] = s
		label[w] = s
	}
	for i := 1; i < m; i++ {
		d := idom[i]
		for d > semi[i] {
			d = idom[d]
		}
		idom[i] = d
	}
	return idom
}

// newDomTree assembles a DomTree from the DFS numbering (vert) and the
// immediate dominators in DFS-number space. size is the number of tree node
// slots (n, or n+1 with a virtual exit).
func newDomTree(post bool, n, size int, roots []int, vert, idomNum []int32) *DomTree {
	t := &DomTree{
		post:       post,
		n:          n,
		root:       int(vert[0]),
		roots:      roots,
		idom:       make([]int32, size),
		level:      make([]int32, size),
		in:         make([]int32, size),
		out:        make([]int32, size),
		childStart: make([]int32, size+1),
		childList:  make([]int, len(vert)-1),
		order:      make([]int, len(vert)),
	}
	for i := range t.idom {
		t.idom[i], t.level[i], t.in[i], t.out[i] = -1, -1, -1, -1
	}
	t.level[vert[0]] = 0
	t.order[0] = int(vert[0])
	for i := 1; i < len(vert); i++ {
		v, d := vert[i], vert[idomNum[i]]
		t.idom[v] = d
		t.level[v] = t.level[d] + 1
		t.childStart[d+1]++
		t.order[i] = int(v)
	}
	for i := 0; i < size; i++ {
		t.childStart[i+1] += t.childStart[i]
	}
	// Children in ascending DFS number, i.e. LLVM's creation order.
	fill := make([]int32, size)
	copy(fill, t.childStart[:size])
	for i := 1; i < len(vert); i++ {
		d := vert[idomNum[i]]
		t.childList[fill[d]] = int(vert[i])
		fill[d]++
	}
	// DFS in/out numbers over the tree, iteratively.
	type frame struct {
		node int
		next int32
	}
	c := int32(0)
	t.in[t.root] = c
	c++
	stack := []frame{{t.root, t.childStart[t.root]}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < t.childStart[top.node+1] {
			ch := t.childList[top.next]
			top.next++
			t.in[ch] = c
			c++
			stack = append(stack, frame{ch, t.childStart[ch]})
			continue
		}
		t.out[top.node] = c
		c++
		stack = stack[:len(stack)-1]
	}
	return t
}

// IsPostDom reports whether t is a post-dominator tree.
func (t *DomTree) IsPostDom() bool { return t.post }

// NumCFGNodes returns the number of nodes of the graph t was built from.
func (t *DomTree) NumCFGNodes() int { return t.n }

// Root returns the root of the tree: the entry (0) for a dominator tree,
// VirtualExit() for a post-dominator tree.
func (t *DomTree) Root() int { return t.root }

// VirtualExit returns the index of the virtual exit node of a post-dominator
// tree (the number of CFG nodes), or -1 for a dominator tree.
func (t *DomTree) VirtualExit() int {
	if t.post {
		return t.n
	}
	return -1
}

// Roots returns the CFG roots: [0] for a dominator tree; for a
// post-dominator tree, the blocks without successors and one block per
// reverse-unreachable region, in LLVM's order. The slice must not be
// modified.
func (t *DomTree) Roots() []int { return t.roots }

// Contains reports whether n is a node of the tree.
func (t *DomTree) Contains(n int) bool {
	return n >= 0 && n < len(t.level) && t.level[n] >= 0
}

// IDom returns the immediate (post-)dominator of n: -1 for the root and for
// nodes not in the tree; VirtualExit() for the post-dominator roots.
func (t *DomTree) IDom(n int) int { return int(t.idom[n]) }

// Children returns the children of n in LLVM's order. The slice must not be
// modified.
func (t *DomTree) Children(n int) []int {
	if !t.Contains(n) {
		return nil
	}
	return t.childList[t.childStart[n]:t.childStart[n+1]]
}

// Level returns the depth of n in the tree (0 for the root), or -1 if n is
// not in the tree.
func (t *DomTree) Level(n int) int { return int(t.level[n]) }

// Dominates reports whether a (post-)dominates b; every node dominates
// itself. It is false if either node is not in the tree. O(1).
func (t *DomTree) Dominates(a, b int) bool {
	if !t.Contains(a) || !t.Contains(b) {
		return false
	}
	return t.in[a] <= t.in[b] && t.out[b] <= t.out[a]
}

// StrictlyDominates reports whether a dominates b and a != b.
func (t *DomTree) StrictlyDominates(a, b int) bool { return a != b && t.Dominates(a, b) }

// NCA returns the nearest common ancestor of a and b in the tree (the
// nearest common (post-)dominator), or -1 if either is not in the tree.
// It runs in O(depth).
func (t *DomTree) NCA(a, b int) int {
	if !t.Contains(a) || !t.Contains(b) {
		return -1
	}
	for t.level[a] > t.level[b] {
		a = int(t.idom[a])
	}
	for t.level[b] > t.level[a] {
		b = int(t.idom[b])
	}
	for a != b {
		a, b = int(t.idom[a]), int(t.idom[b])
	}
	return a
}

// Preorder returns the tree nodes in the order LLVM creates them (the
// preorder of the construction DFS over the CFG), starting with the root.
// The slice must not be modified.
func (t *DomTree) Preorder() []int { return t.order }

// Len returns the number of nodes in the tree (including a virtual exit).
func (t *DomTree) Len() int { return len(t.order) }

// DFSIn and DFSOut return the entry and exit numbers of n in a depth-first
// walk of the tree (-1 if n is not in the tree): a dominates b iff
// DFSIn(a) <= DFSIn(b) and DFSOut(b) <= DFSOut(a). Clients that answer many
// "is dominated by one of these" queries sort by them.
func (t *DomTree) DFSIn(n int) int32 { return t.in[n] }

// DFSOut: see DFSIn.
func (t *DomTree) DFSOut(n int) int32 { return t.out[n] }
