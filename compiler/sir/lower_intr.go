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
	if name == ir.Demote {
		emit(OpDemote, nil)
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
	case "ddx_coarse": // D3D9 leaves coarse or fine to the hardware
		op = OpFDsx
	case "ddy_coarse":
		op = OpFDsy
	case "fwidth": // |dsx(x)| + |dsy(x)|, as fxc expands it
		if err := need(1); err != nil {
			return err
		}
		dx, dy, ax, ay := tmp(".dsx"), tmp(".dsy"), tmp(".absx"), tmp(".absy")
		emit(OpFDsx, D(dx), s[0])
		emit(OpFDsy, D(dy), s[0])
		emit(OpFAbs, D(ax), R(dx))
		emit(OpFAbs, D(ay), R(dy))
		op, s = OpFAdd, []Src{R(ax), R(ay)}
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
	case "acos", "asin":
		if err := need(1); err != nil {
			return err
		}
		r := l.acos(in, emit, s[0])
		if name == "asin" { // pi/2 - acos(x)
			op, s = OpFAdd, []Src{Imm32(math.Float32bits(math.Pi / 2)), {Reg: r, Neg: true}}
		} else {
			op, s = OpMov, []Src{R(r)}
		}
	case "atan":
		if err := need(1); err != nil {
			return err
		}
		op, s = OpMov, []Src{R(l.atan(in, emit, s[0]))}
	case "atan2":
		if err := need(2); err != nil {
			return err
		}
		op, s = OpMov, []Src{R(l.atan2(in, emit, s[0], s[1]))}
	case "sinh", "cosh", "tanh": // from e = exp(x) and 1/e
		if err := need(1); err != nil {
			return err
		}
		sc, e, ei := tmp(".scaled"), tmp(".exp"), tmp(".rexp")
		emit(OpFMul, D(sc), s[0], Imm32(math.Float32bits(float32(math.Log2E))))
		emit(OpFExp2, D(e), R(sc))
		emit(OpFRcp, D(ei), R(e))
		diff, sum := tmp(".diff"), tmp(".sum")
		emit(OpFAdd, D(diff), R(e), Src{Reg: ei, Neg: true})
		emit(OpFAdd, D(sum), R(e), R(ei))
		switch name {
		case "sinh":
			op, s = OpFMul, []Src{R(diff), Imm32(math.Float32bits(0.5))}
		case "cosh":
			op, s = OpFMul, []Src{R(sum), Imm32(math.Float32bits(0.5))}
		default:
			rs := tmp(".rsum")
			emit(OpFRcp, D(rs), R(sum))
			op, s = OpFMul, []Src{R(diff), R(rs)}
		}
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

// horner emits c[0] + x*(c[1] + x*(c[2] + ...)) as a chain of fmads.
func (l *lowerer) horner(in *ir.Instr, emit func(Op, *Dst, ...Src) *Instr, x Src, c []float64) *Reg {
	acc := l.f.NewReg(l.uniqueName(in.Name()+".poly"), 32, 1, l.all(), FileTemp)
	emit(OpMov, D(acc), Imm32(math.Float32bits(float32(c[len(c)-1]))))
	for i := len(c) - 2; i >= 0; i-- {
		next := l.f.NewReg(l.uniqueName(in.Name()+".poly"), 32, 1, l.all(), FileTemp)
		emit(OpFMad, D(next), R(acc), x, Imm32(math.Float32bits(float32(c[i]))))
		acc = next
	}
	return acc
}

// acos emits acos(x) by Abramowitz and Stegun 4.4.45 (|error| <= 7e-5 on
// [0, 1]): sqrt(1 - |x|) * poly(|x|), and pi minus that for x < 0. This is
// the approximation fxc uses for shader models 1-5: vkd3d's inverse-trig
// tests expect its values (acos(0) = 1.5707288, asin(0) = 6.75e-5).
func (l *lowerer) acos(in *ir.Instr, emit func(Op, *Dst, ...Src) *Instr, x Src) *Reg {
	tmp := func(suffix string, bits int) *Reg {
		return l.f.NewReg(l.uniqueName(in.Name()+suffix), bits, 1, l.all(), FileTemp)
	}
	ax := tmp(".abs", 32)
	emit(OpFAbs, D(ax), x)
	p := l.horner(in, emit, R(ax), []float64{1.5707288, -0.2121144, 0.0742610, -0.0187293})
	om, rs, sq, r := tmp(".1mx", 32), tmp(".rsq", 32), tmp(".sqrt", 32), tmp(".acos", 32)
	emit(OpFAdd, D(om), Imm32(math.Float32bits(1)), Src{Reg: ax, Neg: true})
	emit(OpFRsq, D(rs), R(om))
	emit(OpFRcp, D(sq), R(rs))
	emit(OpFMul, D(r), R(sq), R(p))
	neg, flip, out := tmp(".neg", 1), tmp(".flip", 32), tmp(".acos", 32)
	emit(OpFCmp, D(neg), x, Imm32(0)).Cond = CondLT
	emit(OpFAdd, D(flip), Imm32(math.Float32bits(math.Pi)), Src{Reg: r, Neg: true})
	emit(OpSel, D(out), R(neg), R(flip), R(r))
	return out
}

// atan emits atan(x) by Abramowitz and Stegun 4.4.49 (|error| <= 2e-8 on
// [0, 1]) on t = |x| or 1/|x|, with pi/2 - atan(1/t) above 1 and the sign
// of x.
func (l *lowerer) atan(in *ir.Instr, emit func(Op, *Dst, ...Src) *Instr, x Src) *Reg {
	tmp := func(suffix string, bits int) *Reg {
		return l.f.NewReg(l.uniqueName(in.Name()+suffix), bits, 1, l.all(), FileTemp)
	}
	ax, inv, t := tmp(".abs", 32), tmp(".inv", 32), tmp(".t", 32)
	big := tmp(".big", 1)
	emit(OpFAbs, D(ax), x)
	emit(OpFCmp, D(big), R(ax), Imm32(math.Float32bits(1))).Cond = CondGT
	emit(OpFRcp, D(inv), R(ax))
	emit(OpSel, D(t), R(big), R(inv), R(ax))
	r := l.atanPoly(in, emit, R(t))
	rr, rs := tmp(".atan", 32), tmp(".atan", 32)
	emit(OpFAdd, D(rr), Imm32(math.Float32bits(math.Pi/2)), Src{Reg: r, Neg: true})
	emit(OpSel, D(rs), R(big), R(rr), R(r))
	neg, out := tmp(".neg", 1), tmp(".atan", 32)
	emit(OpFCmp, D(neg), x, Imm32(0)).Cond = CondLT
	emit(OpSel, D(out), R(neg), Src{Reg: rs, Neg: true}, R(rs))
	return out
}

// atanPoly emits t * poly(t^2), Abramowitz and Stegun 4.4.49's atan on
// [0, 1].
func (l *lowerer) atanPoly(in *ir.Instr, emit func(Op, *Dst, ...Src) *Instr, t Src) *Reg {
	t2 := l.f.NewReg(l.uniqueName(in.Name()+".t2"), 32, 1, l.all(), FileTemp)
	emit(OpFMul, D(t2), t, t)
	q := l.horner(in, emit, R(t2), []float64{1, -0.3333314528, 0.1999355085, -0.1420889944, 0.1065626393,
		-0.0752896400, 0.0429096138, -0.0161657367, 0.0028662257})
	r := l.f.NewReg(l.uniqueName(in.Name()+".atan"), 32, 1, l.all(), FileTemp)
	emit(OpFMul, D(r), t, R(q))
	return r
}

// atan2 emits atan2(y, x): the polynomial on min(|x|,|y|)/max(|x|,|y|)
// (0 when both are 0), then pi/2 minus it when |y| > |x|, pi minus that
// when x < 0, negated when y < 0.
func (l *lowerer) atan2(in *ir.Instr, emit func(Op, *Dst, ...Src) *Instr, y, x Src) *Reg {
	tmp := func(suffix string, bits int) *Reg {
		return l.f.NewReg(l.uniqueName(in.Name()+suffix), bits, 1, l.all(), FileTemp)
	}
	ax, ay, mx, mn, rc, q, t := tmp(".ax", 32), tmp(".ay", 32), tmp(".max", 32), tmp(".min", 32), tmp(".rcp", 32), tmp(".q", 32), tmp(".t", 32)
	zero := tmp(".zero", 1)
	emit(OpFAbs, D(ax), x)
	emit(OpFAbs, D(ay), y)
	emit(OpFMax, D(mx), R(ax), R(ay))
	emit(OpFMin, D(mn), R(ax), R(ay))
	emit(OpFRcp, D(rc), R(mx))
	emit(OpFMul, D(q), R(mn), R(rc))
	emit(OpFCmp, D(zero), R(mx), Imm32(0)).Cond = CondEQ
	emit(OpSel, D(t), R(zero), Imm32(0), R(q))
	p := l.atanPoly(in, emit, R(t))
	steep, a1, r1 := tmp(".steep", 1), tmp(".a", 32), tmp(".a", 32)
	emit(OpFCmp, D(steep), R(ay), R(ax)).Cond = CondGT
	emit(OpFAdd, D(a1), Imm32(math.Float32bits(math.Pi/2)), Src{Reg: p, Neg: true})
	emit(OpSel, D(r1), R(steep), R(a1), R(p))
	left, a2, r2 := tmp(".left", 1), tmp(".a", 32), tmp(".a", 32)
	emit(OpFCmp, D(left), x, Imm32(0)).Cond = CondLT
	emit(OpFAdd, D(a2), Imm32(math.Float32bits(math.Pi)), Src{Reg: r1, Neg: true})
	emit(OpSel, D(r2), R(left), R(a2), R(r1))
	below, out := tmp(".below", 1), tmp(".atan2", 32)
	emit(OpFCmp, D(below), y, Imm32(0)).Cond = CondLT
	emit(OpSel, D(out), R(below), Src{Reg: r2, Neg: true}, R(r2))
	return out
}
