package graph

// CycleInfo is the cycle hierarchy of a Graph with the semantics of LLVM's
// GenericCycleInfo (llvm/ADT/GenericCycleImpl.h): a cycle generalises a
// natural loop to irreducible control flow.
//
// Cycles are found from a DFS of the blocks reachable from the entry that
// visits successors in reverse terminator order (LLVM pushes all successors
// on a LIFO stack). The top-level cycles are the maximal strongly connected
// regions of reachable blocks (with at least one edge); the header of a
// cycle is its first block in DFS preorder; the cycles nested in a cycle C
// are the maximal cycles of C without its header. The entries of a cycle
// are its header plus every block with a predecessor outside the cycle that
// is reachable from the entry. A cycle is reducible iff it has one entry.
// Blocks unreachable from the entry are in no cycle.
//
// Cycles are identified by integers 0..Len()-1 in the order opt prints them:
// the top-level cycles in LLVM's order, each followed by its descendants in
// depth-first order. Hence cycle c's descendants are exactly the cycles
// c+1 .. c+k for some k, which makes containment queries O(1).
type CycleInfo struct {
	g *Graph

	parent   []int32 // parent cycle, -1 for top-level cycles
	depth    []int32 // 1 for top-level cycles
	subEnd   []int32 // cycles in c's subtree: [c, subEnd[c])
	entries  [][]int // header first, then further entries in discovery order
	children [][]int
	bStart   []int32 // c's blocks: layout[bStart[c]:bEnd[c]]
	bEnd     []int32
	layout   []int
	topLevel []int
	cycleOf  []int32 // innermost cycle of each block, -1 if none
}

// protoCycle is a cycle under construction (identified by creation index).
type protoCycle struct {
	entries []int   // header first
	items   []int32 // own blocks (>= 0) and adopted child cycles (-(c+1)), in discovery order
}

// Cycles computes the cycle hierarchy of g.
//
// The algorithm is LLVM's: header candidates are visited in reverse DFS
// preorder; a candidate H with a predecessor in its own DFS subtree heads a
// cycle, which is grown by walking predecessors backwards (LIFO worklist,
// predecessors in LLVM's order) among the blocks of H's DFS subtree. A block
// already in a cycle makes that block's outermost cycle a child of the new
// one, and the walk continues from the child's entries. A reachable
// predecessor outside H's subtree makes the block an entry.
//
// The outermost cycle of a block is found with a union-find structure with
// path compression (LLVM caches it in a map it rewrites on every adoption),
// and the block lists of nested cycles share one array (LLVM copies a
// child's blocks into its parent). The cost is O((N+E)·α(N)) plus, for each
// entry of each cycle, the in-degree of that entry: near-linear unless
// irreducible regions with many entries nest very deeply, in which case the
// entry lists themselves are that large. Block order within a cycle is
// LLVM's: discovery order, with an adopted child's blocks spliced in at the
// point where the child was adopted.
func Cycles(g *Graph) *CycleInfo {
	n := g.Len()
	succs := buildSuccs(g)
	preds := buildPreds(g)
	o := depthFirst(&succs, n, true)
	pre, last := o.PreNum, o.Last

	cycleOf := make([]int32, n)
	for i := range cycleOf {
		cycleOf[i] = -1
	}
	var (
		cyc    []protoCycle
		uf     []int32 // union-find parent over creation indices
		topPos []int32 // position of a top-level cycle in top
		top    []int32
		wl     []int32
	)
	find := func(c int32) int32 {
		r := c
		for uf[r] != r {
			r = uf[r]
		}
		for uf[c] != r {
			c, uf[c] = uf[c], r
		}
		return r
	}

	for k := len(o.Pre) - 1; k >= 0; k-- {
		h := int32(o.Pre[k])
		hPre, hLast := pre[h], last[h]
		inSubtree := func(p int32) bool { return pre[p] >= hPre && pre[p] <= hLast }

		wl = wl[:0]
		ph := preds.of(int(h))
		for j := len(ph) - 1; j >= 0; j-- { // LLVM predecessor order
			if inSubtree(ph[j]) {
				wl = append(wl, ph[j])
			}
		}
		if len(wl) == 0 {
			continue
		}

		c := int32(len(cyc))
		cyc = append(cyc, protoCycle{entries: []int{int(h)}, items: []int32{h}})
		uf = append(uf, c)
		topPos = append(topPos, -1)
		cycleOf[h] = c
		nc := &cyc[c]

		// process queues b's predecessors inside H's subtree and records b
		// as an entry if it has a reachable predecessor outside. Blocks
		// already in the new cycle (or in a cycle it adopted) are not
		// queued: popping them would do nothing.
		process := func(b int32) {
			isEntry := false
			pb := preds.of(int(b))
			for j := len(pb) - 1; j >= 0; j-- {
				p := pb[j]
				switch {
				case inSubtree(p):
					if cp := cycleOf[p]; cp < 0 || find(cp) != c {
						wl = append(wl, p)
					}
				case pre[p] < 0:
					// Unreachable predecessors do not make entries.
				default:
					isEntry = true
				}
			}
			if isEntry {
				nc.entries = append(nc.entries, int(b))
			}
		}

		for len(wl) > 0 {
			b := wl[len(wl)-1]
			wl = wl[:len(wl)-1]
			if b == h {
				continue
			}
			if cb := cycleOf[b]; cb >= 0 {
				t := find(cb)
				if t == c {
					continue
				}
				// Adopt the top-level cycle t: unlink it from the top-level
				// list the way LLVM does (the last one takes its place).
				p := topPos[t]
				lt := top[len(top)-1]
				top[p] = lt
				topPos[lt] = p
				top = top[:len(top)-1]
				topPos[t] = -1
				nc.items = append(nc.items, -(t + 1))
				uf[t] = c
				for _, e := range cyc[t].entries {
					process(int32(e))
				}
				continue
			}
			cycleOf[b] = c
			nc.items = append(nc.items, b)
			process(b)
		}
		topPos[c] = int32(len(top))
		top = append(top, c)
	}

	return finishCycles(g, cyc, top, cycleOf)
}

// finishCycles renumbers the cycles in print order and lays out their block
// lists: each cycle's blocks are a contiguous range of one shared array.
func finishCycles(g *Graph, cyc []protoCycle, top []int32, cycleOf []int32) *CycleInfo {
	m := len(cyc)
	ci := &CycleInfo{
		g:        g,
		parent:   make([]int32, m),
		depth:    make([]int32, m),
		subEnd:   make([]int32, m),
		entries:  make([][]int, m),
		children: make([][]int, m),
		bStart:   make([]int32, m),
		bEnd:     make([]int32, m),
		layout:   make([]int, 0, len(cycleOf)),
		topLevel: make([]int, len(top)),
		cycleOf:  cycleOf,
	}
	newID := make([]int32, m)
	type frame struct {
		c    int32 // creation index
		id   int32
		item int
	}
	next := int32(0)
	var stack []frame
	enter := func(c, parentID, d int32) {
		id := next
		next++
		newID[c] = id
		ci.parent[id] = parentID
		ci.depth[id] = d
		ci.bStart[id] = int32(len(ci.layout))
		ci.entries[id] = cyc[c].entries
		stack = append(stack, frame{c, id, 0})
	}
	for i, t := range top {
		ci.topLevel[i] = int(next)
		enter(t, -1, 1)
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			items := cyc[f.c].items
			if f.item == len(items) {
				ci.bEnd[f.id] = int32(len(ci.layout))
				ci.subEnd[f.id] = next
				stack = stack[:len(stack)-1]
				continue
			}
			it := items[f.item]
			f.item++
			if it >= 0 {
				ci.layout = append(ci.layout, int(it))
				continue
			}
			child, id := -(it + 1), f.id
			ci.children[id] = append(ci.children[id], int(next))
			enter(child, id, ci.depth[id]+1)
		}
	}
	for b, c := range cycleOf {
		if c >= 0 {
			cycleOf[b] = newID[c]
		}
	}
	return ci
}

// Len returns the number of cycles.
func (ci *CycleInfo) Len() int { return len(ci.parent) }

// TopLevel returns the top-level cycles in LLVM's order. The slice must not
// be modified.
func (ci *CycleInfo) TopLevel() []int { return ci.topLevel }

// Parent returns the parent cycle of c, or -1 if c is top-level.
func (ci *CycleInfo) Parent(c int) int { return int(ci.parent[c]) }

// Children returns the cycles directly nested in c, in LLVM's order. The
// slice must not be modified.
func (ci *CycleInfo) Children(c int) []int { return ci.children[c] }

// Depth returns the nesting depth of c: 1 for top-level cycles.
func (ci *CycleInfo) Depth(c int) int { return int(ci.depth[c]) }

// Header returns the header of c: its first block in the DFS preorder.
func (ci *CycleInfo) Header(c int) int { return ci.entries[c][0] }

// Entries returns the entry blocks of c: the header first, then the other
// entries in LLVM's discovery order. The slice must not be modified.
func (ci *CycleInfo) Entries(c int) []int { return ci.entries[c] }

// IsReducible reports whether c has a single entry (is a natural loop).
func (ci *CycleInfo) IsReducible(c int) bool { return len(ci.entries[c]) == 1 }

// Blocks returns the blocks of c, including those of nested cycles, in
// LLVM's order (the header first). The slice must not be modified.
func (ci *CycleInfo) Blocks(c int) []int { return ci.layout[ci.bStart[c]:ci.bEnd[c]] }

// ContainsCycle reports whether outer contains inner (or is inner). O(1).
func (ci *CycleInfo) ContainsCycle(outer, inner int) bool {
	return inner >= 0 && outer <= inner && inner < int(ci.subEnd[outer])
}

// Contains reports whether block b is in cycle c. O(1).
func (ci *CycleInfo) Contains(c, b int) bool { return ci.ContainsCycle(c, int(ci.cycleOf[b])) }

// CycleOf returns the innermost cycle containing block b, or -1.
func (ci *CycleInfo) CycleOf(b int) int { return int(ci.cycleOf[b]) }

// BlockDepth returns the depth of the innermost cycle containing b, or 0.
func (ci *CycleInfo) BlockDepth(b int) int {
	if c := ci.cycleOf[b]; c >= 0 {
		return int(ci.depth[c])
	}
	return 0
}

// SmallestCommonCycle returns the innermost cycle containing both cycles a
// and b, or -1 if there is none or either is -1.
func (ci *CycleInfo) SmallestCommonCycle(a, b int) int {
	if a < 0 || b < 0 {
		return -1
	}
	for ci.depth[a] > ci.depth[b] {
		a = int(ci.parent[a])
	}
	for ci.depth[b] > ci.depth[a] {
		b = int(ci.parent[b])
	}
	for a != b && a >= 0 {
		a, b = int(ci.parent[a]), int(ci.parent[b])
	}
	return a
}

// ExitBlocks returns the blocks outside c that are successors of blocks in
// c, without duplicates, in LLVM's order (by block in Blocks order, then by
// successor order).
func (ci *CycleInfo) ExitBlocks(c int) []int {
	var out []int
	seen := make(map[int]bool)
	for _, b := range ci.Blocks(c) {
		for _, s := range ci.g.Succs[b] {
			if !ci.Contains(c, s) && !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// ExitingBlocks returns the blocks of c with a successor outside c, in
// Blocks order.
func (ci *CycleInfo) ExitingBlocks(c int) []int {
	var out []int
	for _, b := range ci.Blocks(c) {
		for _, s := range ci.g.Succs[b] {
			if !ci.Contains(c, s) {
				out = append(out, b)
				break
			}
		}
	}
	return out
}
