package sir

import (
	"math"

	"passlens/compiler/ir"
)

// intrinsic lowers the intrinsics SIR has instructions for, and the sm3.rep
// loop marker: its count becomes the block's Rep (a constant, or the
// uniform register whose load is the count) and its "done" operand becomes
// Rep.Done, an opaque flag the hardware supplies (an SM3 rep loop stops by
// itself); DCE then removes the IR's counter code, while the exit edge
// stays in the CFG.
func (l *lowerer) intrinsic(b *Block, in *ir.Instr, emit func(Op, *Dst, ...Src) *Instr) error {
	name := "?"
	if in.Intr != nil {
		name = in.Intr.Name
	}
	if name == "sm3.rep" {
		if len(in.Args) != 2 {
			return locErr(in, "sm3.rep takes 2 operands")
		}
		rep := &Rep{}
		switch c := in.Args[0].(type) {
		case *ir.Const:
			rep.Count = int(c.Int())
		default:
			r, ok := l.loads[c]
			if !ok {
				return locErr(in, "sm3.rep count %s is neither a constant nor a uniform load", c.Ref())
			}
			rep.Uniform = r
		}
		rep.Done = l.f.NewReg(l.uniqueName(b.Name+".rep.done"), 1, 1, Group{0, 1}, FileInput)
		b.Rep = rep
		l.imms[in.Args[1]] = R(rep.Done)
		return nil
	}
	s, err := l.srcs(in)
	if err != nil {
		return err
	}
	need := func(n int) error {
		if len(s) != n {
			return locErr(in, "%s takes %d operands, has %d", name, n, len(s))
		}
		return nil
	}
	tmp := func(suffix string) *Reg {
		return l.f.NewReg(l.uniqueName(in.Name()+suffix), 32, 1, l.all(), FileTemp)
	}
	one := Imm32(math.Float32bits(1))
	var op Op
	switch name {
	case "frac":
		op = OpFFrc
	case "rcp":
		op = OpFRcp
	case "rsqrt":
		op = OpFRsq
	case "min":
		op = OpFMin
	case "max":
		op = OpFMax
	case "mad":
		op = OpFMad
	case "abs":
		op = OpFAbs
	case "exp2":
		op = OpFExp2
	case "log2":
		op = OpFLog2
	case "sin":
		op = OpFSin
	case "cos":
		op = OpFCos
	case "pow":
		op = OpFPow
	case "sqrt": // 1 / rsqrt(x)
		if err := need(1); err != nil {
			return err
		}
		rs := tmp(".rsq")
		emit(OpFRsq, D(rs), s[0])
		op, s = OpFRcp, []Src{R(rs)}
	case "fmod": // x - y*trunc(x/y)
		if err := need(2); err != nil {
			return err
		}
		op, s = l.fmodOps(in, emit, s[0], s[1])
	case "round": // floor(x + 0.5), as fxc does for SM1-3
		if err := need(1); err != nil {
			return err
		}
		h, fr := tmp(".half"), tmp(".frc")
		emit(OpFAdd, D(h), s[0], Imm32(math.Float32bits(0.5)))
		emit(OpFFrc, D(fr), R(h))
		op, s = OpFAdd, []Src{R(h), {Reg: fr, Neg: true}}
	case "tan": // sin(x) / cos(x)
		if err := need(1); err != nil {
			return err
		}
		sn, cs, rc := tmp(".sin"), tmp(".cos"), tmp(".rcp")
		emit(OpFSin, D(sn), s[0])
		emit(OpFCos, D(cs), s[0])
		emit(OpFRcp, D(rc), R(cs))
		op, s = OpFMul, []Src{R(sn), R(rc)}
	case "log10": // log2(x) * log10(2)
		if err := need(1); err != nil {
			return err
		}
		t := tmp(".log2")
		emit(OpFLog2, D(t), s[0])
		op, s = OpFMul, []Src{R(t), Imm32(math.Float32bits(float32(math.Log10(2))))}
	case "trunc":
		if err := need(1); err != nil {
			return err
		}
		op, s = OpMov, []Src{l.trunc(in, emit, s[0])}
	case "floor": // x - frac(x)
		if err := need(1); err != nil {
			return err
		}
		fr := tmp(".frc")
		emit(OpFFrc, D(fr), s[0])
		neg := R(fr)
		neg.Neg = true
		op, s = OpFAdd, []Src{s[0], neg}
	case "clamp": // min(max(x, lo), hi)
		if err := need(3); err != nil {
			return err
		}
		lo := tmp(".max")
		emit(OpFMax, D(lo), s[0], s[1])
		op, s = OpFMin, []Src{R(lo), s[2]}
	case "ceil": // x + frac(-x)
		if err := need(1); err != nil {
			return err
		}
		fr := tmp(".frc")
		nx := s[0]
		nx.Neg = !nx.Neg
		emit(OpFFrc, D(fr), nx)
		op, s = OpFAdd, []Src{s[0], R(fr)}
	case "step": // x >= edge ? 1 : 0, step(edge, x)
		if err := need(2); err != nil {
			return err
		}
		ge := l.f.NewReg(l.uniqueName(in.Name()+".ge"), 1, 1, l.all(), FileTemp)
		emit(OpFCmp, D(ge), s[1], s[0]).Cond = CondGE
		op, s = OpSel, []Src{R(ge), one, Imm32(0)}
	case "exp": // exp2(x * log2(e))
		if err := need(1); err != nil {
			return err
		}
		t := tmp(".scaled")
		emit(OpFMul, D(t), s[0], Imm32(math.Float32bits(float32(math.Log2E))))
		op, s = OpFExp2, []Src{R(t)}
	case "log": // log2(x) * ln(2)
		if err := need(1); err != nil {
			return err
		}
		t := tmp(".log2")
		emit(OpFLog2, D(t), s[0])
		op, s = OpFMul, []Src{R(t), Imm32(math.Float32bits(float32(math.Ln2)))}
	case "saturate": // min(max(x, 0), 1)
		if err := need(1); err != nil {
			return err
		}
		lo := tmp(".max")
		emit(OpFMax, D(lo), s[0], Imm32(0))
		op, s = OpFMin, []Src{R(lo), one}
	case "lerp": // a + t*(b - a)
		if err := need(3); err != nil {
			return err
		}
		d := tmp(".d")
		na := s[0]
		na.Neg = !na.Neg
		emit(OpFAdd, D(d), s[1], na)
		op, s = OpFMad, []Src{s[2], R(d), s[0]}
	default:
		return locErr(in, "intrinsic %s is not supported by SIR lowering yet", name)
	}
	if len(s) != op.NumSrcs() {
		return locErr(in, "%s takes %d operands, has %d", name, op.NumSrcs(), len(s))
	}
	if !in.Type().IsScalar() || in.Type().Kind != ir.KFloat {
		return locErr(in, "%s on %s (SIR lowering handles scalar floats)", name, in.Type())
	}
	dst, err := l.result(in)
	if err != nil {
		return err
	}
	emit(op, D(dst), s...)
	return nil
}

// trunc emits trunc(x) = x >= 0 ? floor(x) : -floor(-x), with floor(v) =
// v - frac(v), and returns the result.
func (l *lowerer) trunc(in *ir.Instr, emit func(Op, *Dst, ...Src) *Instr, x Src) Src {
	tmp := func(suffix string) *Reg {
		return l.f.NewReg(l.uniqueName(in.Name()+suffix), 32, 1, l.all(), FileTemp)
	}
	fq, fl := tmp(".frc"), tmp(".floor")
	emit(OpFFrc, D(fq), x)
	emit(OpFAdd, D(fl), x, Src{Reg: fq, Neg: true})
	nx := x
	nx.Neg = !nx.Neg
	fnq, flneg := tmp(".nfrc"), tmp(".nfloor")
	emit(OpFFrc, D(fnq), nx)
	emit(OpFAdd, D(flneg), nx, Src{Reg: fnq, Neg: true})
	pos := l.f.NewReg(l.uniqueName(in.Name()+".pos"), 1, 1, l.all(), FileTemp)
	emit(OpFCmp, D(pos), x, Imm32(0)).Cond = CondGE
	tr := tmp(".trunc")
	emit(OpSel, D(tr), R(pos), R(fl), Src{Reg: flneg, Neg: true})
	return R(tr)
}

// fmodOps emits the quotient and its truncation for x - y*trunc(x/y) (fmod
// and frem) and returns the final fmad and its operands.
func (l *lowerer) fmodOps(in *ir.Instr, emit func(Op, *Dst, ...Src) *Instr, x, y Src) (Op, []Src) {
	rcp := l.f.NewReg(l.uniqueName(in.Name()+".rcp"), 32, 1, l.all(), FileTemp)
	q := l.f.NewReg(l.uniqueName(in.Name()+".q"), 32, 1, l.all(), FileTemp)
	emit(OpFRcp, D(rcp), y)
	emit(OpFMul, D(q), x, R(rcp))
	tr := l.trunc(in, emit, R(q))
	ny := y
	ny.Neg = !ny.Neg
	return OpFMad, []Src{ny, tr, x}
}
