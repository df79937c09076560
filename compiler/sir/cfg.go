package sir

// cfg holds the logical CFG facts the optimizations and liveness need:
// predecessors, a reverse postorder of the reachable blocks and immediate
// dominators.
type cfg struct {
	preds map[*Block][]*Block
	rpo   []*Block
	order map[*Block]int // index in rpo; unreachable blocks are absent
	idom  map[*Block]*Block
}

func buildCFG(f *Func) *cfg {
	c := &cfg{preds: map[*Block][]*Block{}, order: map[*Block]int{}, idom: map[*Block]*Block{}}
	for _, b := range f.Blocks {
		for _, s := range b.Succs() {
			c.preds[s] = append(c.preds[s], b)
		}
	}
	if len(f.Blocks) == 0 {
		return c
	}
	// Iterative DFS postorder (no recursion: deep CFGs must not overflow).
	seen := map[*Block]bool{}
	type frame struct {
		b *Block
		i int
	}
	var post []*Block
	stack := []frame{{f.Blocks[0], 0}}
	seen[f.Blocks[0]] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		succs := top.b.Succs()
		if top.i < len(succs) {
			s := succs[top.i]
			top.i++
			if !seen[s] {
				seen[s] = true
				stack = append(stack, frame{s, 0})
			}
			continue
		}
		post = append(post, top.b)
		stack = stack[:len(stack)-1]
	}
	for i := len(post) - 1; i >= 0; i-- {
		c.order[post[i]] = len(c.rpo)
		c.rpo = append(c.rpo, post[i])
	}
	// Cooper, Harvey and Kennedy's iterative dominator algorithm.
	entry := c.rpo[0]
	c.idom[entry] = entry
	for changed := true; changed; {
		changed = false
		for _, b := range c.rpo[1:] {
			var nd *Block
			for _, p := range c.preds[b] {
				if c.idom[p] == nil {
					continue
				}
				if nd == nil {
					nd = p
				} else {
					nd = c.intersect(p, nd)
				}
			}
			if nd != nil && c.idom[b] != nd {
				c.idom[b] = nd
				changed = true
			}
		}
	}
	return c
}

func (c *cfg) intersect(a, b *Block) *Block {
	for a != b {
		for c.order[a] > c.order[b] {
			a = c.idom[a]
		}
		for c.order[b] > c.order[a] {
			b = c.idom[b]
		}
	}
	return a
}

// dominates reports whether block a dominates block b (both reachable).
func (c *cfg) dominates(a, b *Block) bool {
	if _, ok := c.order[b]; !ok {
		return false
	}
	for {
		if a == b {
			return true
		}
		d := c.idom[b]
		if d == b || d == nil {
			return false
		}
		b = d
	}
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
