package sir

// DCE deletes pure instructions whose result nothing needs, by mark and
// sweep: an instruction is needed if it has side effects (branches, ret,
// discard), writes a non-temporary register (outputs), or writes a
// temporary that a needed instruction reads. Unlike a read count this also
// removes dead cycles, such as a loop counter that only feeds itself. It
// reports whether anything changed.
func DCE(f *Func) bool {
	writers := map[*Reg][]*Instr{}
	var work []*Instr
	needed := map[*Instr]bool{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Dst != nil && in.Dst.Reg != nil {
				writers[in.Dst.Reg] = append(writers[in.Dst.Reg], in)
			}
			if !in.Op.IsPure() || in.Dst == nil || in.Dst.Reg == nil || in.Dst.Reg.File != FileTemp {
				needed[in] = true
				work = append(work, in)
			}
		}
	}
	neededReg := map[*Reg]bool{}
	for len(work) > 0 {
		in := work[len(work)-1]
		work = work[:len(work)-1]
		for _, s := range in.Srcs {
			if s.Reg == nil || neededReg[s.Reg] {
				continue
			}
			neededReg[s.Reg] = true
			for _, w := range writers[s.Reg] {
				if !needed[w] {
					needed[w] = true
					work = append(work, w)
				}
			}
		}
	}
	changed := false
	for _, b := range f.Blocks {
		kept := b.Instrs[:0]
		for _, in := range b.Instrs {
			if needed[in] {
				kept = append(kept, in)
			} else {
				changed = true
			}
		}
		b.Instrs = kept
	}
	return changed
}

// Fold simplifies instructions with immediate flag operands: a sel on an
// immediate condition becomes a mov of the chosen operand, and a brc on an
// immediate condition becomes a br. It reports whether anything changed.
func Fold(f *Func) bool {
	changed := false
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if len(in.Srcs) == 0 || !in.Srcs[0].IsImm() {
				continue
			}
			taken := in.Srcs[0].Imm&1 != 0
			switch in.Op {
			case OpSel:
				pick := in.Srcs[2]
				if taken {
					pick = in.Srcs[1]
				}
				in.Op, in.Srcs = OpMov, []Src{pick}
				changed = true
			case OpBrc:
				succ := in.Succs[1]
				if taken {
					succ = in.Succs[0]
				}
				in.Op, in.Srcs, in.Succs = OpBr, nil, []*Block{succ}
				changed = true
			}
		}
	}
	return changed
}

// PruneRegs drops temporaries no instruction mentions and renumbers the
// remaining registers.
func PruneRegs(f *Func) {
	used := map[*Reg]bool{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Dst != nil && in.Dst.Reg != nil {
				used[in.Dst.Reg] = true
			}
			for _, s := range in.Srcs {
				if s.Reg != nil {
					used[s.Reg] = true
				}
			}
		}
	}
	kept := f.Regs[:0]
	for _, r := range f.Regs {
		if used[r] || r.File != FileTemp {
			r.ID = len(kept)
			kept = append(kept, r)
		}
	}
	f.Regs = kept
}

// Optimize runs fold, constant folding, copy-prop, CSE, mad fusion,
// loop-invariant hoisting and DCE to a fixed point, then prunes
// unused registers.
func Optimize(f *Func) {
	for i := 0; i < 16; i++ {
		a := Fold(f)
		k := FoldConstants(f)
		b := CopyProp(f)
		c := CSE(f)
		m := FuseMad(f)
		h := Hoist(f)
		d := DCE(f)
		if !a && !k && !b && !c && !m && !h && !d {
			break
		}
	}
	PruneRegs(f)
}
