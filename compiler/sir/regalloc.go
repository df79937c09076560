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
					for r := range live {
						if sameClass(d, r) != mixed {
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

// Allocate assigns every temporary a slot number so that interfering
// temporaries get different slots (greedy coloring in register order; a
// slot is a unit of the back end's choosing, e.g. one scalar component of
// an SM3 r# register). It returns the slots and how many were used.
// Temporaries must be scalar-sized per slot by the caller's convention:
// Allocate only separates interfering registers, it does not pack sizes.
func Allocate(f *Func) (slot map[*Reg]int, n int) {
	g := Interference(f)
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
		s := 0
		for used[s] {
			s++
		}
		slot[r] = s
		n = max(n, s+1)
	}
	return slot, n
}
