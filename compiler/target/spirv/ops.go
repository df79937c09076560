package spirv

import (
	"strconv"

	"passlens/compiler/ir"
)

// This file lowers arithmetic, comparisons, casts and aggregate
// instructions. SPIR-V's signedness rules shape a few of them: OpUDiv,
// OpUMod, OpUConvert and OpConvertFToU need an unsigned result type, so a
// signed IR type is bitcast to its unsigned twin and back around them.

// intType returns the id of the integer type of a width and signedness
// with the given vector length (declaring unsigned 8/16-bit types, which
// the IR lacks, on demand).
func (e *enc) intType(bits int, signed bool, lanes int) uint32 {
	var st *ir.Type
	switch {
	case bits == 32 && signed:
		st = ir.I32
	case bits == 32:
		st = ir.U32
	case bits == 64 && signed:
		st = ir.I64
	case bits == 64:
		st = ir.U64
	case bits == 8 && signed:
		st = ir.I8
	case bits == 16 && signed:
		st = ir.I16
	case bits == 16:
		st = ir.U16
	}
	if st != nil {
		return e.mustType(ir.Vec(st, lanes), rulePlain)
	}
	key := "uint" + strconv.Itoa(bits)
	sid, ok := e.consts[key]
	if !ok {
		if bits == 8 {
			e.capability(CapInt8)
		} else {
			e.capability(CapInt16)
		}
		sid = e.id()
		e.globals.inst(OpTypeInt, sid, uint32(bits), 0)
		e.consts[key] = sid
	}
	if lanes == 1 {
		return sid
	}
	vkey := key + "x" + strconv.Itoa(lanes)
	if id, ok := e.consts[vkey]; ok {
		return id
	}
	id := e.id()
	e.globals.inst(OpTypeVector, id, sid, uint32(lanes))
	e.consts[vkey] = id
	return id
}

// unsignedTwin returns the unsigned integer type id with t's shape.
func (e *enc) unsignedTwin(t *ir.Type) uint32 {
	return e.intType(t.Scalar().Bits, false, t.Lanes())
}

var intBinOps = map[ir.Op]uint16{
	ir.OpAdd: OpIAdd, ir.OpSub: OpISub, ir.OpMul: OpIMul, ir.OpSDiv: OpSDiv, ir.OpUDiv: OpUDiv,
	ir.OpSRem: OpSRem, ir.OpURem: OpUMod, ir.OpShl: OpShiftLeftLogical, ir.OpLShr: OpShiftRightLogical,
	ir.OpAShr: OpShiftRightArithmetic, ir.OpAnd: OpBitwiseAnd, ir.OpOr: OpBitwiseOr, ir.OpXor: OpBitwiseXor,
}

var boolBinOps = map[ir.Op]uint16{ir.OpAnd: OpLogicalAnd, ir.OpOr: OpLogicalOr, ir.OpXor: OpLogicalNotEqual}

var floatBinOps = map[ir.Op]uint16{
	ir.OpFAdd: OpFAdd, ir.OpFSub: OpFSub, ir.OpFMul: OpFMul, ir.OpFDiv: OpFDiv, ir.OpFRem: OpFRem,
}

var icmpOps = map[ir.CmpPred]uint16{
	ir.PredEQ: OpIEqual, ir.PredNE: OpINotEqual, ir.PredSLT: OpSLessThan, ir.PredSLE: OpSLessThanEqual,
	ir.PredSGT: OpSGreaterThan, ir.PredSGE: OpSGreaterThanEqual, ir.PredULT: OpULessThan,
	ir.PredULE: OpULessThanEqual, ir.PredUGT: OpUGreaterThan, ir.PredUGE: OpUGreaterThanEqual,
}

var fcmpOps = map[ir.CmpPred]uint16{
	ir.PredOEQ: OpFOrdEqual, ir.PredONE: OpFOrdNotEqual, ir.PredOLT: OpFOrdLessThan,
	ir.PredOLE: OpFOrdLessThanEqual, ir.PredOGT: OpFOrdGreaterThan, ir.PredOGE: OpFOrdGreaterThanEqual,
	ir.PredUEQ: OpFUnordEqual, ir.PredUNE: OpFUnordNotEqual, ir.PredFULT: OpFUnordLessThan,
	ir.PredFULE: OpFUnordLessThanEqual, ir.PredFUGT: OpFUnordGreaterThan, ir.PredFUGE: OpFUnordGreaterThanEqual,
}

// args returns the ids of in's operands.
func (fe *fn) args(in *ir.Instr) ([]uint32, error) {
	out := make([]uint32, len(in.Args))
	for i, a := range in.Args {
		id, err := fe.value(a)
		if err != nil {
			return nil, err
		}
		out[i] = id
	}
	return out, nil
}

// arith emits a value-producing non-memory instruction.
func (fe *fn) arith(in *ir.Instr) error {
	e := fe.e
	t := in.Type()
	tid, err := fe.typ(t)
	if err != nil {
		return err
	}
	for _, a := range in.Args {
		if _, err := fe.typ(a.Type()); err != nil {
			return err
		}
	}
	if in.Op == ir.OpFMul && t.Kind == ir.KVector && t.Elem.Kind == ir.KFloat {
		// A vector times a splat constant needs no composite constant
		// (glslang and DXC emit OpVectorTimesScalar too).
		for k := 0; k < 2; k++ {
			if c := splatOf(in.Args[k]); c != nil {
				v, err := fe.value(in.Args[1-k])
				if err != nil {
					return err
				}
				fe.op(OpVectorTimesScalar, tid, fe.resultID(in), v, e.constOf(c))
				return nil
			}
		}
	}
	a, err := fe.args(in)
	if err != nil {
		return err
	}
	res := fe.resultID(in)
	switch op := in.Op; {
	case op.IsBinary():
		s := t.Scalar()
		switch {
		case s.Kind == ir.KBool:
			code, ok := boolBinOps[op]
			if !ok {
				return fe.fail("%s on bool", op)
			}
			fe.op(code, tid, res, a[0], a[1])
		case s.IsIntegral():
			code, ok := intBinOps[op]
			if !ok {
				return fe.fail("%s on %s", op, t)
			}
			if op == ir.OpShl || op == ir.OpLShr || op == ir.OpAShr {
				a[1] = fe.shiftAmount(in.Args[1], a[1])
			}
			isDiv := op == ir.OpUDiv || op == ir.OpURem || op == ir.OpSDiv || op == ir.OpSRem
			var zero uint32 // the divisor-is-zero condition, when it can be
			if isDiv && !nonzeroConst(in.Args[1]) {
				// The IR (like D3D) defines x / 0 and x % 0 as all ones;
				// SPIR-V leaves division by zero undefined: divide by 1
				// instead and select all ones.
				zero = fe.op(OpIEqual, e.mustType(ir.BoolOf(t), rulePlain), 0, a[1], e.constOf(ir.ConstInt(t, 0)))
				a[1] = fe.op(OpSelect, tid, 0, zero, e.constOf(ir.ConstInt(t, 1)), a[1])
			}
			out := res
			if zero != 0 {
				out = e.id()
			}
			if (op == ir.OpUDiv || op == ir.OpURem) && s.Kind == ir.KInt {
				ut := e.unsignedTwin(t)
				x := fe.op(OpBitcast, ut, 0, a[0])
				y := fe.op(OpBitcast, ut, 0, a[1])
				r := fe.op(code, ut, 0, x, y)
				fe.op(OpBitcast, tid, out, r)
			} else {
				fe.op(code, tid, out, a[0], a[1])
			}
			if zero != 0 {
				fe.op(OpSelect, tid, res, zero, e.constOf(ir.ConstInt(t, -1)), out)
			}
		case s.Kind == ir.KFloat:
			code, ok := floatBinOps[op]
			if !ok {
				return fe.fail("%s on %s", op, t)
			}
			fe.op(code, tid, res, a[0], a[1])
		default:
			return fe.fail("%s on %s", op, t)
		}
	case op == ir.OpNot:
		if t.Scalar().Kind == ir.KBool {
			fe.op(OpLogicalNot, tid, res, a[0])
		} else {
			fe.op(OpNot, tid, res, a[0])
		}
	case op == ir.OpNeg:
		fe.op(OpSNegate, tid, res, a[0])
	case op == ir.OpFNeg:
		fe.op(OpFNegate, tid, res, a[0])
	case op == ir.OpICmp:
		at := in.Args[0].Type()
		if at.Scalar().Kind == ir.KBool {
			switch in.Pred {
			case ir.PredEQ:
				fe.op(OpLogicalEqual, tid, res, a[0], a[1])
			case ir.PredNE:
				fe.op(OpLogicalNotEqual, tid, res, a[0], a[1])
			default:
				return fe.fail("icmp %s on bool", in.Pred)
			}
			return nil
		}
		code, ok := icmpOps[in.Pred]
		if !ok {
			return fe.fail("bad icmp predicate %s", in.Pred)
		}
		fe.op(code, tid, res, a[0], a[1])
	case op == ir.OpFCmp:
		switch in.Pred {
		case ir.PredORD:
			x := fe.op(OpFOrdEqual, tid, 0, a[0], a[0])
			y := fe.op(OpFOrdEqual, tid, 0, a[1], a[1])
			fe.op(OpLogicalAnd, tid, res, x, y)
		case ir.PredUNO:
			x := fe.op(OpIsNan, tid, 0, a[0])
			y := fe.op(OpIsNan, tid, 0, a[1])
			fe.op(OpLogicalOr, tid, res, x, y)
		default:
			code, ok := fcmpOps[in.Pred]
			if !ok {
				return fe.fail("bad fcmp predicate %s", in.Pred)
			}
			fe.op(code, tid, res, a[0], a[1])
		}
	case op == ir.OpSelect:
		return fe.selectValue(in.Args[0].Type(), a[0], a[1], a[2], t, res)
	case op.IsCast():
		return fe.cast(in, a[0], tid, res)
	case op == ir.OpConstruct:
		// Matrix operands are rows, which are the SPIR-V matrix's columns
		// (or the elements of the array that stands for the matrix).
		fe.op(OpCompositeConstruct, tid, res, a...)
	case op == ir.OpExtractElem:
		fe.op(OpVectorExtractDynamic, tid, res, a[0], a[1])
	case op == ir.OpInsertElem:
		fe.op(OpVectorInsertDynamic, tid, res, a[0], a[1], a[2])
	case op == ir.OpShuffle:
		ops := []uint32{a[0], a[1]}
		for _, k := range in.Idx {
			ops = append(ops, uint32(k))
		}
		fe.op(OpVectorShuffle, tid, res, ops...)
	case op == ir.OpExtractValue:
		ops := []uint32{a[0]}
		for _, k := range in.Idx {
			ops = append(ops, uint32(k))
		}
		fe.op(OpCompositeExtract, tid, res, ops...)
	case op == ir.OpInsertValue:
		ops := []uint32{a[1], a[0]}
		for _, k := range in.Idx {
			ops = append(ops, uint32(k))
		}
		fe.op(OpCompositeInsert, tid, res, ops...)
	case op == ir.OpCopy:
		fe.op(OpCopyObject, tid, res, a[0])
	default:
		return fe.fail("instruction %s is not supported by the SPIR-V back end", op)
	}
	return nil
}

// selectValue emits select; SPIR-V 1.3's OpSelect takes scalars and
// vectors only, so aggregates are selected component by component.
func (fe *fn) selectValue(ct *ir.Type, c, x, y uint32, t *ir.Type, res uint32) error {
	tid, err := fe.typ(t)
	if err != nil {
		return err
	}
	if t.IsScalar() || t.Kind == ir.KVector {
		if ct.Kind == ir.KVector && t.Kind != ir.KVector {
			return fe.fail("select with a vector condition on %s", t)
		}
		if ct.Kind != ir.KVector && t.Kind == ir.KVector {
			// SPIR-V 1.3 needs a condition as wide as the operands.
			parts := make([]uint32, t.Len)
			for i := range parts {
				parts[i] = c
			}
			c = fe.op(OpCompositeConstruct, fe.e.mustType(ir.Vec(ir.Bool, t.Len), rulePlain), 0, parts...)
		}
		fe.op(OpSelect, tid, res, c, x, y)
		return nil
	}
	if ct.Kind == ir.KVector {
		return fe.fail("select with a vector condition on %s", t)
	}
	n := t.NumElems()
	el := make([]uint32, n)
	for i := 0; i < n; i++ {
		et := t.ElemType(i)
		eid, err := fe.typ(et)
		if err != nil {
			return err
		}
		xi := fe.op(OpCompositeExtract, eid, 0, x, uint32(i))
		yi := fe.op(OpCompositeExtract, eid, 0, y, uint32(i))
		el[i] = fe.e.id()
		if err := fe.selectValue(ct, c, xi, yi, et, el[i]); err != nil {
			return err
		}
	}
	fe.op(OpCompositeConstruct, tid, res, el...)
	return nil
}

func (fe *fn) cast(in *ir.Instr, x, tid, res uint32) error {
	e := fe.e
	from, to := in.Args[0].Type(), in.Type()
	fs, ts := from.Scalar(), to.Scalar()
	switch in.Op {
	case ir.OpSIToFP:
		fe.op(OpConvertSToF, tid, res, x)
	case ir.OpUIToFP:
		fe.op(OpConvertUToF, tid, res, x)
	case ir.OpFPToSI:
		fe.op(OpConvertFToS, tid, res, x)
	case ir.OpFPToUI:
		if ts.Kind == ir.KUint {
			fe.op(OpConvertFToU, tid, res, x)
		} else {
			u := fe.op(OpConvertFToU, e.unsignedTwin(to), 0, x)
			fe.op(OpBitcast, tid, res, u)
		}
	case ir.OpBitcast:
		if from.Kind == ir.KPointer {
			return fe.fail("pointer bitcast: SPIR-V logical addressing forbids it")
		}
		if e.mustType(from, rulePlain) == tid {
			fe.op(OpCopyObject, tid, res, x)
		} else {
			fe.op(OpBitcast, tid, res, x)
		}
	case ir.OpFPTrunc, ir.OpFPExt:
		fe.op(OpFConvert, tid, res, x)
	case ir.OpTrunc:
		if ts.Kind == ir.KBool {
			one := e.constOf(ir.ConstInt(from, 1))
			zero := e.constOf(ir.ConstInt(from, 0))
			m := fe.op(OpBitwiseAnd, e.mustType(from, rulePlain), 0, x, one)
			fe.op(OpINotEqual, tid, res, m, zero)
		} else if ts.Kind == ir.KUint {
			fe.op(OpUConvert, tid, res, x)
		} else {
			fe.op(OpSConvert, tid, res, x)
		}
	case ir.OpZExt, ir.OpSExt:
		if fs.Kind == ir.KBool {
			one := int64(1)
			if in.Op == ir.OpSExt {
				one = -1
			}
			fe.op(OpSelect, tid, res, x, e.constOf(ir.ConstInt(to, one)), e.constOf(ir.ConstInt(to, 0)))
			return nil
		}
		if in.Op == ir.OpSExt {
			fe.op(OpSConvert, tid, res, x)
		} else if ts.Kind == ir.KUint {
			fe.op(OpUConvert, tid, res, x)
		} else {
			u := fe.op(OpUConvert, e.unsignedTwin(to), 0, x)
			fe.op(OpBitcast, tid, res, u)
		}
	default:
		return fe.fail("unknown cast %s", in.Op)
	}
	return nil
}

// shiftAmount masks a shift amount to the operand width, as the IR (and
// D3D) define shifts; SPIR-V leaves amounts >= the width undefined. A
// constant amount is masked at compile time (no instruction when already
// in range), others get an OpBitwiseAnd, as DXC emits.
func (fe *fn) shiftAmount(v ir.Value, id uint32) uint32 {
	t := v.Type()
	bits := uint64(t.Scalar().Bits)
	if c, ok := v.(*ir.Const); ok && !c.Undef {
		inRange := true
		if t.IsScalar() {
			inRange = c.Zero || c.Bits&(bits-1) == c.Bits
		} else if !c.Zero {
			for _, el := range c.Elems {
				inRange = inRange && (el.Zero || el.Bits&(bits-1) == el.Bits)
			}
		}
		if inRange {
			return id
		}
		if t.IsScalar() {
			return fe.e.constOf(ir.ConstInt(t, int64(c.Bits&(bits-1))))
		}
	}
	return fe.op(OpBitwiseAnd, fe.e.mustType(t, rulePlain), 0, id, fe.e.constOf(ir.ConstInt(t, int64(bits-1))))
}

// nonzeroConst reports whether v is a constant with no zero component.
func nonzeroConst(v ir.Value) bool {
	c, ok := v.(*ir.Const)
	if !ok || c.Undef || c.Zero {
		return false
	}
	if len(c.Elems) == 0 {
		return c.Type().IsScalar() && c.Bits != 0
	}
	for _, el := range c.Elems {
		if !nonzeroConst(el) {
			return false
		}
	}
	return true
}

// splatOf returns the scalar of a vector constant whose components are
// all the same (nil otherwise).
func splatOf(v ir.Value) *ir.Const {
	c, ok := v.(*ir.Const)
	if !ok || c.Undef || c.Zero || len(c.Elems) == 0 {
		return nil
	}
	for _, el := range c.Elems {
		if el.Undef || el.Zero || len(el.Elems) > 0 || el.Bits != c.Elems[0].Bits {
			return nil
		}
	}
	return c.Elems[0]
}
