package sir

import (
	"fmt"
	"strings"
)

// CSE removes a pure instruction that recomputes the value of an earlier,
// dominating one: same opcode, condition, exec range, destination shape and
// operands, where both destinations are temporaries written exactly once by
// those full writes and every register operand holds one value everywhere
// (read-only, or written once by a full write). Reads of the later result are
// redirected to the earlier one. It reports whether anything changed.
func CSE(f *Func) bool {
	c := buildCFG(f)
	di := collectDefs(f)
	seen := map[string][]pos{}
	repl := map[*Reg]*Reg{}
	dead := map[*Instr]bool{}
	// Reverse postorder visits a dominator before the blocks it dominates.
	for _, b := range c.rpo {
		for i, in := range b.Instrs {
			if !in.Op.IsPure() || in.Op == OpMov || in.Dst == nil || !isFullWrite(in) || !di.isSSA(in.Dst.Reg) {
				continue
			}
			key, ok := cseKey(in, di, repl)
			if !ok {
				continue
			}
			p := pos{b, i}
			found := false
			for _, q := range seen[key] {
				if c.instrDominates(q, p) {
					repl[in.Dst.Reg] = q.b.Instrs[q.i].Dst.Reg
					dead[in] = true
					found = true
					break
				}
			}
			if !found {
				seen[key] = append(seen[key], p)
			}
		}
	}
	if len(dead) == 0 {
		return false
	}
	for _, b := range f.Blocks {
		kept := b.Instrs[:0]
		for _, in := range b.Instrs {
			if dead[in] {
				continue
			}
			for k, s := range in.Srcs {
				if r, ok := repl[s.Reg]; ok && s.Reg != nil {
					in.Srcs[k].Reg = r
				}
			}
			kept = append(kept, in)
		}
		b.Instrs = kept
	}
	return true
}

// cseKey renders the value an instruction computes; ok is false when an
// operand may hold different values at different points.
func cseKey(in *Instr, di *defInfo, repl map[*Reg]*Reg) (string, bool) {
	d := in.Dst.Reg
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s.%s %s %d/%d/%s/%s", in.Op, in.Cond, in.Exec, d.BitSize, d.Comps, d.Group, d.File)
	for _, s := range in.Srcs {
		if s.Reg != nil {
			if !di.isSSA(s.Reg) {
				return "", false
			}
			if r, ok := repl[s.Reg]; ok {
				s.Reg = r
			}
			// Compare the components actually read (identity spelled out).
			sw := make([]uint8, max(len(s.Swizzle), d.Comps))
			for j := range sw {
				sw[j] = uint8(s.Comp(j))
			}
			s.Swizzle = sw
		}
		fmt.Fprintf(&sb, ", %s#%d", s, regID(s.Reg))
	}
	return sb.String(), true
}

func regID(r *Reg) int {
	if r == nil {
		return -1
	}
	return r.ID
}
