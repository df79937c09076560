package analysis

import "slices"

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
	n := c.g.Len()
	pos := make([]int32, n)
	base := int32(0)
	for _, t := range ci.TopLevel() {
		for i, b := range ci.Blocks(t) {
			pos[b] = base + int32(i)
		}
		base += int32(len(ci.Blocks(t)))
	}
	type exitEdge struct {
		pos  int32
		succ int32 // index in the successor list
		to   int32
	}
	lists := make([][]exitEdge, m)
	for u := 0; u < n; u++ {
		cu := ci.CycleOf(u)
		if cu < 0 {
			continue
		}
		for si, v := range c.succ.of(u) {
			d := c.lcaDepth(cu, ci.CycleOf(int(v)))
			for cy := cu; cy >= 0 && ci.Depth(cy) > d; cy = ci.Parent(cy) {
				lists[cy] = append(lists[cy], exitEdge{pos[u], int32(si), v})
			}
		}
	}
	for cy := 0; cy < m; cy++ {
		l := lists[cy]
		slices.SortFunc(l, func(a, b exitEdge) int {
			if a.pos != b.pos {
				return int(a.pos - b.pos)
			}
			return int(a.succ - b.succ)
		})
		c.gen++
		if c.gen == 0 {
			clear(c.stamp)
			c.gen = 1
		}
		var out []int32
		for _, e := range l {
			if c.stamp[e.to] != c.gen {
				c.stamp[e.to] = c.gen
				out = append(out, e.to)
			}
		}
		c.exits[cy], c.exitsDone[cy] = out, true
	}
}

// usePair is a use of value def by instruction user.
type usePair struct{ def, user int32 }

// crossingUses returns, per cycle, the uses whose definition is inside the
// cycle and whose user is outside it (one entry per use).
func (e *uengine) crossingUses() [][]usePair {
	if e.crossing != nil {
		return e.crossing
	}
	c, p := e.c, e.p
	ci := c.ci
	e.crossing = make([][]usePair, ci.Len())
	for id := p.nParams; id < p.numVals(); id++ {
		d := int(p.block[id])
		cd := ci.CycleOf(d)
		if cd < 0 {
			continue
		}
		for _, u := range p.users.of(id) {
			depth := c.lcaDepth(cd, ci.CycleOf(int(p.block[u])))
			for cy := cd; cy >= 0 && ci.Depth(cy) > depth; cy = ci.Parent(cy) {
				e.crossing[cy] = append(e.crossing[cy], usePair{int32(id), u})
			}
		}
	}
	return e.crossing
}
