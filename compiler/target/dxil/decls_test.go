package dxil

import (
	"strings"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/hlsl/lower"
	"passlens/compiler/interp"
)

// TestDXILResourceValues: buffers held by locals, arrays and struct
// members (a lane-dependent choice stays a select), member functions with
// inheritance, Load<T>/Store<T>, Append/Consume and GetDimensions go
// through the dxil pipeline and back end; llvm-as-22 accepts the output,
// GetDimensions is dx.op.getDimensions on a UAV handle, Append and Consume
// update their counters with dx.op.bufferUpdateCounter (+1, -1), and the
// pipeline's module still computes what the lowered one does.
func TestDXILResourceValues(t *testing.T) {
	src := `struct Pair { int a; float b; };
class Acc { uint n; void add(uint k) { n += k; } };
class Acc2 : Acc { uint m; uint total() { return n * 3 + m; } };
struct Bufs { RWStructuredBuffer<uint> X; };
RWStructuredBuffer<uint> P : register(u0);
RWStructuredBuffer<uint> Q : register(u1);
RWByteAddressBuffer R : register(u2);
AppendStructuredBuffer<uint> Ap : register(u3);
ConsumeStructuredBuffer<uint> Co : register(u4);
[numthreads(8,1,1)]
void main(uint g : SV_GroupIndex) {
  Bufs b;
  b.X = (g & 1) ? Q : P;
  Acc2 acc; acc.n = g; acc.m = 1;
  acc.add(2);
  b.X[g] = acc.total();
  Pair p = R.Load<Pair>(8 * g);
  Pair q = { p.a + 1, p.b * 2 };
  R.Store<Pair>(64 + 8 * g, select(g < 4, q, p));
  Ap.Append(Co.Consume());
  uint n, s;
  R.GetDimensions(n);
  Co.GetDimensions(n, s);
  P[8 + g] = n + s;
}
`
	prog, diags := hlsl.Frontend("decls.hlsl", []byte(src), hlsl.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m, ld := lower.Lower(prog, hlsl.Options{})
	if m == nil || ld.HasErrors() {
		t.Fatal(ld)
	}
	in := &interp.Input{Buffers: []interp.BufferInput{{Name: "Co", Data: []any{1, 2, 3, 4, 5, 6, 7, 8}}, {Name: "Co.counter", Data: []any{8}}}}
	before, err := interp.Run(m, in, interp.Options{WaveSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	text := runDXIL(t, "decls", m)
	checkLLVM(t, "decls", text)
	for _, want := range []string{"@dx.op.getDimensions(i32 72", "@dx.op.createHandle(i32 57, i8 1",
		"@dx.op.bufferUpdateCounter(i32 70, %dx.types.Handle %Ap.handle", "i8 1)", "i8 -1)"} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
	after, err := interp.Run(m, in, interp.Options{WaveSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"P", "Q", "R", "Ap", "Co.counter", "Ap.counter"} {
		b, a := before.Buffer(name), after.Buffer(name)
		if b == nil || a == nil {
			t.Fatalf("buffer %s missing", name)
		}
		for i := range b.Cells {
			if b.Cells[i] != a.Cells[i] {
				t.Errorf("%s[%d]: %d before the dxil pipeline, %d after", name, i, b.Cells[i], a.Cells[i])
				break
			}
		}
	}
	if got := before.Buffer("P").Cells[8]; got != 8+4 {
		t.Errorf("P[8] = %d, want Co's 8 elements + stride 4", got)
	}
}
