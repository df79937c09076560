package spirv

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"passlens/compiler/interp"
)

// TestLavapipePackedDot runs dot4add_i8packed, dot4add_u8packed and
// dot2add (SM6.4) on 64 random inputs: spirv-val accepts the module
// (core instructions only, no SPV_KHR_integer_dot_product), the
// interpreter's results equal the sums computed here, and lavapipe's
// equal the interpreter's bit for bit. dot2add's operands are halves
// given as f16tof32 of random finite bit patterns (default mode: the
// lowering rounds the exact floats back to the same halves). t and u
// registers share Vulkan bindings, so the outputs use u3-u5.
func TestLavapipePackedDot(t *testing.T) {
	m := lowerHLSL(t, `StructuredBuffer<uint> X : register(t0);
StructuredBuffer<uint> Y : register(t1);
StructuredBuffer<uint> Acc : register(t2);
RWStructuredBuffer<uint> I8 : register(u3);
RWStructuredBuffer<uint> U8 : register(u4);
RWStructuredBuffer<uint> F : register(u5);
[numthreads(64,1,1)]
void main(uint i : SV_GroupIndex) {
  I8[i] = dot4add_i8packed(X[i], Y[i], (int)Acc[i]);
  U8[i] = dot4add_u8packed(X[i], Y[i], Acc[i]);
  float2 a = float2(f16tof32(X[i]), f16tof32(X[i] >> 16));
  float2 b = float2(f16tof32(Y[i]), f16tof32(Y[i] >> 16));
  F[i] = asuint(dot2add(a, b, asfloat(Acc[i])));
}
`)
	words, err := Assemble(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if msg := spirvVal(t, words, "vulkan1.1"); msg != "" {
		t.Fatalf("spirv-val: %s", msg)
	}
	if dis := spirvDis(t, words); strings.Contains(dis, "integer_dot_product") || !strings.Contains(dis, "OpShiftRightArithmetic") {
		t.Errorf("want the core expansion without extensions:\n%s", dis)
	}
	r := rand.New(rand.NewPCG(17, 3))
	half := func() uint32 { // a finite half: exponent field below 31
		for {
			if h := r.Uint32() & 0xffff; h>>10&31 != 31 {
				return h
			}
		}
	}
	var x, y, acc []uint32
	for i := range 64 {
		x = append(x, half()|half()<<16)
		y = append(y, half()|half()<<16)
		if i < 4 { // byte extremes: -128*-128, 255*255
			x[i], y[i] = 0x80ff80ff, 0x80ff80ff
		}
		acc = append(acc, math.Float32bits(float32(r.NormFloat64()*1000)))
	}
	in := &interp.Input{Dispatch: [3]int{1, 1, 1}, Buffers: []interp.BufferInput{
		{Name: "X", Data: u32s(x...)}, {Name: "Y", Data: u32s(y...)}, {Name: "Acc", Data: u32s(acc...)},
		{Name: "I8", Data: u32s(make([]uint32, 64)...)}, {Name: "U8", Data: u32s(make([]uint32, 64)...)},
		{Name: "F", Data: u32s(make([]uint32, 64)...)}}}
	res, err := interp.Run(m, in, interp.Options{WaveSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	h2f := func(h uint32) float32 { // a half's value (finite)
		e, f := int(h>>10&31), float64(h&0x3ff)
		v := math.Ldexp(f, -24)
		if e > 0 {
			v = math.Ldexp(1024+f, e-25)
		}
		if h&0x8000 != 0 {
			v = -v
		}
		return float32(v)
	}
	for i := range 64 {
		var si, ui uint32 = acc[i], acc[i]
		for k := 0; k < 32; k += 8 {
			si += uint32(int32(int8(x[i]>>k)) * int32(int8(y[i]>>k)))
			ui += (x[i] >> k & 0xff) * (y[i] >> k & 0xff)
		}
		p0 := h2f(x[i]&0xffff) * h2f(y[i]&0xffff)
		p1 := h2f(x[i]>>16) * h2f(y[i]>>16)
		f := (p0 + p1) + math.Float32frombits(acc[i])
		if got := uint32(res.Buffer("I8").Cells[i]); got != si {
			t.Errorf("dot4add_i8packed(%#x, %#x, %d) = %d, want %d", x[i], y[i], int32(acc[i]), int32(got), int32(si))
		}
		if got := uint32(res.Buffer("U8").Cells[i]); got != ui {
			t.Errorf("dot4add_u8packed(%#x, %#x, %d) = %d, want %d", x[i], y[i], acc[i], got, ui)
		}
		if got := uint32(res.Buffer("F").Cells[i]); got != math.Float32bits(f) {
			t.Errorf("dot2add(%#x, %#x, %g) = %g, want %g", x[i], y[i], math.Float32frombits(acc[i]), math.Float32frombits(got), f)
		}
	}
	if t.Failed() {
		return
	}
	diff, err := runBoth(t, gpuCase{name: "packed dot", m: m, in: in, groups: [3]int{1, 1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if diff != "" {
		t.Error(diff)
	}
}
