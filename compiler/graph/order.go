package graph

// Order is a depth-first traversal of the nodes reachable from the entry
// (node 0). Unreachable nodes have PreNum/PostNum -1 and appear in neither
// Pre nor Post.
type Order struct {
	// Pre and Post list the reachable nodes in preorder and postorder.
	Pre, Post []int
	// PreNum[n] and PostNum[n] are the positions of n in Pre and Post, or -1
	// if n is unreachable.
	PreNum, PostNum []int
	// Parent[n] is n's parent in the DFS spanning tree, -1 for the entry and
	// for unreachable nodes.
	Parent []int
	// Last[n] is the largest preorder number in n's DFS subtree (-1 if
	// unreachable), so the subtree of n is Pre[PreNum[n] : Last[n]+1].
	Last []int
}

// DepthFirst returns the depth-first traversal of g from the entry that
// visits successors in terminator order. This is the traversal of LLVM's
// dominator tree construction, po_iterator and ReversePostOrderTraversal:
// the result equals that of a recursive DFS, but the implementation is
// iterative.
func DepthFirst(g *Graph) *Order {
	s := buildSuccs(g)
	return depthFirst(&s, g.Len(), false)
}

// DepthFirstReversed returns the depth-first traversal of g from the entry
// that visits successors in reverse terminator order: the traversal of
// LLVM's cycle analysis, whose DFS pushes all successors on a LIFO stack.
func DepthFirstReversed(g *Graph) *Order {
	s := buildSuccs(g)
	return depthFirst(&s, g.Len(), true)
}

// RPO returns the reachable nodes in reverse postorder.
func (o *Order) RPO() []int {
	r := make([]int, len(o.Post))
	for i, n := range o.Post {
		r[len(r)-1-i] = n
	}
	return r
}

// Reachable reports whether n is reachable from the entry.
func (o *Order) Reachable(n int) bool { return o.PreNum[n] >= 0 }

// IsAncestor reports whether a is an ancestor of b (or equal to b) in the DFS
// spanning tree. It is false if either node is unreachable.
func (o *Order) IsAncestor(a, b int) bool {
	pa, pb := o.PreNum[a], o.PreNum[b]
	return pa >= 0 && pb >= 0 && pa <= pb && pb <= o.Last[a]
}

// Reachable returns, for each node of g, whether it is reachable from the
// entry.
func Reachable(g *Graph) []bool {
	s := buildSuccs(g)
	seen := make([]bool, g.Len())
	seen[0] = true
	stack := []int32{0}
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, v := range s.of(int(u)) {
			if !seen[v] {
				seen[v] = true
				stack = append(stack, v)
			}
		}
	}
	return seen
}

// depthFirst runs an iterative DFS from node 0 over adj, which is equivalent
// to a recursive DFS visiting the neighbours of each node in list order, or
// in reverse list order if reversed is set (the order of LLVM's cycle
// analysis, whose DFS pushes all successors on a LIFO stack).
func depthFirst(adj *csr, n int, reversed bool) *Order {
	o := &Order{
		PreNum:  make([]int, n),
		PostNum: make([]int, n),
		Parent:  make([]int, n),
		Last:    make([]int, n),
	}
	for i := range o.PreNum {
		o.PreNum[i], o.PostNum[i], o.Parent[i], o.Last[i] = -1, -1, -1, -1
	}
	type frame struct {
		node int32
		next int32 // index into adj.list of the next neighbour to try
	}
	visit := func(v int32) frame {
		o.PreNum[v] = len(o.Pre)
		o.Pre = append(o.Pre, int(v))
		if reversed {
			return frame{v, adj.start[v+1] - 1}
		}
		return frame{v, adj.start[v]}
	}
	stack := []frame{visit(0)}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		u := top.node
		descended := false
		if reversed {
			for lo := adj.start[u]; top.next >= lo; {
				v := adj.list[top.next]
				top.next--
				if o.PreNum[v] < 0 {
					o.Parent[v] = int(u)
					stack = append(stack, visit(v))
					descended = true
					break
				}
			}
		} else {
			for hi := adj.start[u+1]; top.next < hi; {
				v := adj.list[top.next]
				top.next++
				if o.PreNum[v] < 0 {
					o.Parent[v] = int(u)
					stack = append(stack, visit(v))
					descended = true
					break
				}
			}
		}
		if descended {
			continue
		}
		o.PostNum[u] = len(o.Post)
		o.Post = append(o.Post, int(u))
		o.Last[u] = len(o.Pre) - 1
		stack = stack[:len(stack)-1]
	}
	return o
}
