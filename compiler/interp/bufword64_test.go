package interp

import (
	"testing"

	"passlens/compiler/ir"
)

// bufWord64Module: a signed 64-bit max, an add carrying into the high
// word, a compare-exchange and atomics at a misaligned and an
// out-of-range offset, all through buf.word64 on a buffer of 32-bit
// words; the old values go to @o.
const bufWord64Module = `@b = global storage [? x u32] binding 0, 0
@o = global storage [? x u64] binding 0, 1

define void @main() compute numthreads(1, 1, 1) {
entry:
  %p0 = intr ptr<storage, i64> buf.word64(ptr<storage, [? x u32]> @b, u32 0)
  %m = atomic max ptr<storage, i64> %p0, i64 -3
  %p1 = intr ptr<storage, u64> buf.word64(ptr<storage, [? x u32]> @b, u32 8)
  %a = atomic add ptr<storage, u64> %p1, u64 1
  %p2 = intr ptr<storage, u64> buf.word64(ptr<storage, [? x u32]> @b, u32 16)
  %c = atomic cmpxchg ptr<storage, u64> %p2, u64 9, u64 5
  %p3 = intr ptr<storage, u64> buf.word64(ptr<storage, [? x u32]> @b, u32 4)
  %x = atomic xchg ptr<storage, u64> %p3, u64 0
  %p4 = intr ptr<storage, u64> buf.word64(ptr<storage, [? x u32]> @b, u32 24)
  %y = atomic xchg ptr<storage, u64> %p4, u64 0
  %q0 = access ptr<storage, [? x u64]> @o, u32 0
  %mu = bitcast i64 %m to u64
  store u64 %mu, ptr<storage, u64> %q0
  %q1 = access ptr<storage, [? x u64]> @o, u32 1
  store u64 %a, ptr<storage, u64> %q1
  %q2 = access ptr<storage, [? x u64]> @o, u32 2
  store u64 %c, ptr<storage, u64> %q2
  %q3 = access ptr<storage, [? x u64]> @o, u32 3
  store u64 %x, ptr<storage, u64> %q3
  %q4 = access ptr<storage, [? x u64]> @o, u32 4
  store u64 %y, ptr<storage, u64> %q4
  ret
}
`

// TestBufWord64: the two words at the offset act as one 64-bit integer
// (low word first); a misaligned or out-of-range offset does nothing and
// returns 0.
func TestBufWord64(t *testing.T) {
	m, err := ir.ParseModule("bufword64.pir", []byte(bufWord64Module))
	if err != nil {
		t.Fatal(err)
	}
	in := &Input{Buffers: []BufferInput{
		{Name: "b", Data: []any{uint32(0xFFFFFFFB), uint32(0xFFFFFFFF), uint32(0xFFFFFFFF), uint32(7), uint32(9), uint32(1)}},
		{Name: "o", Count: 5},
	}}
	res, err := runT(m, in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, o := res.Buffer("b").Cells, res.Buffer("o").Cells
	wantB := []uint64{0xFFFFFFFD, 0xFFFFFFFF, 0, 8, 9, 1}
	for i, w := range wantB {
		if b[i] != w {
			t.Errorf("b[%d] = %#x, want %#x", i, b[i], w)
		}
	}
	wantO := []uint64{0xFFFFFFFFFFFFFFFB, 0x7FFFFFFFF, 0x100000009, 0, 0}
	for i, w := range wantO {
		if o[i] != w {
			t.Errorf("o[%d] = %#x, want %#x", i, o[i], w)
		}
	}
}
