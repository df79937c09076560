package spirv

import (
	"strings"
	"testing"

	"passlens/compiler/interp"
)

// TestLavapipeAtomic64 runs RWByteAddressBuffer.Interlocked*64 (SM6.6)
// with 64 threads on lavapipe and the interpreter: the buffer's 64-bit
// view (bufword64.go) passes spirv-val with Int64Atomics and Aliased on
// both variables, and the final words (order-independent: sums with a
// carry between the words, signed and unsigned min/max, bit operations,
// a compare that differs in the high word only, a compare-store that
// matches once) and the originals of the never-matching compare agree
// bit for bit.
func TestLavapipeAtomic64(t *testing.T) {
	m := lowerHLSL(t, `RWByteAddressBuffer B : register(u0);
RWStructuredBuffer<uint> O : register(u1);
[numthreads(64,1,1)]
void main(uint g : SV_GroupIndex) {
  B.InterlockedAdd64(0, 0x80000000ull + g);
  B.InterlockedMax64(8, (int64_t)g - 40);
  B.InterlockedMax64(16, (uint64_t)g - 40);
  B.InterlockedMin64(24, (int64_t)g - 40);
  B.InterlockedMin64(32, (uint64_t)g - 40);
  B.InterlockedOr64(40, 1ull << g);
  B.InterlockedAnd64(48, ~(1ull << g));
  B.InterlockedXor64(56, 0x100000001ull << (g % 2));
  uint64_t c;
  B.InterlockedCompareExchange64(64, 7ull, 9ull, c);
  O[2 * g] = (uint)c;
  O[2 * g + 1] = (uint)(c >> 32);
  B.InterlockedCompareStore64(72, 0x200000003ull, 11ull);
  if (g == 5) {
    uint64_t x;
    B.InterlockedExchange64(80, 0x123456789ull, x);
    O[128] = (uint)x;
    O[129] = (uint)(x >> 32);
  }
}
`)
	words, err := Assemble(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if msg := spirvVal(t, words, "vulkan1.1"); msg != "" {
		t.Fatalf("spirv-val: %s", msg)
	}
	dis := spirvDis(t, words)
	for _, want := range []string{"OpCapability Int64Atomics", "Aliased", "OpAtomicSMax", "OpAtomicUMax", "OpAtomicSMin", "OpAtomicUMin", "OpAtomicCompareExchange", "OpAtomicExchange"} {
		if !strings.Contains(dis, want) {
			t.Errorf("no %s in:\n%s", want, dis)
		}
	}
	b := make([]uint32, 22)
	b[0], b[1] = 0xFFFFFFFF, 0
	b[12], b[13] = 0xFFFFFFFF, 0xFFFFFFFF
	b[16], b[17] = 7, 1
	b[18], b[19] = 3, 2
	b[20], b[21] = 0xAAAA, 0xBBBB
	in := &interp.Input{Dispatch: [3]int{1, 1, 1}, Buffers: []interp.BufferInput{
		{Name: "B", Data: u32s(b...)}, {Name: "O", Data: u32s(make([]uint32, 130)...)}}}
	res, err := interp.Run(m, in, interp.Options{WaveSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]uint32{
		// 0xFFFFFFFF + 64·2^31 + (0+…+63): the carries reach the high word
		0: 0x000007DF, 1: 0x21,
		2: 23, 3: 0, // signed max of -40…23
		4: 0xFFFFFFFF, 5: 0xFFFFFFFF, // unsigned max: -1 as uint64
		6: 0xFFFFFFD8, 7: 0xFFFFFFFF, // signed min: -40
		8: 0, 9: 0, // unsigned min: 0 (g = 40)
		10: 0xFFFFFFFF, 11: 0xFFFFFFFF, 12: 0, 13: 0,
		14: 0, 15: 0, // 32 xors of each pattern cancel
		16: 7, 17: 1, 18: 11, 19: 0, 20: 0x23456789, 21: 1,
	}
	for k, v := range want {
		if got := uint32(res.Buffer("B").Cells[k]); got != v {
			t.Errorf("B word %d = %#x, want %#x", k, got, v)
		}
	}
	if o := res.Buffer("O").Cells; o[0] != 7 || o[1] != 1 || o[128] != 0xAAAA || o[129] != 0xBBBB {
		t.Errorf("originals %#x %#x, exchange %#x %#x", o[0], o[1], o[128], o[129])
	}
	if t.Failed() {
		return
	}
	diff, err := runBoth(t, gpuCase{name: "atomic64", m: m, in: in, groups: [3]int{1, 1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if diff != "" {
		t.Error(diff)
	}
}
