package lower

import (
	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
)

// The 64-bit word intrinsics, expanded to integer operations:
// asdouble(lo, hi) is the double whose bits are hi:lo, splitdouble (and
// asuint with three arguments) stores a double's low and high words, and
// AddUint64 adds 64-bit values given as (low, high) uint pairs with the
// carry out of the low word.

// asdouble builds double(s) of type rt from the low and high words.
func (fl *fnLowerer) asdouble(lo, hi ir.Value, rt *ir.Type) ir.Value {
	u64 := rt.WithScalar(ir.U64)
	l := fl.b.Cast(ir.OpZExt, lo, u64, "lo")
	h := fl.b.Cast(ir.OpZExt, hi, u64, "hi")
	h = fl.b.Binary(ir.OpShl, h, ir.ConstInt(u64, 32), "hi")
	return fl.b.Cast(ir.OpBitcast, fl.b.Binary(ir.OpOr, l, h, "bits"), rt, "asdouble")
}

// splitdouble stores the low and high words of v into the call's second
// and third (out) arguments.
func (fl *fnLowerer) splitdouble(x *hlsl.Call, v ir.Value, in *hlsl.Intrinsic) {
	vt := v.Type()
	u64, u32 := vt.WithScalar(ir.U64), vt.WithScalar(ir.U32)
	bits := fl.b.Cast(ir.OpBitcast, v, u64, "bits")
	lo := fl.b.Cast(ir.OpTrunc, bits, u32, "lo")
	hi := fl.b.Cast(ir.OpTrunc, fl.b.Binary(ir.OpLShr, bits, ir.ConstInt(u64, 32), "hi"), u32, "hi")
	fl.storeOut(x.Args[1], lo, in.Params[1])
	fl.storeOut(x.Args[2], hi, in.Params[2])
}

// addUint64 adds a and b (uint2 or uint4: one or two (low, high) pairs).
func (fl *fnLowerer) addUint64(a, b ir.Value, rt *ir.Type) ir.Value {
	one, zero := ir.ConstInt(ir.U32, 1), ir.ConstInt(ir.U32, 0)
	var out []ir.Value
	for p := 0; p < rt.Len; p += 2 {
		al, ah := fl.b.ExtractValue(a, []int{p}, "alo"), fl.b.ExtractValue(a, []int{p + 1}, "ahi")
		bl, bh := fl.b.ExtractValue(b, []int{p}, "blo"), fl.b.ExtractValue(b, []int{p + 1}, "bhi")
		lo := fl.b.Binary(ir.OpAdd, al, bl, "lo")
		carry := fl.b.Select(fl.b.Cmp(ir.PredULT, lo, al, "carry"), one, zero, "carry")
		hi := fl.b.Binary(ir.OpAdd, fl.b.Binary(ir.OpAdd, ah, bh, "hi"), carry, "hi")
		out = append(out, lo, hi)
	}
	return fl.b.Construct(rt, out, "AddUint64")
}
