package ir

// The SM6.4 packed dot products with accumulate (HLSL dot4add_i8packed,
// dot4add_u8packed, dot2add; DXIL Dot4AddI8Packed, Dot4AddU8Packed,
// Dot2AddHalf). Their operands are scalars, so the scalarizer has
// nothing to split.
func init() {
	def("dot4add_i8packed", AttrPure, 3, 3,
		"dot4add_i8packed(u32 a, u32 b, i32 acc): acc + the sum of the products of a's and b's four bytes as signed 8-bit integers (32-bit wrapping)")
	def("dot4add_u8packed", AttrPure, 3, 3,
		"dot4add_u8packed(u32 a, u32 b, u32 acc): acc + the sum of the products of a's and b's four bytes as unsigned 8-bit integers (32-bit wrapping)")
	def("dot2add", AttrPure, 5, 5,
		"dot2add(f16 ax, f16 ay, f16 bx, f16 by, f32 acc): (ax*bx + ay*by) + acc in f32 (the products of halves are exact); HLSL's half2 operands as components, as DXIL's Dot2AddHalf takes them")
}
