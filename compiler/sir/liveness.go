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
	return computeLiveness(f, (*Block).Succs)
}

// PhysicalSuccs are a block's successors on the physical CFG: the paths
// some channel group may take when the channels diverge. A SIMD machine
// runs the blocks of a divergent region one after the other in layout
// order, with the channels that did not take a block masked off, so
// besides its logical successors every block that does not end the shader
// (ret) also flows into the next block in layout order: the end of an
// if's then-arm runs on into the else-arm, a break's block runs on into
// the rest of the loop body. (Discard ends only its own channels.)
func PhysicalSuccs(f *Func) func(*Block) []*Block {
	next := map[*Block]*Block{}
	for i, b := range f.Blocks[:max(len(f.Blocks)-1, 0)] {
		next[b] = f.Blocks[i+1]
	}
	return func(b *Block) []*Block {
		succs := b.Succs()
		t := b.Terminator()
		n := next[b]
		if n == nil || t == nil || t.Op == OpRet {
			return succs
		}
		for _, s := range succs {
			if s == n {
				return succs
			}
		}
		return append(append([]*Block(nil), succs...), n)
	}
}

// ComputePhysicalLiveness is liveness on the physical CFG (PhysicalSuccs):
// what a register of one SIMD group must keep while channels of another
// group run other blocks.
func ComputePhysicalLiveness(f *Func) *Liveness {
	return computeLiveness(f, PhysicalSuccs(f))
}

func computeLiveness(f *Func, succsOf func(*Block) []*Block) *Liveness {
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
	for changed := true; changed; {
		changed = false
		for i := len(f.Blocks) - 1; i >= 0; i-- {
			b := f.Blocks[i]
			out := l.Out[b]
			for _, s := range succsOf(b) {
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
