package sir

// Interference builds the interference graph of f's temporaries.
//
// Two temporaries with the same bit size and the same SIMD group interfere
// when one is written while the other is live on the logical CFG (the
// liveness of ComputeLiveness). As the SIR design notes explain, the logical
// CFG is only sound for such pairs: registers of different SIMD groups (or
// sizes) may be written by channels that the logical CFG says are on
// another path, so they would need liveness on the physical CFG (every
// channel group walks both sides of a divergent branch). This
// implementation takes the conservative end of that: temporaries whose
// (bit size, SIMD group) differ always interfere.
// TODO: physical-CFG liveness for mixed-group pairs.
func Interference(f *Func) map[*Reg]RegSet {
	g := map[*Reg]RegSet{}
	var temps []*Reg
	for _, r := range f.Regs {
		if r.File == FileTemp {
			g[r] = RegSet{}
			temps = append(temps, r)
		}
	}
	add := func(a, b *Reg) {
		if a != b && a.File == FileTemp && b.File == FileTemp {
			g[a][b] = true
			g[b][a] = true
		}
	}
	for i, a := range temps {
		for _, b := range temps[i+1:] {
			if a.BitSize != b.BitSize || a.Group != b.Group {
				add(a, b)
			}
		}
	}
	l := ComputeLiveness(f)
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
					add(d, r)
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
