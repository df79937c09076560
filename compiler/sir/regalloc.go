package sir

// Interference builds the interference graph of f's temporaries: two
// temporaries interfere when one is written while the other is live.
//
// Which liveness counts follows the SIR design notes: for two registers of
// the same bit size and the same SIMD group the logical CFG is enough (a
// write by the channels on one path cannot clobber the value the other
// channels hold, because the write is masked to the same channels the
// other register belongs to); for registers of different bit sizes or SIMD
// groups it is not — channels of one group may run blocks the logical CFG
// says are on another path — so such pairs interfere when one is written
// while the other is live on the physical CFG (PhysicalSuccs: divergent
// regions run one after the other in layout order).
func Interference(f *Func) map[*Reg]RegSet {
	g := map[*Reg]RegSet{}
	for _, r := range f.Regs {
		if r.File == FileTemp {
			g[r] = RegSet{}
		}
	}
	add := func(a, b *Reg) {
		if a != b && a.File == FileTemp && b.File == FileTemp {
			g[a][b] = true
			g[b][a] = true
		}
	}
	sameClass := func(a, b *Reg) bool { return a.BitSize == b.BitSize && a.Group == b.Group }
	scan := func(l *Liveness, mixed bool) {
		for _, b := range f.Blocks {
			live := RegSet{}
			for r := range l.Out[b] {
				live[r] = true
			}
			for i := len(b.Instrs) - 1; i >= 0; i-- {
				in := b.Instrs[i]
				if in.Dst != nil && in.Dst.Reg != nil {
					d := in.Dst.Reg
					cp := copySource(in)
					for r := range live {
						if sameClass(d, r) != mixed && r != cp {
							add(d, r)
						}
					}
					if isFullWrite(in) {
						delete(live, d)
					}
				}
				for _, s := range in.Srcs {
					if s.Reg != nil {
						live[s.Reg] = true
					}
				}
			}
		}
	}
	scan(ComputeLiveness(f), false)
	mixed := false
	var first *Reg
	for _, a := range f.Regs {
		if a.File != FileTemp {
			continue
		}
		if first == nil {
			first = a
		} else if !sameClass(a, first) {
			mixed = true
		}
	}
	if mixed {
		scan(ComputePhysicalLiveness(f), true)
	}
	return g
}

// copySource returns s when in is a plain copy "mov d, s" of one scalar
// temporary into another of the same class: d and s then hold the same
// value, so d's write does not make them interfere (Chaitin's rule for
// copies; a later write of either while the other is live still does).
// This is what lets the out-of-SSA copies ("%x = load %x.var") coalesce.
func copySource(in *Instr) *Reg {
	if in.Op != OpMov || len(in.Srcs) != 1 || !isFullWrite(in) {
		return nil
	}
	s, d := in.Srcs[0], in.Dst.Reg
	if s.Reg == nil || s.Neg || s.Elem != 0 || s.Reg.File != FileTemp || s.Reg.Comps != 1 || d.Comps != 1 ||
		s.Reg.BitSize != d.BitSize || s.Reg.Group != d.Group || s.Comp(0) != 0 {
		return nil
	}
	return s.Reg
}

// Allocate assigns every temporary a slot number so that interfering
// temporaries get different slots (greedy coloring in register order,
// preferring the slot of a copy partner; a
// slot is a unit of the back end's choosing, e.g. one scalar component of
// an SM3 r# register). It returns the slots and how many were used.
// Temporaries must be scalar-sized per slot by the caller's convention:
// Allocate only separates interfering registers, it does not pack sizes.
func Allocate(f *Func) (slot map[*Reg]int, n int) {
	g := Interference(f)
	// Copy partners: a register takes a partner's slot when it can, so
	// the copy between them disappears.
	partners := map[*Reg][]*Reg{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if s := copySource(in); s != nil {
				d := in.Dst.Reg
				partners[d] = append(partners[d], s)
				partners[s] = append(partners[s], d)
			}
		}
	}
	slot = map[*Reg]int{}
	for _, r := range f.Regs {
		if r.File != FileTemp {
			continue
		}
		used := map[int]bool{}
		for o := range g[r] {
			if s, ok := slot[o]; ok {
				used[s] = true
			}
		}
		s := -1
		for _, p := range partners[r] {
			if ps, ok := slot[p]; ok && !used[ps] && !g[r][p] {
				s = ps
				break
			}
		}
		if s < 0 {
			s = 0
			for used[s] {
				s++
			}
		}
		slot[r] = s
		n = max(n, s+1)
	}
	return slot, n
}
