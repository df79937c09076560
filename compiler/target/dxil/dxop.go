package dxil

import (
	"fmt"
	"math"

	"passlens/compiler/ir"
	"passlens/compiler/llvm"
)

// DXIL operation codes (DirectXShaderCompiler include/dxc/DXIL/
// DxilConstants.h, enum OpCode; the table in docs/DXIL.rst).
const (
	opFAbs                     = 6
	opSaturate                 = 7
	opIsNaN                    = 8
	opIsInf                    = 9
	opCos                      = 12
	opSin                      = 13
	opTan                      = 14
	opAcos                     = 15
	opAsin                     = 16
	opAtan                     = 17
	opHcos                     = 18
	opHsin                     = 19
	opHtan                     = 20
	opExp                      = 21 // 2^x
	opFrc                      = 22
	opLog                      = 23 // log2(x)
	opSqrt                     = 24
	opRsqrt                    = 25
	opRoundNE                  = 26
	opRoundNI                  = 27
	opRoundPI                  = 28
	opRoundZ                   = 29
	opBfrev                    = 30
	opCountbits                = 31
	opFirstbitLo               = 32
	opFirstbitHi               = 33
	opFirstbitSHi              = 34
	opFMax                     = 35
	opFMin                     = 36
	opIMax                     = 37
	opIMin                     = 38
	opUMax                     = 39
	opUMin                     = 40
	opFMad                     = 46
	opFma                      = 47 // double only
	opIMad                     = 48
	opUMad                     = 49
	opBarrier                  = 80
	opDiscard                  = 82
	opDerivCoarseX             = 83
	opDerivCoarseY             = 84
	opDerivFineX               = 85
	opDerivFineY               = 86
	opThreadID                 = 93
	opGroupID                  = 94
	opThreadIDInGroup          = 95
	opFlattenedThreadIDInGroup = 96
	opWaveIsFirstLane          = 110
	opWaveGetLaneIndex         = 111
	opWaveGetLaneCount         = 112
	opWaveAnyTrue              = 113
	opWaveAllTrue              = 114
	opWaveActiveAllEqual       = 115
	opWaveActiveBallot         = 116
	opWaveReadLaneAt           = 117
	opWaveReadLaneFirst        = 118
	opWaveActiveOp             = 119
	opWaveActiveBit            = 120
	opWavePrefixOp             = 121
	opQuadReadLaneAt           = 122
	opQuadOp                   = 123
	opLegacyF32ToF16           = 130
	opLegacyF16ToF32           = 131
	opDot2AddHalf              = 162
	opDot4AddI8Packed          = 163
	opDot4AddU8Packed          = 164
	opWaveAllBitCount          = 135
	opWavePrefixBitCount       = 136
	opQuadVote                 = 222 // SM6.7
)

// DXIL's WaveOpKind, WaveBitOpKind and SignedOpKind operand values, and
// the barrier mode bits (BarrierMode: SyncThreadGroup=1, UAVFenceGlobal=2,
// UAVFenceThreadGroup=4, TGSMFence=8).
const (
	waveSum, waveProduct, waveMin, waveMax = 0, 1, 2, 3
	bitAnd, bitOr, bitXor                  = 0, 1, 2
	signed, unsigned                       = 0, 1

	barrierSync     = 1
	barrierUAVGlob  = 2
	barrierUAVGroup = 4
	barrierTGSM     = 8
)

// opSpec is a DXIL operation: its opcode and its class; the function
// called is "dx.op.<class>" plus ".<overload>" when the class is
// overloaded on a type.
type opSpec struct {
	code  int
	class string
	ovl   bool // overloaded on the result/operand type
}

// overload is the DXIL overload suffix of a scalar type.
func overload(t *ir.Type) (string, error) {
	switch t.Kind {
	case ir.KBool:
		return "i1", nil
	case ir.KInt, ir.KUint:
		return fmt.Sprintf("i%d", t.Bits), nil
	case ir.KFloat:
		if t == ir.BF16 {
			break
		}
		return fmt.Sprintf("f%d", t.Bits), nil
	}
	return "", fmt.Errorf("type %s has no DXIL overload", t)
}

// unaryFloat maps one-operand HLSL float intrinsics to their operation.
var unaryFloat = map[string]int{
	"saturate": opSaturate, "cos": opCos, "sin": opSin, "tan": opTan, "acos": opAcos, "asin": opAsin,
	"atan": opAtan, "cosh": opHcos, "sinh": opHsin, "tanh": opHtan, "exp2": opExp, "frac": opFrc,
	"log2": opLog, "sqrt": opSqrt, "rsqrt": opRsqrt, "round": opRoundNE, "floor": opRoundNI,
	"ceil": opRoundPI, "trunc": opRoundZ,
}

// lowerer rewrites intrinsic calls of one function into dx.op calls.
type lowerer struct {
	f  *ir.Function
	bd *ir.Builder
	// nonUniform holds the dynamic indices into resource arrays (their
	// select chains' tops) whose index is divergent (resarray.go).
	nonUniform map[*ir.Instr]bool
}

// dxCall turns in into a call of dx.op.<class>[.ovl](i32 code, extra...).
func (lw *lowerer) dxCall(in *ir.Instr, s opSpec, ovlType *ir.Type, args []ir.Value) error {
	name := "dx.op." + s.class
	if s.ovl {
		o, err := overload(ovlType)
		if err != nil {
			return err
		}
		name += "." + o
	}
	attrs := ir.Attr(0)
	if in.Intr != nil {
		attrs = in.Intr.Attrs &^ (ir.AttrElementwise | ir.AttrReduction)
	}
	all := append([]ir.Value{ir.ConstInt(ir.I32, int64(s.code))}, args...)
	in.Intr = llvm.RegisterExternalIntrinsic(name, attrs, len(all))
	in.Args = all
	return nil
}

func i8(v int) ir.Value { return ir.ConstInt(ir.I8, int64(v)) }

// intrinsic lowers one intrinsic call (documented in docs/dxil.md).
func (lw *lowerer) intrinsic(in *ir.Instr) error {
	name := in.Intr.Name
	rt := in.Type()
	a := in.Args
	arg0 := func() *ir.Type { return a[0].Type() }
	isFloat := func(t *ir.Type) bool { return t.Kind == ir.KFloat }
	if code, ok := unaryFloat[name]; ok && isFloat(rt) {
		return lw.dxCall(in, opSpec{code, "unary", true}, rt, a)
	}
	switch name {
	case "abs":
		if isFloat(rt) {
			return lw.dxCall(in, opSpec{opFAbs, "unary", true}, rt, a)
		}
		if rt.IsIntegral() {
			// |x| = IMax(x, -x), as DXC lowers it.
			lw.bd.SetBefore(in)
			neg := lw.bd.Binary(ir.OpSub, ir.ConstInt(rt, 0), a[0], in.Name()+".neg")
			return lw.dxCall(in, opSpec{opIMax, "binary", true}, rt, []ir.Value{a[0], neg})
		}
	case "isnan", "isinf":
		code := opIsNaN
		if name == "isinf" {
			code = opIsInf
		}
		return lw.dxCall(in, opSpec{code, "isSpecialFloat", true}, arg0(), a)
	case "reversebits":
		return lw.dxCall(in, opSpec{opBfrev, "unary", true}, rt, a)
	case "countbits":
		return lw.dxCall(in, opSpec{opCountbits, "unaryBits", true}, arg0(), a)
	case "firstbitlow":
		return lw.dxCall(in, opSpec{opFirstbitLo, "unaryBits", true}, arg0(), a)
	case "firstbithigh":
		code := opFirstbitHi
		if arg0().Kind == ir.KInt {
			code = opFirstbitSHi
		}
		return lw.dxCall(in, opSpec{code, "unaryBits", true}, arg0(), a)
	case "max", "min":
		var code int
		switch {
		case isFloat(rt):
			code = map[string]int{"max": opFMax, "min": opFMin}[name]
		case rt.Kind == ir.KInt:
			code = map[string]int{"max": opIMax, "min": opIMin}[name]
		case rt.Kind == ir.KUint:
			code = map[string]int{"max": opUMax, "min": opUMin}[name]
		default:
			return fmt.Errorf("no DXIL %s for type %s", name, rt)
		}
		return lw.dxCall(in, opSpec{code, "binary", true}, rt, a)
	case "fma":
		if rt == ir.F64 {
			return lw.dxCall(in, opSpec{opFma, "tertiary", true}, rt, a)
		}
	case "mad":
		code := opFMad
		switch rt.Kind {
		case ir.KInt:
			code = opIMad
		case ir.KUint:
			code = opUMad
		}
		return lw.dxCall(in, opSpec{code, "tertiary", true}, rt, a)
	case "clamp":
		// clamp(x, lo, hi) = min(max(x, lo), hi).
		if !isFloat(rt) && !rt.IsIntegral() {
			break
		}
		maxOp, minOp := opFMax, opFMin
		switch rt.Kind {
		case ir.KInt:
			maxOp, minOp = opIMax, opIMin
		case ir.KUint:
			maxOp, minOp = opUMax, opUMin
		}
		lw.bd.SetBefore(in)
		mx := lw.bd.Intrinsic("max", rt, []ir.Value{a[0], a[1]}, in.Name()+".max")
		if err := lw.dxCall(mx, opSpec{maxOp, "binary", true}, rt, mx.Args); err != nil {
			return err
		}
		return lw.dxCall(in, opSpec{minOp, "binary", true}, rt, []ir.Value{mx, a[2]})
	case "lerp":
		// lerp(x, y, s) = x + s*(y - x).
		if !isFloat(rt) {
			break
		}
		lw.bd.SetBefore(in)
		d := lw.bd.Binary(ir.OpFSub, a[1], a[0], in.Name()+".d")
		m := lw.bd.Binary(ir.OpFMul, a[2], d, in.Name()+".m")
		return lw.replace(in, ir.OpFAdd, a[0], m)
	case "fmod":
		// HLSL fmod takes the sign of x, like LLVM's frem.
		if isFloat(rt) {
			return lw.replace(in, ir.OpFRem, a[0], a[1])
		}
	case "rcp":
		if isFloat(rt) {
			return lw.replace(in, ir.OpFDiv, ir.ConstFloat(rt, 1), a[0])
		}
	case "exp", "log", "log10":
		// exp(x) = Exp(x * log2(e)); log(x) = Log(x) * ln(2);
		// log10(x) = Log(x) * log10(2). (f32 and f16: DXIL's Exp and Log
		// have no double overload.)
		if rt != ir.F32 && rt != ir.F16 {
			break
		}
		lw.bd.SetBefore(in)
		if name == "exp" {
			s := lw.bd.Binary(ir.OpFMul, a[0], ir.ConstFloat(rt, math.Log2E), in.Name()+".s")
			return lw.dxCall(in, opSpec{opExp, "unary", true}, rt, []ir.Value{s})
		}
		l := lw.bd.Intrinsic("log2", rt, []ir.Value{a[0]}, in.Name()+".l2")
		if err := lw.dxCall(l, opSpec{opLog, "unary", true}, rt, l.Args); err != nil {
			return err
		}
		k := math.Ln2
		if name == "log10" {
			k = math.Log10(2)
		}
		return lw.replace(in, ir.OpFMul, l, ir.ConstFloat(rt, k))
	case "pow":
		// pow(x, y) = Exp(y * Log(x)), DXC's expansion.
		if !isFloat(rt) {
			break
		}
		lw.bd.SetBefore(in)
		l := lw.bd.Intrinsic("log2", rt, []ir.Value{a[0]}, in.Name()+".l2")
		if err := lw.dxCall(l, opSpec{opLog, "unary", true}, rt, l.Args); err != nil {
			return err
		}
		p := lw.bd.Binary(ir.OpFMul, a[1], l, in.Name()+".p")
		return lw.dxCall(in, opSpec{opExp, "unary", true}, rt, []ir.Value{p})
	case "atan2":
		if rt != ir.F32 && rt != ir.F16 {
			break
		}
		return lw.atan2(in)
	case "dot4add_i8packed", "dot4add_u8packed":
		// dx.op.dot4AddPacked.i32(code, acc, a, b).
		code := opDot4AddI8Packed
		if name == "dot4add_u8packed" {
			code = opDot4AddU8Packed
		}
		return lw.dxCall(in, opSpec{code, "dot4AddPacked", true}, rt, []ir.Value{a[2], a[0], a[1]})
	case "dot2add":
		// dx.op.dot2AddHalf.f32(code, acc, ax, ay, bx, by).
		return lw.dxCall(in, opSpec{opDot2AddHalf, "dot2AddHalf", true}, rt, []ir.Value{a[4], a[0], a[1], a[2], a[3]})
	case "f32tof16":
		// The half's bits in the low 16 bits of a uint.
		if arg0() == ir.F32 && rt.IsIntegral() && rt.Bits == 32 {
			return lw.dxCall(in, opSpec{opLegacyF32ToF16, "legacyF32ToF16", false}, nil, a)
		}
	case "f16tof32":
		if rt == ir.F32 && arg0().IsIntegral() && arg0().Bits == 32 {
			return lw.dxCall(in, opSpec{opLegacyF16ToF32, "legacyF16ToF32", false}, nil, a)
		}
	case "ddx_coarse", "ddy_coarse", "ddx_fine", "ddy_fine", "fwidth", "QuadReadAcrossX", "QuadReadAcrossY",
		"QuadReadAcrossDiagonal", "QuadReadLaneAt", "QuadAny", "QuadAll", ir.Demote:
		return lw.quad(in) // quad.go
	case "WaveGetLaneIndex":
		return lw.dxCall(in, opSpec{opWaveGetLaneIndex, "waveGetLaneIndex", false}, nil, nil)
	case "WaveGetLaneCount":
		return lw.dxCall(in, opSpec{opWaveGetLaneCount, "waveGetLaneCount", false}, nil, nil)
	case "WaveIsFirstLane":
		return lw.dxCall(in, opSpec{opWaveIsFirstLane, "waveIsFirstLane", false}, nil, nil)
	case "WaveActiveAnyTrue":
		return lw.dxCall(in, opSpec{opWaveAnyTrue, "waveAnyTrue", false}, nil, a)
	case "WaveActiveAllTrue":
		return lw.dxCall(in, opSpec{opWaveAllTrue, "waveAllTrue", false}, nil, a)
	case "WaveActiveAllEqual":
		return lw.dxCall(in, opSpec{opWaveActiveAllEqual, "waveActiveAllEqual", true}, arg0(), a)
	case "WaveReadLaneFirst":
		return lw.dxCall(in, opSpec{opWaveReadLaneFirst, "waveReadLaneFirst", true}, rt, a)
	case "WaveReadLaneAt":
		return lw.dxCall(in, opSpec{opWaveReadLaneAt, "waveReadLaneAt", true}, rt, a)
	case "WaveActiveBallot":
		// DXIL returns the mask as %dx.types.fouri32 = { i32, i32, i32, i32 };
		// the scalarized users are extractvalues, whose index paths are
		// the same on the struct.
		if rt.Kind != ir.KVector || rt.Len != 4 || !rt.Elem.IsIntegral() || rt.Elem.Bits != 32 {
			break
		}
		st := ir.Struct("dx.types.fouri32", []ir.Field{{Name: "x", Type: ir.I32}, {Name: "y", Type: ir.I32},
			{Name: "z", Type: ir.I32}, {Name: "w", Type: ir.I32}})
		if lw.f.Module != nil {
			lw.f.Module.AddStruct(st)
		}
		in.SetType(st)
		return lw.dxCall(in, opSpec{opWaveActiveBallot, "waveActiveBallot", false}, nil, a)
	case "WaveActiveCountBits":
		return lw.dxCall(in, opSpec{opWaveAllBitCount, "waveAllOp", false}, nil, a)
	case "WavePrefixCountBits":
		return lw.dxCall(in, opSpec{opWavePrefixBitCount, "wavePrefixOp", false}, nil, a)
	case "WaveActiveSum", "WaveActiveProduct", "WaveActiveMin", "WaveActiveMax", "WavePrefixSum", "WavePrefixProduct":
		kind := map[string]int{"WaveActiveSum": waveSum, "WaveActiveProduct": waveProduct, "WaveActiveMin": waveMin,
			"WaveActiveMax": waveMax, "WavePrefixSum": waveSum, "WavePrefixProduct": waveProduct}[name]
		sign := signed
		if rt.Kind == ir.KUint {
			sign = unsigned
		}
		s := opSpec{opWaveActiveOp, "waveActiveOp", true}
		if name == "WavePrefixSum" || name == "WavePrefixProduct" {
			s = opSpec{opWavePrefixOp, "wavePrefixOp", true}
		}
		return lw.dxCall(in, s, rt, []ir.Value{a[0], i8(kind), i8(sign)})
	case "WaveActiveBitAnd", "WaveActiveBitOr", "WaveActiveBitXor":
		kind := map[string]int{"WaveActiveBitAnd": bitAnd, "WaveActiveBitOr": bitOr, "WaveActiveBitXor": bitXor}[name]
		return lw.dxCall(in, opSpec{opWaveActiveBit, "waveActiveBit", true}, rt, []ir.Value{a[0], i8(kind)})
	case "GroupMemoryBarrierWithGroupSync", "GroupMemoryBarrier", "DeviceMemoryBarrier",
		"DeviceMemoryBarrierWithGroupSync", "AllMemoryBarrier", "AllMemoryBarrierWithGroupSync":
		mode := map[string]int{
			"GroupMemoryBarrier":               barrierTGSM,
			"GroupMemoryBarrierWithGroupSync":  barrierTGSM | barrierSync,
			"DeviceMemoryBarrier":              barrierUAVGlob,
			"DeviceMemoryBarrierWithGroupSync": barrierUAVGlob | barrierSync,
			"AllMemoryBarrier":                 barrierUAVGlob | barrierTGSM,
			"AllMemoryBarrierWithGroupSync":    barrierUAVGlob | barrierTGSM | barrierSync,
		}[name]
		return lw.dxCall(in, opSpec{opBarrier, "barrier", false}, nil, []ir.Value{ir.ConstInt(ir.I32, int64(mode))})
	case "llvm.amdgcn.workitem.id.x", "llvm.amdgcn.workitem.id.y", "llvm.amdgcn.workitem.id.z":
		c := int64(name[len(name)-1] - 'x')
		return lw.dxCall(in, opSpec{opThreadIDInGroup, "threadIdInGroup", true}, rt, []ir.Value{ir.ConstInt(ir.I32, c)})
	case "llvm.amdgcn.workgroup.id.x", "llvm.amdgcn.workgroup.id.y", "llvm.amdgcn.workgroup.id.z":
		c := int64(name[len(name)-1] - 'x')
		return lw.dxCall(in, opSpec{opGroupID, "groupId", true}, rt, []ir.Value{ir.ConstInt(ir.I32, c)})
	}
	if expandedByScalarize[name] {
		return fmt.Errorf("no DXIL operation for intrinsic %s with result type %s (the scalarize pass expands it into scalar arithmetic: run the dxil pipeline)", name, rt)
	}
	return fmt.Errorf("no DXIL operation for intrinsic %s with result type %s", name, rt)
}

// expandedByScalarize names the intrinsics that DXIL has no operation for
// and that the scalarize pass expands (compiler/passes/scalarize_math.go,
// scalarize_composite.go).
var expandedByScalarize = map[string]bool{
	"smoothstep": true, "step": true, "sign": true, "degrees": true, "radians": true, "ldexp": true,
	"dot": true, "length": true, "distance": true, "any": true, "all": true, "cross": true,
	"normalize": true, "reflect": true, "refract": true, "mul": true, "transpose": true, "determinant": true,
}

// replace turns in into the binary operation op x, y (same result type).
func (lw *lowerer) replace(in *ir.Instr, op ir.Op, x, y ir.Value) error {
	in.Op, in.Intr, in.Args = op, nil, []ir.Value{x, y}
	return nil
}

// atan2 expands atan2(y, x) the way DXC does: Atan(y / x), then the
// quadrant fix-ups +pi (x < 0, y >= 0), -pi (x < 0, y < 0), and +-pi/2
// on the y axis (x == 0).
func (lw *lowerer) atan2(in *ir.Instr) error {
	y, x := in.Args[0], in.Args[1]
	n := in.Name()
	ft := in.Type() // f32 or f16
	f := func(v float64) ir.Value { return ir.ConstFloat(ft, v) }
	bd := lw.bd
	bd.SetBefore(in)
	q := bd.Binary(ir.OpFDiv, y, x, n+".q")
	at := bd.Intrinsic("atan", ft, []ir.Value{q}, n+".atan")
	if err := lw.dxCall(at, opSpec{opAtan, "unary", true}, ft, at.Args); err != nil {
		return err
	}
	xlt := bd.Cmp(ir.PredOLT, x, f(0), n+".xlt")
	xeq := bd.Cmp(ir.PredOEQ, x, f(0), n+".xeq")
	yge := bd.Cmp(ir.PredOGE, y, f(0), n+".yge")
	ylt := bd.Cmp(ir.PredOLT, y, f(0), n+".ylt")
	ygt := bd.Cmp(ir.PredOGT, y, f(0), n+".ygt")
	plus := bd.Binary(ir.OpFAdd, at, f(math.Pi), n+".pp")
	minus := bd.Binary(ir.OpFSub, at, f(math.Pi), n+".mp")
	c1 := bd.Binary(ir.OpAnd, xlt, yge, n+".c1")
	c2 := bd.Binary(ir.OpAnd, xlt, ylt, n+".c2")
	c3 := bd.Binary(ir.OpAnd, xeq, ygt, n+".c3")
	c4 := bd.Binary(ir.OpAnd, xeq, ylt, n+".c4")
	r := bd.Select(c1, plus, at, n+".r1")
	r = bd.Select(c2, minus, r, n+".r2")
	r = bd.Select(c3, f(math.Pi/2), r, n+".r3")
	in.Op, in.Intr, in.Args = ir.OpSelect, nil, []ir.Value{c4, f(-math.Pi / 2), r}
	return nil
}
