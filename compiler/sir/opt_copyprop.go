package sir

// CopyProp replaces reads of a register D defined by "mov D, S" with reads of
// S (composing the swizzles), when that is safe in SIR's SSA-ish world:
//
//   - D is a temporary written exactly once, by that full-width,
//     full-mask mov, without a negate modifier;
//   - S is read-only or itself written exactly once by a full write that
//     dominates the mov, so S holds the same value wherever D is read;
//   - S and D have the same bit size, and every read of D is dominated by the
//     mov and runs inside S's SIMD group (or S is uniform).
//
// The movs themselves stay; DCE removes the ones left unread. It reports
// whether anything changed.
func CopyProp(f *Func) bool {
	c := buildCFG(f)
	di := collectDefs(f)
	type use struct {
		in  *Instr
		idx int
		at  pos
	}
	uses := map[*Reg][]use{}
	for _, b := range f.Blocks {
		for i, in := range b.Instrs {
			for k, s := range in.Srcs {
				if s.Reg != nil {
					uses[s.Reg] = append(uses[s.Reg], use{in, k, pos{b, i}})
				}
			}
		}
	}
	changed := false
	for _, b := range f.Blocks {
		for i, mov := range b.Instrs {
			if mov.Op != OpMov || !isFullWrite(mov) || mov.Srcs[0].Reg == nil || mov.Srcs[0].Neg {
				continue
			}
			d, src := mov.Dst.Reg, mov.Srcs[0]
			s := src.Reg
			if d == s || !di.isSSA(d) || !di.isSSA(s) || d.BitSize != s.BitSize {
				continue
			}
			if !s.File.ReadOnly() && !c.instrDominates(di.def[s], pos{b, i}) {
				continue
			}
			ok := true
			for _, u := range uses[d] {
				if !c.instrDominates(pos{b, i}, u.at) || (s.Group.Width > 1 && !s.Group.Contains(u.in.Exec)) {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			for _, u := range uses[d] {
				old := u.in.Srcs[u.idx]
				n := len(old.Swizzle)
				if n == 0 {
					n = d.Comps
				}
				sw := make([]uint8, n)
				for j := range sw {
					sw[j] = uint8(src.Comp(old.Comp(j)))
				}
				u.in.Srcs[u.idx] = Src{Reg: s, Swizzle: canonSwizzle(sw, s.Comps), Neg: old.Neg, Elem: src.Elem}
				uses[s] = append(uses[s], u)
				changed = true
			}
			uses[d] = nil
		}
	}
	return changed
}

// canonSwizzle drops an identity swizzle that reads all n components.
func canonSwizzle(sw []uint8, n int) []uint8 {
	if len(sw) != n {
		return sw
	}
	for i, c := range sw {
		if int(c) != i {
			return sw
		}
	}
	return nil
}
