package ir

// BufWord64 is buf.word64(buffer, u32 byteOffset): a pointer to the 64-bit
// integer (i64 or u64, the result's pointee) made of the two 32-bit words
// at byteOffset of a byte address buffer (a storage buffer whose value
// type is a runtime array of 32-bit words), low word first. Only an
// atomic may use it (HLSL's RWByteAddressBuffer.Interlocked*64, SM6.6): the
// interpreter reads and writes the two words as one value, the SPIR-V back
// end views the buffer as an array of 64-bit integers (Int64Atomics), the
// DXIL-style back end makes the atomic dx.op.atomicBinOp.i64 or
// dx.op.atomicCompareExchange.i64 on the buffer's handle with the byte
// offset. An offset that is not a multiple of 8, or past the end, gives
// the invalid pointer in the interpreter (D3D leaves it undefined).
const BufWord64 = "buf.word64"

func init() {
	def(BufWord64, AttrPure, 2, 2, "buf.word64(byte address buffer, u32 byte offset): pointer to the 64-bit integer at the 8-aligned offset, for atomic only")
}
