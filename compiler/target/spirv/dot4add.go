package spirv

import "passlens/compiler/ir"

// packedDot emits the SM6.4 packed dot products as arithmetic on core
// instructions, so the module needs no extension: SPV_KHR_integer_dot_
// product's OpSDotAccSatKHR/OpUDotAccSatKHR saturate (HLSL's dot4add
// wraps) and the plain OpSDotKHR/OpUDotKHR with PackedVectorFormat4x8Bit
// need the extension and a device feature Vulkan 1.1 does not promise.
//
//   - dot4add_i8packed(a, b, acc): byte i of a and b sign-extended by
//     shifting it to the top and back (OpShiftLeftLogical,
//     OpShiftRightArithmetic), multiplied and added to acc in 32 bits;
//   - dot4add_u8packed: byte i is (x >> 8i) & 0xff;
//   - dot2add(ax, ay, bx, by, acc): the halves converted to float
//     (OpFConvert), (ax*bx + ay*by) + acc, the order the interpreter
//     uses.
func (fe *fn) packedDot(name string, t *ir.Type, tid, res uint32, a []uint32) error {
	e := fe.e
	if name == "dot2add" {
		f := func(i int) uint32 { return fe.op(OpFConvert, tid, 0, a[i]) }
		p0 := fe.op(OpFMul, tid, 0, f(0), f(2))
		p1 := fe.op(OpFMul, tid, 0, f(1), f(3))
		fe.op(OpFAdd, tid, res, fe.op(OpFAdd, tid, 0, p0, p1), a[4])
		return nil
	}
	signed := name == "dot4add_i8packed"
	byteOf := func(v uint32, i int) uint32 {
		if signed {
			up := fe.op(OpShiftLeftLogical, tid, 0, v, e.uintConst(uint32(24-8*i)))
			return fe.op(OpShiftRightArithmetic, tid, 0, up, e.uintConst(24))
		}
		down := v
		if i > 0 {
			down = fe.op(OpShiftRightLogical, tid, 0, v, e.uintConst(uint32(8*i)))
		}
		return fe.op(OpBitwiseAnd, tid, 0, down, e.scalarConst(t, 0xff))
	}
	acc := a[2]
	for i := range 4 {
		p := fe.op(OpIMul, tid, 0, byteOf(a[0], i), byteOf(a[1], i))
		r := uint32(0)
		if i == 3 {
			r = res
		}
		acc = fe.op(OpIAdd, tid, r, acc, p)
	}
	return nil
}
