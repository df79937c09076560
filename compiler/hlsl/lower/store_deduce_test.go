package lower

import (
	"math"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/interp"
)

// TestStoreDeduced: RWByteAddressBuffer.Store(offset, v) stores v as
// DXC's templated Store<T> with T deduced from v (hlsl/rawbuffer.go): a
// float's bits, a double's 8 bytes, a uint2's 8 bytes, a uint16_t's 2
// bytes (the other half of the word kept), an int as 4 bytes; an
// unsuffixed integer literal as uint, an unsuffixed float literal as
// float.
func TestStoreDeduced(t *testing.T) {
	src := `RWByteAddressBuffer B : register(u0);
[numthreads(1,1,1)]
void main() {
  B.Store(0, 11.5f);
  B.Store(8, (double)12.25);
  B.Store(16, uint2(7, 9));
  B.Store(26, (uint16_t)0xABCD);
  B.Store(28, -3);
  B.Store(32, 40);
  B.Store(36, 2.5);
  int i = -5;
  B.Store(40, i);
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
	data := make([]any, 11)
	for i := range data {
		data[i] = uint32(0x11111111)
	}
	res, err := interp.Run(m, &interp.Input{Buffers: []interp.BufferInput{{Name: "B", Data: data}}}, interp.Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	d := math.Float64bits(12.25)
	want := []uint64{uint64(math.Float32bits(11.5)), 0x11111111, d & 0xFFFFFFFF, d >> 32, 7, 9, 0xABCD1111,
		0xFFFFFFFD, 40, uint64(math.Float32bits(2.5)), 0xFFFFFFFB}
	r := res.Buffer("B").Cells
	for i, w := range want {
		if r[i] != w {
			t.Errorf("word %d = %#x, want %#x", i, r[i], w)
		}
	}
}
