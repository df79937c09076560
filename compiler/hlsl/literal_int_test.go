package hlsl

import (
	"math"
	"testing"

	"passlens/compiler/interp"
)

// TestLiteralInts checks DXC's literal int semantics (docs/hlsl-rules.md,
// lex.literal) through the lowering and the interpreter: literal-only
// integer expressions fold at 64 bits, keep their value when converted
// to float, and are truncated to 32 bits where used as integers. Each
// expected value is what the 64-bit computation gives, worked by hand
// in the comments.
func TestLiteralInts(t *testing.T) {
	src := `RWStructuredBuffer<float> F;
RWStructuredBuffer<int> I;
[numthreads(1, 1, 1)] void main() {
	F[0] = 0x1FFFFFFFF;        // 8589934591
	F[1] = 4294967296 * 2.0;   // 8589934592
	F[2] = 5000000000 / 2;     // 2500000000
	F[3] = 1 << 31;            // 2147483648, not -2147483648
	F[4] = 0x7fffffff + 1;     // 2147483648
	F[5] = -1;
	F[6] = 1 << 40;            // 1099511627776
	F[7] = 3000000000;         // fits in uint: 3000000000
	I[0] = 1 << 40;            // 2^40 truncated: 0
	I[1] = 5000000000 / 2;     // 2500000000 - 2^32 = -1794967296
	I[2] = -7 / 2;             // -3
	I[3] = 0x7fffffff + 1;     // -2147483648
	I[4] = ~0;                 // -1
	I[5] = 0x100000005 % 3;    // 4294967301 % 3 = 0, not 5 % 3
}
`
	prog, diags := Frontend("lit.hlsl", []byte(src), Options{})
	if diags.HasErrors() {
		t.Fatal(render(prog, diags))
	}
	m, ld := Lower(prog, Options{})
	if m == nil || ld.HasErrors() {
		t.Fatal(messages(ld))
	}
	res, err := interp.Run(m, &interp.Input{}, interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantF := []float32{8589934591, 8589934592, 2500000000, 2147483648, 2147483648, -1, 1099511627776, 3000000000}
	for i, w := range wantF {
		if got := math.Float32frombits(uint32(res.Buffer("F").Cells[i])); got != w {
			t.Errorf("F[%d] = %g, want %g", i, got, w)
		}
	}
	wantI := []int32{0, -1794967296, -3, -2147483648, -1, 0}
	for i, w := range wantI {
		if got := int32(uint32(res.Buffer("I").Cells[i])); got != w {
			t.Errorf("I[%d] = %d, want %d", i, got, w)
		}
	}
}
