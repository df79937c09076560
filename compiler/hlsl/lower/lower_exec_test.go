package lower

import (
	"os"
	"path/filepath"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/interp"
)

// Execution tests: small shaders that exercise each part of the lowering,
// run by the interpreter; the expected values are computed by hand in the
// comments.

// The shaders live in testdata/lower/exec:
//
//   - exprs.hlsl: short-circuit evaluation (the call on the right of &&
//     runs only when the left is true), a control-flow ternary with side
//     effects, the comma operator, out/inout parameters, a struct built from
//     a nested initializer list and returned by value, an early return from
//     an infinite loop and masked swizzle writes;
//   - memory.hlsl: matrices in a constant buffer (column-major stored
//     transposed, row-major as is), mul in its forms, transpose,
//     determinant, matrix row and element writes, a static initialized at
//     run time, a static const array, groupshared memory with barriers,
//     atomics with and without the original value, compare-exchange on a
//     buffer element, a byte address buffer, sincos, modf and bit
//     intrinsics;
//   - control.hlsl: switch (default sharing a clause with case 0,
//     fallthrough, a braced clause, returns), loops whose continue block is
//     unreachable (while (true) { ...; break; }), do-while(false), for(;;),
//     a switch inside a loop with continue and break, a do-while with
//     continue and a short-circuit condition, a function-local static, and
//     an early return from the entry point;
//   - misc.hlsl: matrix arithmetic and comparison, an out argument that is
//     a swizzle, an out struct, array copies and array parameters, a buffer
//     passed to a function through a local alias, integer division and
//     remainder of negative values, shifts, IncrementCounter, mul with an
//     identity matrix, a dynamically indexed matrix row write;
//   - split.hlsl: loop conditions that need blocks of their own (checked
//     in lower_test.go);
//   - ops.hlsl: operators, conversions and intrinsics on per-thread data
//     (checked against glslangValidator and a Vulkan driver by
//     lowertest.TestGlslangDifferential);
//   - components.hlsl: single components written by every thread at
//     once (groupshared, storage, static and local vectors, matrix rows
//     and elements), each of which must write only its component;
//   - pixel.hlsl: clip, discard, an out parameter, an out struct and
//     SV_Depth;
//   - textures.hlsl: Load with a mip and an offset, operator[],
//     GetDimensions with and without a level, a four-offset Gather and
//     GatherCmp.

// execShader reads a shader of testdata/lower/exec.
func execShader(t *testing.T, name string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "lower", "exec", name+".hlsl"))
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

func TestLowerExec(t *testing.T) {
	cases := []struct {
		name, src string
		in        *interp.Input
		buffer    string
		n         int
		want      string
	}{
		// Out[i] digits: short-circuit counter, ternary, comma, s.b[1] + y.
		//   i=0: 0,0 | t=0 j=-1 | c=6 | 0+7   -> ((0*10-1)*10+6)*100+7 = -393
		//   i=2: 1,1 | t=2 j=1  | c=6 | 6+7   -> 113613
		{"exprs", "exprs", nil, "Out", 4, "-393 3610 113613 117616"},
		// F[i] = x (3) + s.a.y (i+1) + early(10+i) (4); F[4+i] = 8289 from v = (8, 2.5, 3, 9).
		{"exprs", "exprs", nil, "F", 8, "8.0 9.0 10.0 11.0 8289.0 8289.0 8289.0 8289.0"},
		// cm and rm are both [[1,2,3],[4,5,6]]; cm is given in memory order
		// (its columns). F[0] = sum of row 1 = 15; F[1] = 6 + 6*10; F[2] =
		// (1,2)*rm = (9,12,15) -> 927; F[3] = cm*(1,1,1) = (6,15) -> 615 +
		// det(cm*cm^T = [[14,32],[32,77]]) = 54; F[4+i] = a[0][i%3] + 0 + 4 + w[i%3];
		// F[8+i] = sin 0 + 10 cos 0 + 100 frac(2.75) + 1000 int(2.75); F[12+i] = 4 + 80 + 0x3F8.
		{"memory", "memory", &interp.Input{Uniforms: map[string]any{
			"cm": []any{[]any{1, 4}, []any{2, 5}, []any{3, 6}}, "rm": []any{[]any{1, 2, 3}, []any{4, 5, 6}}}},
			"F", 16, "15.0 66.0 927.0 669.0 12.0 14.0 16.0 12.0 2085.0 2085.0 2085.0 2085.0 1100.0 1100.0 1100.0 1100.0"},
		// U[i] = (1+2+3+4)*100 + max(3i) = 1009; U[4+i] = originals of the
		// adds in lane order; U[8] = 100 (lane 0 wins the compare-exchange);
		// U[12+i] = i + 20i + 100i.
		{"memory", "memory", nil, "U", 16, "1009 1009 1009 1009 0 1 3 6 100 0 0 0 0 121 242 363"},
		// Words 0..7 hold i at 2i; words 8..15 the pairs (i, 2i); word 16
		// the four atomic increments.
		{"memory", "memory", nil, "B", 17, "0 0 1 0 2 0 3 0 0 0 1 2 2 4 3 6 4"},
		// classify(-1..2) = 100, 10, 2, 4; loops(3..6) = 1018 1018 1022 1022;
		// next()+next() = 11+12 per lane; lane 3 returns before the last store.
		{"control", "control", nil, "Out", 16, "100 10 2 4 1018 1018 1022 1022 23 23 23 23 1 1 1 0"},
		// O[i] = (n[1], gt[1][0], sum(1,2,3) + sum(1,20,3)); O[2+i] = (40,30,30,40)
		// + (5, 6, 10, 0); O[4+i] = (-3*10-1, 3*10+1, 0xF, -7>>1); O[6+i] = (2,3,4,1) + 3.
		{"misc", "misc", nil, "O", 8, "<7.0, 9.0, 1.0, 30.0> <7.0, 9.0, 1.0, 30.0> <45.0, 36.0, 40.0, 40.0> <45.0, 36.0, 40.0, 40.0> " +
			"<-31.0, 31.0, 15.0, -4.0> <-31.0, 31.0, 15.0, -4.0> <5.0, 6.0, 7.0, 4.0> <5.0, 6.0, 7.0, 4.0>"},
		// IncrementCounter returns 0 and 1 in lane order; the hidden counter ends at 2.
		{"misc", "misc", nil, "C", 2, "100 101"},
		{"misc", "misc", nil, "C.counter", 1, "2"},
		// Each thread writes its own component: G = (10..13), Out[1] = 2i,
		// GM's anti-diagonal 20..23; S and L are per thread.
		{"components", "components", nil, "Out", 12, "<10, 11, 12, 13> <0, 2, 4, 6> <0, 0, 0, 0> <20, 21, 22, 23> " +
			"<1, 0, 0, 0> <0, 1, 0, 0> <0, 0, 1, 0> <0, 0, 0, 1> " +
			"<0, 100, 100, 100> <100, 1, 100, 100> <100, 100, 2, 100> <100, 100, 100, 3>"},
		// M[0] row i is (10i .. 10i+3), M[1] has i+1 at (i, 3-i); both are
		// stored transposed (element [c][r] of memory is row r, column c).
		{"components", "components", nil, "M", 2, "<<0.0, 10.0, 20.0, 30.0>, <1.0, 11.0, 21.0, 31.0>, <2.0, 12.0, 22.0, 32.0>, <3.0, 13.0, 23.0, 33.0>> " +
			"<<0.0, 0.0, 0.0, 4.0>, <0.0, 0.0, 3.0, 0.0>, <0.0, 2.0, 0.0, 0.0>, <1.0, 0.0, 0.0, 0.0>>"},
		// Without -enable-16bit-types half and min16* are 32-bit: 65504*2
		// is not infinity, 40000 and 70000 do not wrap.
		{"minprec", "minprec", nil, "F", 4, "131008.75 131009.75 131010.75 131011.75"},
		{"minprec", "minprec", nil, "I", 4, "150000 150001 150002 150003"},
		// t is 2x2 (texels 1 2 / 3 4) with a 1x1 level 1 holding 9. Out[0] =
		// (texel (1,0), level 1, texel (1,1) by offset, t[1,1]); Out[1] =
		// (level 1: 1x1, 2 levels -> 112, level 0: 2x2); Gather's footprint
		// at the centre is (i0j1, i1j1, i1j0, i0j0) = (3, 4, 2, 1), the first
		// offset by (1, 0) reads texel (1,1): 4; GatherCmp with ref 2.5
		// "less": 2.5 < (3, 4, 2, 1).
		{"textures", "textures", &interp.Input{
			Textures: []interp.TextureInput{{Name: "t", Format: "R32F", Width: 2, Height: 2, Levels: [][]any{{1, 2, 3, 4}, {9}}}},
			Samplers: []interp.SamplerInput{{Name: "s", Filter: "point"}, {Name: "c", Filter: "point", Comparison: "less"}}},
			"Out", 4, "<2.0, 9.0, 4.0, 4.0> <112.0, 2.0, 2.0, 0.0> <4.0, 4.0, 2.0, 1.0> <1.0, 1.0, 0.0, 0.0>"},
	}
	for _, c := range cases {
		t.Run(c.name+"/"+c.buffer, func(t *testing.T) {
			m := lowerSource(t, c.name+".hlsl", execShader(t, c.src), hlsl.Options{})
			res := run(t, m, c.in, interp.PolicyMaximal)
			if got := bufferText(t, res, c.buffer, c.n); got != c.want {
				t.Errorf("%s = %s\nwant %s", c.buffer, got, c.want)
			}
		})
	}
}

// TestLowerExecSized runs sized.hlsl with -enable-16bit-types; the
// expected values are IEEE bit patterns and integer identities worked
// out by hand.
func TestLowerExecSized(t *testing.T) {
	m := lowerSource(t, "sized.hlsl", execShader(t, "sized"), hlsl.Options{Enable16BitTypes: true})
	res := run(t, m, nil, interp.PolicyMaximal)
	for _, c := range []struct {
		buffer string
		n      int
		want   string
	}{
		// 1.5 = 0x3FF8000000000000; 0x1FFFFFFFF + 0x200000001 = 0x400000000;
		// popcount 32; bit 40 both ways; -1 has no bit differing from its
		// sign (all ones); 0 has no set bit.
		{"U", 9, "0 1073217536 0 4 32 40 40 4294967295 4294967295"},
		// 0x3FF00000:00000000 is 1.0; 5.57 is the double nearest it;
		// (1+2^-30)^2 - (1+2^-29) is 2^-60 fused, 0 unfused.
		{"D", 4, "1.0 5.57 8.673617379884035e-19 0.0"},
		// reversebits(1) = 2^63; the literal -2147483648 converts as int64.
		{"Q", 2, "9223372036854775808 18446744071562067968"},
		// half(0.1) = 0x2E66 (0.0999755859375); 70000 overflows to infinity.
		{"H", 2, "0.099975586 0x7C00"},
		// 40000 wraps to -25536; -2 = 0xFFFE differs from its sign at bit 0.
		{"S", 2, "-25536 0"},
	} {
		if got := bufferText(t, res, c.buffer, c.n); got != c.want {
			t.Errorf("%s = %s\nwant %s", c.buffer, got, c.want)
		}
	}
}

func TestLowerExecPixel(t *testing.T) {
	m := lowerSource(t, "pixel.hlsl", execShader(t, "pixel"), hlsl.Options{})
	in := &interp.Input{Rect: &interp.Rect{Width: 4, Height: 1}, Inputs: map[string]interp.LaneInput{
		"TEXCOORD0": {PerLane: []any{[]any{0.25, 1}, []any{0.75, 1}, []any{1, 1}, []any{1, 1}}}}}
	res := run(t, m, in, interp.PolicyMaximal)
	// Pixel 0 is clipped (uv.x - 0.5 < 0), pixel 3 (x = 3.5 > 3) is
	// discarded; pixels 1 and 2 write all three outputs.
	want := map[string][]string{
		"SV_Target0": {"", "<1.0, 2.0, 3.0, 4.0>", "<1.0, 2.0, 3.0, 4.0>", ""},
		"SV_Target1": {"", "<0.75, 1.0, 1.5, 0.5>", "<1.0, 1.0, 2.5, 0.5>", ""},
		"SV_Depth":   {"", "0.25", "0.25", ""},
	}
	for sem, pixels := range want {
		tg := res.Target(sem)
		if tg == nil {
			t.Fatalf("no target %s", sem)
		}
		for x, w := range pixels {
			got := ""
			if tg.Written[x] {
				got = interp.FormatValue(tg.Elem, tg.Pixel(x, 0))
			}
			if got != w {
				t.Errorf("%s pixel %d = %q, want %q", sem, x, got, w)
			}
		}
	}
}
