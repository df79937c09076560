package sm3

import (
	"fmt"
	"math"

	"passlens/compiler/sir"
)

// maxSteps bounds the structured walk so a CFG that is not structured the
// way the walker expects ends in an error instead of looping.
const maxSteps = 100000

// walk prints the region starting at b until it reaches stop (the merge
// block of the enclosing selection), a back edge to the enclosing loop
// header, or the end of the shader.
//
// body is true only for the walk of a rep loop's body, which starts at the
// loop header itself; any other arrival at the header is a back edge.
//
// It reports whether the region ended on a back edge, which SM3 can only
// express at the end of a rep body (it has no continue).
func (e *emitter) walk(b *sir.Block, loop loopCtx, stop *sir.Block, body bool) (backEdge bool, err error) {
	cur := b
	for first := true; cur != nil && cur != stop; first = false {
		if loop.header != nil && cur == loop.header && !(body && first) {
			return true, nil // reached the header again: a back edge
		}
		if e.steps++; e.steps > maxSteps {
			return false, fmt.Errorf("sm3: control flow in %s is not structured as SM3 needs", e.f.Name)
		}
		if cur.Loop && cur != loop.header {
			if err := e.rep(cur); err != nil {
				return false, err
			}
			e.depth++
			if _, err := e.walk(cur, loopCtx{header: cur, merge: cur.Merge}, nil, true); err != nil {
				return false, err
			}
			e.depth--
			e.line("endrep")
			// When rep stops by itself (its count ran out) the IR would run
			// the header once more and leave through its exit test; replay
			// the header's instructions so the values it computes (the
			// out-of-SSA reloads, typically) are what the merge block sees.
			if t := cur.Terminator(); t != nil && t.Op == sir.OpBrc {
				fused, skip := e.fusable(cur, t)
				for _, in := range cur.Instrs[:len(cur.Instrs)-1] {
					if in == fused || skip[in] {
						continue
					}
					if err := e.instr(in); err != nil {
						return false, err
					}
				}
			}
			cur = cur.Merge
			continue
		}
		t := cur.Terminator()
		if t == nil {
			return false, fmt.Errorf("sm3: block %s has no terminator", cur.Name)
		}
		fused, skip := e.fusable(cur, t)
		for _, in := range cur.Instrs[:len(cur.Instrs)-1] {
			if in == fused || skip[in] {
				continue
			}
			if err := e.instr(in); err != nil {
				return false, err
			}
		}
		switch t.Op {
		case sir.OpRet:
			if loop.header != nil || stop != nil || e.depth > 0 {
				return false, fmt.Errorf("sm3: return from inside control flow (block %s); SM3 has no early return", cur.Name)
			}
			return false, nil
		case sir.OpDiscard:
			// texkill kills the pixel when a component of its (temporary)
			// source is negative.
			e.line("mov %s, %s", e.scratch, e.src(sir.Imm32(math.Float32bits(-1))))
			e.line("texkill %s", e.scratch)
			return false, nil
		case sir.OpBr:
			next := t.Succs[0]
			switch {
			case loop.header != nil && next == loop.header:
				return true, nil // back edge: end of the rep body
			case loop.merge != nil && next == loop.merge:
				e.line("break")
				return false, nil
			}
			cur = next
		case sir.OpBrc:
			// test(true) is the comparison suffix and operands that hold when
			// the flag is set; test(false) when it is clear.
			test := func(set bool) string {
				if fused != nil {
					c := fused.Cond
					if !set {
						c = invert[c]
					}
					return fmt.Sprintf("%s %s, %s", c, e.src(fused.Srcs[0]), e.src(fused.Srcs[1]))
				}
				c := "ne"
				if !set {
					c = "eq"
				}
				return fmt.Sprintf("%s %s, %s", c, e.src(t.Srcs[0]), e.src(sir.Imm32(0)))
			}
			tt, ff := t.Succs[0], t.Succs[1]
			switch {
			case t.Srcs[0].Reg != nil && e.repDone[t.Srcs[0].Reg] && loop.merge != nil && tt == loop.merge:
				cur = ff // the cap exit: rep leaves by itself
			case t.Srcs[0].Reg != nil && e.repDone[t.Srcs[0].Reg] && loop.merge != nil && ff == loop.merge:
				cur = tt
			case loop.merge != nil && ff == loop.merge:
				e.line("break_%s", test(false))
				cur = tt
			case loop.merge != nil && tt == loop.merge:
				e.line("break_%s", test(true))
				cur = ff
			case cur.Merge != nil:
				m := cur.Merge
				e.line("if_%s", test(true))
				if err := e.arm(tt, loop, m, cur); err != nil {
					return false, err
				}
				if ff != m {
					e.line("else")
					if err := e.arm(ff, loop, m, cur); err != nil {
						return false, err
					}
				}
				e.line("endif")
				cur = m
			default:
				return false, fmt.Errorf("sm3: conditional branch in block %s has no selection merge; SM3 needs structured control flow", cur.Name)
			}
		default:
			return false, fmt.Errorf("sm3: unexpected terminator %s in block %s", t.Op, cur.Name)
		}
	}
	return false, nil
}

// arm prints one side of the selection headed by sel, up to its merge m;
// a side that loops back to the header would need a continue, which SM3
// does not have.
func (e *emitter) arm(b *sir.Block, loop loopCtx, m, sel *sir.Block) error {
	e.depth++
	defer func() { e.depth-- }()
	back, err := e.walk(b, loop, m, false)
	if err != nil {
		return err
	}
	if back {
		return fmt.Errorf("sm3: a branch of the selection in block %s continues loop %s; SM3 rep has no continue", sel.Name, loop.header.Name)
	}
	return nil
}

// invert maps a comparison to its negation (SM3 compares are on floats;
// NaN is not modelled).
var invert = map[sir.Cond]sir.Cond{
	sir.CondLT: sir.CondGE, sir.CondGE: sir.CondLT, sir.CondGT: sir.CondLE,
	sir.CondLE: sir.CondGT, sir.CondEQ: sir.CondNE, sir.CondNE: sir.CondEQ,
}

// fusable returns the float compare in b that only feeds b's conditional
// branch, so the branch can test it directly (break_ge a, b instead of
// slt + break_eq), and the instructions the fusion makes unnecessary. The
// compare must be right before the branch, or separated from it only by
// "sel %go, <rep done>, false, %cmp" (the rep cap folded into the exit test
// by sm3-lower; the cap flag reads as false): the branch re-reads the
// compare's operands, and with registers shared between temporaries
// nothing else may run in between.
func (e *emitter) fusable(b *sir.Block, t *sir.Instr) (*sir.Instr, map[*sir.Instr]bool) {
	if t.Op != sir.OpBrc || t.Srcs[0].Reg == nil || e.reads[t.Srcs[0].Reg] != 1 {
		return nil, nil
	}
	n := len(b.Instrs)
	flag := t.Srcs[0].Reg
	var skip map[*sir.Instr]bool
	if n >= 3 {
		sel := b.Instrs[n-2]
		if sel.Op == sir.OpSel && sel.Dst != nil && sel.Dst.Reg == flag &&
			sel.Srcs[0].Reg != nil && e.repDone[sel.Srcs[0].Reg] &&
			sel.Srcs[1].IsImm() && sel.Srcs[1].Imm == 0 &&
			sel.Srcs[2].Reg != nil && e.reads[sel.Srcs[2].Reg] == 1 {
			flag = sel.Srcs[2].Reg
			skip = map[*sir.Instr]bool{sel: true}
			n--
		}
	}
	if n < 2 {
		return nil, nil
	}
	in := b.Instrs[n-2]
	if in.Op != sir.OpFCmp || in.Dst == nil || in.Dst.Reg != flag {
		return nil, nil
	}
	return in, skip
}

// rep opens a rep loop for the loop headed by h: "rep iN" on the integer
// uniform that is the trip count, or on a defi'd constant (255 when the IR
// gave no cap).
func (e *emitter) rep(h *sir.Block) error {
	key, count := "255", 255
	var uni *sir.Reg
	if h.Rep != nil {
		if h.Rep.Uniform != nil {
			uni, key = h.Rep.Uniform, "uniform:"+h.Rep.Uniform.Name
		} else {
			count, key = h.Rep.Count, fmt.Sprint(h.Rep.Count)
		}
	}
	if count < 0 || count > 255 {
		return fmt.Errorf("sm3: loop %s: trip count %d is outside rep's 0..255", h.Name, count)
	}
	reg, ok := e.repI[key]
	if !ok {
		if len(e.repI) >= 16 {
			return fmt.Errorf("sm3: loop %s: more than 16 distinct rep counts", h.Name)
		}
		reg = fmt.Sprintf("i%d", len(e.repI))
		e.repI[key] = reg
		if uni != nil {
			e.table = append(e.table, [3]string{uni.Name, reg, "1"})
		} else {
			e.defis = append(e.defis, fmt.Sprintf("defi %s, %d, 0, 0, 0", reg, count))
		}
	}
	e.line("rep %s", reg)
	return nil
}

// instr prints one non-terminator SIR instruction.
func (e *emitter) instr(in *sir.Instr) error {
	s := make([]string, len(in.Srcs))
	for i, x := range in.Srcs {
		s[i] = e.src(x)
	}
	d := ""
	if in.Dst != nil {
		d = e.dst(in.Dst)
	}
	simple := map[sir.Op]string{
		sir.OpMov: "mov", sir.OpFAdd: "add", sir.OpFMul: "mul", sir.OpFMad: "mad",
		sir.OpFMin: "min", sir.OpFMax: "max", sir.OpFRcp: "rcp", sir.OpFRsq: "rsq", sir.OpFFrc: "frc",
		sir.OpFAbs: "abs", sir.OpFExp2: "exp", sir.OpFLog2: "log", sir.OpFPow: "pow",
		sir.OpAnd: "mul", sir.OpOr: "max", // flags are 0.0 / 1.0
	}
	if in.Op == sir.OpMov && d == s[0] {
		return nil // coalesced by register allocation
	}
	if op, ok := simple[in.Op]; ok {
		args := append([]string{d}, s...)
		e.line("%s %s", op, join(args))
		return nil
	}
	switch in.Op {
	case sir.OpFSin, sir.OpFCos: // sincos writes cos to .x, sin to .y
		comp := "y"
		if in.Op == sir.OpFCos {
			comp = "x"
		}
		e.line("sincos %s.%s, %s", e.scratchReg, comp, s[0])
		e.line("mov %s, %s.%s", d, e.scratchReg, comp)
	case sir.OpNot:
		e.line("add %s, %s, %s", d, neg(s[0]), e.src(sir.Imm32(math.Float32bits(1))))
	case sir.OpSel: // cmp picks its second operand where the first is >= 0
		e.line("cmp %s, %s, %s, %s", d, neg(s[0]), s[2], s[1])
	case sir.OpFCmp, sir.OpICmp:
		a, b := s[0], s[1]
		switch in.Cond {
		case sir.CondLT:
			e.line("slt %s, %s, %s", d, a, b)
		case sir.CondGE:
			e.line("sge %s, %s, %s", d, a, b)
		case sir.CondGT:
			e.line("slt %s, %s, %s", d, b, a)
		case sir.CondLE:
			e.line("sge %s, %s, %s", d, b, a)
		case sir.CondEQ, sir.CondNE:
			// (a-b)^2 is 0 exactly when a == b; d = (-(a-b)^2 >= (a-b)^2).
			e.line("add %s, %s, %s", d, a, neg(b))
			e.line("mul %s, %s, %s", d, d, d)
			if in.Cond == sir.CondEQ {
				e.line("sge %s, %s, %s", d, neg(d), d)
			} else {
				e.line("slt %s, %s, %s", d, neg(d), d)
			}
		default:
			return fmt.Errorf("sm3: comparison %s has no SM3 form", in.Cond)
		}
	default:
		where := ""
		if in.Loc != "" {
			where = " at " + in.Loc
		}
		return fmt.Errorf("sm3: SIR %s%s has no SM3 instruction", in.Op, where)
	}
	return nil
}

func neg(s string) string {
	if len(s) > 0 && s[0] == '-' {
		return s[1:]
	}
	return "-" + s
}

func join(a []string) string {
	out := ""
	for i, x := range a {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}
