package interp

import (
	"math"
	"testing"

	"passlens/compiler/ir"
)

// TestPackedDot checks dot4add_i8packed, dot4add_u8packed and dot2add on
// values worked out by hand (the offload-test-suite's dot4add.test and
// dot2add.test cases among them): signed bytes, unsigned bytes, 32-bit
// wrapping, halves summed in f32.
func TestPackedDot(t *testing.T) {
	src := `module "dot"

@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"

define void @main() compute numthreads(1, 1, 1) {
entry:
  %a = intr i32 dot4add_i8packed(u32 16843009, u32 16941226, i32 0)
  %b = intr i32 dot4add_i8packed(u32 33818879, u32 33686017, i32 %a)
  %c = intr u32 dot4add_u8packed(u32 16843009, u32 16941226, u32 0)
  %d = intr u32 dot4add_u8packed(u32 4294967295, u32 4294967295, u32 4294967295)
  %e = intr i32 dot4add_i8packed(u32 2155905152, u32 2155905152, i32 2147483647)
  %f = intr f32 dot2add(f16 0x77EF, f16 0x3C00, f16 0x3C00, f16 0x77EF, f32 0.0)
  %g = intr f32 dot2add(f16 0x3C00, f16 0x7A00, f16 0xFA00, f16 0x3C00, f32 -2.0)
  %fb = bitcast f32 %f to u32
  %gb = bitcast f32 %g to u32
  %ab = bitcast i32 %a to u32
  %bb = bitcast i32 %b to u32
  %eb = bitcast i32 %e to u32
  %p0 = access ptr<storage, [? x u32]> @Out, u32 0
  store u32 %ab, ptr<storage, u32> %p0
  %p1 = access ptr<storage, [? x u32]> @Out, u32 1
  store u32 %bb, ptr<storage, u32> %p1
  %p2 = access ptr<storage, [? x u32]> @Out, u32 2
  store u32 %c, ptr<storage, u32> %p2
  %p3 = access ptr<storage, [? x u32]> @Out, u32 3
  store u32 %d, ptr<storage, u32> %p3
  %p4 = access ptr<storage, [? x u32]> @Out, u32 4
  store u32 %eb, ptr<storage, u32> %p4
  %p5 = access ptr<storage, [? x u32]> @Out, u32 5
  store u32 %fb, ptr<storage, u32> %p5
  %p6 = access ptr<storage, [? x u32]> @Out, u32 6
  store u32 %gb, ptr<storage, u32> %p6
  ret
}
`
	m, err := ir.ParseModule("dot.pir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res, err := runT(m, &Input{Buffers: []BufferInput{{Name: "Out", Count: 7}}}, Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	got := res.Buffer("Out").Cells
	want := []uint64{
		0xFFFFFF2D,                            // 0x01010101·0x010280AA: 1*1 + 1*2 + 1*-128 + 1*-86 = -211
		0xFFFFFF48,                            // -211 + (-1*2 + 8*2 + 4*2 + 2*1) = -184
		0x12D,                                 // 1 + 2 + 128 + 170 = 301
		(0xFFFFFFFF + 4*255*255) & 0xFFFFFFFF, // wraps
		(0x7FFFFFFF + 4*128*128) & 0xFFFFFFFF, // -128*-128 four times, wraps
		uint64(math.Float32bits(64992)),       // 2 * 32496 (32500 as a half)
		uint64(math.Float32bits(-2)),          // -49152 + 49152 - 2
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Out[%d] = %#x, want %#x", i, got[i], want[i])
		}
	}
	// dot2add's operands must be halves.
	bad, err := ir.ParseModule("bad.pir", []byte(`module "bad"
define void @main() compute numthreads(1, 1, 1) {
entry:
  %f = intr f32 dot2add(f32 1.0, f32 1.0, f32 1.0, f32 1.0, f32 0.0)
  ret
}
`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runT(bad, &Input{}, Options{WaveSize: 4}); err == nil {
		t.Error("dot2add of f32 operands ran")
	}
}
