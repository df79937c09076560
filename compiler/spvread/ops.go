package spvread

import (
	"passlens/compiler/ir"
)

// This file maps SPIR-V instructions to IR instructions: arithmetic,
// comparisons, conversions, composites, memory, calls, control flow.
// Extended instructions, wave operations, barriers and atomics are in
// intrinsics.go.

var binaryOps = map[string]ir.Op{
	"OpIAdd": ir.OpAdd, "OpISub": ir.OpSub, "OpIMul": ir.OpMul, "OpSDiv": ir.OpSDiv, "OpUDiv": ir.OpUDiv,
	"OpSRem": ir.OpSRem, "OpUMod": ir.OpURem, "OpFAdd": ir.OpFAdd, "OpFSub": ir.OpFSub, "OpFMul": ir.OpFMul,
	"OpFDiv": ir.OpFDiv, "OpFRem": ir.OpFRem, "OpShiftLeftLogical": ir.OpShl, "OpShiftRightLogical": ir.OpLShr,
	"OpShiftRightArithmetic": ir.OpAShr, "OpBitwiseAnd": ir.OpAnd, "OpBitwiseOr": ir.OpOr, "OpBitwiseXor": ir.OpXor,
	"OpLogicalAnd": ir.OpAnd, "OpLogicalOr": ir.OpOr, "OpLogicalNotEqual": ir.OpXor,
}

var unaryOps = map[string]ir.Op{
	"OpSNegate": ir.OpNeg, "OpFNegate": ir.OpFNeg, "OpNot": ir.OpNot, "OpLogicalNot": ir.OpNot,
}

type cmp struct {
	op   ir.Op
	pred ir.CmpPred
}

var compareOps = map[string]cmp{
	"OpIEqual": {ir.OpICmp, ir.PredEQ}, "OpINotEqual": {ir.OpICmp, ir.PredNE}, "OpLogicalEqual": {ir.OpICmp, ir.PredEQ},
	"OpSLessThan": {ir.OpICmp, ir.PredSLT}, "OpSLessThanEqual": {ir.OpICmp, ir.PredSLE},
	"OpSGreaterThan": {ir.OpICmp, ir.PredSGT}, "OpSGreaterThanEqual": {ir.OpICmp, ir.PredSGE},
	"OpULessThan": {ir.OpICmp, ir.PredULT}, "OpULessThanEqual": {ir.OpICmp, ir.PredULE},
	"OpUGreaterThan": {ir.OpICmp, ir.PredUGT}, "OpUGreaterThanEqual": {ir.OpICmp, ir.PredUGE},
	"OpFOrdEqual": {ir.OpFCmp, ir.PredOEQ}, "OpFOrdNotEqual": {ir.OpFCmp, ir.PredONE},
	"OpFOrdLessThan": {ir.OpFCmp, ir.PredOLT}, "OpFOrdLessThanEqual": {ir.OpFCmp, ir.PredOLE},
	"OpFOrdGreaterThan": {ir.OpFCmp, ir.PredOGT}, "OpFOrdGreaterThanEqual": {ir.OpFCmp, ir.PredOGE},
	"OpFUnordEqual": {ir.OpFCmp, ir.PredUEQ}, "OpFUnordNotEqual": {ir.OpFCmp, ir.PredUNE},
	"OpFUnordLessThan": {ir.OpFCmp, ir.PredFULT}, "OpFUnordLessThanEqual": {ir.OpFCmp, ir.PredFULE},
	"OpFUnordGreaterThan": {ir.OpFCmp, ir.PredFUGT}, "OpFUnordGreaterThanEqual": {ir.OpFCmp, ir.PredFUGE},
	"OpOrdered": {ir.OpFCmp, ir.PredORD}, "OpUnordered": {ir.OpFCmp, ir.PredUNO},
}

var castOps = map[string]ir.Op{
	"OpConvertSToF": ir.OpSIToFP, "OpConvertUToF": ir.OpUIToFP, "OpConvertFToS": ir.OpFPToSI,
	"OpConvertFToU": ir.OpFPToUI, "OpBitcast": ir.OpBitcast,
}

// ignored are instructions with no meaning for the IR (debug lines,
// merge annotations are read with the terminator).
var ignored = map[string]bool{
	"OpLine": true, "OpNoLine": true, "OpNop": true, "OpUndef": true, "OpModuleProcessed": true,
}

// inst translates one instruction of a block.
func (fe *fn) inst(in *inst) error {
	r := fe.r
	res := fe.vals[in.res] // nil without a result
	if ignored[in.op] {
		return nil
	}
	if op, ok := binaryOps[in.op]; ok {
		if err := r.need(in, 2); err != nil {
			return err
		}
		a, err := fe.values(in.args[:2])
		if err != nil {
			return err
		}
		res.Op, res.Args = op, []ir.Value{fe.coerce(a[0], res.Type()), fe.coerce(a[1], res.Type())}
		fe.put(res)
		return nil
	}
	if op, ok := unaryOps[in.op]; ok {
		if err := r.need(in, 1); err != nil {
			return err
		}
		a, err := fe.value(in.args[0])
		if err != nil {
			return err
		}
		res.Op, res.Args = op, []ir.Value{fe.coerce(a, res.Type())}
		fe.put(res)
		return nil
	}
	if c, ok := compareOps[in.op]; ok {
		if err := r.need(in, 2); err != nil {
			return err
		}
		a, err := fe.values(in.args[:2])
		if err != nil {
			return err
		}
		res.Op, res.Pred, res.Args = c.op, c.pred, []ir.Value{a[0], fe.coerce(a[1], a[0].Type())}
		fe.put(res)
		return nil
	}
	if op, ok := castOps[in.op]; ok {
		if err := r.need(in, 1); err != nil {
			return err
		}
		a, err := fe.value(in.args[0])
		if err != nil {
			return err
		}
		if op == ir.OpBitcast && a.Type() == res.Type() {
			op = ir.OpCopy
		}
		res.Op, res.Args = op, []ir.Value{a}
		fe.put(res)
		return nil
	}
	switch in.op {
	case "OpSConvert", "OpUConvert", "OpFConvert":
		return fe.convert(in, res)
	case "OpSelect":
		if err := r.need(in, 3); err != nil {
			return err
		}
		a, err := fe.values(in.args[:3])
		if err != nil {
			return err
		}
		res.Op, res.Args = ir.OpSelect, []ir.Value{a[0], fe.coerce(a[1], res.Type()), fe.coerce(a[2], res.Type())}
		fe.put(res)
	case "OpArrayLength":
		// Of member 0 of a storage buffer's Block, the runtime array the
		// reader gives the buffer's global: the IR's buf.length (the
		// back end's translation of a buffer's GetDimensions).
		if err := r.need(in, 2); err != nil {
			return err
		}
		b, err := fe.value(in.args[0])
		if err != nil {
			return err
		}
		if pt := b.Type(); in.args[1].s != "0" || pt.Kind != ir.KPointer || pt.Elem.Kind != ir.KArray || pt.Elem.Len >= 0 || !res.Type().IsIntegral() {
			return fe.opaque(in, res)
		}
		fe.setIntr(res, "buf.length", b)
	case "OpFMod":
		// x - y * floor(x / y): the result has the sign of y.
		a, err := fe.values(in.args[:2])
		if err != nil {
			return err
		}
		t := res.Type()
		q := fe.emit(ir.OpFDiv, t, a[0], a[1])
		fl := fe.intr("floor", t, q)
		m := fe.emit(ir.OpFMul, t, a[1], fl)
		res.Op, res.Args = ir.OpFSub, []ir.Value{a[0], m}
		fe.put(res)
	case "OpSMod":
		// srem, then the divisor added when the remainder is non-zero
		// and its sign differs from the divisor's.
		a, err := fe.values(in.args[:2])
		if err != nil {
			return err
		}
		t := res.Type()
		x, y := fe.coerce(a[0], t), fe.coerce(a[1], t)
		bt := ir.BoolOf(t)
		zero := retype(ir.ConstZero(t), t)
		rem := fe.emit(ir.OpSRem, t, x, y)
		nz := fe.emit(ir.OpICmp, bt, rem, zero)
		nz.Pred = ir.PredNE
		sx := fe.emit(ir.OpXor, t, rem, y)
		neg := fe.emit(ir.OpICmp, bt, sx, zero)
		neg.Pred = ir.PredSLT
		fix := fe.emit(ir.OpAnd, bt, nz, neg)
		sum := fe.emit(ir.OpAdd, t, rem, y)
		res.Op, res.Args = ir.OpSelect, []ir.Value{fix, sum, rem}
		fe.put(res)
	case "OpBitFieldUExtract", "OpBitFieldSExtract", "OpBitFieldInsert":
		return fe.bitField(in, res)
	case "OpCompositeConstruct":
		return fe.construct(in, res)
	case "OpCompositeExtract", "OpCompositeInsert":
		n := 1
		op := ir.OpExtractValue
		if in.op == "OpCompositeInsert" {
			n, op = 2, ir.OpInsertValue
		}
		if err := r.need(in, n); err != nil {
			return err
		}
		a, err := fe.values(in.args[:n])
		if err != nil {
			return err
		}
		var idx []int
		for _, o := range in.args[n:] {
			v, ok := o.uint()
			if !ok {
				return r.errAt(o.pos, "index %q is not a number", o.s)
			}
			idx = append(idx, int(v))
		}
		if n == 2 {
			// SPIR-V: object, composite; the IR: aggregate, element.
			a[0], a[1] = fe.coerce(a[1], res.Type()), a[0]
			if et := res.Type().IndexPath(idx); et != nil {
				a[1] = fe.coerce(a[1], et)
			}
		}
		res.Op, res.Args, res.Idx = op, a, idx
		fe.put(res)
	case "OpVectorExtractDynamic", "OpVectorInsertDynamic":
		n, op := 2, ir.OpExtractElem
		if in.op == "OpVectorInsertDynamic" {
			n, op = 3, ir.OpInsertElem
		}
		if err := r.need(in, n); err != nil {
			return err
		}
		a, err := fe.values(in.args[:n])
		if err != nil {
			return err
		}
		res.Op, res.Args = op, a
		fe.put(res)
	case "OpVectorShuffle":
		if err := r.need(in, 2); err != nil {
			return err
		}
		a, err := fe.values(in.args[:2])
		if err != nil {
			return err
		}
		var mask []int
		for _, o := range in.args[2:] {
			v, _ := o.uint()
			if v == 0xFFFFFFFF {
				v = 0 // an undefined component
			}
			mask = append(mask, int(v))
		}
		res.Op, res.Args, res.Idx = ir.OpShuffle, []ir.Value{a[0], fe.coerce(a[1], a[0].Type())}, mask
		fe.put(res)
	case "OpCopyObject", "OpCopyLogical":
		if err := r.need(in, 1); err != nil {
			return err
		}
		a, err := fe.value(in.args[0])
		if err != nil {
			return err
		}
		res.Op, res.Args = ir.OpCopy, []ir.Value{a}
		fe.put(res)
	case "OpVectorTimesScalar", "OpMatrixTimesScalar":
		return fe.timesScalar(in, res)
	case "OpMatrixTimesVector", "OpVectorTimesMatrix", "OpMatrixTimesMatrix":
		// SPIR-V's columns are the IR's rows, so M*v is HLSL mul(v, M).
		a, err := fe.values(in.args[:2])
		if err != nil {
			return err
		}
		fe.setIntr(res, "mul", a[1], a[0])
	case "OpTranspose", "OpDot", "OpAny", "OpAll", "OpIsNan", "OpIsInf", "OpBitCount", "OpBitReverse":
		name := map[string]string{"OpTranspose": "transpose", "OpDot": "dot", "OpAny": "any", "OpAll": "all",
			"OpIsNan": "isnan", "OpIsInf": "isinf", "OpBitCount": "countbits", "OpBitReverse": "reversebits"}[in.op]
		a, err := fe.values(in.args)
		if err != nil {
			return err
		}
		fe.setIntr(res, name, a...)
	case "OpVariable":
		return fe.localVar(in, res)
	case "OpLoad", "OpAtomicLoad":
		return fe.load(in, res)
	case "OpStore", "OpAtomicStore":
		return fe.store(in)
	case "OpAccessChain", "OpInBoundsAccessChain":
		return fe.access(in, res)
	case "OpCopyMemory":
		a, err := fe.values(in.args[:2])
		if err != nil {
			return err
		}
		fe.emit(ir.OpMemcpy, ir.Void, a...)
	case "OpFunctionCall":
		return fe.call(in, res)
	case "OpPhi":
		return fe.phi(in, res)
	case "OpSelectionMerge", "OpLoopMerge":
		if err := r.need(in, 1); err != nil {
			return err
		}
		m, err := fe.block(in.args[0])
		if err != nil {
			return err
		}
		fe.merge, fe.cont, fe.mergeKind = m, nil, ir.MergeSelection
		if in.op == "OpLoopMerge" {
			if err := r.need(in, 2); err != nil {
				return err
			}
			if fe.cont, err = fe.block(in.args[1]); err != nil {
				return err
			}
			fe.mergeKind = ir.MergeLoop
		}
	case "OpBranch", "OpBranchConditional", "OpSwitch", "OpReturn", "OpReturnValue", "OpKill",
		"OpTerminateInvocation", "OpUnreachable":
		return fe.terminator(in)
	case "OpExtInst":
		return fe.extInst(in, res)
	case "OpControlBarrier", "OpMemoryBarrier":
		return fe.barrier(in)
	default:
		if ok, err := fe.quad(in, res); ok { // quad.go
			return err
		}
		if isWaveOp(in.op) {
			return fe.wave(in, res)
		}
		if isAtomic(in.op) {
			return fe.atomic(in, res)
		}
		return fe.opaque(in, res)
	}
	return nil
}

// intr emits a helper intrinsic call.
func (fe *fn) intr(name string, t *ir.Type, args ...ir.Value) *ir.Instr {
	in := fe.emit(ir.OpIntrinsic, t, args...)
	in.Intr = ir.LookupIntrinsic(name)
	return in
}

// setIntr fills a placeholder with an intrinsic call.
func (fe *fn) setIntr(res *ir.Instr, name string, args ...ir.Value) {
	if res == nil {
		res = ir.NewInstr(fe.f, ir.OpIntrinsic, ir.Void, "")
	}
	res.Op, res.Intr, res.Args = ir.OpIntrinsic, ir.LookupIntrinsic(name), args
	fe.put(res)
}

func (fe *fn) convert(in *inst, res *ir.Instr) error {
	if err := fe.r.need(in, 1); err != nil {
		return err
	}
	a, err := fe.value(in.args[0])
	if err != nil {
		return err
	}
	from, to := a.Type().Scalar().Bits, res.Type().Scalar().Bits
	var op ir.Op
	switch {
	case a.Type() == res.Type():
		op = ir.OpCopy
	case from == to:
		op = ir.OpBitcast
	case in.op == "OpFConvert" && to > from:
		op = ir.OpFPExt
	case in.op == "OpFConvert":
		op = ir.OpFPTrunc
	case to < from:
		op = ir.OpTrunc
	case in.op == "OpSConvert":
		op = ir.OpSExt
	default:
		op = ir.OpZExt
	}
	res.Op, res.Args = op, []ir.Value{a}
	fe.put(res)
	return nil
}

// construct builds a composite; vector operands of a vector result are
// split into their components (the IR constructs from elements).
func (fe *fn) construct(in *inst, res *ir.Instr) error {
	a, err := fe.values(in.args)
	if err != nil {
		return err
	}
	t := res.Type()
	var elems []ir.Value
	for _, v := range a {
		if t.Kind == ir.KVector && v.Type().Kind == ir.KVector {
			for i := 0; i < v.Type().Len; i++ {
				x := fe.emit(ir.OpExtractValue, v.Type().Elem, v)
				x.Idx = []int{i}
				elems = append(elems, fe.coerce(x, t.Elem))
			}
			continue
		}
		elems = append(elems, v)
	}
	for i, v := range elems {
		if et := t.ElemType(i); et != nil {
			elems[i] = fe.coerce(v, et)
		}
	}
	res.Op, res.Args = ir.OpConstruct, elems
	fe.put(res)
	return nil
}

// splat builds a vector of n copies of scalar s.
func (fe *fn) splat(s ir.Value, t *ir.Type) ir.Value {
	args := make([]ir.Value, t.Len)
	for i := range args {
		args[i] = s
	}
	return fe.emit(ir.OpConstruct, t, args...)
}

func (fe *fn) timesScalar(in *inst, res *ir.Instr) error {
	a, err := fe.values(in.args[:2])
	if err != nil {
		return err
	}
	t := res.Type()
	if t.Kind == ir.KVector {
		res.Op, res.Args = ir.OpFMul, []ir.Value{a[0], fe.splat(a[1], t)}
		fe.put(res)
		return nil
	}
	// A matrix: scale each row.
	row := ir.Vec(t.Elem, t.Cols)
	s := fe.splat(a[1], row)
	var rows []ir.Value
	for i := 0; i < t.Len; i++ {
		x := fe.emit(ir.OpExtractValue, row, a[0])
		x.Idx = []int{i}
		rows = append(rows, fe.emit(ir.OpFMul, row, x, s))
	}
	res.Op, res.Args = ir.OpConstruct, rows
	fe.put(res)
	return nil
}

func (fe *fn) localVar(in *inst, res *ir.Instr) error {
	res.Op, res.Loc = ir.OpAlloca, fe.loc
	fe.allocas = append(fe.allocas, res)
	if len(in.args) > 1 {
		v, err := fe.value(in.args[1])
		if err != nil {
			return err
		}
		st := ir.NewInstr(fe.f, ir.OpStore, ir.Void, "")
		st.Args, st.Loc = []ir.Value{v, res}, fe.loc
		fe.allocaInits = append(fe.allocaInits, st)
	}
	return nil
}

func (fe *fn) load(in *inst, res *ir.Instr) error {
	if err := fe.r.need(in, 1); err != nil {
		return err
	}
	if gv, ok := fe.r.globals[in.args[0].s]; ok {
		if gv.builtin != "" {
			fe.setIntr(res, gv.builtin)
			return nil
		}
		if gv.unwrapped {
			// The whole Block struct: load its member and rebuild it.
			x := fe.emit(ir.OpLoad, gv.g.ValType, gv.g)
			res.Op, res.Args = ir.OpConstruct, []ir.Value{x}
			fe.put(res)
			return nil
		}
	}
	p, err := fe.value(in.args[0])
	if err != nil {
		return err
	}
	res.Op, res.Args = ir.OpLoad, []ir.Value{p}
	fe.put(res)
	return nil
}

func (fe *fn) store(in *inst) error {
	pi, vi := 0, 1
	if in.op == "OpAtomicStore" {
		vi = 3
	}
	if err := fe.r.need(in, vi+1); err != nil {
		return err
	}
	p, err := fe.value(in.args[pi])
	if err != nil {
		return err
	}
	v, err := fe.value(in.args[vi])
	if err != nil {
		return err
	}
	if gv, ok := fe.r.globals[in.args[pi].s]; ok && gv.unwrapped {
		x := fe.emit(ir.OpExtractValue, gv.g.ValType, v)
		x.Idx = []int{0}
		v = x
	}
	if pt := p.Type(); pt.Kind == ir.KPointer {
		v = fe.coerce(v, pt.Elem)
	}
	fe.emit(ir.OpStore, ir.Void, v, p)
	return nil
}

func (fe *fn) access(in *inst, res *ir.Instr) error {
	if err := fe.r.need(in, 1); err != nil {
		return err
	}
	a, err := fe.values(in.args)
	if err != nil {
		return err
	}
	if gv, ok := fe.r.globals[in.args[0].s]; ok && gv.unwrapped {
		if len(a) < 2 {
			return fe.r.errAt(in.pos, "an access chain into the whole buffer block %%%s is not supported", in.args[0].s)
		}
		a = append(a[:1], a[2:]...) // the Block's member 0 is the global
	}
	res.Op, res.Args = ir.OpAccess, a
	fe.put(res)
	return nil
}

func (fe *fn) call(in *inst, res *ir.Instr) error {
	if err := fe.r.need(in, 1); err != nil {
		return err
	}
	callee, ok := fe.r.funcs[in.args[0].s]
	if !ok {
		return fe.r.errAt(in.args[0].pos, "%%%s is not a function", in.args[0].s)
	}
	a, err := fe.values(in.args[1:])
	if err != nil {
		return err
	}
	for i := range a {
		if i < len(callee.Params) {
			a[i] = fe.coerce(a[i], callee.Params[i].Type())
		}
	}
	if res == nil {
		res = ir.NewInstr(fe.f, ir.OpCall, ir.Void, "")
	}
	res.Op, res.Callee, res.Args = ir.OpCall, callee, a
	fe.put(res)
	return nil
}

func (fe *fn) phi(in *inst, res *ir.Instr) error {
	if len(in.args)%2 != 0 {
		return fe.r.errAt(in.pos, "OpPhi needs (value, block) pairs")
	}
	res.Op = ir.OpPhi
	for i := 0; i < len(in.args); i += 2 {
		v, err := fe.value(in.args[i])
		if err != nil {
			return err
		}
		b, err := fe.block(in.args[i+1])
		if err != nil {
			return err
		}
		if v.Type() != res.Type() && sameBits(v.Type(), res.Type()) {
			if _, ok := v.(*ir.Const); ok {
				v = fe.coerce(v, res.Type())
			} else {
				fe.phiFix = append(fe.phiFix, phiFix{res, len(res.Args)})
			}
		}
		res.Args = append(res.Args, v)
		res.PhiBlocks = append(res.PhiBlocks, b)
	}
	// Phis lead their block.
	n := fe.b.FirstNonPhi()
	res.Block, res.Loc = fe.b, fe.loc
	fe.b.Instrs = append(fe.b.Instrs, nil)
	copy(fe.b.Instrs[n+1:], fe.b.Instrs[n:])
	fe.b.Instrs[n] = res
	return nil
}

func (fe *fn) terminator(in *inst) error {
	t := ir.NewInstr(fe.f, ir.OpUnreachable, ir.Void, "")
	switch in.op {
	case "OpBranch":
		if err := fe.r.need(in, 1); err != nil {
			return err
		}
		b, err := fe.block(in.args[0])
		if err != nil {
			return err
		}
		t.Op, t.Succs = ir.OpBr, []*ir.Block{b}
	case "OpBranchConditional":
		if err := fe.r.need(in, 3); err != nil {
			return err
		}
		c, err := fe.value(in.args[0])
		if err != nil {
			return err
		}
		tb, err := fe.block(in.args[1])
		if err != nil {
			return err
		}
		fb, err := fe.block(in.args[2])
		if err != nil {
			return err
		}
		t.Op, t.Args, t.Succs = ir.OpCondBr, []ir.Value{c}, []*ir.Block{tb, fb}
	case "OpSwitch":
		if err := fe.r.need(in, 2); err != nil {
			return err
		}
		sel, err := fe.value(in.args[0])
		if err != nil {
			return err
		}
		def, err := fe.block(in.args[1])
		if err != nil {
			return err
		}
		t.Op, t.Args = ir.OpSwitch, []ir.Value{sel}
		t.Cases = []ir.SwitchCase{{Default: true, Target: def}}
		rest := in.args[2:]
		if len(rest)%2 != 0 {
			return fe.r.errAt(in.pos, "OpSwitch needs (literal, label) pairs")
		}
		for i := 0; i < len(rest); i += 2 {
			v, ok := rest[i].uint()
			if !ok {
				return fe.r.errAt(rest[i].pos, "case value %q is not a number", rest[i].s)
			}
			b, err := fe.block(rest[i+1])
			if err != nil {
				return err
			}
			val := int64(v)
			if st := sel.Type(); st.Bits == 32 {
				val = int64(int32(uint32(v)))
				if st.Kind == ir.KUint {
					val = int64(uint32(v))
				}
			}
			if b == def {
				t.Cases[0].Values = append(t.Cases[0].Values, val)
				continue
			}
			t.Cases = append(t.Cases, ir.SwitchCase{Values: []int64{val}, Target: b})
		}
	case "OpReturn":
		t.Op = ir.OpRet
	case "OpReturnValue":
		if err := fe.r.need(in, 1); err != nil {
			return err
		}
		v, err := fe.value(in.args[0])
		if err != nil {
			return err
		}
		t.Op, t.Args = ir.OpRet, []ir.Value{fe.coerce(v, fe.f.Ret)}
	case "OpKill", "OpTerminateInvocation":
		t.Op = ir.OpDiscard
	}
	if fe.mergeKind != ir.MergeNone {
		t.MergeKind, t.Merge, t.Continue = fe.mergeKind, fe.merge, fe.cont
		fe.mergeKind, fe.merge, fe.cont = ir.MergeNone, nil, nil
	}
	fe.put(t)
	return nil
}

// bitField expands OpBitFieldUExtract / SExtract / Insert into shifts and
// masks (count 0 gives 0, and leaves Insert's base unchanged):
//
//	mask    = count == 0 ? 0 : ~0 >> (W - count)
//	UExtract = (base >> offset) & mask
//	SExtract = count == 0 ? 0 : (base << (W - offset - count)) >>s (W - count)
//	Insert   = (base & ~(mask << offset)) | ((insert << offset) & (mask << offset))
func (fe *fn) bitField(in *inst, res *ir.Instr) error {
	n := 3
	if in.op == "OpBitFieldInsert" {
		n = 4
	}
	if err := fe.r.need(in, n); err != nil {
		return err
	}
	a, err := fe.values(in.args[:n])
	if err != nil {
		return err
	}
	t := res.Type()
	st := t.Scalar()
	if !st.IsIntegral() {
		return fe.opaque(in, res)
	}
	// Offset and count are scalars: convert to the base's scalar type
	// and splat over a vector.
	widen := func(v ir.Value) ir.Value {
		v = fe.coerce(v, st)
		if v.Type() != st {
			return nil
		}
		if t.Kind == ir.KVector {
			return fe.splat(v, t)
		}
		return v
	}
	off, cnt := widen(a[n-2]), widen(a[n-1])
	if off == nil || cnt == nil {
		return fe.opaque(in, res)
	}
	c := func(v int64) ir.Value { return ir.ConstInt(t, v) }
	bt := ir.BoolOf(t)
	zeroCnt := fe.emit(ir.OpICmp, bt, cnt, c(0))
	zeroCnt.Pred = ir.PredEQ
	w := c(int64(st.Bits))
	ones := c(-1)
	mask := fe.emit(ir.OpSelect, t, zeroCnt, c(0), fe.emit(ir.OpLShr, t, ones, fe.emit(ir.OpSub, t, w, cnt)))
	base := fe.coerce(a[0], t)
	switch in.op {
	case "OpBitFieldUExtract":
		res.Op, res.Args = ir.OpAnd, []ir.Value{fe.emit(ir.OpLShr, t, base, off), mask}
	case "OpBitFieldSExtract":
		up := fe.emit(ir.OpShl, t, base, fe.emit(ir.OpSub, t, fe.emit(ir.OpSub, t, w, off), cnt))
		down := fe.emit(ir.OpAShr, t, up, fe.emit(ir.OpSub, t, w, cnt))
		res.Op, res.Args = ir.OpSelect, []ir.Value{zeroCnt, c(0), down}
	default:
		ins := fe.coerce(a[1], t)
		m := fe.emit(ir.OpShl, t, mask, off)
		keep := fe.emit(ir.OpAnd, t, base, fe.emit(ir.OpXor, t, m, ones))
		put := fe.emit(ir.OpAnd, t, fe.emit(ir.OpShl, t, ins, off), m)
		res.Op, res.Args = ir.OpOr, []ir.Value{keep, put}
	}
	fe.put(res)
	return nil
}
