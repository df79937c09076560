package sir

import "passlens/compiler/graph"

// cfg holds the logical CFG facts the optimizations need: a reverse
// postorder of the reachable blocks and the dominator tree, both from
// compiler/graph (the CFG layer the passlens IR uses too).
type cfg struct {
	rpo   []*Block
	index map[*Block]int // layout position of each block
	dom   *graph.DomTree // over layout positions; nil for an empty function
}

func buildCFG(f *Func) *cfg {
	c := &cfg{index: make(map[*Block]int, len(f.Blocks))}
	if len(f.Blocks) == 0 {
		return c
	}
	for i, b := range f.Blocks {
		c.index[b] = i
	}
	g := &graph.Graph{Succs: make([][]int, len(f.Blocks))}
	for i, b := range f.Blocks {
		for _, s := range b.Succs() {
			if j, ok := c.index[s]; ok {
				g.Succs[i] = append(g.Succs[i], j)
			}
		}
	}
	for _, i := range graph.DepthFirst(g).RPO() {
		c.rpo = append(c.rpo, f.Blocks[i])
	}
	c.dom = graph.Dominators(g)
	return c
}

// dominates reports whether block a dominates block b (both reachable).
func (c *cfg) dominates(a, b *Block) bool {
	i, oka := c.index[a]
	j, okb := c.index[b]
	return oka && okb && c.dom.Dominates(i, j)
}

// pos is an instruction position.
type pos struct {
	b *Block
	i int
}

// instrDominates reports whether the instruction at p dominates the one at q.
func (c *cfg) instrDominates(p, q pos) bool {
	if p.b == q.b {
		return p.i < q.i
	}
	return c.dominates(p.b, q.b)
}

// defInfo summarizes the writes of every register.
type defInfo struct {
	writes map[*Reg]int
	def    map[*Reg]pos // the write, when there is exactly one
	reads  map[*Reg]int
}

// isFullWrite reports whether in writes every component of its destination
// on every channel of the register's group.
func isFullWrite(in *Instr) bool {
	d := in.Dst
	return d != nil && d.Reg != nil && d.Mask == d.Reg.FullMask() && in.Exec.Contains(d.Reg.Group)
}

func collectDefs(f *Func) *defInfo {
	di := &defInfo{writes: map[*Reg]int{}, def: map[*Reg]pos{}, reads: map[*Reg]int{}}
	for _, b := range f.Blocks {
		for i, in := range b.Instrs {
			if in.Dst != nil && in.Dst.Reg != nil {
				di.writes[in.Dst.Reg]++
				di.def[in.Dst.Reg] = pos{b, i}
			}
			for _, s := range in.Srcs {
				if s.Reg != nil {
					di.reads[s.Reg]++
				}
			}
		}
	}
	return di
}

// isSSA reports whether r holds one value everywhere it is read: a
// read-only register, or a temporary written exactly once by a full write.
func (di *defInfo) isSSA(r *Reg) bool {
	if r.File.ReadOnly() {
		return di.writes[r] == 0
	}
	if r.File != FileTemp || di.writes[r] != 1 {
		return false
	}
	p := di.def[r]
	return isFullWrite(p.b.Instrs[p.i])
}
