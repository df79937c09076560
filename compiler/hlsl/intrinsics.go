package hlsl

import (
	"fmt"
	"sort"
)

// Intrinsic is a resolved call of a built-in function. Params are the
// parameter types of this particular call (each argument has been
// converted to its parameter type); Out marks out/inout parameters, whose
// arguments are lvalues; Ret is the result type. Lowering dispatches on
// Name.
type Intrinsic struct {
	Name   string
	Params []*Type
	Out    []bool
	Ret    *Type
}

// intrinsicKind groups intrinsics that share a signature scheme.
type intrinsicKind uint8

const (
	ikFloat     intrinsicKind = iota // componentwise, float components
	ikNumeric                        // componentwise, keeps the promoted type
	ikBitOps                         // componentwise on int/uint
	ikPredicate                      // componentwise float -> bool
	ikSpecial                        // custom resolver
)

type intrinsicDef struct {
	kind  intrinsicKind
	nargs int
}

var intrinsicTable = map[string]intrinsicDef{
	// Float componentwise.
	"acos": {ikFloat, 1}, "asin": {ikFloat, 1}, "atan": {ikFloat, 1}, "cos": {ikFloat, 1},
	"cosh": {ikFloat, 1}, "sin": {ikFloat, 1}, "sinh": {ikFloat, 1}, "tan": {ikFloat, 1},
	"tanh": {ikFloat, 1}, "exp": {ikFloat, 1}, "exp2": {ikFloat, 1}, "log": {ikFloat, 1},
	"log10": {ikFloat, 1}, "log2": {ikFloat, 1}, "sqrt": {ikFloat, 1}, "rsqrt": {ikFloat, 1},
	"rcp": {ikFloat, 1}, "ceil": {ikFloat, 1}, "floor": {ikFloat, 1}, "frac": {ikFloat, 1},
	"round": {ikFloat, 1}, "trunc": {ikFloat, 1}, "degrees": {ikFloat, 1}, "radians": {ikFloat, 1},
	"saturate": {ikFloat, 1}, "ddx": {ikFloat, 1}, "ddy": {ikFloat, 1}, "ddx_coarse": {ikFloat, 1},
	"ddy_coarse": {ikFloat, 1}, "ddx_fine": {ikFloat, 1}, "ddy_fine": {ikFloat, 1}, "fwidth": {ikFloat, 1},
	"atan2": {ikFloat, 2}, "fmod": {ikFloat, 2}, "pow": {ikFloat, 2}, "step": {ikFloat, 2},
	"ldexp": {ikFloat, 2}, "lerp": {ikFloat, 3}, "smoothstep": {ikFloat, 3},
	// Numeric componentwise.
	"abs": {ikNumeric, 1}, "sign": {ikNumeric, 1}, "min": {ikNumeric, 2}, "max": {ikNumeric, 2},
	"clamp": {ikNumeric, 3}, "mad": {ikNumeric, 3}, "fma": {ikSpecial, 3},
	// Bit operations.
	"countbits": {ikBitOps, 1}, "reversebits": {ikBitOps, 1}, "firstbithigh": {ikBitOps, 1},
	"firstbitlow": {ikBitOps, 1},
	// Predicates.
	"isinf": {ikPredicate, 1}, "isnan": {ikPredicate, 1}, "isfinite": {ikPredicate, 1},
	// Everything else has its own resolver.
	"all": {ikSpecial, 1}, "any": {ikSpecial, 1}, "dot": {ikSpecial, 2}, "cross": {ikSpecial, 2},
	"length": {ikSpecial, 1}, "distance": {ikSpecial, 2}, "normalize": {ikSpecial, 1},
	"reflect": {ikSpecial, 2}, "refract": {ikSpecial, 3}, "faceforward": {ikSpecial, 3},
	"determinant": {ikSpecial, 1}, "transpose": {ikSpecial, 1}, "mul": {ikSpecial, 2},
	"asfloat": {ikSpecial, 1}, "asint": {ikSpecial, 1}, "asuint": {ikSpecial, 1},
	"asdouble": {ikSpecial, 2}, "splitdouble": {ikSpecial, 3}, "AddUint64": {ikSpecial, 2},
	"dot4add_i8packed": {ikSpecial, 3}, "dot4add_u8packed": {ikSpecial, 3}, "dot2add": {ikSpecial, 3},
	"asfloat16": {ikSpecial, 1}, "asint16": {ikSpecial, 1}, "asuint16": {ikSpecial, 1},
	"sincos": {ikSpecial, 3}, "modf": {ikSpecial, 2}, "select": {ikSpecial, 3},
	"and": {ikSpecial, 2}, "or": {ikSpecial, 2}, "clip": {ikSpecial, 1},
	"f32tof16": {ikSpecial, 1}, "f16tof32": {ikSpecial, 1}, "NonUniformResourceIndex": {ikSpecial, 1}, "CheckAccessFullyMapped": {ikSpecial, 1},
	"D3DCOLORtoUBYTE4": {ikSpecial, 1}, "dst": {ikSpecial, 2}, "lit": {ikSpecial, 3},
	"EvaluateAttributeCentroid": {ikSpecial, 1}, "EvaluateAttributeAtSample": {ikSpecial, 2},
	"EvaluateAttributeSnapped": {ikSpecial, 2}, "GetRenderTargetSampleCount": {ikSpecial, 0},
	"GetRenderTargetSamplePosition": {ikSpecial, 1},
	// Wave intrinsics.
	"WaveGetLaneIndex": {ikSpecial, 0}, "WaveGetLaneCount": {ikSpecial, 0}, "WaveIsFirstLane": {ikSpecial, 0},
	"WaveActiveSum": {ikSpecial, 1}, "WaveActiveProduct": {ikSpecial, 1}, "WaveActiveMin": {ikSpecial, 1},
	"WaveActiveMax": {ikSpecial, 1}, "WaveActiveBitAnd": {ikSpecial, 1}, "WaveActiveBitOr": {ikSpecial, 1},
	"WaveActiveBitXor": {ikSpecial, 1}, "WaveActiveAllTrue": {ikSpecial, 1}, "WaveActiveAnyTrue": {ikSpecial, 1},
	"WaveActiveAllEqual": {ikSpecial, 1}, "WaveActiveCountBits": {ikSpecial, 1}, "WaveActiveBallot": {ikSpecial, 1},
	"WaveReadLaneFirst": {ikSpecial, 1}, "WaveReadLaneAt": {ikSpecial, 2}, "WavePrefixSum": {ikSpecial, 1},
	"WavePrefixProduct": {ikSpecial, 1}, "WavePrefixCountBits": {ikSpecial, 1},
	// Quad intrinsics (SM6.0; QuadAny/QuadAll SM6.7).
	"QuadReadAcrossX": {ikSpecial, 1}, "QuadReadAcrossY": {ikSpecial, 1}, "QuadReadAcrossDiagonal": {ikSpecial, 1},
	"QuadReadLaneAt": {ikSpecial, 2}, "QuadAny": {ikSpecial, 1}, "QuadAll": {ikSpecial, 1},
	// Barriers.
	"GroupMemoryBarrierWithGroupSync": {ikSpecial, 0}, "GroupMemoryBarrier": {ikSpecial, 0},
	"DeviceMemoryBarrier": {ikSpecial, 0}, "DeviceMemoryBarrierWithGroupSync": {ikSpecial, 0},
	"AllMemoryBarrier": {ikSpecial, 0}, "AllMemoryBarrierWithGroupSync": {ikSpecial, 0},
	// Atomics: nargs is the minimum; the original-value out parameter is optional.
	"InterlockedAdd": {ikSpecial, 2}, "InterlockedMin": {ikSpecial, 2}, "InterlockedMax": {ikSpecial, 2},
	"InterlockedAnd": {ikSpecial, 2}, "InterlockedOr": {ikSpecial, 2}, "InterlockedXor": {ikSpecial, 2},
	"InterlockedExchange": {ikSpecial, 3}, "InterlockedCompareExchange": {ikSpecial, 4},
	"InterlockedCompareStore": {ikSpecial, 3},
}

// lookupIntrinsic reports whether name is an intrinsic function.
func lookupIntrinsic(name string) bool {
	_, ok := intrinsicTable[name]
	return ok
}

// intrinsicNames lists all intrinsic names (for suggestions).
func intrinsicNames() []string {
	names := make([]string, 0, len(intrinsicTable))
	for n := range intrinsicTable {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// atomicOptionalOut lists atomics whose last (original value) argument is
// optional.
var atomicOptionalOut = map[string]bool{
	"InterlockedAdd": true, "InterlockedMin": true, "InterlockedMax": true,
	"InterlockedAnd": true, "InterlockedOr": true, "InterlockedXor": true,
	// RWByteAddressBuffer's 64-bit methods (atomic64.go).
	"InterlockedAdd64": true, "InterlockedMin64": true, "InterlockedMax64": true,
	"InterlockedAnd64": true, "InterlockedOr64": true, "InterlockedXor64": true,
}

// checkIntrinsic resolves an intrinsic call; arguments are already checked
// and free of errors.
func (c *checker) checkIntrinsic(e *Call) {
	def := intrinsicTable[e.Name]
	n := len(e.Args)
	want := def.nargs
	if atomicOptionalOut[e.Name] && n == 3 || e.Name == "asuint" && n == 3 {
		want = 3 // asuint(double, out uint lowbits, out uint highbits)
	}
	if n != want {
		if n > want {
			c.errorf(e, "too many arguments to function call '%s', expected %d, have %d", e.Name, want, n)
		} else {
			c.errorf(e, "too few arguments to function call '%s', expected %d, have %d", e.Name, want, n)
		}
		return
	}
	for _, a := range e.Args {
		if t := a.Type(); !t.IsNumeric() {
			c.errorf(a, "no matching intrinsic overload for '%s': argument of type '%s' is not a scalar, vector or matrix", e.Name, t)
			return
		}
	}
	var in *Intrinsic
	switch def.kind {
	case ikFloat:
		shape, ok := c.unifyArgs(e, TypeFloat)
		if !ok {
			return
		}
		in = sameParams(e.Name, shape, n, shape)
	case ikNumeric:
		shape, ok := c.unifyArgs(e, nil)
		if !ok {
			return
		}
		ret := shape
		if e.Name == "sign" {
			ret = shape.WithScalar(TypeInt)
		}
		in = sameParams(e.Name, shape, n, ret)
	case ikBitOps:
		t := e.Args[0].Type()
		if t.IsFloat() {
			c.errorf(e.Args[0], "'%s' requires an integer argument, not '%s'", e.Name, t)
			return
		}
		// The operand keeps its width (countbits of a uint64_t counts 64
		// bits); the results are 32-bit except reversebits's, as in DXC.
		pt := t.WithScalar(TypeUint)
		switch t.Scalar().Width() {
		case 16:
			pt = t.WithScalar(TypeUint16)
		case 64:
			pt = t.WithScalar(TypeUint64)
		}
		ret := t.WithScalar(TypeUint)
		if e.Name == "firstbithigh" && t.Scalar().Kind == KindInt {
			pt, ret = t, t.WithScalar(TypeInt)
		}
		if e.Name == "reversebits" {
			ret = pt
		}
		in = sameParams(e.Name, pt, 1, ret)
	case ikPredicate:
		t := e.Args[0].Type().WithScalar(TypeFloat)
		in = sameParams(e.Name, t, 1, boolShape(t))
	default:
		in = c.specialIntrinsic(e)
	}
	if in == nil {
		return
	}
	e.Intrinsic = in
	e.T = in.Ret
	if c.curFunc != nil {
		c.intrinsicCalls[c.curFunc] = append(c.intrinsicCalls[c.curFunc], e)
	}
	for i, a := range e.Args {
		if i >= len(in.Params) {
			break
		}
		if in.Out[i] {
			if !c.checkLvalue(a) {
				e.T = TypeError
				return
			}
			if !Identical(a.Type(), in.Params[i]) {
				if ok, _, _ := convertible(in.Params[i], a.Type(), convImplicit, false); !ok {
					c.errorf(a, "cannot convert output argument of type '%s' to '%s'", a.Type(), in.Params[i])
					e.T = TypeError
					return
				}
				e.Args[i] = buildConversion(a, in.Params[i])
			}
			continue
		}
		e.Args[i] = c.coerce(a, in.Params[i], fmt.Sprintf("for argument %d of '%s'", i+1, e.Name))
	}
}

func sameParams(name string, t *Type, n int, ret *Type) *Intrinsic {
	in := &Intrinsic{Name: name, Ret: ret}
	for i := 0; i < n; i++ {
		in.Params = append(in.Params, t)
		in.Out = append(in.Out, false)
	}
	return in
}

// unifyArgs combines the argument types of a componentwise intrinsic: the
// common shape and (unless scalar is given) the promoted component type.
func (c *checker) unifyArgs(e *Call, scalar *Type) (*Type, bool) {
	acc := e.Args[0]
	s := acc.Type().Scalar()
	shape := acc.Type()
	for _, a := range e.Args[1:] {
		s = commonScalarTypes(s, a.Type().Scalar(), isUntypedLiteral(acc), isUntypedLiteral(a))
		t, truncates, ok := commonShape(shape, a.Type(), TypeFloat)
		if !ok {
			c.errorf(e, "no matching intrinsic overload for '%s': incompatible argument dimensions", e.Name)
			return nil, false
		}
		if truncates {
			c.warnf(a, "implicit truncation of vector type")
		}
		shape = t
		if !isUntypedLiteral(a) {
			acc = a
		}
	}
	// A float intrinsic keeps the arguments' float type (half, double,
	// min16float compute in their own precision, as DXC's overloads do);
	// integer arguments convert to scalar.
	if scalar != nil && !(scalar.Kind == KindFloat && s.Kind == KindFloat) {
		s = scalar
	}
	if s.Kind == KindBool {
		s = TypeInt
	}
	return shape.WithScalar(s), true
}

// commonScalarTypes promotes two component types (literal-aware).
func commonScalarTypes(a, b *Type, litA, litB bool) *Type {
	switch {
	case litA && !litB:
		if a.Kind == KindFloat && b.IsIntegral() {
			return TypeFloat
		}
		return b
	case litB && !litA:
		if b.Kind == KindFloat && a.IsIntegral() {
			return TypeFloat
		}
		return a
	}
	if scalarRank(a) >= scalarRank(b) {
		return a
	}
	return b
}

// specialIntrinsic resolves intrinsics with individual signatures.
func (c *checker) specialIntrinsic(e *Call) *Intrinsic {
	args := e.Args
	t0 := func() *Type { return args[0].Type() }
	name := e.Name
	floatOf := func(t *Type) *Type {
		if t.Scalar().Kind == KindFloat {
			return t // half and double keep their width
		}
		return t.WithScalar(TypeFloat)
	}
	vecOrScalar := func(t *Type) bool { return t.IsScalar() || t.IsVector() }
	in := &Intrinsic{Name: name}
	set := func(ret *Type, params ...*Type) *Intrinsic {
		in.Ret = ret
		in.Params = params
		in.Out = make([]bool, len(params))
		return in
	}
	switch name {
	case "all", "any":
		return set(TypeBool, t0())
	case "clip":
		return set(TypeVoid, floatOf(t0()))
	case "NonUniformResourceIndex":
		return set(TypeUint, TypeUint)
	case "CheckAccessFullyMapped":
		return set(TypeBool, TypeUint) // status.go
	case "D3DCOLORtoUBYTE4":
		return set(VectorOf(TypeInt, 4), VectorOf(TypeFloat, 4))
	case "dst":
		for _, a := range args {
			if t := a.Type(); !t.IsScalar() && !(t.IsVector() && t.Len == 4) {
				c.errorf(a, "'dst' requires float4 arguments, not '%s'", t)
				return nil
			}
		}
		f4 := VectorOf(TypeFloat, 4)
		return set(f4, f4, f4)
	case "lit":
		return set(VectorOf(TypeFloat, 4), TypeFloat, TypeFloat, TypeFloat)
	case "EvaluateAttributeCentroid":
		return set(floatOf(t0()), floatOf(t0()))
	case "EvaluateAttributeAtSample":
		return set(floatOf(t0()), floatOf(t0()), TypeUint)
	case "EvaluateAttributeSnapped":
		return set(floatOf(t0()), floatOf(t0()), VectorOf(TypeInt, 2))
	case "GetRenderTargetSampleCount":
		return set(TypeUint)
	case "GetRenderTargetSamplePosition":
		return set(VectorOf(TypeFloat, 2), TypeInt)
	case "f32tof16":
		return set(t0().WithScalar(TypeUint), floatOf(t0()))
	case "f16tof32":
		return set(floatOf(t0()), t0().WithScalar(TypeUint))
	case "dot":
		if args[0].Type().IsMatrix() || args[1].Type().IsMatrix() {
			c.errorf(e, "'dot' requires scalar or vector arguments, not matrices")
			return nil
		}
		shape, ok := c.unifyArgs(e, nil)
		if !ok {
			return nil
		}
		if !vecOrScalar(shape) {
			c.errorf(e, "'dot' requires vector arguments, not '%s'", shape)
			return nil
		}
		return set(shape.Scalar(), shape, shape)
	case "cross":
		f3 := VectorOf(TypeFloat, 3)
		return set(f3, f3, f3)
	case "length", "normalize":
		t := floatOf(t0())
		if !vecOrScalar(t) {
			c.errorf(e, "'%s' requires a vector argument, not '%s'", name, t0())
			return nil
		}
		if name == "length" {
			return set(t.Scalar(), t)
		}
		return set(t, t)
	case "distance", "reflect":
		shape, ok := c.unifyArgs(e, TypeFloat)
		if !ok {
			return nil
		}
		if !vecOrScalar(shape) {
			c.errorf(e, "'%s' requires vector arguments, not '%s'", name, shape)
			return nil
		}
		if name == "distance" {
			return set(shape.Scalar(), shape, shape)
		}
		return set(shape, shape, shape)
	case "refract":
		shape, _, ok := commonShape(floatOf(args[0].Type()), floatOf(args[1].Type()), TypeFloat)
		if !ok || !shape.IsVector() && !shape.IsScalar() || args[0].Type().IsMatrix() || args[1].Type().IsMatrix() {
			c.errorf(e, "'refract' requires vector arguments")
			return nil
		}
		if !args[2].Type().IsScalar() && !(args[2].Type().IsVector() && args[2].Type().Len == 1) {
			c.errorf(args[2], "'refract' requires a scalar index of refraction, not '%s'", args[2].Type())
			return nil
		}
		return set(shape, shape, shape, TypeFloat)
	case "faceforward":
		shape, ok := c.unifyArgs(e, TypeFloat)
		if !ok {
			return nil
		}
		return set(shape, shape, shape, shape)
	case "determinant":
		t := t0()
		if t.IsScalar() {
			return set(TypeFloat, TypeFloat)
		}
		if !t.IsMatrix() {
			c.errorf(e, "'determinant' requires a matrix, not '%s'", t)
			return nil
		}
		// A non-square matrix is truncated to its leading square block.
		n := min(t.Rows, t.Cols)
		if t.Rows != t.Cols {
			c.warnf(e.Args[0], "implicit truncation of vector type")
		}
		return set(TypeFloat, matrixOf(TypeFloat, n, n, t.RowMajor))
	case "transpose":
		t := t0()
		if t.IsScalar() {
			return set(t, t)
		}
		if !t.IsMatrix() {
			c.errorf(e, "'transpose' requires a matrix, not '%s'", t)
			return nil
		}
		return set(matrixOf(t.Elem, t.Cols, t.Rows, t.RowMajor), t)
	case "mul":
		return c.resolveMul(e, in)
	case "asuint", "splitdouble":
		if len(args) == 3 || name == "splitdouble" {
			// splitdouble(double value, out uint lowbits, out uint highbits).
			t := t0().WithScalar(TypeDouble)
			if !vecOrScalar(t) {
				c.errorf(e, "'%s' requires a double scalar or vector, not '%s'", name, t0())
				return nil
			}
			u := t.WithScalar(TypeUint)
			set(TypeVoid, t, u, u)
			in.Out[1], in.Out[2] = true, true
			return in
		}
		fallthrough
	case "asfloat", "asint":
		t := t0()
		if t.IsBool() {
			c.errorf(e, "'%s' requires an int, uint or float argument, not '%s'", name, t)
			return nil
		}
		if w := t.Scalar().Width(); w != 32 {
			alt := "asuint(double, out uint, out uint) or asdouble"
			if w == 16 {
				alt = "asfloat16, asint16 or asuint16"
			}
			c.errorf(e, "'%s' requires a 32-bit argument, not '%s' (use %s)", name, t, alt)
			return nil
		}
		target := map[string]*Type{"asfloat": TypeFloat, "asint": TypeInt, "asuint": TypeUint}[name]
		return set(t.WithScalar(target), t)
	case "fma":
		// fma(a, b, c) exists for doubles only (DXC).
		shape, ok := c.unifyArgs(e, nil)
		if !ok {
			return nil
		}
		if shape.Scalar().Kind != KindFloat || shape.Scalar().Width() != 64 {
			c.errorf(e, "'fma' requires double arguments, not '%s'", shape)
			return nil
		}
		return set(shape, shape, shape, shape)
	case "asdouble":
		// asdouble(uint lowbits, uint highbits): one double per
		// component (DXC takes up to uint4).
		shape, ok := c.unifyArgs(e, TypeUint)
		if !ok {
			return nil
		}
		if !vecOrScalar(shape) {
			c.errorf(e, "'asdouble' requires uint scalar or vector arguments, not '%s'", shape)
			return nil
		}
		return set(shape.WithScalar(TypeDouble), shape, shape)
	case "AddUint64":
		// Two (uint2) or four (uint4) words: low/high pairs added with carry.
		t := t0()
		if !t.IsVector() || t.Len != 2 && t.Len != 4 || !args[1].Type().IsVector() || args[1].Type().Len != t.Len {
			c.errorf(e, "'AddUint64' requires two uint2 or two uint4 arguments, not '%s' and '%s'", t, args[1].Type())
			return nil
		}
		u := t.WithScalar(TypeUint)
		return set(u, u, u)
	case "dot4add_i8packed":
		// int dot4add_i8packed(uint a, uint b, int acc) (SM6.4).
		return set(TypeInt, TypeUint, TypeUint, TypeInt)
	case "dot4add_u8packed":
		return set(TypeUint, TypeUint, TypeUint, TypeUint)
	case "dot2add":
		// float dot2add(half2 a, half2 b, float acc) (SM6.4): half is
		// 16-bit with -enable-16bit-types, else DXC's 32-bit half (the
		// lowering rounds it to 16 bits, as DXIL's Dot2AddHalf takes
		// halves).
		h := TypeHalf
		if c.opts.Enable16BitTypes {
			h = TypeHalf16
		}
		return set(TypeFloat, VectorOf(h, 2), VectorOf(h, 2), TypeFloat)
	case "asfloat16", "asint16", "asuint16":
		t := t0()
		if t.IsBool() || t.Scalar().Width() != 16 || t.Scalar().Prec != "" {
			c.errorf(e, "'%s' requires a 16-bit argument (half, int16_t or uint16_t with -enable-16bit-types), not '%s'", name, t)
			return nil
		}
		target := map[string]*Type{"asfloat16": TypeHalf16, "asint16": TypeInt16, "asuint16": TypeUint16}[name]
		return set(t.WithScalar(target), t)
	case "sincos":
		t := floatOf(t0())
		set(TypeVoid, t, t, t)
		in.Out[1], in.Out[2] = true, true
		return in
	case "modf":
		t := floatOf(t0())
		if args[0].Type().IsIntegral() {
			t = args[0].Type()
		}
		set(t, t, t)
		in.Out[1] = true
		return in
	case "select":
		cond := args[0].Type()
		shape, truncates, ok := commonShape(args[1].Type(), args[2].Type(), commonScalar(args[1], args[2]))
		if ok {
			shape, truncates, ok = commonShapeKeep(shape, cond)
		}
		if !ok {
			c.errorf(e, "no matching intrinsic overload for 'select': incompatible argument dimensions")
			return nil
		}
		if truncates {
			c.warnf(e, "implicit truncation of vector type")
		}
		return set(shape, boolShape(shape), shape, shape)
	case "and", "or":
		shape, ok := c.unifyArgs(e, TypeBool)
		if !ok {
			return nil
		}
		b := boolShape(shape)
		return set(b, b, b)
	}
	return c.waveOrAtomic(e, in, set)
}

// commonShapeKeep combines shape with another operand's dimensions while
// keeping shape's component type.
func commonShapeKeep(shape, other *Type) (*Type, bool, bool) {
	return commonShape(shape, other, shape.Scalar())
}

// resolveMul resolves mul(a, b) for every combination of scalar, vector
// and matrix operands.
func (c *checker) resolveMul(e *Call, in *Intrinsic) *Intrinsic {
	a, b := e.Args[0].Type(), e.Args[1].Type()
	s := commonScalar(e.Args[0], e.Args[1])
	if s.Kind == KindBool {
		s = TypeInt
	}
	done := func(ret, pa, pb *Type) *Intrinsic {
		in.Ret, in.Params, in.Out = ret, []*Type{pa, pb}, []bool{false, false}
		return in
	}
	// Only true scalars scale; 1-vectors and 1x1 matrices multiply as
	// vectors and matrices (mul(float1, float4x4) is a float4).
	switch {
	case a.IsScalar() && b.IsScalar():
		return done(s, s, s)
	case a.IsScalar():
		t := b.WithScalar(s)
		return done(t, s, t)
	case b.IsScalar():
		t := a.WithScalar(s)
		return done(t, t, s)
	case a.IsVector() && b.IsVector():
		n := min(a.Len, b.Len)
		if a.Len != b.Len {
			c.warnf(e, "implicit truncation of vector type")
		}
		v := VectorOf(s, n)
		return done(s, v, v)
	case a.IsVector() && b.IsMatrix():
		// The inner dimension is the smaller of the two; the longer operand
		// is truncated (DXC does this with a warning).
		k := min(a.Len, b.Rows)
		if a.Len != b.Rows {
			c.warnf(e, "implicit truncation of vector type")
		}
		return done(VectorOf(s, b.Cols), VectorOf(s, k), matrixOf(s, k, b.Cols, b.RowMajor))
	case a.IsMatrix() && b.IsVector():
		k := min(a.Cols, b.Len)
		if a.Cols != b.Len {
			c.warnf(e, "implicit truncation of vector type")
		}
		return done(VectorOf(s, a.Rows), matrixOf(s, a.Rows, k, a.RowMajor), VectorOf(s, k))
	default: // matrix x matrix
		k := min(a.Cols, b.Rows)
		if a.Cols != b.Rows {
			c.warnf(e, "implicit truncation of vector type")
		}
		return done(matrixOf(s, a.Rows, b.Cols, a.RowMajor), matrixOf(s, a.Rows, k, a.RowMajor), matrixOf(s, k, b.Cols, b.RowMajor))
	}
}

// waveOrAtomic resolves wave intrinsics, barriers and atomics.
func (c *checker) waveOrAtomic(e *Call, in *Intrinsic, set func(*Type, ...*Type) *Intrinsic) *Intrinsic {
	args := e.Args
	name := e.Name
	switch name {
	case "WaveGetLaneIndex", "WaveGetLaneCount":
		return set(TypeUint)
	case "WaveIsFirstLane":
		return set(TypeBool)
	case "GroupMemoryBarrierWithGroupSync", "GroupMemoryBarrier", "DeviceMemoryBarrier",
		"DeviceMemoryBarrierWithGroupSync", "AllMemoryBarrier", "AllMemoryBarrierWithGroupSync":
		return set(TypeVoid)
	case "WaveActiveSum", "WaveActiveProduct", "WaveActiveMin", "WaveActiveMax", "WavePrefixSum", "WavePrefixProduct":
		t := args[0].Type()
		if t.IsMatrix() {
			c.errorf(e, "'%s' does not accept matrices", name)
			return nil
		}
		if t.IsBool() {
			t = t.WithScalar(TypeInt)
		}
		return set(t, t)
	case "WaveActiveBitAnd", "WaveActiveBitOr", "WaveActiveBitXor":
		t := args[0].Type()
		if t.IsFloat() || t.IsMatrix() {
			c.errorf(e, "'%s' requires an integer scalar or vector, not '%s'", name, t)
			return nil
		}
		// The unsigned type of the operand's width: DXC's overloads
		// keep 64-bit (and true 16-bit) operands (vkd3d's
		// wave-ops-uint.shader_test ORs uint64_t2 values).
		u := TypeUint
		switch s := t.Scalar(); {
		case s.Kind != KindBool && s.Width() == 64:
			u = TypeUint64
		case s.Kind != KindBool && s.Bits == 16:
			u = TypeUint16
		}
		t = t.WithScalar(u)
		return set(t, t)
	case "WaveActiveAllTrue", "WaveActiveAnyTrue":
		return set(TypeBool, TypeBool)
	case "WaveActiveCountBits", "WavePrefixCountBits":
		return set(TypeUint, TypeBool)
	case "WaveActiveBallot":
		return set(VectorOf(TypeUint, 4), TypeBool)
	case "WaveActiveAllEqual":
		t := args[0].Type()
		if t.IsMatrix() {
			c.errorf(e, "'%s' does not accept matrices", name)
			return nil
		}
		return set(boolShape(t), t)
	case "WaveReadLaneFirst", "QuadReadAcrossX", "QuadReadAcrossY", "QuadReadAcrossDiagonal":
		if args[0].Type().IsMatrix() {
			c.errorf(e, "'%s' does not accept matrices", name)
			return nil
		}
		return set(args[0].Type(), args[0].Type())
	case "QuadReadLaneAt":
		if args[0].Type().IsMatrix() {
			c.errorf(e, "'%s' does not accept matrices", name)
			return nil
		}
		return set(args[0].Type(), args[0].Type(), TypeUint)
	case "QuadAny", "QuadAll":
		return set(TypeBool, TypeBool)
	case "WaveReadLaneAt":
		return set(args[0].Type(), args[0].Type(), TypeUint)
	}
	// Atomics.
	dest := args[0]
	dt := dest.Type()
	if !dt.IsScalar() || !dt.IsIntegral() {
		c.errorf(dest, "'%s' requires an int or uint destination, not '%s'", name, dt)
		return nil
	}
	if !c.isAtomicTarget(dest) {
		c.errorf(dest, "'%s' destination must be a groupshared variable or an element of a RW buffer", name)
		return nil
	}
	params := make([]*Type, len(args))
	for i := range params {
		params[i] = dt
	}
	set(TypeVoid, params...)
	in.Out[0] = true
	switch name {
	case "InterlockedCompareStore":
	case "InterlockedCompareExchange", "InterlockedExchange":
		in.Out[len(args)-1] = true
	default:
		if len(args) == 3 {
			in.Out[2] = true
		}
	}
	return in
}

// isAtomicTarget reports whether e designates groupshared memory or a UAV
// element, the only places atomics operate on.
func (c *checker) isAtomicTarget(e Expr) bool {
	for {
		switch x := e.(type) {
		case *Ident:
			return x.Var != nil && x.Var.Mods&ModGroupshared != 0
		case *Index:
			if t := x.X.Type(); t.Kind == KindResource {
				return t.Resource.Writable()
			}
			e = x.X
		case *Member:
			e = x.X
		case *Swizzle:
			e = x.X
		case *ImplicitCast:
			e = x.X
		default:
			return false
		}
	}
}
