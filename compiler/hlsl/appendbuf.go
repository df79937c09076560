package hlsl

// AppendStructuredBuffer<T> and ConsumeStructuredBuffer<T>: UAVs (u
// registers) holding T elements and a hidden 32-bit counter, as D3D
// defines them. Append(v) atomically increments the counter and stores v
// at the element the counter had; Consume() atomically decrements it and
// returns the element at the new count; GetDimensions(out count, out
// stride) gives the buffer's element count and T's size in bytes. Neither
// can be indexed. The lowering (lower/lower_appendbuf.go) keeps the counter
// in the storage global "<name>.counter", as for
// RWStructuredBuffer.IncrementCounter/DecrementCounter.
func init() {
	resourceNames[ResAppendStructuredBuffer] = "AppendStructuredBuffer"
	resourceNames[ResConsumeStructuredBuffer] = "ConsumeStructuredBuffer"
	resourceByName["AppendStructuredBuffer"] = ResAppendStructuredBuffer
	resourceByName["ConsumeStructuredBuffer"] = ResConsumeStructuredBuffer
}
