package dxil

import (
	"regexp"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/hlsl/lower"
	"passlens/compiler/interp"
)

// TestDXILAtomic64: RWByteAddressBuffer.Interlocked*64 becomes, as in
// DXC, dx.op.atomicBinOp.i64 (78) with DXIL's operation code (signed
// max 5 for an int64_t value, unsigned max 7 for a uint64_t one, …) or
// dx.op.atomicCompareExchange.i64 (79) on the buffer's UAV handle with
// the byte offset as the first coordinate; llvm-as-22 accepts the output
// and the pipeline's module computes what the lowered one does.
func TestDXILAtomic64(t *testing.T) {
	src := `RWByteAddressBuffer B : register(u0);
RWStructuredBuffer<uint64_t> O : register(u1);
[numthreads(4,1,1)]
void main(uint g : SV_GroupIndex) {
  uint64_t o, c, x;
  B.InterlockedAdd64(0, 0x80000000ull, o);
  B.InterlockedAnd64(8, ~(1ull << g));
  B.InterlockedOr64(8, 1ull << (g + 32));
  B.InterlockedXor64(16, 3ull);
  B.InterlockedMin64(24, (int64_t)g - 2);
  B.InterlockedMax64(32, (int64_t)g - 2);
  B.InterlockedMin64(40, (uint64_t)g);
  B.InterlockedMax64(48, (uint64_t)g - 2);
  B.InterlockedExchange64(56, (uint64_t)g, x);
  B.InterlockedCompareStore64(64, 0ull, 5ull);
  B.InterlockedCompareExchange64(72, 0ull, 6ull, c);
  O[g] = o + c + x;
}
`
	prog, diags := hlsl.Frontend("atomic64.hlsl", []byte(src), hlsl.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m, ld := lower.Lower(prog, hlsl.Options{})
	if m == nil || ld.HasErrors() {
		t.Fatal(ld)
	}
	b := make([]any, 20)
	for i := range b {
		b[i] = uint32(i * 0x11111111)
	}
	in := &interp.Input{Buffers: []interp.BufferInput{{Name: "B", Data: b}}}
	before, err := interp.Run(m, in, interp.Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	text := runDXIL(t, "atomic64", m)
	checkLLVM(t, "atomic64", text)
	// DXIL's AtomicBinOpCode: Add 0, And 1, Or 2, Xor 3, IMin 4, IMax 5, UMin 6, UMax 7, Exchange 8.
	for _, code := range []string{"0", "1", "2", "3", "4", "5", "6", "7", "8"} {
		re := regexp.MustCompile(`call i64 @dx\.op\.atomicBinOp\.i64\(i32 78, %dx\.types\.Handle %[\w.]+, i32 ` + code + `, i32 [^,]+, i32 undef, i32 undef, i64 `)
		if !re.MatchString(text) {
			t.Errorf("no atomicBinOp.i64 with code %s in\n%s", code, text)
		}
	}
	if n := len(regexp.MustCompile(`call i64 @dx\.op\.atomicCompareExchange\.i64\(i32 79, `).FindAllString(text, -1)); n != 2 {
		t.Errorf("%d atomicCompareExchange.i64, want 2 (CompareStore64, CompareExchange64)", n)
	}
	if regexp.MustCompile(`buf\.word64|atomicrmw`).MatchString(text) {
		t.Errorf("buf.word64 or atomicrmw left in\n%s", text)
	}
	after, err := interp.Run(m, in, interp.Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"B", "O"} {
		bb, a := before.Buffer(name), after.Buffer(name)
		for i := range bb.Cells {
			if bb.Cells[i] != a.Cells[i] {
				t.Errorf("%s[%d]: %#x before the dxil pipeline, %#x after", name, i, bb.Cells[i], a.Cells[i])
			}
		}
	}
}
