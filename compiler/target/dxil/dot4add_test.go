package dxil

import (
	"regexp"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/hlsl/lower"
)

// TestDXILPackedDot: dot4add_i8packed, dot4add_u8packed and dot2add
// (SM6.4) become DXIL's Dot4AddI8Packed (163), Dot4AddU8Packed (164) and
// Dot2AddHalf (162) with the accumulator first, as DXIL.rst's signatures
// have it (dx.op.dot4AddPacked.i32(code, acc, a, b),
// dx.op.dot2AddHalf.f32(code, acc, ax, ay, bx, by)); llvm-as-22 accepts
// the output and it has no vector types.
func TestDXILPackedDot(t *testing.T) {
	src := `StructuredBuffer<uint> X : register(t0);
StructuredBuffer<uint> Y : register(t1);
StructuredBuffer<int> Z : register(t2);
StructuredBuffer<uint> W : register(t3);
StructuredBuffer<half2> A : register(t4);
StructuredBuffer<half2> B : register(t5);
StructuredBuffer<float> C : register(t6);
RWStructuredBuffer<int> I8 : register(u0);
RWStructuredBuffer<uint> U8 : register(u1);
RWStructuredBuffer<float> F : register(u2);
[numthreads(8,1,1)]
void main(uint i : SV_GroupIndex) {
  I8[i] = dot4add_i8packed(X[i], Y[i], Z[i]);
  U8[i] = dot4add_u8packed(X[i], Y[i], W[i]);
  F[i] = dot2add(A[i], B[i], C[i]);
}`
	opts := hlsl.Options{Entry: "main", Stage: hlsl.StageCompute, Enable16BitTypes: true}
	prog, diags := hlsl.Frontend("dot.hlsl", []byte(src), opts)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m, ld := lower.Lower(prog, opts)
	if ld.HasErrors() {
		t.Fatal(ld)
	}
	text := runDXIL(t, "dot", m)
	checkLLVM(t, "dot", text)
	checkScalar(t, "dot", text)
	for _, re := range []string{
		`call i32 @dx\.op\.dot4AddPacked\.i32\(i32 163, i32 %Z[\w.]*, i32 %X[\w.]*, i32 %Y[\w.]*\)`,
		`call i32 @dx\.op\.dot4AddPacked\.i32\(i32 164, i32 %W[\w.]*, i32 %X[\w.]*, i32 %Y[\w.]*\)`,
		`call float @dx\.op\.dot2AddHalf\.f32\(i32 162, float %C[\w.]*, half %A[\w.]*x, half %A[\w.]*y, half %B[\w.]*x, half %B[\w.]*y\)`,
		`declare i32 @dx\.op\.dot4AddPacked\.i32\(i32, i32, i32, i32\)`,
		`declare float @dx\.op\.dot2AddHalf\.f32\(i32, float, half, half, half, half\)`,
	} {
		if !regexp.MustCompile(re).MatchString(text) {
			t.Errorf("no match for %s in\n%s", re, text)
		}
	}
}
