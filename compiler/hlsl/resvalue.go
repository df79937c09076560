package hlsl

// Resource values. DXC treats a buffer resource (Buffer, StructuredBuffer,
// ByteAddressBuffer and their RW, Append and Consume forms) as a handle
// that locals, parameters, return values, struct members and local arrays
// may hold and that may be assigned, as long as every use resolves to a
// global resource once the program is inlined and its constants
// propagated (DXC's legalization). The frontend accepts these forms for
// buffers; the lowering (lower/lower_resvalue.go) gives each global buffer
// an id and selects the buffer of an id that stays dynamic.
// Textures and samplers keep the older rules (a local is an alias that must
// be initialized).

// bufferResourcesOnly reports whether every resource in t is a buffer
// (no texture, sampler or constant buffer).
func bufferResourcesOnly(t *Type) bool {
	switch {
	case t == nil:
		return true
	case t.Kind == KindResource:
		return IsBufferResource(t)
	case t.Kind == KindArray:
		return bufferResourcesOnly(t.Elem)
	case t.Kind == KindStruct:
		for _, f := range t.Struct.Fields {
			if !bufferResourcesOnly(f.Type) {
				return false
			}
		}
	}
	return true
}

// IsBufferResource reports whether t is a buffer resource that can be held
// as a value (see above).
func IsBufferResource(t *Type) bool {
	if t == nil || t.Kind != KindResource {
		return false
	}
	switch t.Resource {
	case ResBuffer, ResRWBuffer, ResStructuredBuffer, ResRWStructuredBuffer,
		ResByteAddressBuffer, ResRWByteAddressBuffer, ResAppendStructuredBuffer, ResConsumeStructuredBuffer:
		return true
	}
	return false
}
