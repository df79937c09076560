package interp

import (
	"math"
	"math/bits"
	"strings"

	"passlens/compiler/ir"
)

// This file computes the OpenCL integer and math built-ins (opencl.go)
// elementwise, with the LLVM intrinsics' functions where they agree.

// clParamCode is the Itanium code of a built-in's first parameter's
// scalar type: "i" for int, "j" for uint, "f" for float; a vector
// (Dv4_f) gives its element's.
func clParamCode(params string) string {
	if rest, ok := strings.CutPrefix(params, "Dv"); ok {
		if i := strings.IndexByte(rest, '_'); i >= 0 {
			params = rest[i+1:]
		}
	}
	if params == "" {
		return ""
	}
	return params[:1]
}

// clMath returns the elementwise computation of an OpenCL integer or
// math built-in (scalars and vectors), with the signedness of its mangled
// parameter type; found is false for other names.
func clMath(b clBuiltin) (f ewFn, found bool) {
	code := clParamCode(b.params)
	kind := ir.Kind(0)
	switch code {
	case "c", "a", "s", "i", "l", "x":
		kind = ir.KInt
	case "h", "t", "j", "m", "y":
		kind = ir.KUint
	}
	adj := func(a arith) arith {
		if kind != 0 && a.k != ir.KFloat {
			a.k = kind
		}
		return a
	}
	name := strings.TrimPrefix(strings.TrimPrefix(b.name, "native_"), "half_")
	if g, ok := llvmElementwise["llvm."+name]; ok && !clIntOnly[name] {
		// sqrt, floor, exp2, sin, pow, fma, copysign, ...
		return g, true
	}
	switch name {
	case "min", "fmin":
		return func(a []uint64, at, rt arith) uint64 { return adj(at).min(a[0], a[1]) }, true
	case "max", "fmax":
		return func(a []uint64, at, rt arith) uint64 { return adj(at).max(a[0], a[1]) }, true
	case "clamp":
		return func(a []uint64, at, rt arith) uint64 {
			x := adj(at)
			return x.min(x.max(a[0], a[1]), a[2])
		}, true
	case "abs":
		if kind == ir.KUint {
			return func(a []uint64, at, rt arith) uint64 { return a[0] & widthMask(at.b) }, true
		}
		return llvmElementwise["llvm.abs"], true
	case "fabs":
		return llvmElementwise["llvm.fabs"], true
	case "abs_diff":
		return func(a []uint64, at, rt arith) uint64 {
			x := adj(at)
			if x.lt(a[0], a[1]) {
				return (a[1] - a[0]) & widthMask(at.b)
			}
			return (a[0] - a[1]) & widthMask(at.b)
		}, true
	case "popcount":
		return llvmElementwise["llvm.ctpop"], true
	case "clz":
		return llvmElementwise["llvm.ctlz"], true
	case "ctz":
		return llvmElementwise["llvm.cttz"], true
	case "rotate":
		return func(a []uint64, at, rt arith) uint64 {
			return llvmElementwise["llvm.fshl"]([]uint64{a[0], a[0], a[1]}, at, rt)
		}, true
	case "mul24":
		return func(a []uint64, at, rt arith) uint64 { return at.mul(a[0], a[1]) }, true
	case "mad24", "mad":
		// mad is a*b+c with the product rounded (not fused), like fmuladd.
		return func(a []uint64, at, rt arith) uint64 { return at.add(at.mul(a[0], a[1]), a[2]) }, true
	case "mul_hi":
		return func(a []uint64, at, rt arith) uint64 { return mulHi(a[0], a[1], adj(at)) }, true
	case "mad_hi":
		return func(a []uint64, at, rt arith) uint64 { return (mulHi(a[0], a[1], adj(at)) + a[2]) & widthMask(at.b) }, true
	case "add_sat", "sub_sat":
		sub := name == "sub_sat"
		return func(a []uint64, at, rt arith) uint64 { return satInt(a[0], a[1], at.b, adj(at).k == ir.KInt, sub) }, true
	case "rsqrt":
		return unaryF(func(x float64) float64 { return 1 / math.Sqrt(x) }), true
	case "fdim":
		return func(a []uint64, at, rt arith) uint64 {
			x, y := at.f(a[0]), at.f(a[1])
			if x > y {
				return at.sub(a[0], a[1])
			}
			if math.IsNaN(x) || math.IsNaN(y) {
				return rt.from(math.NaN())
			}
			return rt.from(0)
		}, true
	}
	return nil, false
}

// clIntOnly are LLVM intrinsic names that mean something else as OpenCL
// built-ins of the same name (OpenCL abs returns an unsigned value).
var clIntOnly = map[string]bool{"abs": true}

// mulHi is the high half of the double-width product of two b-bit
// integers, signed or unsigned as a says.
func mulHi(x, y uint64, a arith) uint64 {
	m := widthMask(a.b)
	if a.b < 64 {
		if a.k == ir.KInt {
			return uint64(sext(x, a.b)*sext(y, a.b)>>uint(a.b)) & m
		}
		return ((x & m) * (y & m) >> uint(a.b)) & m
	}
	hi, _ := bits.Mul64(x, y)
	if a.k == ir.KInt {
		// Signed: subtract the other operand for each negative one.
		if int64(x) < 0 {
			hi -= y
		}
		if int64(y) < 0 {
			hi -= x
		}
	}
	return hi
}
