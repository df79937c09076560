package interp

import (
	"math"
	"testing"

	"passlens/compiler/ir"
)

// The float32 denormal mode. The expected values of the default (ftz) are
// those of the offload-test-suite's HLSLLib tests (D3D's fp32 behaviour:
// log.32, log2.32, log10.32, rsqrt.32, sqrt.32, ceil.32, floor.32,
// trunc.32, exp.32, cos.nan-inf-denorm.32 feed 0x1.e7d42cp-127 and its
// negation); preserve is IEEE.

// denorm is the offload-test-suite's denormal input, 0x1.e7d42cp-127.
var denorm = float32(0x1.e7d42cp-127)

// eval1Mode is eval1 under a denormal mode.
func eval1Mode(t *testing.T, d Denorm, rt *ir.Type, build func(k *kit) ir.Value) []uint64 {
	t.Helper()
	k := newKit(rt, 1)
	k.store(build(k))
	res := k.run(t, nil, Options{WaveSize: 4, Denorm: d})
	return res.Buffer("Out").Element(0)
}

func TestDenormModes(t *testing.T) {
	t.Parallel()
	f := ir.F32
	dn := ir.ConstF32Bits(math.Float32bits(denorm))
	ndn := ir.ConstF32Bits(math.Float32bits(-denorm))
	negZero, inf, negInf := uint64(0x80000000), uint64(0x7F800000), uint64(0xFF800000)
	isNaN := func(c uint64) bool { return math.IsNaN(float64(math.Float32frombits(uint32(c)))) }
	cases := []struct {
		name     string
		build    func(k *kit) ir.Value
		ftz      uint64
		preserve func(c uint64) bool // nil: preserve gives ftz's value
	}{
		{"log(-denorm)", intr("log", f, ndn), negInf, isNaN},
		{"log(denorm)", intr("log", f, dn), negInf, func(c uint64) bool { return math.Float32frombits(uint32(c)) < -80 }},
		{"log2(-denorm)", intr("log2", f, ndn), negInf, isNaN},
		{"log10(-denorm)", intr("log10", f, ndn), negInf, isNaN},
		{"rsqrt(-denorm)", intr("rsqrt", f, ndn), negInf, isNaN},
		{"rsqrt(denorm)", intr("rsqrt", f, dn), inf, func(c uint64) bool { return c != inf && !isNaN(c) }},
		{"sqrt(-denorm)", intr("sqrt", f, ndn), negZero, isNaN},
		{"ceil(-denorm)", intr("ceil", f, ndn), negZero, nil},
		{"floor(-denorm)", intr("floor", f, ndn), negZero, func(c uint64) bool { return c == f32bits(-1) }},
		{"trunc(denorm)", intr("trunc", f, dn), 0, nil},
		{"exp(-denorm)", intr("exp", f, ndn), f32bits(1), nil},
		{"cos(denorm)", intr("cos", f, dn), f32bits(1), nil},
		{"denorm * 1", bin(ir.OpFMul, dn, f32c(1)), 0, func(c uint64) bool { return c == uint64(math.Float32bits(denorm)) }},
		{"-denorm + 0", bin(ir.OpFAdd, ndn, f32c(0)), 0, func(c uint64) bool { return c == uint64(math.Float32bits(-denorm)) }},
		{"2^-126 * 0.5", bin(ir.OpFMul, ir.ConstF32Bits(0x00800000), f32c(0.5)), 0, func(c uint64) bool { return c == 0x00400000 }},
		{"-2^-126 * 0.5", bin(ir.OpFMul, ir.ConstF32Bits(0x80800000), f32c(0.5)), negZero, func(c uint64) bool { return c == 0x80400000 }},
		{"denorm > 0", func(k *kit) ir.Value {
			return k.b.Select(k.b.Cmp(ir.PredOGT, dn, f32c(0), ""), f32c(1), f32c(2), "")
		}, f32bits(2), func(c uint64) bool { return c == f32bits(1) }},
		{"max(denorm, 0)", intr("max", f, dn, f32c(0)), 0, func(c uint64) bool { return c == uint64(math.Float32bits(denorm)) }},
	}
	for _, c := range cases {
		got := eval1Mode(t, DenormFTZ, f, c.build)[0]
		if got != c.ftz {
			t.Errorf("ftz: %s = %s, want %s", c.name, FormatValue(f, []uint64{got}), FormatValue(f, []uint64{c.ftz}))
		}
		got = eval1Mode(t, DenormPreserve, f, c.build)[0]
		if ok := c.preserve == nil && got == c.ftz || c.preserve != nil && c.preserve(got); !ok {
			t.Errorf("preserve: %s = %s (0x%08x)", c.name, FormatValue(f, []uint64{got}), got)
		}
	}
	// Halves keep their denormals under ftz (D3D flushes only fp32).
	h := ir.F16
	got := eval1Mode(t, DenormFTZ, h, bin(ir.OpFMul, ir.ConstFloatBits(h, 0x0400), ir.ConstFloatBits(h, 0x3800)))[0]
	if got != 0x0200 {
		t.Errorf("ftz: half 2^-14 * 0.5 = 0x%04x, want the subnormal 0x0200", got)
	}
	// Moving a denormal keeps its bits.
	got = eval1Mode(t, DenormFTZ, f, func(k *kit) ir.Value { return k.b.Select(ir.ConstBool(ir.Bool, true), dn, f32c(0), "") })[0]
	if got != uint64(math.Float32bits(denorm)) {
		t.Errorf("ftz: select moved denorm to 0x%08x", got)
	}
}

func TestParseDenorm(t *testing.T) {
	t.Parallel()
	for _, d := range []Denorm{DenormFTZ, DenormPreserve} {
		if back, err := ParseDenorm(d.String()); err != nil || back != d {
			t.Errorf("%s: %v %v", d, back, err)
		}
	}
	if _, err := ParseDenorm("daz"); err == nil {
		t.Error("ParseDenorm(daz) succeeded")
	}
}
