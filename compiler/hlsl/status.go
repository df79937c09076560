package hlsl

// Loads with a tiled-resource status (D3D12 reserved resources): the
// Load methods of buffers take an optional last argument, out uint status,
// which CheckAccessFullyMapped(status) tests (docs/hlsl-rules.md,
// intr.status). passlens models no reserved resources: every access is to
// fully mapped memory, so the status the lowering writes makes
// CheckAccessFullyMapped true (lower/lower_status.go).

// statusLoad reports whether method name of resource type t accepts the
// status argument.
func statusLoad(t *Type, name string) bool {
	if t.Kind != KindResource || t.Resource.IsTexture() || t.Resource.IsSampler() {
		return false
	}
	switch name {
	case "Load":
		return true
	case "Load2", "Load3", "Load4":
		return t.Resource == ResByteAddressBuffer || t.Resource == ResRWByteAddressBuffer
	}
	return false
}
