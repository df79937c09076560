package lower

import (
	"math"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/interp"
)

// TestLiteralInts checks DXC's literal int semantics (docs/hlsl-rules.md,
// lex.literal) through the lowering and the interpreter: literal-only
// integer expressions fold at 64 bits, and the value then takes int if
// it fits, else uint if it fits, else INT_MIN. The first and the U[0]
// cases are DXC's SM6 results as vkd3d's sm1-const-folding tests record
// them; the others are worked by hand in the comments.
func TestLiteralInts(t *testing.T) {
	src := `RWStructuredBuffer<float> F;
RWStructuredBuffer<int> I;
RWStructuredBuffer<uint> U;
static const float K = 3000000000 + 3000000000;
[numthreads(1, 1, 1)] void main() {
	F[0] = 3000000000 + 3000000000; // 6000000000: beyond 32 bits, INT_MIN
	F[1] = 3000000000;              // fits in uint: 3000000000
	F[2] = 5000000000 / 2;          // 2500000000 fits in uint (5000000000 alone would not)
	F[3] = 1 << 31;                 // 2147483648 (uint), not -2147483648
	F[4] = 0x7fffffff + 1;          // 2147483648
	F[5] = -1;
	F[6] = 1 << 40;                 // beyond 32 bits: INT_MIN
	F[7] = 0x1FFFFFFFF;             // beyond 32 bits: INT_MIN
	I[0] = 3000000000 + 3000000000; // INT_MIN
	I[1] = 5000000000 / 2;          // 2500000000 as int bits: -1794967296
	I[2] = -7 / 2;                  // -3
	I[3] = 1 << 40;                 // INT_MIN, not 1 << 8
	I[4] = ~0;                      // -1
	I[5] = 0x100000005 % 3;         // 4294967301 % 3 = 0, not 5 % 3
	U[0] = 3000000000 + 3000000000; // 2147483648
	U[1] = 3000000000u + 3000000000u; // typed uint: wraps to 1705032704
	F[8] = K;                       // a static const initializer: -2147483648
}
`
	prog, diags := hlsl.Frontend("lit.hlsl", []byte(src), hlsl.Options{})
	if diags.HasErrors() {
		t.Fatal(render(prog, diags))
	}
	m, ld := Lower(prog, hlsl.Options{})
	if m == nil || ld.HasErrors() {
		t.Fatal(messages(ld))
	}
	res, err := interp.Run(m, &interp.Input{}, interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantF := []float32{-2147483648, 3000000000, 2500000000, 2147483648, 2147483648, -1, -2147483648, -2147483648, -2147483648}
	for i, w := range wantF {
		if got := math.Float32frombits(uint32(res.Buffer("F").Cells[i])); got != w {
			t.Errorf("F[%d] = %g, want %g", i, got, w)
		}
	}
	wantI := []int32{-2147483648, -1794967296, -3, -2147483648, -1, 0}
	for i, w := range wantI {
		if got := int32(uint32(res.Buffer("I").Cells[i])); got != w {
			t.Errorf("I[%d] = %d, want %d", i, got, w)
		}
	}
	for i, w := range []uint32{2147483648, 1705032704} {
		if got := uint32(res.Buffer("U").Cells[i]); got != w {
			t.Errorf("U[%d] = %d, want %d", i, got, w)
		}
	}
}
