package lower

import (
	"strings"

	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
)

// Intrinsics map to the IR intrinsic table (compiler/ir/intrinsics.go)
// under their HLSL names where it has them (math, reductions, wave
// operations, barriers); elementwise ones are applied row by row to
// matrices. The rest expand to instructions: mul of scalars and vectors
// to fmul/dot, asfloat/asint/asuint to bitcast, select/and/or to
// select/and/or, sincos and modf to sin+cos and trunc+fsub stored to
// their out arguments, isfinite, faceforward, dst, lit and
// D3DCOLORtoUBYTE4 to their definitions, clip to a discard under a
// condition, Interlocked* to atomic instructions (the original value
// stored to the optional out argument). EvaluateAttribute* return the
// attribute as interpolated at the pixel centre (the IR has no
// interpolation model). Derivatives and the Quad* operations are IR
// intrinsics (compiler/ir/quad.go); ddx and ddy are their coarse forms, as
// DXC lowers them.

// elementwiseIntrinsics are the HLSL intrinsics that are IR intrinsics of
// the same name, applied per component.
var elementwiseIntrinsics = map[string]bool{
	"abs": true, "acos": true, "asin": true, "atan": true, "ceil": true, "cos": true, "cosh": true,
	"degrees": true, "exp": true, "exp2": true, "floor": true, "frac": true, "log": true, "log10": true,
	"log2": true, "radians": true, "rcp": true, "round": true, "rsqrt": true, "saturate": true,
	"sign": true, "sin": true, "sinh": true, "sqrt": true, "tan": true, "tanh": true, "trunc": true,
	"isinf": true, "isnan": true, "countbits": true, "firstbithigh": true, "firstbitlow": true,
	"reversebits": true, "f16tof32": true, "f32tof16": true, "atan2": true, "fmod": true,
	"ldexp": true, "max": true, "min": true, "pow": true, "step": true, "clamp": true, "lerp": true,
	"mad": true, "smoothstep": true, "fma": true,
	"ddx_coarse": true, "ddy_coarse": true, "ddx_fine": true, "ddy_fine": true, "fwidth": true,
}

// bitIntrinsics are expanded to 32-bit operations on 16- and 64-bit
// operands (lower_bits.go).
var bitIntrinsics = map[string]bool{"countbits": true, "firstbitlow": true, "firstbithigh": true, "reversebits": true}

// directIntrinsics are IR intrinsics of the same name called with the
// checked argument and result types as they are.
var directIntrinsics = map[string]bool{
	"cross": true, "normalize": true, "reflect": true, "refract": true, "determinant": true,
	"WaveGetLaneIndex": true, "WaveGetLaneCount": true, "WaveIsFirstLane": true,
	"WaveActiveSum": true, "WaveActiveProduct": true, "WaveActiveMin": true, "WaveActiveMax": true,
	"WaveActiveBitAnd": true, "WaveActiveBitOr": true, "WaveActiveBitXor": true,
	"WaveActiveAllTrue": true, "WaveActiveAnyTrue": true, "WaveActiveAllEqual": true,
	"WaveActiveCountBits": true, "WaveActiveBallot": true, "WaveReadLaneFirst": true,
	"WaveReadLaneAt": true, "WavePrefixSum": true, "WavePrefixProduct": true, "WavePrefixCountBits": true,
	"QuadReadAcrossX": true, "QuadReadAcrossY": true, "QuadReadAcrossDiagonal": true, "QuadReadLaneAt": true,
	"QuadAny": true, "QuadAll": true,
	"GroupMemoryBarrierWithGroupSync": true, "GroupMemoryBarrier": true, "DeviceMemoryBarrier": true,
	"DeviceMemoryBarrierWithGroupSync": true, "AllMemoryBarrier": true, "AllMemoryBarrierWithGroupSync": true,
}

// intrinsicCall lowers a call of a built-in function.
func (fl *fnLowerer) intrinsicCall(x *hlsl.Call) ir.Value {
	in := x.Intrinsic
	name := in.Name
	if strings.HasPrefix(name, "Interlocked") {
		return fl.interlocked(x)
	}
	switch name {
	case "ddx", "ddy":
		// DXC lowers ddx/ddy to the coarse derivatives (dx.op.derivCoarseX/Y).
		name += "_coarse"
	}
	// Evaluate the in arguments left to right.
	args := make([]ir.Value, len(x.Args))
	for i, a := range x.Args {
		if i < len(in.Out) && in.Out[i] {
			continue
		}
		args[i] = fl.rv(a)
		if i < len(in.Params) {
			args[i] = fl.convert(args[i], a.Type(), in.Params[i])
		}
	}
	fl.atNode(x)
	ret := fl.irType(in.Ret)
	param := func(i int) *hlsl.Type { return in.Params[i] }
	intr := func(n string, rt *ir.Type, a ...ir.Value) ir.Value {
		return fl.b.Intrinsic(n, rt, a, n)
	}
	switch {
	case elementwiseIntrinsics[name]:
		return fl.mapNumeric(in.Ret, args, func(a []ir.Value) ir.Value {
			rt := ret
			if ret.Kind == ir.KMatrix {
				rt = ir.Vec(ret.Elem, ret.Cols)
			}
			if bitIntrinsics[name] && a[0].Type().Scalar().Bits != 32 {
				return fl.sizedBitOp(name, a[0], rt)
			}
			return intr(name, rt, a...)
		})
	case directIntrinsics[name]:
		if ret == ir.Void {
			fl.b.Intrinsic(name, ir.Void, args, "")
			return nil
		}
		return intr(name, ret, args...)
	}
	switch name {
	case "dot":
		if param(0).IsScalar() || param(0).Dim() == 1 {
			return fl.arith(hlsl.OpMul, args[0], args[1], param(0).Scalar())
		}
		return intr("dot", ret, args...)
	case "length":
		if param(0).IsScalar() || param(0).Dim() == 1 {
			return intr("abs", ret, args[0])
		}
		return intr("length", ret, args...)
	case "distance":
		if param(0).IsScalar() || param(0).Dim() == 1 {
			return intr("abs", ret, fl.arith(hlsl.OpSub, args[0], args[1], param(0)))
		}
		return intr("distance", ret, args...)
	case "any", "all":
		return fl.anyAll(name, args[0], param(0))
	case "transpose":
		if !param(0).IsMatrix() {
			return args[0]
		}
		return intr("transpose", ret, args...)
	case "mul":
		return fl.mul(args[0], args[1], param(0), param(1), in.Ret)
	case "asdouble":
		return fl.asdouble(args[0], args[1], ret)
	case "splitdouble":
		fl.splitdouble(x, args[0], in)
		return nil
	case "asuint":
		if len(x.Args) == 3 {
			fl.splitdouble(x, args[0], in)
			return nil
		}
		if hlsl.Identical(param(0).Scalar(), in.Ret.Scalar()) {
			return args[0]
		}
		return fl.mapNumeric(in.Ret, args, func(a []ir.Value) ir.Value {
			return fl.b.Cast(ir.OpBitcast, a[0], a[0].Type().WithScalar(ret.Scalar()), name)
		})
	case "AddUint64":
		return fl.addUint64(args[0], args[1], ret)
	case "dot4add_i8packed", "dot4add_u8packed":
		return intr(name, ret, args...)
	case "dot2add":
		// The IR's dot2add takes the four half components (DXIL's
		// Dot2AddHalf does): DXC's 32-bit default-mode half is rounded
		// to 16 bits first.
		var ops []ir.Value
		for i := range 2 {
			for k := range 2 {
				c := fl.b.ExtractValue(args[i], []int{k}, "h")
				if c.Type() != ir.F16 {
					c = fl.b.Cast(ir.OpFPTrunc, c, ir.F16, "half")
				}
				ops = append(ops, c)
			}
		}
		return intr(name, ret, append(ops, args[2])...)
	case "asfloat", "asint", "asfloat16", "asint16", "asuint16":
		if hlsl.Identical(param(0).Scalar(), in.Ret.Scalar()) {
			return args[0]
		}
		return fl.mapNumeric(in.Ret, args, func(a []ir.Value) ir.Value {
			return fl.b.Cast(ir.OpBitcast, a[0], a[0].Type().WithScalar(ret.Scalar()), name)
		})
	case "select":
		return fl.mapNumeric(in.Ret, args, func(a []ir.Value) ir.Value {
			return fl.b.Select(a[0], a[1], a[2], "select")
		})
	case "and", "or":
		op := ir.OpAnd
		if name == "or" {
			op = ir.OpOr
		}
		return fl.mapNumeric(in.Ret, args, func(a []ir.Value) ir.Value {
			return fl.b.Binary(op, a[0], a[1], name)
		})
	case "isfinite":
		return fl.mapNumeric(in.Ret, args, func(a []ir.Value) ir.Value {
			bt := ir.BoolOf(a[0].Type())
			inf := intr("isinf", bt, a[0])
			nan := intr("isnan", bt, a[0])
			return fl.b.Unary(ir.OpNot, fl.b.Binary(ir.OpOr, inf, nan, "infnan"), "isfinite")
		})
	case "sincos":
		s := fl.mapNumeric(param(0), args[:1], func(a []ir.Value) ir.Value { return intr("sin", a[0].Type(), a[0]) })
		c := fl.mapNumeric(param(0), args[:1], func(a []ir.Value) ir.Value { return intr("cos", a[0].Type(), a[0]) })
		fl.storeOut(x.Args[1], s, param(1))
		fl.storeOut(x.Args[2], c, param(2))
		return nil
	case "modf":
		t := param(0)
		if !t.IsFloat() {
			fl.storeOut(x.Args[1], args[0], param(1))
			return fl.splat(ir.ConstInt(fl.irType(t.Scalar()), 0), t)
		}
		ip := fl.mapNumeric(t, args[:1], func(a []ir.Value) ir.Value { return intr("trunc", a[0].Type(), a[0]) })
		frac := fl.arith(hlsl.OpSub, args[0], ip, t)
		fl.storeOut(x.Args[1], ip, param(1))
		return frac
	case "faceforward":
		// n if dot(ng, i) < 0, else -n.
		d := fl.dot(args[2], args[1], param(0))
		neg := fl.b.Cmp(ir.PredOLT, d, ir.ConstFloat(ir.F32, 0), "cmp")
		return fl.b.Select(neg, args[0], fl.b.Unary(ir.OpFNeg, args[0], "neg"), "faceforward")
	case "clip":
		fl.clip(args[0], param(0))
		return nil
	case "NonUniformResourceIndex":
		return args[0]
	case "CheckAccessFullyMapped":
		// Every access is fully mapped (hlsl/status.go): the status a
		// load writes is 1.
		return fl.b.Cmp(ir.PredNE, args[0], ir.ConstInt(ir.U32, 0), name)
	case "D3DCOLORtoUBYTE4":
		sw := fl.b.Shuffle(args[0], args[0], []int{2, 1, 0, 3}, "bgra")
		scaled := fl.b.Binary(ir.OpFMul, sw, ir.ConstFloat(sw.Type(), 255.001953), "scaled")
		return fl.b.Cast(ir.OpFPToSI, scaled, ret, name)
	case "dst":
		ay := fl.b.ExtractValue(args[0], []int{1}, "a.y")
		by := fl.b.ExtractValue(args[1], []int{1}, "b.y")
		az := fl.b.ExtractValue(args[0], []int{2}, "a.z")
		bw := fl.b.ExtractValue(args[1], []int{3}, "b.w")
		return fl.b.Construct(ret, []ir.Value{ir.ConstFloat(ir.F32, 1), fl.b.Binary(ir.OpFMul, ay, by, "mul"), az, bw}, name)
	case "lit":
		return fl.lit(args[0], args[1], args[2])
	case "EvaluateAttributeCentroid", "EvaluateAttributeAtSample", "EvaluateAttributeSnapped":
		return args[0]
	case "GetRenderTargetSampleCount":
		return ir.ConstInt(ir.U32, 1)
	case "GetRenderTargetSamplePosition":
		return ir.ConstZero(ret)
	}
	fl.errorf(x, "the intrinsic '%s' is not supported", name)
	return ir.ConstUndef(ret)
}

// dot is the dot product of two values of type t (a product for scalars).
func (fl *fnLowerer) dot(a, b ir.Value, t *hlsl.Type) ir.Value {
	if t.IsScalar() || t.Dim() == 1 {
		return fl.arith(hlsl.OpMul, a, b, t.Scalar())
	}
	return fl.b.Intrinsic("dot", fl.irType(t.Scalar()), []ir.Value{a, b}, "dot")
}

// anyAll lowers any/all: a scalar is tested directly, a matrix row by row.
func (fl *fnLowerer) anyAll(name string, v ir.Value, t *hlsl.Type) ir.Value {
	switch {
	case t.IsScalar() || t.Dim() == 1 && !t.IsMatrix():
		return fl.convert(v, t, hlsl.TypeBool)
	case t.IsMatrix():
		var acc ir.Value
		op := ir.OpOr
		if name == "all" {
			op = ir.OpAnd
		}
		for r := 0; r < t.Rows; r++ {
			row := fl.b.ExtractValue(v, []int{r}, "row")
			var x ir.Value
			if t.Cols == 1 {
				x = fl.convert(row, t.Elem, hlsl.TypeBool)
			} else {
				x = fl.b.Intrinsic(name, ir.Bool, []ir.Value{row}, name)
			}
			if acc == nil {
				acc = x
			} else {
				acc = fl.b.Binary(op, acc, x, name)
			}
		}
		return acc
	}
	return fl.b.Intrinsic(name, ir.Bool, []ir.Value{v}, name)
}

// mul lowers HLSL mul: products with a scalar are componentwise, vector
// times vector is a dot product, the rest is the IR `mul` intrinsic
// (row vector times matrix, matrix times column vector, matrix product).
func (fl *fnLowerer) mul(a, b ir.Value, ta, tb, rt *hlsl.Type) ir.Value {
	switch {
	case ta.IsScalar() && tb.IsScalar():
		return fl.arith(hlsl.OpMul, a, b, ta)
	case ta.IsScalar():
		return fl.arith(hlsl.OpMul, fl.splat(a, tb), b, tb)
	case tb.IsScalar():
		return fl.arith(hlsl.OpMul, a, fl.splat(b, ta), ta)
	case ta.IsVector() && tb.IsVector():
		return fl.dot(a, b, ta)
	}
	return fl.b.Intrinsic("mul", fl.irType(rt), []ir.Value{a, b}, "mul")
}

// clip discards the pixel when any component of v is negative.
func (fl *fnLowerer) clip(v ir.Value, t *hlsl.Type) {
	neg := fl.arith(hlsl.OpLt, v, fl.splat(ir.ConstFloat(ir.F32, 0), t), t)
	c := fl.anyAll("any", neg, boolOf(t))
	kill := fl.newBlock("clip.discard")
	cont := fl.newBlock("clip.cont")
	fl.b.CondBr(c, kill, cont).SetSelectionMerge(cont)
	fl.setBlock(kill)
	fl.discard()
	if fl.demote {
		fl.b.Br(cont)
	}
	fl.setBlock(cont)
}

// lit computes the lighting coefficients (1, diffuse, specular, 1).
func (fl *fnLowerer) lit(nl, nh, m ir.Value) ir.Value {
	zero := ir.ConstFloat(ir.F32, 0)
	nlNeg := fl.b.Cmp(ir.PredOLT, nl, zero, "cmp")
	nhNeg := fl.b.Cmp(ir.PredOLT, nh, zero, "cmp")
	diffuse := fl.b.Select(nlNeg, zero, nl, "diffuse")
	pow := fl.b.Intrinsic("pow", ir.F32, []ir.Value{nh, m}, "pow")
	noSpec := fl.b.Binary(ir.OpOr, nlNeg, nhNeg, "or")
	spec := fl.b.Select(noSpec, zero, pow, "specular")
	one := ir.ConstFloat(ir.F32, 1)
	return fl.b.Construct(ir.Vec(ir.F32, 4), []ir.Value{one, diffuse, spec, one}, "lit")
}

// atomicKind maps an Interlocked operation to the IR atomic kind.
func atomicKind(op string, t *hlsl.Type) ir.AtomicKind {
	signed := t.Scalar() != nil && t.Scalar().Kind == hlsl.KindInt
	switch op {
	case "Add":
		return ir.AtomicAdd
	case "Min":
		if signed {
			return ir.AtomicMin
		}
		return ir.AtomicUMin
	case "Max":
		if signed {
			return ir.AtomicMax
		}
		return ir.AtomicUMax
	case "And":
		return ir.AtomicAnd
	case "Or":
		return ir.AtomicOr
	case "Xor":
		return ir.AtomicXor
	case "Exchange":
		return ir.AtomicXchg
	}
	return ir.AtomicCmpXchg // CompareExchange, CompareStore
}

// interlocked lowers InterlockedOp(dest, value[, original]) and the
// compare forms (dest, compare, value[, original]) to one atomic.
func (fl *fnLowerer) interlocked(x *hlsl.Call) ir.Value {
	in := x.Intrinsic
	op := strings.TrimPrefix(in.Name, "Interlocked")
	dest := stripNoop(x.Args[0])
	pl := fl.lvalue(dest)
	if pl == nil {
		return nil
	}
	var p ir.Value
	if pl.tex == nil {
		p = fl.pointer(pl)
	}
	if p == nil && !(pl.tex != nil && len(pl.proj) == 0 && pl.t.IsScalar()) {
		fl.errorf(x.Args[0], "the destination of '%s' must be a scalar in memory", in.Name)
		return nil
	}
	dt := dest.Type()
	rest := x.Args[1:]
	var v, cmp ir.Value
	var orig hlsl.Expr
	if op == "CompareExchange" || op == "CompareStore" {
		cmp = fl.atomicOperand(rest[0], op, dt)
		v = fl.atomicOperand(rest[1], op, dt)
		if len(rest) > 2 {
			orig = rest[2]
		}
	} else {
		v = fl.atomicOperand(rest[0], op, dt)
		if len(rest) > 1 {
			orig = rest[1]
		}
	}
	fl.atNode(x)
	var old ir.Value
	if pl.tex != nil {
		old = fl.texelAtomic(pl, atomicKind(op, dt), v, cmp) // lower_rwtexture.go
	} else {
		old = fl.b.Atomic(atomicKind(op, dt), p, v, cmp, "old")
	}
	if orig != nil {
		fl.storeOut(orig, old, dt)
	}
	return nil
}

// atomicOperand lowers a value operand of an Interlocked operation to the
// destination's type dt. D3D takes these operands as uint (Min and Max:
// as dt), so a floating-point argument becomes uint (Min, Max: int)
// before it is reinterpreted as dt: InterlockedAdd(intDest, -1.0f) adds
// (uint)-1.0f = 0, not -1 (vkd3d uav-atomics.shader_test).
func (fl *fnLowerer) atomicOperand(e hlsl.Expr, op string, dt *hlsl.Type) ir.Value {
	if ic, ok := e.(*hlsl.ImplicitCast); ok && ic.X.Type().IsFloat() && ic.X.Type().IsScalar() {
		via := hlsl.TypeUint
		if op == "Min" || op == "Max" {
			via = hlsl.TypeInt
		}
		v := fl.convert(fl.rv(ic.X), ic.X.Type(), via)
		return fl.convert(v, via, dt)
	}
	return fl.convert(fl.rv(e), e.Type(), dt)
}

// methodCall lowers a method of a buffer object.
func (fl *fnLowerer) methodCall(x *hlsl.MethodCall) ir.Value {
	m := x.Method
	rt := x.Recv.Type()
	buf := fl.resourcePtr(x.Recv)
	args := make([]ir.Value, len(x.Args))
	for i, a := range x.Args {
		if i < len(m.Out) && m.Out[i] || m.Params[i].Kind == hlsl.KindResource {
			continue // out parameters are stored after; samplers are pointers
		}
		args[i] = fl.convert(fl.rv(a), a.Type(), m.Params[i])
	}
	fl.atNode(x)
	if rt.Resource.IsTexture() {
		return fl.textureCall(x, buf, args)
	}
	name := exprName(x.Recv)
	word := func(addr ir.Value, k int) ir.Value {
		w := fl.b.Binary(ir.OpLShr, addr, ir.ConstInt(ir.U32, 2), "word")
		if k > 0 {
			w = fl.b.Binary(ir.OpAdd, w, ir.ConstInt(ir.U32, int64(k)), "word")
		}
		return fl.b.Access(buf, []ir.Value{w}, name+".p")
	}
	if n := len(m.Out); n > 0 && m.Out[n-1] && hlsl.IsBufferResource(rt) && strings.HasPrefix(m.Name, "Load") {
		// Load(…, out status) (hlsl/status.go): written after the load.
		defer fl.storeOut(x.Args[n-1], ir.ConstInt(ir.U32, 1), hlsl.TypeUint)
	}
	if v, ok := fl.bufferMethod(x, buf, args); ok {
		return v
	}
	switch {
	case m.Raw != nil:
		return fl.rawTemplate(x, buf, args)
	case m.Name == "Load" && rt.Resource.Templated():
		p := fl.b.Access(buf, []ir.Value{args[0]}, name+".p")
		return fl.load(&place{ptr: p, t: rt.Elem, mem: true, name: name})
	case strings.HasPrefix(m.Name, "Load"):
		n := 1
		if len(m.Name) == 5 {
			n = int(m.Name[4] - '0')
		}
		el := make([]ir.Value, n)
		for k := range el {
			el[k] = fl.b.Load(word(args[0], k), name)
		}
		if n == 1 {
			return el[0]
		}
		return fl.b.Construct(ir.Vec(ir.U32, n), el, "load")
	case strings.HasPrefix(m.Name, "Store"):
		n := m.Params[1].Dim()
		for k := 0; k < n; k++ {
			v := args[1]
			if n > 1 {
				v = fl.b.ExtractValue(v, []int{k}, "elem")
			}
			fl.b.Store(v, word(args[0], k))
		}
		return nil
	case strings.HasSuffix(m.Name, "64") && strings.HasPrefix(m.Name, "Interlocked"):
		return fl.atomic64(x, buf, args) // lower_atomic64.go
	case strings.HasPrefix(m.Name, "Interlocked"):
		op := strings.TrimPrefix(m.Name, "Interlocked")
		p := word(args[0], 0)
		var v, cmp ir.Value
		orig := -1
		if op == "CompareExchange" || op == "CompareStore" {
			cmp, v = args[1], args[2]
			if len(args) > 3 {
				orig = 3
			}
		} else {
			v = args[1]
			if len(args) > 2 {
				orig = 2
			}
		}
		old := fl.b.Atomic(atomicKind(op, hlsl.TypeUint), p, v, cmp, "old")
		if orig >= 0 {
			fl.storeOut(x.Args[orig], old, hlsl.TypeUint)
		}
		return nil
	case m.Name == "IncrementCounter" || m.Name == "DecrementCounter":
		c := fl.counterOf(x.Recv) // a dynamic buffer selects its counter (lower_resvalue.go)
		if m.Name == "IncrementCounter" {
			return fl.b.Atomic(ir.AtomicAdd, c, ir.ConstInt(ir.U32, 1), nil, "counter")
		}
		old := fl.b.Atomic(ir.AtomicAdd, c, ir.ConstInt(ir.U32, -1), nil, "counter")
		return fl.b.Binary(ir.OpSub, old, ir.ConstInt(ir.U32, 1), "counter")
	}
	fl.errorf(x, "the method '%s' of '%s' is not supported", m.Name, rt)
	return ir.ConstUndef(fl.irType(m.Ret))
}
