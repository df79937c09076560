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
	vkCounterKinds[ResRWStructuredBuffer] = true
	vkCounterKinds[ResAppendStructuredBuffer] = true
	vkCounterKinds[ResConsumeStructuredBuffer] = true

	resourceNames[ResAppendStructuredBuffer] = "AppendStructuredBuffer"
	resourceNames[ResConsumeStructuredBuffer] = "ConsumeStructuredBuffer"
	resourceByName["AppendStructuredBuffer"] = ResAppendStructuredBuffer
	resourceByName["ConsumeStructuredBuffer"] = ResConsumeStructuredBuffer
}

// vkCounterKinds are the buffers that have a hidden counter.
var vkCounterKinds = map[ResourceKind]bool{}

// vkCounterBinding checks [[vk::counter_binding(n)]]: on a global
// RWStructuredBuffer, AppendStructuredBuffer or ConsumeStructuredBuffer,
// the Vulkan binding of its counter buffer (in the buffer's descriptor
// set), as DXC's SPIR-V back end takes it.
func (c *checker) vkCounterBinding(a *Attribute, v *VarDecl) {
	if v.Type.IsError() {
		return
	}
	if v.Kind != VarGlobal || v.Type.Kind != KindResource || !vkCounterKinds[v.Type.Resource] {
		c.errorf(a, "'vk::counter_binding' applies to RWStructuredBuffer, AppendStructuredBuffer and ConsumeStructuredBuffer globals, not to '%s'", v.Name)
		return
	}
	if n := c.vkArgs(a, 1, 1); n != nil {
		v.Vk.HasCounterBinding, v.Vk.CounterBinding = true, n[0]
	}
}
