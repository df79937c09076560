package lower

import (
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/interp"
)

// atomic64Src exercises every RWByteAddressBuffer.Interlocked*64 method
// (hlsl/atomic64.go) with four lanes, on 8-byte slots whose expected
// words are worked out in TestAtomic64 (atomics run in ascending lane
// order in the interpreter, so the original values are determined).
const atomic64Src = `RWByteAddressBuffer B : register(u0);
RWStructuredBuffer<uint64_t> O : register(u1);
[numthreads(4,1,1)]
void main(uint g : SV_GroupIndex) {
  uint64_t o;
  B.InterlockedAdd64(0, 0x80000000ull, o);
  O[g] = o;
  B.InterlockedMax64(8, (int64_t)g - 2);
  B.InterlockedMax64(16, (uint64_t)g - 2);
  B.InterlockedMin64(24, (int64_t)g - 2);
  B.InterlockedOr64(32, 1ull << (g * 16 + 8));
  B.InterlockedAnd64(40, ~(1ull << (g * 16 + 8)));
  B.InterlockedXor64(48, 0x100000001ull);
  uint64_t c;
  B.InterlockedCompareExchange64(56, 7ull, 9ull, c);
  O[4 + g] = c;
  B.InterlockedCompareStore64(64, 0x200000003ull, 11ull);
  uint64_t x;
  B.InterlockedExchange64(72, (uint64_t)g, x);
  O[8 + g] = x;
  B.InterlockedAdd64(4, 1); // misaligned: undefined in D3D, nothing here
}
`

// atomic64Input is the initial buffer: 20 words.
func atomic64Input() []any {
	w := []uint32{
		0xFFFFFFFF, 0, // add
		0xFFFFFFFB, 0xFFFFFFFF, // signed max from -5
		0, 0, // unsigned max
		0, 0, // signed min
		0, 0, // or
		0xFFFFFFFF, 0xFFFFFFFF, // and
		0, 0, // xor
		7, 1, // compare-exchange: never matches (high word differs)
		3, 2, // compare-store: matches once
		0xAAAA, 0xBBBB, // exchange
	}
	d := make([]any, len(w))
	for i, v := range w {
		d[i] = v
	}
	return d
}

// atomic64Want are the expected words of B after the run.
var atomic64Want = []uint64{
	0xFFFFFFFF, 2, // 0xFFFFFFFF + 4·2^31: the carry reaches the high word; the misaligned add did nothing
	1, 0, // signed max of -5, -2, -1, 0, 1
	0xFFFFFFFF, 0xFFFFFFFF, // unsigned max: (uint64_t)1 - 2
	0xFFFFFFFE, 0xFFFFFFFF, // signed min: -2
	0x01000100, 0x01000100, // bits 8, 24, 40, 56
	0xFEFFFEFF, 0xFEFFFEFF,
	0, 0, // four xors cancel
	7, 1,
	11, 0,
	3, 0, // the last lane's exchange
}

// atomic64Orig are the expected original values in O.
var atomic64Orig = []uint64{
	0xFFFFFFFF, 0x17FFFFFFF, 0x1FFFFFFFF, 0x27FFFFFFF,
	0x100000007, 0x100000007, 0x100000007, 0x100000007,
	0xBBBB0000AAAA, 0, 1, 2,
}

// TestAtomic64 runs atomic64Src on the interpreter and checks every word
// and original value.
func TestAtomic64(t *testing.T) {
	prog, diags := compile(t, atomic64Src, hlsl.Options{})
	if diags.HasErrors() {
		t.Fatal(render(prog, diags))
	}
	m, ld := Lower(prog, hlsl.Options{})
	if m == nil || ld.HasErrors() {
		t.Fatal(render(prog, ld))
	}
	out := make([]any, 12)
	for i := range out {
		out[i] = uint64(0)
	}
	res, err := interp.Run(m, &interp.Input{Buffers: []interp.BufferInput{{Name: "B", Data: atomic64Input()}, {Name: "O", Data: out}}}, interp.Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	b := res.Buffer("B").Cells
	for i, w := range atomic64Want {
		if b[i] != w {
			t.Errorf("B word %d = %#x, want %#x", i, b[i], w)
		}
	}
	o := res.Buffer("O").Cells
	for i, w := range atomic64Orig {
		if o[i] != w {
			t.Errorf("O[%d] = %#x, want %#x", i, o[i], w)
		}
	}
}
