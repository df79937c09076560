package passes

import (
	"math"

	"passlens/compiler/ir"
)

// Expansion of composite elementwise intrinsics. DXIL has no operation for
// smoothstep, step, sign, degrees, radians or ldexp: DXC's HLOperationLower
// expands them into scalar arithmetic, and so does scalarize, for scalar
// operands as well as per component of vector ones. Each expansion performs
// exactly the operations of the interpreter's definition
// (compiler/interp/intrinsics.go), in its order and with its rounding, so
// results stay bit-identical:
//
//	smoothstep(a, b, x) = t*t * (3 - 2*t), t = saturate((x - a) / (b - a))
//	step(y, x)          = x >= y ? 1 : 0                       (fcmp oge: NaN gives 0)
//	sign(x)             = zext(x > 0) - zext(x < 0)            (integer result, DXC's form)
//	degrees(x)          = x * f32(180/pi)
//	radians(x)          = x * f32(pi/180)
//	ldexp(x, e)         = x * exp2(e)
//
// The saturate and exp2 left behind are DXIL operations (Saturate 7,
// Exp 21).
var compositeIntrinsics = map[string]bool{
	"smoothstep": true, "step": true, "sign": true, "degrees": true, "radians": true, "ldexp": true,
}

// expandComposite emits the scalar expansion of composite intrinsic it on
// scalar operands args with scalar result type rt. The final instruction
// takes the name of take if given, else a name derived from name;
// intermediates are named name.<step>. It returns nil (emitting nothing)
// when the types are not ones the expansion handles.
func (s *scalarizer) expandComposite(it *ir.Intrinsic, args []ir.Value, rt *ir.Type, name string, take *ir.Instr, loc ir.Loc) ir.Value {
	if len(args) == 0 {
		return nil
	}
	for _, a := range args {
		if !a.Type().IsScalar() {
			return nil
		}
	}
	at := args[0].Type()
	flt := at.Kind == ir.KFloat && at.Name == "" // f16, f32, f64 (ir.ConstFloat rounds to each; not bf16)
	final := func(op ir.Op, t *ir.Type) *ir.Instr {
		var n *ir.Instr
		if take != nil {
			n = newInstrTakingName(s.f, op, t, take)
		} else {
			n = newInstr(s.f, op, t, name)
		}
		n.Loc = loc
		return n
	}
	step := func(op ir.Op, t *ir.Type, tag string) *ir.Instr {
		n := newInstr(s.f, op, t, name+"."+tag)
		n.Loc = loc
		return n
	}
	emit2 := func(n *ir.Instr, x, y ir.Value) ir.Value {
		n.Args = []ir.Value{x, y}
		return s.emit(n)
	}
	switch it.Name {
	case "smoothstep":
		if !flt || rt != at || len(args) != 3 || args[1].Type() != at || args[2].Type() != at {
			return nil
		}
		lo, hi, x := args[0], args[1], args[2]
		d := emit2(step(ir.OpFSub, at, "d"), x, lo)
		w := emit2(step(ir.OpFSub, at, "w"), hi, lo)
		q := emit2(step(ir.OpFDiv, at, "q"), d, w)
		sat := step(ir.OpIntrinsic, at, "t")
		sat.Intr = ir.LookupIntrinsic("saturate")
		sat.Args = []ir.Value{q}
		t := s.emit(sat)
		tt := emit2(step(ir.OpFMul, at, "tt"), t, t)
		t2 := emit2(step(ir.OpFMul, at, "2t"), ir.ConstFloat(at, 2), t)
		u := emit2(step(ir.OpFSub, at, "u"), ir.ConstFloat(at, 3), t2)
		return emit2(final(ir.OpFMul, at), tt, u)
	case "step":
		if len(args) != 2 || args[1].Type() != at || rt != at || !(flt || at.IsIntegral()) {
			return nil
		}
		y, x := args[0], args[1]
		var c *ir.Instr
		switch {
		case flt:
			c = step(ir.OpFCmp, ir.Bool, "ge")
			c.Pred = ir.PredOGE
		case at.Kind == ir.KInt:
			c = step(ir.OpICmp, ir.Bool, "ge")
			c.Pred = ir.PredSGE
		default:
			c = step(ir.OpICmp, ir.Bool, "ge")
			c.Pred = ir.PredUGE
		}
		ge := emit2(c, x, y)
		sel := final(ir.OpSelect, rt)
		sel.Args = []ir.Value{ge, oneOf(rt), zeroOf(rt)}
		return s.emit(sel)
	case "sign":
		if len(args) != 1 || !(rt.Kind == ir.KInt || rt.Kind == ir.KUint) || rt.Bits <= 1 || !(flt || at.IsIntegral()) {
			return nil
		}
		x := args[0]
		cmp := func(tag string, pred ir.CmpPred, a, b ir.Value) ir.Value {
			op := ir.OpICmp
			if flt {
				op = ir.OpFCmp
			}
			c := step(op, ir.Bool, tag)
			c.Pred = pred
			return emit2(c, a, b)
		}
		var pos, neg ir.Value
		switch {
		case flt:
			pos = cmp("gt", ir.PredOGT, x, ir.ConstFloat(at, 0))
			neg = cmp("lt", ir.PredOLT, x, ir.ConstFloat(at, 0))
		case at.Kind == ir.KInt:
			pos = cmp("gt", ir.PredSGT, x, ir.ConstInt(at, 0))
			neg = cmp("lt", ir.PredSLT, x, ir.ConstInt(at, 0))
		default: // unsigned: never negative
			pos = cmp("gt", ir.PredNE, x, ir.ConstInt(at, 0))
		}
		zext := func(tag string, b ir.Value) ir.Value {
			z := step(ir.OpZExt, rt, tag)
			z.Args = []ir.Value{b}
			return s.emit(z)
		}
		p := zext("p", pos)
		if neg == nil {
			return s.emit(copyOf(final(ir.OpCopy, rt), p))
		}
		return emit2(final(ir.OpSub, rt), p, zext("n", neg))
	case "degrees", "radians":
		if !flt || len(args) != 1 || rt != at {
			return nil
		}
		k := 180 / math.Pi
		if it.Name == "radians" {
			k = math.Pi / 180
		}
		return emit2(final(ir.OpFMul, at), args[0], ir.ConstFloat(at, k))
	case "ldexp":
		if !flt || len(args) != 2 || rt != at || args[1].Type() != at {
			return nil
		}
		e := step(ir.OpIntrinsic, at, "e")
		e.Intr = ir.LookupIntrinsic("exp2")
		e.Args = []ir.Value{args[1]}
		return emit2(final(ir.OpFMul, at), args[0], s.emit(e))
	}
	return nil
}

// copyOf gives the copy instruction n its operand.
func copyOf(n *ir.Instr, v ir.Value) *ir.Instr {
	n.Args = []ir.Value{v}
	return n
}

// oneOf returns the constant 1 of scalar type t.
func oneOf(t *ir.Type) *ir.Const {
	if t.Kind == ir.KFloat {
		return ir.ConstFloat(t, 1)
	}
	return ir.ConstInt(t, 1)
}

// visitComposite expands a composite intrinsic on scalar operands in place.
func (s *scalarizer) visitComposite(in *ir.Instr) bool {
	if !in.HasResult() || !in.Type().IsScalar() {
		return false
	}
	v := s.expandComposite(in.Intr, in.Args, in.Type(), baseName(in), in, in.Loc)
	if v == nil {
		return false
	}
	s.repl[in] = v
	s.dead[in] = true
	s.changed = true
	return true
}
