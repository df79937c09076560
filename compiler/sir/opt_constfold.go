package sir

import "math"

// FoldConstants computes float operations whose operands are all 32-bit
// immediates (frcp, fadd, fmul, fmad, fmin, fmax, and a negated mov) into a
// mov of the result, rounding as the instructions do (float32 each step),
// and then forwards immediates: the reads of a temporary written once, by
// a full "mov t, imm", read the immediate instead. It reports whether
// anything changed.
func FoldConstants(f *Func) bool {
	changed := false
	val := func(s Src) (float32, bool) {
		if !s.IsImm() || s.ImmBits != 32 {
			return 0, false
		}
		v := math.Float32frombits(uint32(s.Imm))
		if s.Neg {
			v = -v
		}
		return v, true
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Dst == nil || in.Dst.Reg.BitSize != 32 || len(in.Srcs) == 0 {
				continue
			}
			var v []float32
			for _, s := range in.Srcs {
				x, ok := val(s)
				if !ok {
					v = nil
					break
				}
				v = append(v, x)
			}
			if v == nil {
				continue
			}
			var r float32
			switch in.Op {
			case OpMov:
				if !in.Srcs[0].Neg {
					continue
				}
				r = v[0]
			case OpFRcp:
				r = 1 / v[0]
			case OpFAdd:
				r = v[0] + v[1]
			case OpFMul:
				r = v[0] * v[1]
			case OpFMad:
				r = float32(v[0]*v[1]) + v[2]
			case OpFMin:
				r = min(v[0], v[1])
			case OpFMax:
				r = max(v[0], v[1])
			default:
				continue
			}
			in.Op, in.Srcs = OpMov, []Src{Imm32(math.Float32bits(r))}
			changed = true
		}
	}
	// Forward immediates into the reads of single-write temporaries.
	di := collectDefs(f)
	imm := map[*Reg]Src{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op == OpMov && in.Srcs[0].IsImm() && !in.Srcs[0].Neg && in.Dst.Reg.File == FileTemp &&
				in.Dst.Reg.Comps == 1 && di.isSSA(in.Dst.Reg) {
				imm[in.Dst.Reg] = in.Srcs[0]
			}
		}
	}
	if len(imm) == 0 {
		return changed
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			for k, s := range in.Srcs {
				c, ok := imm[s.Reg]
				if !ok || s.Reg == nil {
					continue
				}
				c.Neg = s.Neg
				in.Srcs[k] = c
				changed = true
			}
		}
	}
	return changed
}
