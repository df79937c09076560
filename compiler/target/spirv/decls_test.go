package spirv

import (
	"regexp"
	"strings"
	"testing"

	"passlens/compiler/interp"
)

// declsShader exercises issue 17 item 4's declarations: buffers held by
// locals, arrays and struct members and chosen per lane, member functions
// with inheritance and static members, Load<T>/Store<T>, Append/Consume
// with their counters, GetDimensions and select on structs. Appends and
// consumes are made order-independent (one value appended by every lane;
// consumed values summed atomically), so the device and the interpreter
// must agree exactly.
const declsShader = `struct Pair { int a; float b; };
class Acc { uint n; void add(uint k) { n += k; } };
class Acc2 : Acc { uint m; static uint Scale; uint total() { return n * Scale + m; } };
uint Acc2::Scale = 3;
struct Bufs { RWStructuredBuffer<uint> X; };
RWStructuredBuffer<uint> P : register(u0);
RWStructuredBuffer<uint> Q : register(u1);
RWByteAddressBuffer R : register(u2);
[[vk::counter_binding(9)]] AppendStructuredBuffer<uint> Ap : register(u3);
ConsumeStructuredBuffer<uint> Co : register(u4);
RWStructuredBuffer<uint> Sum : register(u5);
[numthreads(8,1,1)]
void main(uint g : SV_GroupIndex) {
  Bufs b;
  b.X = (g & 1) ? Q : P;
  RWStructuredBuffer<uint> arr[2];
  arr[0] = P; arr[1] = Q;
  Acc2 acc; acc.n = g; acc.m = 1;
  acc.add(2);
  b.X[g] = acc.total();
  arr[(g + 1) & 1][8 + g] = g * 10;
  Pair p = R.Load<Pair>(8 * g);
  Pair q = { p.a + 1, p.b * 2 };
  Pair s = select(g < 4, q, p);
  R.Store<Pair>(64 + 8 * g, s);
  Ap.Append(7);
  uint c = Co.Consume();
  uint old;
  InterlockedAdd(Sum[0], c, old);
  uint n, stride;
  Co.GetDimensions(n, stride);
  Sum[1] = n * 100 + stride;
}
`

// TestDeclsSPIRV: spirv-val accepts the output, the disassembly equals
// spirv-dis's, the interpreter computes the values worked out here, and
// lavapipe agrees with the interpreter on every buffer.
func TestDeclsSPIRV(t *testing.T) {
	m := lowerHLSL(t, declsShader)
	words, err := Assemble(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if msg := spirvVal(t, words, "vulkan1.1"); msg != "" {
		t.Fatalf("spirv-val: %s", msg)
	}
	dis := spirvDis(t, words)
	if mine, err := Disassemble(words); err != nil || mine != dis {
		t.Errorf("disassembly differs from spirv-dis (%v):\n%s", err, mine)
	}
	if !regexp.MustCompile(`OpDecorate %Ap_counter\w* Binding 9\n`).MatchString(dis) {
		t.Errorf("the counter of Ap is not at binding 9 ([[vk::counter_binding(9)]]):\n%s", dis)
	}
	if !strings.Contains(dis, "OpArrayLength") {
		t.Errorf("GetDimensions is no OpArrayLength:\n%s", dis)
	}
	raw := make([]any, 32)
	for i := range raw {
		if i%2 == 0 {
			raw[i] = uint32(i) // Pair.a
		} else {
			raw[i] = uint32(0x3f800000) // Pair.b = 1.0
		}
	}
	zeros := func(n int) []any { return u32s(make([]uint32, n)...) }
	in := &interp.Input{Dispatch: [3]int{1, 1, 1}, Buffers: []interp.BufferInput{
		{Name: "P", Data: zeros(16)}, {Name: "Q", Data: zeros(16)}, {Name: "R", Data: raw},
		{Name: "Ap", Data: zeros(8)}, {Name: "Co", Data: u32s(5, 6, 7, 8, 9, 10, 11, 12)},
		{Name: "Co.counter", Data: u32s(8)}, {Name: "Sum", Data: zeros(2)}}}
	res, err := interp.Run(m, in, interp.Options{WaveSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	p, q, r := res.Buffer("P").Cells, res.Buffer("Q").Cells, res.Buffer("R").Cells
	for g := 0; g < 8; g++ {
		own, other := p, q
		if g&1 == 1 {
			own, other = q, p
		}
		if want := uint64((g+2)*3 + 1); own[g] != want {
			t.Errorf("b.X[%d] = %d, want %d", g, own[g], want)
		}
		if want := uint64(g * 10); other[8+g] != want {
			t.Errorf("arr[%d][%d] = %d, want %d", (g+1)&1, 8+g, other[8+g], want)
		}
		a, bits := uint64(2*g), uint64(0x3f800000)
		if g < 4 {
			a, bits = a+1, 0x40000000
		}
		if r[16+2*g] != a || r[17+2*g] != bits {
			t.Errorf("R at %d: %#x %#x, want %#x %#x", 64+8*g, r[16+2*g], r[17+2*g], a, bits)
		}
	}
	if ap := res.Buffer("Ap").Cells; ap[0] != 7 || ap[7] != 7 || res.Buffer("Ap.counter").Cells[0] != 8 {
		t.Errorf("Append: %v, counter %v", ap, res.Buffer("Ap.counter").Cells)
	}
	if sum := res.Buffer("Sum").Cells; sum[0] != 5+6+7+8+9+10+11+12 || sum[1] != 8*100+4 {
		t.Errorf("Sum = %v, want [68 804]", sum)
	}
	if c := res.Buffer("Co.counter").Cells[0]; c != 0 {
		t.Errorf("Co.counter = %d, want 0", c)
	}
	diff, err := runBoth(t, gpuCase{name: "declarations", m: m, in: in, groups: [3]int{1, 1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if diff != "" {
		t.Error(diff)
	}
}
