package sm3

import (
	"fmt"
	"math"
	"strings"

	"passlens/compiler/ir"
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
		if loop.cont != nil && cur == loop.cont && stop != nil && stop != loop.cont {
			// A selection arm reached the continue block: a continue.
			return false, e.setContinue(loop)
		}
		if e.steps++; e.steps > maxSteps {
			return false, fmt.Errorf("sm3: control flow in %s is not structured as SM3 needs", e.f.Name)
		}
		if cur.Loop && cur != loop.header {
			rets := e.retSets
			end, err := e.rep(cur)
			if err != nil {
				return false, err
			}
			e.depth++
			saved := e.curLoop
			e.curLoop = cur
			inner := loopCtx{header: cur, merge: cur.Merge, st: &loopState{}}
			if cur.Continue != cur {
				inner.cont = cur.Continue
			}
			mark := len(e.body)
			if _, err := e.walk(cur, inner, nil, true); err != nil {
				return false, err
			}
			if f := inner.st.flag; f != "" {
				// Every iteration starts with the continue flag clear.
				reset := strings.Repeat("    ", e.depth) + fmt.Sprintf("mov %s, %s", f, e.src(sir.Imm32(0)))
				e.body = append(e.body[:mark], append([]string{reset}, e.body[mark:]...)...)
			}
			e.curLoop = saved
			e.depth--
			e.line("%s", end)
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
			if e.retSets != rets {
				// A return inside the loop set the return flag and broke
				// out: leave the enclosing loop too, or skip the rest of
				// the shader's code where the flag is set.
				if loop.header != nil {
					e.line("break_ne %s, %s", e.retFlag, e.src(sir.Imm32(0)))
					continue
				}
				if cur == stop {
					break
				}
				return e.guard(e.retFlag, cur, loop, stop)
			}
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
			if loop.header == nil && stop == nil {
				return false, nil // the end of the shader (perhaps inside a guard)
			}
			// An early return: SM3 has none, so set the return flag (and
			// leave the loop); the code after the enclosing constructs runs
			// only where the flag is clear.
			if err := e.setReturn(); err != nil {
				return false, err
			}
			if loop.header != nil {
				e.line("break")
			}
			return false, nil
		case sir.OpDiscard:
			// texkill kills the pixel when a component of its (temporary)
			// source is negative.
			// All four components are set to -1 (fxc writes texkill on a
			// whole register).
			e.line("mov %s, %s", e.scratchReg, e.src(sir.Imm32(math.Float32bits(-1))))
			e.line("texkill %s", e.scratchReg)
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
				cmp := fused
				if cmp == nil && t.Srcs[0].Reg != nil && !t.Srcs[0].Neg {
					cmp = e.def[t.Srcs[0].Reg] // a compare hoisted out of a loop
				}
				if b := e.boolRegister(cmp); b != "" {
					e.line("if %s", b)
				} else {
					e.line("if_%s", test(true))
				}
				sets, rets := loop.st.count(), e.retSets
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
				if e.retSets != rets && loop.header == nil && m != stop {
					// An arm returned (outside loops): guard the rest.
					return e.guard(e.retFlag, m, loop, stop)
				}
				if loop.st.count() == sets {
					break
				}
				// An arm continued the loop: the rest of the body, up to
				// the continue block (or the enclosing region's end), runs
				// only where the continue flag is clear.
				end := stop
				if end == nil {
					end = loop.cont
				}
				if m == end || m == loop.header {
					break
				}
				e.line("if_eq %s, %s", loop.st.flag, e.src(sir.Imm32(0)))
				e.depth++
				back, err := e.walk(m, loop, end, false)
				e.depth--
				if err != nil {
					return false, err
				}
				e.line("endif")
				if end == stop || end == nil {
					return back, nil
				}
				cur = end
			default:
				return false, fmt.Errorf("sm3: %sconditional branch in block %s has no selection merge; SM3 needs structured control flow", instrLoc(t), cur.Name)
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
		if loop.cont != nil {
			return fmt.Errorf("sm3: %sa branch of the selection in block %s goes back to loop %s without its continue block %s", blockLoc(sel), sel.Name, loop.header.Name, loop.cont.Name)
		}
		return e.setContinue(loop) // a continue in a loop without a continue block
	}
	return nil
}

// guard prints the region from b to stop inside "if_eq flag, 0": the code
// an early return (flag set) skips.
func (e *emitter) guard(flag string, b *sir.Block, loop loopCtx, stop *sir.Block) (bool, error) {
	e.line("if_eq %s, %s", flag, e.src(sir.Imm32(0)))
	e.depth++
	back, err := e.walk(b, loop, stop, false)
	e.depth--
	if err != nil {
		return false, err
	}
	e.line("endif")
	return back, nil
}

// setReturn sets the return flag, allocating it (cleared at the start of
// the shader) on first use.
func (e *emitter) setReturn() error {
	if e.retFlag == "" {
		f, err := e.newFlag("the return flag")
		if err != nil {
			return err
		}
		e.retFlag = f
	}
	e.line("mov %s, %s", e.retFlag, e.src(sir.Imm32(math.Float32bits(1))))
	e.retSets++
	return nil
}

// newFlag allocates a register component for a control-flow flag, after
// the scratch register.
func (e *emitter) newFlag(what string) (string, error) {
	n := (e.temps+3)/4 + 1 + e.texRegs + e.contFlags/4
	if n >= 32 {
		return "", fmt.Errorf("sm3: no temporary register left for %s", what)
	}
	f := fmt.Sprintf("r%d.%c", n, "xyzw"[e.contFlags%4])
	e.contFlags++
	return f, nil
}

// setContinue prints a continue: SM3 loops have none, so it sets the
// loop's continue flag (a register component of its own, cleared at the
// top of every iteration), and the walk guards the rest of the body with
// "if_eq flag, 0".
func (e *emitter) setContinue(loop loopCtx) error {
	if loop.st == nil {
		return fmt.Errorf("sm3: continue outside a loop")
	}
	if loop.st.flag == "" {
		f, err := e.newFlag("the continue flag of loop " + loop.header.Name)
		if err != nil {
			return err
		}
		loop.st.flag = f
	}
	e.line("mov %s, %s", loop.st.flag, e.src(sir.Imm32(math.Float32bits(1))))
	loop.st.sets++
	return nil
}

// count is the number of continues of the loop printed so far (0 outside
// loops).
func (s *loopState) count() int {
	if s == nil {
		return 0
	}
	return s.sets
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

// rep opens the loop headed by h and returns its closing line: "rep iN" on
// the integer uniform that is the trip count, or on a defi'd constant (255
// when the IR gave no cap); "loop aL, iN" (defi iN, count, 0, 1) instead
// when a uniform array is indexed by the loop's counter, which aL then
// equals (see findCounterLoops).
func (e *emitter) rep(h *sir.Block) (string, error) {
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
		return "", fmt.Errorf("sm3: %sloop %s: trip count %d is outside rep's 0..255", blockLoc(h), h.Name, count)
	}
	useAL := e.aLoops[h] && uni == nil
	if useAL {
		key = "loop:" + key
	}
	reg, ok := e.repI[key]
	if !ok {
		if len(e.repI) >= 16 {
			return "", fmt.Errorf("sm3: %sloop %s: more than 16 distinct loop counts", blockLoc(h), h.Name)
		}
		reg = fmt.Sprintf("i%d", len(e.repI))
		e.repI[key] = reg
		switch {
		case uni != nil:
			e.table = append(e.table, [3]string{uni.Name, reg, "1"})
		case useAL:
			e.defis = append(e.defis, fmt.Sprintf("defi %s, %d, 0, 1, 0", reg, count))
		default:
			e.defis = append(e.defis, fmt.Sprintf("defi %s, %d, 0, 0, 0", reg, count))
		}
	}
	if useAL {
		e.line("loop aL, %s", reg)
		return "endloop", nil
	}
	e.line("rep %s", reg)
	return "endrep", nil
}

// findCounterLoops finds the movidx reads whose index is the iteration
// number of their loop, so ps_3_0 can address c#[aL] in a "loop aL" (count,
// start 0, step 1) instead of a select chain. The loop headed by h must
// have a constant count and a counter variable V written exactly twice:
// "mov V, 0" in the block that enters the loop (with "br h"), and
// "mov V, Y" with "fadd Y, X, 1.0" in the loop's continue block (which
// every iteration that goes round passes once: SM3 loops have no continue),
// where X is the header's "mov X, V". Then X equals aL in the body. The
// movidx must read X directly and lie outside the header, which the walker
// replays after the loop ends.
func (e *emitter) findCounterLoops() {
	e.aLoops = map[*sir.Block]bool{}
	e.aLIndex = map[*sir.Instr]*sir.Block{}
	writes := map[*sir.Reg][]*sir.Instr{}
	where := map[*sir.Instr]*sir.Block{}
	for _, b := range e.f.Blocks {
		for _, in := range b.Instrs {
			where[in] = b
			if in.Dst != nil {
				writes[in.Dst.Reg] = append(writes[in.Dst.Reg], in)
			}
		}
	}
	one := uint64(math.Float32bits(1))
	isMov := func(in *sir.Instr) bool {
		return in.Op == sir.OpMov && len(in.Srcs) == 1 && !in.Srcs[0].Neg && in.Dst.Mask == in.Dst.Reg.FullMask()
	}
	counter := map[*sir.Reg]*sir.Block{} // X -> its loop header
	for _, h := range e.f.Blocks {
		if !h.Loop || h.Continue == nil || h.Rep != nil && h.Rep.Uniform != nil {
			continue
		}
		for _, x := range h.Instrs {
			if !isMov(x) || x.Dst.Reg.File != sir.FileTemp || len(writes[x.Dst.Reg]) != 1 {
				continue
			}
			v := x.Srcs[0].Reg
			if v == nil || v.File != sir.FileTemp || v.Comps != 1 || len(writes[v]) != 2 {
				continue
			}
			okInit, okStep := false, false
			for _, w := range writes[v] {
				b := where[w]
				if !isMov(w) {
					break
				}
				src := w.Srcs[0]
				if src.IsImm() && src.Imm == 0 && b != h && b != h.Continue && b.Terminator() != nil &&
					b.Terminator().Op == sir.OpBr && b.Terminator().Succs[0] == h {
					okInit = true
				}
				if b == h.Continue && src.Reg != nil && len(writes[src.Reg]) == 1 {
					y := writes[src.Reg][0]
					if y.Op == sir.OpFAdd && !y.Srcs[0].Neg && !y.Srcs[1].Neg &&
						(y.Srcs[0].Reg == x.Dst.Reg && y.Srcs[1].IsImm() && y.Srcs[1].Imm == one ||
							y.Srcs[1].Reg == x.Dst.Reg && y.Srcs[0].IsImm() && y.Srcs[0].Imm == one) {
						okStep = true
					}
				}
			}
			if okInit && okStep {
				counter[x.Dst.Reg] = h
			}
		}
	}
	for _, b := range e.f.Blocks {
		for _, in := range b.Instrs {
			if in.Op != sir.OpMovIdx || in.Srcs[1].Reg == nil || in.Srcs[1].Neg || in.Srcs[1].Comp(0) != 0 {
				continue
			}
			if h, ok := counter[in.Srcs[1].Reg]; ok && b != h {
				e.aLoops[h] = true
				e.aLIndex[in] = h
			}
		}
	}
}

// instr prints one non-terminator SIR instruction.
func (e *emitter) instr(in *sir.Instr) error {
	e.cur = in
	if in.Op == sir.OpTex { // reads only the operands its kind uses
		return e.texture(in, e.dst(in.Dst))
	}
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
		sir.OpFDsx: "dsx", sir.OpFDsy: "dsy",
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
	case sir.OpMovIdx:
		return e.movIdx(in, d, s[1])
	case sir.OpDemote:
		// texkill kills the pixel, which goes on running to the end of
		// the shader (D3D9 ends no pixel of a quad early): a demote.
		e.line("mov %s, %s", e.scratchReg, e.src(sir.Imm32(math.Float32bits(-1))))
		e.line("texkill %s", e.scratchReg)
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
			// |a-b| is 0 exactly when a == b; d = (-|a-b| >= |a-b|). (The
			// square (a-b)^2, ps_2_0's idiom, underflows to 0 for tiny
			// differences: vkd3d's float-comparison test wants 1e-37 != 0
			// on shader model 3.)
			e.line("add %s, %s, %s", d, a, neg(b))
			e.line("abs %s, %s", d, d)
			if in.Cond == sir.CondEQ {
				e.line("sge %s, %s, %s", d, neg(d), d)
			} else {
				e.line("slt %s, %s, %s", d, neg(d), d)
			}
		default:
			return fmt.Errorf("sm3: %scomparison %s has no SM3 form", instrLoc(in), in.Cond)
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

// movIdx reads slot Elem+index of a constant register array. vs_3_0 has an
// address register: mova a0.x (rounding to the nearest integer) and a
// relative operand c<base>[a0.x]. ps_3_0 has none outside loop/aL, so the
// read becomes a select chain over the slots: the index is copied to the
// scratch register first (the destination may share a register with it),
// then each slot k replaces the result where |index - k| == 0.
func (e *emitter) movIdx(in *sir.Instr, d, idx string) error {
	arr := in.Srcs[0]
	base, ok := e.cbase[arr.Reg]
	if !ok {
		return fmt.Errorf("sm3: movidx from %s, which is not a constant register array", arr.Reg.Name)
	}
	sw := ""
	if arr.Reg.Comps > 1 {
		sw = "." + string("xyzw"[arr.Comp(0)])
	} else {
		sw = ".x"
	}
	neg := ""
	if arr.Neg {
		neg = "-"
	}
	if h, ok := e.aLIndex[in]; ok && e.curLoop == h {
		e.line("mov %s, %sc%d[aL]%s", d, neg, base+arr.Elem, sw)
		return nil
	}
	if e.profile == "vs_3_0" {
		e.line("mova a0.x, %s", idx)
		e.line("mov %s, %sc%d[a0.x]%s", d, neg, base+arr.Elem, sw)
		return nil
	}
	i, t := e.scratchReg+".w", e.scratchReg+".z"
	e.line("mov %s, %s", i, idx)
	e.line("mov %s, %sc%d%s", d, neg, base+arr.Elem, sw)
	for k := 1; k < int(in.Srcs[2].Imm); k++ {
		e.line("add %s, %s, %s", t, i, e.src(sir.Imm32(math.Float32bits(float32(-k)))))
		e.line("abs %s, %s", t, t)
		e.line("cmp %s, -%s, %sc%d%s, %s", d, t, neg, base+arr.Elem+k, sw, d)
	}
	return nil
}

// boolRegister returns the b# register for a branch on a bool uniform (the
// compare "fcmp.ne <uniform>, 0" SIR lowering makes of its load), binding
// the uniform to the next b# on first use, or "" when cmp is something
// else. "if b#" is how SM3 branches on a bool constant; the uniform keeps
// its c# as well when other code reads its value.
func (e *emitter) boolRegister(cmp *sir.Instr) string {
	if cmp == nil || cmp.Op != sir.OpFCmp || cmp.Cond != sir.CondNE || cmp.Srcs[0].Neg || !cmp.Srcs[1].IsImm() || cmp.Srcs[1].Imm != 0 {
		return ""
	}
	r := cmp.Srcs[0].Reg
	if r == nil || r.File != sir.FileConst || r.Slots() != 1 || r.Comps != 1 || !e.isBoolUniform(r.Name) {
		return ""
	}
	if b, ok := e.boolReg[r]; ok {
		return b
	}
	if len(e.boolReg) >= 16 {
		return ""
	}
	b := fmt.Sprintf("b%d", len(e.boolReg))
	e.boolReg[r] = b
	e.table = append(e.table, [3]string{r.Name, b, "1"})
	return b
}

// isBoolUniform reports whether the uniform variable name (a cbuffer or
// $Globals member, or a uniform global) has type bool.
func (e *emitter) isBoolUniform(name string) bool {
	for _, g := range e.m.Globals {
		if g.Space != ir.SpaceUniform {
			continue
		}
		if g.ValType.Kind == ir.KStruct {
			for _, f := range g.ValType.Fields {
				if f.Name == name {
					return f.Type.Kind == ir.KBool
				}
			}
		} else if g.Name() == name {
			return g.ValType.Kind == ir.KBool
		}
	}
	return false
}

// instrLoc is "line:col: " of a SIR instruction's source location, or "".
func instrLoc(in *sir.Instr) string {
	if in == nil || in.Loc == "" {
		return ""
	}
	return in.Loc + ": "
}

// blockLoc is instrLoc of the first instruction of b that has a location.
func blockLoc(b *sir.Block) string {
	for _, in := range b.Instrs {
		if in.Loc != "" {
			return in.Loc + ": "
		}
	}
	return ""
}
