package lower

import (
	"passlens/compiler/ir"
)

// Bit intrinsics on 16- and 64-bit operands (countbits, firstbitlow,
// firstbithigh, reversebits) are expanded into their 32-bit forms, as
// DXC does for SPIR-V, where Vulkan requires a 32-bit Base operand for
// OpBitCount, OpBitReverse and the GLSL.std.450 Find*sb instructions:
//
//   - 16 bits: the operand is zero-extended (sign-extended for a signed
//     firstbithigh, which keeps the highest bit differing from the sign)
//     to 32 bits; reversebits shifts the reversed word right by 16 and
//     truncates.
//   - 64 bits: the operand splits into its low and high words. countbits
//     adds the two counts; firstbitlow is the low word's index when it has
//     a set bit, else 32 + the high word's, else all ones; firstbithigh is
//     32 + the high word's index when it has one, else the low word's
//     (a signed operand is first XORed with its sign, so the search is
//     for the highest bit differing from it); reversebits swaps the
//     reversed words.
//
// The interpreter computes these intrinsics at every width, so the
// differential tests check the expansion.

// sizedBitOp expands bit intrinsic name on a (a scalar or vector whose
// components are 16 or 64 bits wide) with result type rt.
func (fl *fnLowerer) sizedBitOp(name string, a ir.Value, rt *ir.Type) ir.Value {
	at := a.Type()
	s := at.Scalar()
	n := 1
	if at.Kind == ir.KVector {
		n = at.Len
	}
	vec := func(t *ir.Type) *ir.Type { return ir.Vec(t, n) }
	u32, i32 := vec(ir.U32), vec(ir.I32)
	k32 := func(v int64) ir.Value { return ir.ConstInt(u32, v) }
	intr := func(n string, t *ir.Type, x ir.Value) ir.Value { return fl.b.Intrinsic(n, t, []ir.Value{x}, n) }
	// asResult reinterprets a u32 result as rt (u32 or i32).
	asResult := func(v ir.Value) ir.Value {
		if v.Type() == rt {
			return v
		}
		return fl.b.Cast(ir.OpBitcast, v, rt, name)
	}
	if s.Bits == 16 {
		wide, ext := u32, ir.OpZExt
		if name == "firstbithigh" && s.Kind == ir.KInt {
			wide, ext = i32, ir.OpSExt
		}
		if s.Kind == ir.KInt && ext == ir.OpZExt {
			a = fl.b.Cast(ir.OpBitcast, a, vec(ir.U16), "bits")
		}
		w := fl.b.Cast(ext, a, wide, "wide")
		if name != "reversebits" {
			return asResult(intr(name, vec(rt.Scalar()), w))
		}
		r := fl.b.Binary(ir.OpLShr, intr(name, u32, w), k32(16), "rev")
		t := fl.b.Cast(ir.OpTrunc, r, vec(ir.U16), "rev")
		if rt.Scalar() == ir.U16 {
			return t
		}
		return fl.b.Cast(ir.OpBitcast, t, rt, name)
	}
	// 64 bits: work on the unsigned bits.
	u64 := vec(ir.U64)
	x := a
	if s.Kind == ir.KInt {
		if name == "firstbithigh" {
			sign := fl.b.Binary(ir.OpAShr, a, ir.ConstInt(at, 63), "sign")
			x = fl.b.Binary(ir.OpXor, a, sign, "mag")
		}
		x = fl.b.Cast(ir.OpBitcast, x, u64, "bits")
	}
	lo := fl.b.Cast(ir.OpTrunc, x, u32, "lo")
	hi := fl.b.Cast(ir.OpTrunc, fl.b.Binary(ir.OpLShr, x, ir.ConstInt(u64, 32), "hi"), u32, "hi")
	switch name {
	case "countbits":
		return asResult(fl.b.Binary(ir.OpAdd, intr(name, u32, lo), intr(name, u32, hi), name))
	case "firstbitlow":
		l, h := intr(name, u32, lo), intr(name, u32, hi)
		hiOr := fl.b.Select(fl.b.Cmp(ir.PredNE, hi, k32(0), "hasHi"), fl.b.Binary(ir.OpAdd, h, k32(32), "hiIdx"), k32(-1), "hiIdx")
		return asResult(fl.b.Select(fl.b.Cmp(ir.PredNE, lo, k32(0), "hasLo"), l, hiOr, name))
	case "firstbithigh":
		l, h := intr(name, u32, lo), intr(name, u32, hi)
		r := fl.b.Select(fl.b.Cmp(ir.PredNE, hi, k32(0), "hasHi"), fl.b.Binary(ir.OpAdd, h, k32(32), "hiIdx"), l, name)
		return asResult(r)
	}
	// reversebits: reverse(lo) becomes the high word.
	rl := fl.b.Cast(ir.OpZExt, intr(name, u32, lo), u64, "revLo")
	rh := fl.b.Cast(ir.OpZExt, intr(name, u32, hi), u64, "revHi")
	r := fl.b.Binary(ir.OpOr, fl.b.Binary(ir.OpShl, rl, ir.ConstInt(u64, 32), "revLo"), rh, name)
	if rt.Scalar() == ir.U64 {
		return r
	}
	return fl.b.Cast(ir.OpBitcast, r, rt, name)
}
