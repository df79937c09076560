package graph

// Tarjan finds the strongly connected components of the part of a graph
// of n nodes reachable from roots (in order), following succ(v) and
// skipping the successors keep rejects (keep may be nil). It calls emit
// with each component as Tarjan's algorithm completes it, so components
// come in reverse topological order and each lists its nodes in the order
// they leave the stack; the slice is reused after emit returns. The walk
// is iterative: deep graphs do not grow the goroutine stack.
func Tarjan[T ~int | ~int32](n int, roots []T, succ func(v T) []T, keep func(v T) bool, emit func(comp []T)) {
	index := make([]int32, n)
	low := make([]int32, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	type frame struct {
		v    T
		next int
	}
	var stack, comp []T
	var call []frame
	next := int32(0)
	visit := func(v T) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		call = append(call, frame{v, 0})
	}
	for _, root := range roots {
		if index[root] >= 0 {
			continue
		}
		visit(root)
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if ss := succ(v); f.next < len(ss) {
				w := ss[f.next]
				f.next++
				if keep != nil && !keep(w) {
					continue
				}
				if index[w] < 0 {
					visit(w)
				} else if onStack[w] && index[w] < low[v] {
					low[v] = index[w]
				}
				continue
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				if u := call[len(call)-1].v; low[v] < low[u] {
					low[u] = low[v]
				}
			}
			if low[v] == index[v] {
				comp = comp[:0]
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp = append(comp, w)
					if w == v {
						break
					}
				}
				emit(comp)
			}
		}
	}
}
