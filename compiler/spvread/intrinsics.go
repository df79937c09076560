package spvread

import (
	"strings"

	"passlens/compiler/ir"
)

// This file maps GLSL.std.450 extended instructions, OpGroupNonUniform*
// wave operations (Subgroup scope), barriers and atomics to the IR's
// intrinsics and atomic instruction. What has no IR counterpart is kept
// as an opaque operation (func.go).

// glslIntrinsics maps GLSL.std.450 instructions to IR intrinsics of the
// same meaning.
var glslIntrinsics = map[string]string{
	"Round": "round", "RoundEven": "round", "Trunc": "trunc", "FAbs": "abs", "SAbs": "abs", "FSign": "sign",
	"SSign": "sign", "Floor": "floor", "Ceil": "ceil", "Fract": "frac", "Radians": "radians", "Degrees": "degrees",
	"Sin": "sin", "Cos": "cos", "Tan": "tan", "Asin": "asin", "Acos": "acos", "Atan": "atan", "Sinh": "sinh",
	"Cosh": "cosh", "Tanh": "tanh", "Atan2": "atan2", "Pow": "pow", "Exp": "exp", "Log": "log", "Exp2": "exp2",
	"Log2": "log2", "Sqrt": "sqrt", "InverseSqrt": "rsqrt", "Determinant": "determinant", "FMin": "min",
	"UMin": "min", "SMin": "min", "NMin": "min", "FMax": "max", "UMax": "max", "SMax": "max", "NMax": "max",
	"FClamp": "clamp", "UClamp": "clamp", "SClamp": "clamp", "NClamp": "clamp", "FMix": "lerp", "Step": "step",
	"SmoothStep": "smoothstep", "Fma": "mad", "Length": "length", "Distance": "distance", "Cross": "cross",
	"Normalize": "normalize", "Reflect": "reflect", "Refract": "refract", "FindILsb": "firstbitlow",
	"FindUMsb": "firstbithigh", "FindSMsb": "firstbithigh",
}

func (fe *fn) extInst(in *inst, res *ir.Instr) error {
	if err := fe.r.need(in, 2); err != nil {
		return err
	}
	set := fe.r.extSets[in.args[0].s]
	if set != "GLSL.std.450" {
		if res == nil {
			return nil // NonSemantic.* and debug information: no effect
		}
		return fe.opaque(in, res)
	}
	switch in.args[1].s {
	case "UnpackHalf2x16", "PackHalf2x16":
		return fe.half(in, res)
	}
	name, ok := glslIntrinsics[in.args[1].s]
	if !ok {
		return fe.opaque(in, res)
	}
	a, err := fe.values(in.args[2:])
	if err != nil {
		return err
	}
	for i := range a {
		if a[i].Type().Scalar().IsIntegral() && sameBits(a[i].Type(), res.Type()) {
			a[i] = fe.coerce(a[i], res.Type())
		}
	}
	if in.args[1].s == "Ldexp" {
		return fe.opaque(in, res)
	}
	fe.setIntr(res, name, a...)
	return nil
}

// half maps UnpackHalf2x16 (a u32 to two floats, low half first) and
// PackHalf2x16 to the IR's per-component f16tof32 / f32tof16.
func (fe *fn) half(in *inst, res *ir.Instr) error {
	if len(in.args) < 3 || res == nil {
		return fe.opaque(in, res)
	}
	x, err := fe.value(in.args[2])
	if err != nil {
		return err
	}
	if in.args[1].s == "UnpackHalf2x16" {
		if res.Type() != ir.Vec(ir.F32, 2) || !x.Type().IsIntegral() {
			return fe.opaque(in, res)
		}
		x = fe.coerce(x, ir.U32)
		lo := fe.intr("f16tof32", ir.F32, x)
		hi := fe.intr("f16tof32", ir.F32, fe.emit(ir.OpLShr, ir.U32, x, ir.ConstInt(ir.U32, 16)))
		res.Op, res.Args = ir.OpConstruct, []ir.Value{lo, hi}
		fe.put(res)
		return nil
	}
	if x.Type() != ir.Vec(ir.F32, 2) || !res.Type().IsIntegral() {
		return fe.opaque(in, res)
	}
	part := func(i int) ir.Value {
		e := fe.emit(ir.OpExtractValue, ir.F32, x)
		e.Idx = []int{i}
		return fe.coerce(fe.intr("f32tof16", ir.U32, e), res.Type())
	}
	lo, hi := part(0), part(1)
	sh := fe.emit(ir.OpShl, res.Type(), hi, ir.ConstInt(res.Type(), 16))
	res.Op, res.Args = ir.OpOr, []ir.Value{lo, sh}
	fe.put(res)
	return nil
}

func isWaveOp(op string) bool { return strings.HasPrefix(op, "OpGroupNonUniform") }

func isAtomic(op string) bool { return strings.HasPrefix(op, "OpAtomic") }

// scopeSubgroup is SPIR-V's Subgroup scope.
const scopeSubgroup = 3

// waveReduce maps group arithmetic to the IR's wave reductions and
// prefix (exclusive scan) operations.
var waveReduce = map[string][2]string{
	"IAdd": {"WaveActiveSum", "WavePrefixSum"}, "FAdd": {"WaveActiveSum", "WavePrefixSum"},
	"IMul": {"WaveActiveProduct", "WavePrefixProduct"}, "FMul": {"WaveActiveProduct", "WavePrefixProduct"},
	"SMin": {"WaveActiveMin"}, "UMin": {"WaveActiveMin"}, "FMin": {"WaveActiveMin"},
	"SMax": {"WaveActiveMax"}, "UMax": {"WaveActiveMax"}, "FMax": {"WaveActiveMax"},
	"BitwiseAnd": {"WaveActiveBitAnd"}, "BitwiseOr": {"WaveActiveBitOr"}, "BitwiseXor": {"WaveActiveBitXor"},
	"LogicalAnd": {"WaveActiveBitAnd"}, "LogicalOr": {"WaveActiveBitOr"}, "LogicalXor": {"WaveActiveBitXor"},
}

// wave translates an OpGroupNonUniform* instruction at Subgroup scope.
func (fe *fn) wave(in *inst, res *ir.Instr) error {
	if len(in.args) < 1 || res == nil {
		return fe.opaque(in, res)
	}
	if s, ok := fe.constInt(in.args[0]); !ok || s != scopeSubgroup {
		return fe.opaque(in, res)
	}
	op := strings.TrimPrefix(in.op, "OpGroupNonUniform")
	args := in.args[1:]
	vals := func(os []operand) ([]ir.Value, bool) {
		v, err := fe.values(os)
		return v, err == nil
	}
	simple := map[string]string{"Elect": "WaveIsFirstLane", "All": "WaveActiveAllTrue", "Any": "WaveActiveAnyTrue",
		"AllEqual": "WaveActiveAllEqual", "BroadcastFirst": "WaveReadLaneFirst", "Ballot": "WaveActiveBallot",
		"Broadcast": "WaveReadLaneAt", "Shuffle": "WaveReadLaneAt"}
	if name, ok := simple[op]; ok {
		a, ok := vals(args)
		if !ok {
			return fe.opaque(in, res)
		}
		if len(a) > 0 && (name == "WaveReadLaneFirst" || name == "WaveReadLaneAt") {
			a[0] = fe.coerce(a[0], res.Type())
		}
		fe.setIntr(res, name, a...)
		return nil
	}
	if op == "BallotBitCount" && len(args) == 2 {
		// Count of a ballot of a predicate: WaveActiveCountBits /
		// WavePrefixCountBits of the predicate.
		def := fe.defs[args[1].s]
		names := map[string]string{"Reduce": "WaveActiveCountBits", "ExclusiveScan": "WavePrefixCountBits"}
		if name, ok := names[args[0].s]; ok && def != nil && def.op == "OpGroupNonUniformBallot" && len(def.args) == 2 {
			if s, ok := fe.constInt(def.args[0]); ok && s == scopeSubgroup {
				if p, err := fe.value(def.args[1]); err == nil {
					fe.setIntr(res, name, p)
					return nil
				}
			}
		}
		return fe.opaque(in, res)
	}
	if names, ok := waveReduce[op]; ok && len(args) == 2 {
		x, err := fe.value(args[1])
		if err != nil {
			return err
		}
		x = fe.coerce(x, res.Type())
		switch args[0].s {
		case "Reduce":
			fe.setIntr(res, names[0], x)
			return nil
		case "ExclusiveScan", "InclusiveScan":
			if names[1] == "" {
				break
			}
			if args[0].s == "ExclusiveScan" {
				fe.setIntr(res, names[1], x)
				return nil
			}
			// Inclusive: the exclusive prefix combined with this lane.
			p := fe.intr(names[1], res.Type(), x)
			comb := map[string]ir.Op{"IAdd": ir.OpAdd, "FAdd": ir.OpFAdd, "IMul": ir.OpMul, "FMul": ir.OpFMul}[op]
			res.Op, res.Args = comb, []ir.Value{p, x}
			fe.put(res)
			return nil
		}
	}
	return fe.opaque(in, res)
}

// Memory semantics bits that say which memory a barrier orders.
const (
	semUniform   = 0x40
	semWorkgroup = 0x100
	semImage     = 0x800
)

// barrier maps OpControlBarrier / OpMemoryBarrier to the HLSL barriers
// the SPIR-V back end emits them for (by the memory they order).
func (fe *fn) barrier(in *inst) error {
	n := 2
	if in.op == "OpControlBarrier" {
		n = 3
	}
	if err := fe.r.need(in, n); err != nil {
		return err
	}
	if in.op == "OpControlBarrier" {
		if s, ok := fe.constInt(in.args[0]); !ok || s != 2 { // Workgroup
			return fe.opaque(in, nil)
		}
	}
	sem, ok := fe.constInt(in.args[n-1])
	if !ok {
		return fe.opaque(in, nil)
	}
	name := "GroupMemoryBarrier"
	switch {
	case sem&semWorkgroup != 0 && sem&(semUniform|semImage) != 0:
		name = "AllMemoryBarrier"
	case sem&(semUniform|semImage) != 0:
		name = "DeviceMemoryBarrier"
	}
	if in.op == "OpControlBarrier" {
		name += "WithGroupSync"
	}
	fe.setIntr(nil, name)
	return nil
}

var atomicKinds = map[string]ir.AtomicKind{
	"OpAtomicIAdd": ir.AtomicAdd, "OpAtomicSMin": ir.AtomicMin, "OpAtomicUMin": ir.AtomicUMin,
	"OpAtomicSMax": ir.AtomicMax, "OpAtomicUMax": ir.AtomicUMax, "OpAtomicAnd": ir.AtomicAnd,
	"OpAtomicOr": ir.AtomicOr, "OpAtomicXor": ir.AtomicXor, "OpAtomicExchange": ir.AtomicXchg,
	"OpAtomicCompareExchange": ir.AtomicCmpXchg, "OpAtomicISub": ir.AtomicAdd,
	"OpAtomicIIncrement": ir.AtomicAdd, "OpAtomicIDecrement": ir.AtomicAdd,
}

// atomic maps an atomic read-modify-write to the IR's atomic
// (ptr, value[, comparator]); ISub adds the negation, IIncrement and
// IDecrement add 1 and -1.
func (fe *fn) atomic(in *inst, res *ir.Instr) error {
	k, ok := atomicKinds[in.op]
	if !ok || res == nil || !res.Type().IsIntegral() {
		return fe.opaque(in, res)
	}
	if err := fe.r.need(in, 3); err != nil {
		return err
	}
	p, err := fe.value(in.args[0])
	if err != nil {
		return err
	}
	t := res.Type()
	var v ir.Value
	switch in.op {
	case "OpAtomicIIncrement":
		v = ir.ConstInt(t, 1)
	case "OpAtomicIDecrement":
		v = ir.ConstInt(t, -1)
	case "OpAtomicCompareExchange":
		if err := fe.r.need(in, 6); err != nil {
			return err
		}
		a, err := fe.values(in.args[4:6])
		if err != nil {
			return err
		}
		res.Op, res.Atomic, res.Args = ir.OpAtomic, k, []ir.Value{p, fe.coerce(a[0], t), fe.coerce(a[1], t)}
		fe.put(res)
		return nil
	default:
		if err := fe.r.need(in, 4); err != nil {
			return err
		}
		if v, err = fe.value(in.args[3]); err != nil {
			return err
		}
		v = fe.coerce(v, t)
		if in.op == "OpAtomicISub" {
			v = fe.emit(ir.OpNeg, t, v)
		}
	}
	res.Op, res.Atomic, res.Args = ir.OpAtomic, k, []ir.Value{p, v}
	fe.put(res)
	return nil
}
