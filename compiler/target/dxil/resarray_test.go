package dxil

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/hlsl/lower"
	"passlens/compiler/interp"
)

// resArrayShader indexes arrays of textures, samplers and read-write
// textures with a divergent index (NonUniformResourceIndex of the thread
// id), a uniform one (the group id) and constants; the arrays start at
// registers other than 0 and a plain texture sits between them.
const resArrayShader = `
Texture2D<float4> plain : register(t0);
Texture2D<float4> t[3] : register(t2);
SamplerState s[2] : register(s1);
RWTexture2D<uint> u[2] : register(u3);
RWStructuredBuffer<float4> o : register(u0);
[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 g : SV_GroupID) {
	uint i = id.x % 3;
	float4 a = t[NonUniformResourceIndex(i)].Load(int3(0, 0, 0));
	float4 b = t[g.x % 3].SampleLevel(s[g.x & 1], float2(0.5, 0.5), 0);
	float4 c = t[1].Load(int3(0, 0, 0)) + plain.Load(int3(0, 0, 0));
	u[id.x & 1][uint2(0, 0)] = i;
	o[id.x] = a + b + c;
}
`

// TestDXILResourceArrays: each array is one resource range (range ids
// count an array once), a constant index names the element's register,
// a dynamic index is createHandle(range, first register + i) with the
// NonUniformIndex flag set exactly when the index is divergent; no
// select between handles is left; llvm-as-22 accepts the output.
func TestDXILResourceArrays(t *testing.T) {
	prog, diags := hlsl.Frontend("resarray.hlsl", []byte(resArrayShader), hlsl.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m, ld := lower.Lower(prog, hlsl.Options{})
	if m == nil || ld.HasErrors() {
		t.Fatal(ld)
	}
	text := runDXIL(t, "resarray", m)
	checkLLVM(t, "resarray", text)
	// SRV ranges: plain 0, t 1; sampler range: s 0; UAV ranges: u 0 (before o), o 1.
	for _, re := range []string{
		`createHandle\(i32 57, i8 0, i32 1, i32 %\S+, i1 true\)`,  // t[NonUniformResourceIndex(i)]: t2 + i
		`createHandle\(i32 57, i8 0, i32 1, i32 %\S+, i1 false\)`, // t[g.x % 3]: uniform
		`createHandle\(i32 57, i8 3, i32 0, i32 %\S+, i1 false\)`, // s[g.x & 1]
		`createHandle\(i32 57, i8 0, i32 1, i32 3, i1 false\)`,    // t[1]: register t3
		`createHandle\(i32 57, i8 0, i32 0, i32 0, i1 false\)`,    // plain
		// u[id.x & 1] = …: the lowering branches per element for a
		// write; both elements are in UAV range 0 (u3, u4).
		`createHandle\(i32 57, i8 1, i32 0, i32 3, i1 false\)`,
		`createHandle\(i32 57, i8 1, i32 0, i32 4, i1 false\)`,
		`add i32 %\S+, 2`, `add i32 %\S+, 1`, // the arrays' first registers
	} {
		if !regexp.MustCompile(re).MatchString(text) {
			t.Errorf("no match for %s in\n%s", re, text)
		}
	}
	if strings.Contains(text, "select i1") {
		t.Errorf("a select is left:\n%s", text)
	}
}

// TestDXILResourceArraysRun: the interpreter computes the same before and
// after the dxil pipeline (the chains the back end reads stay in the IR).
func TestDXILResourceArraysRun(t *testing.T) {
	prog, diags := hlsl.Frontend("resarray.hlsl", []byte(resArrayShader), hlsl.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m, ld := lower.Lower(prog, hlsl.Options{})
	if m == nil || ld.HasErrors() {
		t.Fatal(ld)
	}
	tex := func(name string, k int) interp.TextureInput {
		return interp.TextureInput{Name: name, Format: "RGBA32F", Width: 1, Height: 1, Levels: [][]any{{k, k + 1, k + 2, k + 3}}}
	}
	in := &interp.Input{Dispatch: [3]int{2, 1, 1}, Buffers: []interp.BufferInput{{Name: "o", Count: 8}},
		Textures: []interp.TextureInput{tex("plain", 1000), tex("t.0", 0), tex("t.1", 10), tex("t.2", 20),
			{Name: "u.0", Format: "R32UI", Width: 1, Height: 1, Levels: [][]any{{0}}},
			{Name: "u.1", Format: "R32UI", Width: 1, Height: 1, Levels: [][]any{{0}}}},
		Samplers: []interp.SamplerInput{{Name: "s.0", Filter: "point"}, {Name: "s.1", Filter: "point"}}}
	want := runInterp(t, m, in)
	runSpec(t, m, "inline,sroa,simplify,scalarize,simplify")
	if ok, diff := want.Equal(runInterp(t, m, in)); !ok {
		t.Errorf("results differ after the dxil pipeline: %s", diff)
	}
	// Lane 5 (group 1): a = t[2] = 20.., b = t[1] = 10.., c = t[1] + plain.
	if got := math.Float32frombits(uint32(want.Buffer("o").Cells[5*4])); got != 20+10+10+1000 {
		t.Errorf("o[5].x = %v, want %d", got, 20+10+10+1000)
	}
}

// TestDXILUnboundedArray: an unbounded buffer array is one global of an
// array of its buffers, each index (constant or per lane) a
// getelementptr into it; llvm-as-22 accepts the output and the
// interpreter computes the same before and after the dxil pipeline.
func TestDXILUnboundedArray(t *testing.T) {
	src := `RWBuffer<int> Buf[] : register(u2);
RWStructuredBuffer<int> o : register(u0);
[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
	Buf[NonUniformResourceIndex(id.x)][0] += 100;
	o[id.x] = Buf[id.x][1] + Buf[2][2];
}
`
	prog, diags := hlsl.Frontend("unbounded.hlsl", []byte(src), hlsl.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m, ld := lower.Lower(prog, hlsl.Options{})
	if m == nil || ld.HasErrors() {
		t.Fatal(ld)
	}
	in := &interp.Input{Buffers: []interp.BufferInput{{Name: "o", Count: 4}}}
	for k := 0; k < 4; k++ {
		in.Buffers = append(in.Buffers, interp.BufferInput{Name: "Buf." + string(rune('0'+k)), Data: []any{k, 10 * k, 100 * k}})
	}
	want := runInterp(t, m, in)
	// o[i] = Buf[i][1] + Buf[2][2] = 10i + 200.
	for i, c := range want.Buffer("o").Cells {
		if int32(c) != int32(10*i+200) {
			t.Errorf("interpreter o[%d] = %d, want %d", i, int32(c), 10*i+200)
		}
	}
	text := runDXIL(t, "unbounded", m)
	checkLLVM(t, "unbounded", text)
	for _, re := range []string{`@Buf = external addrspace\(1\) global \[0 x \[0 x i32\]\]`,
		`getelementptr \[0 x \[0 x i32\]\], ptr addrspace\(1\) @Buf, i32 0, i32 %`,
		`getelementptr \[0 x \[0 x i32\]\], ptr addrspace\(1\) @Buf, i32 0, i32 2`} {
		if !regexp.MustCompile(re).MatchString(text) {
			t.Errorf("no match for %s in\n%s", re, text)
		}
	}
	if ok, diff := want.Equal(runInterp(t, m, in)); !ok {
		t.Errorf("results differ after the dxil pipeline: %s", diff)
	}
}
