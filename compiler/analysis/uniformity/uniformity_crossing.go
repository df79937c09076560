package uniformity

// This file finds, for every cycle at once, the CFG edges and the def-use
// pairs that cross its boundary. Irreducible regions and loop nests can
// nest cycles thousands deep; walking every cycle's blocks (as LLVM does for
// each cycle's exit blocks, and for each cycle with a divergent exit) is
// then quadratic. Instead each edge or use is registered with exactly the
// cycles it leaves: the cycles around its source that are deeper than the
// smallest cycle containing both ends. The total is the output size.

// computeAllExits fills the exit lists of all cycles, in LLVM's order: by
// the position of the exiting block in the cycle's block list (the nested
// lists share one order, so the top-level cycle's list gives the position
// for all of them), then by successor order, without duplicates.
func (c *cfgCtx) computeAllExits() {
	ci := c.ci
	m := ci.Len()
	// Visiting the exiting blocks in the top-level cycles' block order and
	// their successors in order appends to every crossed cycle's list in
	// LLVM's order, so no sorting is needed. The lists share one array
	// (counted, then filled); duplicates are dropped in place.
	visit := func(emit func(cy int, v int32)) {
		for _, t := range ci.TopLevel() {
			for _, u := range ci.Blocks(t) {
				cu := ci.CycleOf(u)
				for _, v := range c.succ.of(u) {
					d := c.lcaDepth(cu, ci.CycleOf(int(v)))
					for cy := cu; cy >= 0 && ci.Depth(cy) > d; cy = ci.Parent(cy) {
						emit(cy, v)
					}
				}
			}
		}
	}
	count := make([]int, m+1)
	visit(func(cy int, _ int32) { count[cy+1]++ })
	for i := 0; i < m; i++ {
		count[i+1] += count[i]
	}
	all := make([]int32, count[m])
	fill := append([]int(nil), count[:m]...)
	visit(func(cy int, v int32) {
		all[fill[cy]] = v
		fill[cy]++
	})
	for cy := 0; cy < m; cy++ {
		c.gen++
		if c.gen == 0 {
			clear(c.stamp)
			c.gen = 1
		}
		l := all[count[cy]:count[cy]]
		for _, v := range all[count[cy]:count[cy+1]] {
			if c.stamp[v] != c.gen {
				c.stamp[v] = c.gen
				l = append(l, v)
			}
		}
		c.exits[cy] = l[:len(l):len(l)]
	}
}

// usePair is a use of value def by instruction user.
type usePair struct{ def, user int32 }

// crossingUses returns, per cycle, the uses whose definition is inside the
// cycle and whose user is outside it (one entry per use). The lists share
// one array: they are counted first, then filled.
func (e *uengine) crossingUses() [][]usePair {
	if e.crossing != nil {
		return e.crossing
	}
	c, p := e.c, e.p
	ci := c.ci
	m := ci.Len()
	visit := func(emit func(cy int, up usePair)) {
		for id := p.nParams; id < p.numVals(); id++ {
			d := int(p.block[id])
			cd := ci.CycleOf(d)
			if cd < 0 {
				continue
			}
			for _, u := range p.users.of(id) {
				depth := c.lcaDepth(cd, ci.CycleOf(int(p.block[u])))
				for cy := cd; cy >= 0 && ci.Depth(cy) > depth; cy = ci.Parent(cy) {
					emit(cy, usePair{int32(id), u})
				}
			}
		}
	}
	count := make([]int, m+1)
	visit(func(cy int, _ usePair) { count[cy+1]++ })
	for i := 0; i < m; i++ {
		count[i+1] += count[i]
	}
	all := make([]usePair, count[m])
	fill := append([]int(nil), count[:m]...)
	visit(func(cy int, up usePair) {
		all[fill[cy]] = up
		fill[cy]++
	})
	e.crossing = make([][]usePair, m)
	for cy := 0; cy < m; cy++ {
		e.crossing[cy] = all[count[cy]:count[cy+1]:count[cy+1]]
	}
	return e.crossing
}
