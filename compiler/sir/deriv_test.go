package sir

import (
	"strings"
	"testing"
)

// TestDerivativeOps: fdsx, fdsy and demote (ps_3_0's dsx, dsy and a
// texkill that leaves the pixel running) parse, validate, survive the
// optimizations while their results are used (demote always: it has an
// effect), and print back the same.
func TestDerivativeOps(t *testing.T) {
	src := `func main simd1 {
  reg %x 32x1 simd1@0 input
  reg %dx 32x1 simd1@0 temp
  reg %dy 32x1 simd1@0 temp
  reg %o 32x1 simd1@0 output
entry:
  (1@0) fdsx %dx, %x
  (1@0) fdsy %dy, %x
  (1@0) demote
  (1@0) fadd %o, %dx, %dy
  (1@0) ret
}
`
	f, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(f); err != nil {
		t.Fatal(err)
	}
	if got := f.String(); got != src {
		t.Fatalf("round trip differs:\n%s\nvs\n%s", got, src)
	}
	Optimize(f)
	out := f.String()
	for _, w := range []string{"fdsx %dx, %x", "fdsy %dy, %x", "demote"} {
		if !strings.Contains(out, w) {
			t.Errorf("optimized function lacks %q:\n%s", w, out)
		}
	}
	// A derivative of a flag is rejected by the validator's float-op
	// rule.
	bad := strings.Replace(src, "reg %x 32x1", "reg %x 1x1", 1)
	g, err := Parse(bad)
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(g); err == nil || !strings.Contains(err.Error(), "fdsx") {
		t.Errorf("fdsx of a flag: validator says %v", err)
	}
}
