package lower

import (
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/interp"
)

// TestRawTemplate: Load<T>/Store<T> of 16-, 32- and 64-bit components and
// structs mixing them, on a byte address buffer of 32-bit words, with
// four lanes writing the two halves of shared words; the words are
// worked out here from the structured layout (a 16-bit a at 0, a uint at
// 4, a float16_t at 8, an int64 at 16: 24 bytes).
func TestRawTemplate(t *testing.T) {
	src := `struct M { int16_t a; uint b; float16_t c; int64_t d; };
RWByteAddressBuffer R : register(u0);
[numthreads(4,1,1)]
void main(uint g : SV_GroupIndex) {
  int16_t v = R.Load<int16_t>(2 * g);
  R.Store<int16_t>(16 + 2 * g, v + 1);
  uint64_t w = R.Load<uint64_t>(0);
  R.Store<uint64_t>(32 + 8 * g, w + g);
  M m = R.Load<M>(0);
  m.d += 1;
  R.Store<M>(64 + 24 * g, m);
  bool2 b = R.Load<bool2>(4);
  R.Store<bool2>(160 + 8 * g, b);
}
`
	opts := hlsl.Options{Enable16BitTypes: true}
	prog, diags := compile(t, src, opts)
	if diags.HasErrors() {
		t.Fatal(render(prog, diags))
	}
	m, ld := Lower(prog, opts)
	if m == nil || ld.HasErrors() {
		t.Fatal(render(prog, ld))
	}
	data := make([]any, 64)
	for i := range data {
		data[i] = uint32(0)
	}
	data[0], data[1], data[2], data[3] = uint32(0x00010002), uint32(0xFFFFFFFF), uint32(3), uint32(4)
	res, err := interp.Run(m, &interp.Input{Buffers: []interp.BufferInput{{Name: "R", Data: data}}}, interp.Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	r := res.Buffer("R").Cells
	want := map[int]uint64{
		// int16 halves 2, 1, -1, -1 plus 1, two per word.
		4: 0x00020003, 5: 0,
		// the uint64 0xFFFFFFFF_00010002 plus the lane, low word first.
		8: 0x00010002, 9: 0xFFFFFFFF, 10: 0x00010003, 12: 0x00010004, 14: 0x00010005, 15: 0xFFFFFFFF,
		// lane 0's M: a = 2, b = 0xFFFFFFFF, c = 3 (low half), d = words 4-5 (0x20003) + 1.
		16: 2, 17: 0xFFFFFFFF, 18: 3, 19: 0, 20: 0x00020004, 21: 0,
		// lane 3's M at byte 136.
		34: 2, 35: 0xFFFFFFFF, 36: 3, 38: 0x00020004,
		// bool2 from words 1 and 2 (both nonzero): 1, 1.
		40: 1, 41: 1, 46: 1, 47: 1,
	}
	for k, v := range want {
		if r[k] != v {
			t.Errorf("word %d = %#x, want %#x", k, r[k], v)
		}
	}
}
