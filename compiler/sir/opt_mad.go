package sir

// FuseMad turns "fmul t, a, b" followed in the same block by "fadd d, t, c"
// (or "fadd d, c, t") into "fmad d, a, b, c" when t is a temporary written
// once, read only by that fadd, with the same exec range and component
// shape, and a and b hold one value everywhere (immediates, read-only
// registers or registers written once), so moving the multiply down to the
// add cannot read a changed operand. A negated read of t negates a. The
// fmul is left for DCE. SM3's mad (and fxc's output) computes a*b + c in one
// instruction. It reports whether anything changed.
func FuseMad(f *Func) bool {
	di := collectDefs(f)
	stable := func(s Src) bool { return s.Reg == nil || di.isSSA(s.Reg) }
	changed := false
	for _, b := range f.Blocks {
		muls := map[*Reg]*Instr{}
		for _, in := range b.Instrs {
			if in.Op == OpFMul && in.Dst != nil && in.Dst.Reg.File == FileTemp && di.isSSA(in.Dst.Reg) &&
				di.reads[in.Dst.Reg] == 1 && in.Dst.Reg.Comps == 1 && stable(in.Srcs[0]) && stable(in.Srcs[1]) {
				muls[in.Dst.Reg] = in
				continue
			}
			if in.Op != OpFAdd || in.Dst == nil {
				continue
			}
			for k := 0; k < 2; k++ {
				t := in.Srcs[k]
				m := muls[t.Reg]
				if t.Reg == nil || m == nil || m.Exec != in.Exec || t.Comp(0) != 0 {
					continue
				}
				a := m.Srcs[0]
				if t.Neg {
					a.Neg = !a.Neg
				}
				in.Op, in.Srcs = OpFMad, []Src{a, m.Srcs[1], in.Srcs[1-k]}
				delete(muls, t.Reg)
				changed = true
				break
			}
		}
	}
	return changed
}
