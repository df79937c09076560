package sir

// Liveness is the result of a backward dataflow over the logical CFG at
// register granularity. Only a full write (every component, every channel
// of the register's group) kills a register: after a partial write the old
// contents of the other components or channels are still live, which is
// how SIR's partial writes stay correct without full SSA.
type Liveness struct {
	In, Out map[*Block]RegSet
}

// RegSet is a set of registers.
type RegSet map[*Reg]bool

// ComputeLiveness solves liveness for f. Reads of read-only registers
// (inputs, constants) count too, so their live ranges are visible; output
// registers are live at every ret.
func ComputeLiveness(f *Func) *Liveness {
	l := &Liveness{In: map[*Block]RegSet{}, Out: map[*Block]RegSet{}}
	use := map[*Block]RegSet{}
	kill := map[*Block]RegSet{}
	for _, b := range f.Blocks {
		u, k := RegSet{}, RegSet{}
		for _, in := range b.Instrs {
			for _, s := range in.Srcs {
				if s.Reg != nil && !k[s.Reg] {
					u[s.Reg] = true
				}
			}
			if in.Op == OpRet {
				for _, r := range f.Regs {
					if r.File == FileOutput && !k[r] {
						u[r] = true
					}
				}
			}
			if isFullWrite(in) {
				k[in.Dst.Reg] = true
			}
		}
		use[b], kill[b] = u, k
		l.In[b], l.Out[b] = RegSet{}, RegSet{}
	}
	c := buildCFG(f)
	for changed := true; changed; {
		changed = false
		for i := len(c.rpo) - 1; i >= 0; i-- {
			b := c.rpo[i]
			out := l.Out[b]
			for _, s := range b.Succs() {
				for r := range l.In[s] {
					if !out[r] {
						out[r] = true
						changed = true
					}
				}
			}
			in := l.In[b]
			for r := range use[b] {
				if !in[r] {
					in[r] = true
					changed = true
				}
			}
			for r := range out {
				if !kill[b][r] && !in[r] {
					in[r] = true
					changed = true
				}
			}
		}
	}
	return l
}

// Pressure is the largest number of bytes of temporary registers live at
// once anywhere in f (register-file pressure before allocation), and the
// block where it peaks.
func Pressure(f *Func) (maxBytes int, at *Block) {
	l := ComputeLiveness(f)
	for _, b := range f.Blocks {
		live := RegSet{}
		for r := range l.Out[b] {
			live[r] = true
		}
		measure := func() {
			n := 0
			for r := range live {
				if r.File == FileTemp {
					n += r.Bytes()
				}
			}
			if n > maxBytes || at == nil {
				maxBytes, at = max(n, maxBytes), b
			}
		}
		measure()
		for i := len(b.Instrs) - 1; i >= 0; i-- {
			in := b.Instrs[i]
			// Only a full write ends a live range (see Liveness).
			if isFullWrite(in) {
				delete(live, in.Dst.Reg)
			}
			for _, s := range in.Srcs {
				if s.Reg != nil {
					live[s.Reg] = true
				}
			}
			measure()
		}
	}
	return maxBytes, at
}
