package sir

import (
	"math"

	"passlens/compiler/ir"
)

// intrinsic lowers the intrinsics SIR has instructions for, and the sm3.rep
// loop marker: its count becomes the block's Rep (a constant, or the
// uniform register whose load is the count) and its "done" operand becomes
// the immediate false, since an SM3 rep loop stops by itself; Fold and DCE
// then remove the IR's counter code.
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
		b.Rep = rep
		l.imms[in.Args[1]] = Src{Imm: 0, ImmBits: 1}
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
	case "floor": // x - frac(x)
		if err := need(1); err != nil {
			return err
		}
		fr := tmp(".frc")
		emit(OpFFrc, D(fr), s[0])
		neg := R(fr)
		neg.Neg = true
		op, s = OpFAdd, []Src{s[0], neg}
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
