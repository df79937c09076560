package sir

// Hoist moves loop-invariant computations out of loops: a pure instruction
// in a natural loop whose destination is a temporary written only there
// (by a full write) and whose operands are immediates, read-only registers
// or temporaries written once outside the loop (or already hoisted) moves
// to the end of the loop's preheader — the one block outside the loop that
// branches to the header. The preheader dominates the whole loop and
// everything after it, so every read stays dominated by the write. SM3
// loops then compute "m * m" once before rep, as fxc does. SM3 rep caps
// (Rep.Done) change from iteration to iteration and are never invariant.
// Loops are visited innermost first, so an instruction can leave a nest
// level by level. It reports whether anything moved.
func Hoist(f *Func) bool {
	preds := map[*Block][]*Block{}
	for _, b := range f.Blocks {
		for _, s := range b.Succs() {
			preds[s] = append(preds[s], b)
		}
	}
	variant := map[*Reg]bool{}
	for _, b := range f.Blocks {
		if b.Rep != nil && b.Rep.Done != nil {
			variant[b.Rep.Done] = true
		}
	}
	di := collectDefs(f)
	// The single writes and their blocks (positions shift as code moves).
	defInstr, defBlock := map[*Reg]*Instr{}, map[*Reg]*Block{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Dst != nil && in.Dst.Reg != nil {
				defInstr[in.Dst.Reg], defBlock[in.Dst.Reg] = in, b
			}
		}
	}
	ssa := func(r *Reg) bool {
		if r.File.ReadOnly() {
			return di.writes[r] == 0
		}
		return r.File == FileTemp && di.writes[r] == 1 && isFullWrite(defInstr[r])
	}
	c := buildCFG(f)
	type loop struct {
		header, pre *Block
		body        map[*Block]bool
	}
	var loops []loop
	for _, h := range f.Blocks {
		var latches, outside []*Block
		for _, p := range preds[h] {
			if c.dominates(h, p) {
				latches = append(latches, p)
			} else {
				outside = append(outside, p)
			}
		}
		if len(latches) == 0 || len(outside) != 1 {
			continue
		}
		pre := outside[0]
		if t := pre.Terminator(); t == nil || t.Op != OpBr {
			continue
		}
		body := map[*Block]bool{h: true}
		work := append([]*Block(nil), latches...)
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			if body[b] {
				continue
			}
			body[b] = true
			work = append(work, preds[b]...)
		}
		loops = append(loops, loop{h, pre, body})
	}
	// Innermost first: a smaller body cannot contain a larger one.
	for i := 1; i < len(loops); i++ {
		for j := i; j > 0 && len(loops[j].body) < len(loops[j-1].body); j-- {
			loops[j], loops[j-1] = loops[j-1], loops[j]
		}
	}
	changed := false
	for _, l := range loops {
		defIn := func(r *Reg) bool {
			b, ok := defBlock[r]
			return ok && l.body[b]
		}
		invariant := func(in *Instr) bool {
			if !in.Op.IsPure() || in.Dst == nil || in.Dst.Reg.File != FileTemp || !isFullWrite(in) || di.writes[in.Dst.Reg] != 1 {
				return false
			}
			for _, s := range in.Srcs {
				if s.Reg == nil {
					continue
				}
				if variant[s.Reg] || !ssa(s.Reg) || s.Reg.File == FileTemp && defIn(s.Reg) {
					return false
				}
			}
			return true
		}
		for moved := true; moved; {
			moved = false
			// Visit the loop's blocks in layout order so operands hoisted
			// earlier are already in the preheader.
			for _, b := range f.Blocks {
				if !l.body[b] {
					continue
				}
				kept := b.Instrs[:0]
				for _, in := range b.Instrs {
					if !invariant(in) {
						kept = append(kept, in)
						continue
					}
					t := l.pre.Instrs[len(l.pre.Instrs)-1]
					l.pre.Instrs = append(l.pre.Instrs[:len(l.pre.Instrs)-1], in, t)
					defBlock[in.Dst.Reg] = l.pre
					moved, changed = true, true
				}
				b.Instrs = kept
			}
		}
	}
	return changed
}
