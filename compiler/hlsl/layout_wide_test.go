package hlsl

import "testing"

// TestCBufferLayoutWideTypes checks the D3D constant buffer offsets of 16-
// and 64-bit members (DXC's AlignBufferOffsetInLegacy): a scalar or vector
// that fits in the current 16-byte register starts at a multiple of its
// scalar size, one that does not starts the next register, and arrays,
// matrices and structs start a register. vkd3d's cbuffer.shader_test
// (native-16-bit) packs uint16_t4 u0, u1 at 0 and 8.
func TestCBufferLayoutWideTypes(t *testing.T) {
	prog, diags := Frontend("t.hlsl", []byte(`
cbuffer W {
	float a;      // 0
	double b;     // 8: aligned to 8
	half c;       // 16
	half3 d;      // 18: aligned to 2
	int64_t2 e;   // 32: 16 bytes do not fit after 24
	uint16_t f;   // 48
	float g;      // 52: aligned to 4 after 50
	double3 h;    // 64: 24 bytes start a register
	half i[2];    // 96: arrays start a register; 18 bytes
	uint16_t j;   // 114
	uint16_t4 k;  // 116: fits before 128
	uint16_t4 l;  // 128: 124 would straddle
};
`), Options{Library: true, Enable16BitTypes: true})
	if diags.HasErrors() {
		t.Fatal(messages(diags))
	}
	want := map[string]int{"a": 0, "b": 8, "c": 16, "d": 18, "e": 32, "f": 48, "g": 52, "h": 64, "i": 96, "j": 114, "k": 116, "l": 128}
	seen := 0
	for _, v := range prog.Globals {
		if w, ok := want[v.Name]; ok {
			seen++
			if v.Offset != w {
				t.Errorf("%s at offset %d, want %d", v.Name, v.Offset, w)
			}
		}
	}
	if seen != len(want) {
		t.Fatalf("found %d of %d members", seen, len(want))
	}
	// Without -enable-16bit-types half is float: 4 bytes.
	prog, diags = Frontend("t.hlsl", []byte("cbuffer W { half a; half3 b; half c; };"), Options{Library: true})
	if diags.HasErrors() {
		t.Fatal(messages(diags))
	}
	for _, v := range prog.Globals {
		if w := map[string]int{"a": 0, "b": 4, "c": 16}[v.Name]; v.Offset != w {
			t.Errorf("default mode: %s at offset %d, want %d", v.Name, v.Offset, w)
		}
	}
}
