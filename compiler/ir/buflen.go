package ir

// buf.length(buffer) is the number of elements of a storage buffer's
// runtime-sized array (HLSL GetDimensions on Buffer, StructuredBuffer,
// Append/ConsumeStructuredBuffer; for a byte address buffer the number
// of 32-bit words). The interpreter returns the bound buffer's length,
// the SPIR-V back end emits OpArrayLength, the DXIL-style back end
// dx.op.getDimensions (docs/ir.md).
func init() {
	def("buf.length", AttrPure, 1, 1, "buf.length(buffer): u32 element count of the storage buffer's runtime array")
}
