package spirv

import (
	"strings"

	"passlens/compiler/ir"
)

// This file lowers the IR's intrinsics: HLSL math to core instructions or
// GLSL.std.450, wave operations to OpGroupNonUniform* at Subgroup scope
// (WaveGetLaneIndex/WaveGetLaneCount read the SubgroupLocalInvocationId
// and SubgroupSize built-ins), and barriers to OpControlBarrier /
// OpMemoryBarrier with the scopes and semantics DXC uses.

// glslUnary maps float intrinsics to GLSL.std.450 one-operand
// instructions.
var glslUnary = map[string]uint32{
	"acos": GLSLAcos, "asin": GLSLAsin, "atan": GLSLAtan, "ceil": GLSLCeil, "cos": GLSLCos, "cosh": GLSLCosh,
	"degrees": GLSLDegrees, "exp": GLSLExp, "exp2": GLSLExp2, "floor": GLSLFloor, "frac": GLSLFract,
	"log": GLSLLog, "log2": GLSLLog2, "radians": GLSLRadians, "round": GLSLRoundEven, "rsqrt": GLSLInverseSqrt,
	"sin": GLSLSin, "sinh": GLSLSinh, "sqrt": GLSLSqrt, "tan": GLSLTan, "tanh": GLSLTanh, "trunc": GLSLTrunc,
	"length": GLSLLength, "normalize": GLSLNormalize, "determinant": GLSLDeterminant,
}

// glslFloatN maps float intrinsics with 2-3 operands.
var glslFloatN = map[string]uint32{
	"atan2": GLSLAtan2, "pow": GLSLPow, "step": GLSLStep, "lerp": GLSLFMix, "smoothstep": GLSLSmoothStep,
	"distance": GLSLDistance, "cross": GLSLCross, "reflect": GLSLReflect, "refract": GLSLRefract,
}

// waveOp describes a wave reduction or scan per operand kind.
type waveOp struct {
	i, u, f uint16 // opcode for signed int, unsigned int and float operands (0: invalid)
	b       uint16 // opcode for bool operands (0: invalid)
	group   uint32 // group operation
}

var waveOps = map[string]waveOp{
	"WaveActiveSum":     {OpGroupNonUniformIAdd, OpGroupNonUniformIAdd, OpGroupNonUniformFAdd, 0, GroupReduce},
	"WaveActiveProduct": {OpGroupNonUniformIMul, OpGroupNonUniformIMul, OpGroupNonUniformFMul, 0, GroupReduce},
	"WaveActiveMin":     {OpGroupNonUniformSMin, OpGroupNonUniformUMin, OpGroupNonUniformFMin, 0, GroupReduce},
	"WaveActiveMax":     {OpGroupNonUniformSMax, OpGroupNonUniformUMax, OpGroupNonUniformFMax, 0, GroupReduce},
	"WaveActiveBitAnd":  {OpGroupNonUniformAnd, OpGroupNonUniformAnd, 0, OpGroupNonUniformLAnd, GroupReduce},
	"WaveActiveBitOr":   {OpGroupNonUniformOr, OpGroupNonUniformOr, 0, OpGroupNonUniformLOr, GroupReduce},
	"WaveActiveBitXor":  {OpGroupNonUniformXor, OpGroupNonUniformXor, 0, OpGroupNonUniformLXor, GroupReduce},
	"WavePrefixSum":     {OpGroupNonUniformIAdd, OpGroupNonUniformIAdd, OpGroupNonUniformFAdd, 0, GroupExclusiveScan},
	"WavePrefixProduct": {OpGroupNonUniformIMul, OpGroupNonUniformIMul, OpGroupNonUniformFMul, 0, GroupExclusiveScan},
}

func (fe *fn) extInst(tid, res uint32, inst uint32, args ...uint32) uint32 {
	return fe.op(OpExtInst, tid, res, append([]uint32{fe.e.glsl(), inst}, args...)...)
}

// intrinsic emits an intrinsic call.
func (fe *fn) intrinsic(in *ir.Instr) error {
	e := fe.e
	if in.Intr == nil {
		return fe.fail("intrinsic without a table entry")
	}
	name := in.Intr.Name
	if name == ir.ResIndex {
		return fe.resIndex(in) // resarray.go
	}
	if strings.HasPrefix(name, "tex.") {
		return fe.texture(in)
	}
	if name == ir.Demote {
		return fe.demote() // quad.go
	}
	if name == "buf.length" {
		return fe.bufLength(in)
	}
	if name == ir.BufWord64 {
		return fe.bufWord64(in) // bufword64.go
	}
	t := in.Type()
	tid, err := fe.typ(t)
	if err != nil {
		return err
	}
	for _, a := range in.Args {
		if a.Type().Kind == ir.KPointer {
			return fe.fail("pointer argument to intrinsic %s", name)
		}
		if _, err := fe.typ(a.Type()); err != nil {
			return err
		}
	}
	a, err := fe.args(in)
	if err != nil {
		return err
	}
	res := uint32(0)
	if in.HasResult() {
		res = fe.resultID(in)
	}
	if ir.IsQuadOp(name) {
		return fe.quad(in, a, tid, res) // quad.go
	}
	var at *ir.Type // first operand type
	var as *ir.Type // its scalar
	if len(in.Args) > 0 {
		at = in.Args[0].Type()
		as = at.Scalar()
	}
	isF := as != nil && as.Kind == ir.KFloat
	isS := as != nil && as.Kind == ir.KInt
	isU := as != nil && as.Kind == ir.KUint
	unsupported := func() error {
		if at != nil {
			return fe.fail("intrinsic %s on %s is not supported by the SPIR-V back end", name, at)
		}
		return fe.fail("intrinsic %s is not supported by the SPIR-V back end", name)
	}
	if inst, ok := glslUnary[name]; ok && isF {
		if name == "determinant" && !isSPIRVMatrix(at, rulePlain) {
			switch {
			case at.IsScalar():
				fe.op(OpCopyObject, tid, res, a[0])
			case at.Kind == ir.KMatrix && at.Len == 1 && at.Cols == 1:
				fe.op(OpCompositeExtract, tid, res, a[0], 0)
			default:
				return unsupported()
			}
			return nil
		}
		fe.extInst(tid, res, inst, a[0])
		return nil
	}
	if inst, ok := glslFloatN[name]; ok && isF {
		fe.extInst(tid, res, inst, a...)
		return nil
	}
	if op, ok := waveOps[name]; ok {
		return fe.waveArith(name, op, at, tid, res, a[0])
	}
	switch name {
	case "abs":
		switch {
		case isF:
			fe.extInst(tid, res, GLSLFAbs, a[0])
		case isS:
			fe.extInst(tid, res, GLSLSAbs, a[0])
		case isU:
			fe.op(OpCopyObject, tid, res, a[0])
		default:
			return unsupported()
		}
	case "sign":
		switch {
		case isF && t.Scalar().Kind == ir.KFloat:
			fe.extInst(tid, res, GLSLFSign, a[0])
		case isF:
			s := fe.extInst(e.mustType(at, rulePlain), 0, GLSLFSign, a[0])
			fe.op(OpConvertFToS, tid, res, s)
		case isS && at.Scalar().Bits == t.Scalar().Bits:
			fe.extInst(tid, res, GLSLSSign, a[0])
		case isS:
			// SSign needs the operand's width: sign of an int16_t or
			// int64_t, then OpSConvert to the int result.
			s := fe.extInst(e.mustType(at, rulePlain), 0, GLSLSSign, a[0])
			fe.op(OpSConvert, tid, res, s)
		case isU:
			c := fe.op(OpINotEqual, e.mustType(ir.BoolOf(at), rulePlain), 0, a[0], e.constOf(ir.ConstInt(at, 0)))
			fe.op(OpSelect, tid, res, c, e.constOf(ir.ConstInt(t, 1)), e.constOf(ir.ConstInt(t, 0)))
		default:
			return unsupported()
		}
	case "log10":
		if !isF {
			return unsupported()
		}
		l := fe.extInst(tid, 0, GLSLLog2, a[0])
		fe.op(OpFMul, tid, res, l, e.constOf(ir.ConstFloat(t, 0.30102999566398119521)))
	case "rcp":
		if !isF {
			return unsupported()
		}
		fe.op(OpFDiv, tid, res, e.constOf(ir.ConstFloat(t, 1)), a[0])
	case "saturate":
		if !isF {
			return unsupported()
		}
		fe.extInst(tid, res, GLSLFClamp, a[0], e.constOf(ir.ConstFloat(t, 0)), e.constOf(ir.ConstFloat(t, 1)))
	case "isinf":
		fe.op(OpIsInf, tid, res, a[0])
	case "isnan":
		fe.op(OpIsNan, tid, res, a[0])
	case "countbits":
		if !isS && !isU {
			return unsupported()
		}
		fe.op(OpBitCount, tid, res, a[0])
	case "reversebits":
		if !isS && !isU {
			return unsupported()
		}
		fe.op(OpBitReverse, tid, res, a[0])
	case "firstbithigh":
		switch {
		case isU && as.Bits == 32:
			fe.extInst(tid, res, GLSLFindUMsb, a[0])
		case isS && as.Bits == 32:
			fe.extInst(tid, res, GLSLFindSMsb, a[0])
		default:
			return unsupported()
		}
	case "firstbitlow":
		if (!isS && !isU) || as.Bits != 32 {
			return unsupported()
		}
		fe.extInst(tid, res, GLSLFindILsb, a[0])
	case "max", "min":
		var inst uint32
		switch {
		case isF:
			inst = map[string]uint32{"max": GLSLFMax, "min": GLSLFMin}[name]
		case isS:
			inst = map[string]uint32{"max": GLSLSMax, "min": GLSLSMin}[name]
		case isU:
			inst = map[string]uint32{"max": GLSLUMax, "min": GLSLUMin}[name]
		default:
			return unsupported()
		}
		fe.extInst(tid, res, inst, a[0], a[1])
	case "clamp":
		switch {
		case isF:
			fe.extInst(tid, res, GLSLFClamp, a...)
		case isS:
			fe.extInst(tid, res, GLSLSClamp, a...)
		case isU:
			fe.extInst(tid, res, GLSLUClamp, a...)
		default:
			return unsupported()
		}
	case "dot4add_i8packed", "dot4add_u8packed", "dot2add":
		return fe.packedDot(name, t, tid, res, a)
	case "fma":
		if !isF {
			return unsupported()
		}
		fe.extInst(tid, res, GLSLFma, a[0], a[1], a[2])
	case "mad":
		switch {
		case isF:
			m := fe.op(OpFMul, tid, 0, a[0], a[1])
			fe.op(OpFAdd, tid, res, m, a[2])
		case isS || isU:
			m := fe.op(OpIMul, tid, 0, a[0], a[1])
			fe.op(OpIAdd, tid, res, m, a[2])
		default:
			return unsupported()
		}
	case "fmod":
		if !isF {
			return unsupported()
		}
		fe.op(OpFRem, tid, res, a[0], a[1])
	case "ldexp":
		if !isF {
			return unsupported()
		}
		p := fe.extInst(tid, 0, GLSLExp2, a[1])
		fe.op(OpFMul, tid, res, a[0], p)
	case "dot":
		return fe.dot(at, tid, res, a[0], a[1])
	case "any", "all":
		return fe.anyAll(name, at, tid, res, a[0])
	case "transpose":
		if !isSPIRVMatrix(at, rulePlain) || !isSPIRVMatrix(t, rulePlain) {
			return fe.transposeElems(at, t, tid, res, a[0])
		}
		fe.op(OpTranspose, tid, res, a[0])
	case "f16tof32", "f32tof16":
		return fe.halfConv(name, at, t, tid, res, a[0])
	case "mul":
		return fe.mul(in, tid, res, a)
	case "WaveGetLaneIndex", "WaveGetLaneCount":
		e.capability(CapGroupNonUniform)
		b := uint32(BuiltInSubgroupLocalInvocationID)
		n := "gl_SubgroupInvocationID"
		if name == "WaveGetLaneCount" {
			b, n = BuiltInSubgroupSize, "gl_SubgroupSize"
		}
		v := e.builtinVar(b, ir.U32, n)
		fe.use.iface[v] = true
		if t == ir.U32 {
			fe.op(OpLoad, tid, res, v)
		} else if t.IsIntegral() && t.Bits == 32 {
			x := fe.op(OpLoad, e.mustType(ir.U32, rulePlain), 0, v)
			fe.op(OpBitcast, tid, res, x)
		} else {
			return fe.fail("%s returning %s", name, t)
		}
	case "WaveIsFirstLane":
		e.capability(CapGroupNonUniform)
		fe.op(OpGroupNonUniformElect, tid, res, fe.subgroup())
	case "WaveActiveAllTrue", "WaveActiveAnyTrue":
		e.capability(CapGroupNonUniformVote)
		op := map[string]uint16{"WaveActiveAllTrue": OpGroupNonUniformAll, "WaveActiveAnyTrue": OpGroupNonUniformAny}[name]
		if as.Kind != ir.KBool || at.Kind != ir.KBool {
			return unsupported()
		}
		fe.op(op, tid, res, fe.subgroup(), a[0])
	case "WaveActiveAllEqual":
		return fe.allEqual(at, t, tid, res, a[0])
	case "WaveActiveBallot":
		e.capability(CapGroupNonUniformBallot)
		if at != ir.Bool || t != ir.Vec(ir.U32, 4) {
			return unsupported()
		}
		fe.op(OpGroupNonUniformBallot, tid, res, fe.subgroup(), a[0])
	case "WaveActiveCountBits", "WavePrefixCountBits":
		e.capability(CapGroupNonUniformBallot)
		if at != ir.Bool || !t.IsIntegral() || t.Bits != 32 {
			return unsupported()
		}
		b := fe.op(OpGroupNonUniformBallot, e.mustType(ir.Vec(ir.U32, 4), rulePlain), 0, fe.subgroup(), a[0])
		gop := uint32(GroupReduce)
		if name == "WavePrefixCountBits" {
			gop = GroupExclusiveScan
		}
		fe.op(OpGroupNonUniformBitCount, tid, res, fe.subgroup(), gop, b)
	case "WaveReadLaneFirst":
		e.capability(CapGroupNonUniformBallot)
		fe.op(OpGroupNonUniformBcFirst, tid, res, fe.subgroup(), a[0])
	case "WaveReadLaneAt":
		lane := a[1]
		if lt := in.Args[1].Type(); lt != ir.U32 {
			if !lt.IsIntegral() || lt.Bits != 32 {
				return unsupported()
			}
			lane = fe.op(OpBitcast, e.mustType(ir.U32, rulePlain), 0, lane)
		}
		if _, ok := in.Args[1].(*ir.Const); ok {
			e.capability(CapGroupNonUniformBallot)
			fe.op(OpGroupNonUniformBroadcast, tid, res, fe.subgroup(), a[0], lane)
		} else {
			e.capability(CapGroupNonUniformShuffle)
			fe.op(OpGroupNonUniformShuffle, tid, res, fe.subgroup(), a[0], lane)
		}
	case "GroupMemoryBarrierWithGroupSync", "DeviceMemoryBarrierWithGroupSync", "AllMemoryBarrierWithGroupSync",
		"GroupMemoryBarrier", "DeviceMemoryBarrier", "AllMemoryBarrier":
		return fe.barrier(name)
	default:
		return unsupported()
	}
	return nil
}

// subgroup is the Subgroup scope constant.
func (fe *fn) subgroup() uint32 { return fe.e.uintConst(ScopeSubgroup) }

func (fe *fn) waveArith(name string, op waveOp, at *ir.Type, tid, res, x uint32) error {
	e := fe.e
	s := at.Scalar()
	var code uint16
	switch s.Kind {
	case ir.KInt:
		code = op.i
	case ir.KUint:
		code = op.u
	case ir.KFloat:
		code = op.f
	case ir.KBool:
		code = op.b
	}
	if code == 0 || at.Kind == ir.KMatrix || !(at.IsScalar() || at.Kind == ir.KVector) {
		return fe.fail("intrinsic %s on %s is not supported by the SPIR-V back end", name, at)
	}
	e.capability(CapGroupNonUniformArithmetic)
	fe.op(code, tid, res, fe.subgroup(), op.group, x)
	return nil
}

// allEqual lowers WaveActiveAllEqual: a bool per component when the
// result is a vector, else one bool for the whole operand.
func (fe *fn) allEqual(at, t *ir.Type, tid, res, x uint32) error {
	e := fe.e
	e.capability(CapGroupNonUniformVote)
	if at.IsScalar() {
		fe.op(OpGroupNonUniformAllEqual, tid, res, fe.subgroup(), x)
		return nil
	}
	if at.Kind != ir.KVector {
		return fe.fail("WaveActiveAllEqual on %s", at)
	}
	boolT := e.mustType(ir.Bool, rulePlain)
	st := e.mustType(at.Elem, rulePlain)
	parts := make([]uint32, at.Len)
	for i := range parts {
		c := fe.op(OpCompositeExtract, st, 0, x, uint32(i))
		parts[i] = fe.op(OpGroupNonUniformAllEqual, boolT, 0, fe.subgroup(), c)
	}
	if t.Kind == ir.KVector {
		fe.op(OpCompositeConstruct, tid, res, parts...)
		return nil
	}
	v := fe.op(OpCompositeConstruct, e.mustType(ir.Vec(ir.Bool, at.Len), rulePlain), 0, parts...)
	fe.op(OpAll, tid, res, v)
	return nil
}

func (fe *fn) dot(at *ir.Type, tid, res, x, y uint32) error {
	e := fe.e
	s := at.Scalar()
	switch {
	case at.Kind == ir.KVector && s.Kind == ir.KFloat:
		fe.op(OpDot, tid, res, x, y)
	case at.IsScalar() && s.Kind == ir.KFloat:
		fe.op(OpFMul, tid, res, x, y)
	case at.IsScalar() && s.IsIntegral():
		fe.op(OpIMul, tid, res, x, y)
	case at.Kind == ir.KVector && s.IsIntegral():
		p := fe.op(OpIMul, e.mustType(at, rulePlain), 0, x, y)
		acc := fe.op(OpCompositeExtract, tid, 0, p, 0)
		for i := 1; i < at.Len; i++ {
			c := fe.op(OpCompositeExtract, tid, 0, p, uint32(i))
			r := uint32(0)
			if i == at.Len-1 {
				r = res
			}
			acc = fe.op(OpIAdd, tid, r, acc, c)
		}
	default:
		return fe.fail("dot on %s", at)
	}
	return nil
}

func (fe *fn) anyAll(name string, at *ir.Type, tid, res, x uint32) error {
	e := fe.e
	op := map[string]uint16{"any": OpAny, "all": OpAll}[name]
	b := x
	if at.Scalar().Kind != ir.KBool {
		bt := e.mustType(ir.BoolOf(at), rulePlain)
		if at.Scalar().Kind == ir.KFloat {
			b = fe.op(OpFUnordNotEqual, bt, 0, x, e.constOf(ir.ConstZero(at)))
		} else if at.Scalar().IsIntegral() {
			b = fe.op(OpINotEqual, bt, 0, x, e.constOf(ir.ConstInt(at, 0)))
		} else {
			return fe.fail("%s on %s", name, at)
		}
	}
	if at.Kind != ir.KVector {
		fe.op(OpCopyObject, tid, res, b)
		return nil
	}
	fe.op(op, tid, res, b)
	return nil
}

// mul lowers HLSL mul. IR matrices are rows, and a SPIR-V matrix's columns
// are those rows, so the SPIR-V matrix holds the transpose: mul(A, B) =
// B' * A' in SPIR-V terms, mul(v, M) = M' * v and mul(M, v) = v * M'.
func (fe *fn) mul(in *ir.Instr, tid, res uint32, a []uint32) error {
	x, y := in.Args[0].Type(), in.Args[1].Type()
	xs, ys := x.Scalar(), y.Scalar()
	if x.IsScalar() && y.IsScalar() && xs.IsIntegral() {
		fe.op(OpIMul, tid, res, a[0], a[1])
		return nil
	}
	xm, ym := x.Kind == ir.KMatrix, y.Kind == ir.KMatrix
	t := in.Type()
	if xs.Kind != ir.KFloat || ys.Kind != ir.KFloat || (xm && !isSPIRVMatrix(x, rulePlain)) ||
		(ym && !isSPIRVMatrix(y, rulePlain)) || (t.Kind == ir.KMatrix && !isSPIRVMatrix(t, rulePlain)) {
		// Integer operands and matrices OpTypeMatrix cannot hold.
		return fe.mulElems(in, tid, res, a)
	}
	switch {
	case x.IsScalar() && y.IsScalar():
		fe.op(OpFMul, tid, res, a[0], a[1])
	case x.IsScalar() && y.Kind == ir.KVector:
		fe.op(OpVectorTimesScalar, tid, res, a[1], a[0])
	case x.Kind == ir.KVector && y.IsScalar():
		fe.op(OpVectorTimesScalar, tid, res, a[0], a[1])
	case x.IsScalar() && ym:
		fe.op(OpMatrixTimesScalar, tid, res, a[1], a[0])
	case xm && y.IsScalar():
		fe.op(OpMatrixTimesScalar, tid, res, a[0], a[1])
	case x.Kind == ir.KVector && y.Kind == ir.KVector:
		fe.op(OpDot, tid, res, a[0], a[1])
	case x.Kind == ir.KVector && ym:
		fe.op(OpMatrixTimesVector, tid, res, a[1], a[0])
	case xm && y.Kind == ir.KVector:
		fe.op(OpVectorTimesMatrix, tid, res, a[1], a[0])
	case xm && ym:
		fe.op(OpMatrixTimesMatrix, tid, res, a[1], a[0])
	default:
		return fe.fail("mul of %s and %s", x, y)
	}
	return nil
}

// barrier lowers the HLSL barriers as DXC does.
func (fe *fn) barrier(name string) error {
	// Device-memory barriers without a group sync are valid in every
	// stage (without workgroup memory outside compute); the others need
	// a workgroup.
	compute := true
	for st := range fe.e.stagesOf(fe.f) {
		compute = compute && st == ir.StageCompute
		if st != ir.StageCompute && name != "DeviceMemoryBarrier" && name != "AllMemoryBarrier" {
			return fe.fail("%s in a function a %s entry point calls: group barriers need a compute shader", name, st)
		}
	}
	e := fe.e
	var mem, sem uint32
	switch name {
	case "GroupMemoryBarrierWithGroupSync", "GroupMemoryBarrier":
		mem, sem = ScopeWorkgroup, SemAcquireRelease|SemWorkgroupMemory
	case "DeviceMemoryBarrierWithGroupSync", "DeviceMemoryBarrier":
		mem, sem = ScopeDevice, SemAcquireRelease|SemUniformMemory|SemImageMemory
	default:
		mem, sem = ScopeDevice, SemAcquireRelease|SemUniformMemory|SemWorkgroupMemory|SemImageMemory
		if !compute {
			sem &^= SemWorkgroupMemory
		}
	}
	if len(name) > len("WithGroupSync") && name[len(name)-len("WithGroupSync"):] == "WithGroupSync" {
		fe.body.inst(OpControlBarrier, e.uintConst(ScopeWorkgroup), e.uintConst(mem), e.uintConst(sem))
	} else {
		fe.body.inst(OpMemoryBarrier, e.uintConst(mem), e.uintConst(sem))
	}
	return nil
}
