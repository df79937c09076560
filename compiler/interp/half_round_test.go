package interp

import (
	"bufio"
	"fmt"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"passlens/internal/testtool"
)

// halfRefC converts doubles (hex bit patterns on stdin) to _Float16 as the
// host C compiler does (one IEEE rounding, to nearest even) and prints the
// half bits: the external reference for f64ToHalf.
const halfRefC = `#include <stdio.h>
#include <string.h>
#include <stdint.h>
int main(void) {
	uint64_t b;
	while (scanf("%lx", &b) == 1) {
		double d; memcpy(&d, &b, 8);
		_Float16 h = (_Float16)d; uint16_t o; memcpy(&o, &h, 2);
		printf("%04x\n", o);
	}
	return 0;
}
`

// TestHalfRoundingAgainstC checks the interpreter's rounding to half
// (fromF64 with 16 bits, used by every f16 operation and conversion)
// against clang-22's _Float16 conversion on the host, for doubles around
// every half-way point between adjacent halves (exactly on it, one double
// ulp either side), across the subnormal range, at the overflow
// threshold and for random doubles. Exactly-on ties must go to even, and
// a double one ulp off a tie must not be rounded twice (through float32)
// onto the tie's even side.
func TestHalfRoundingAgainstC(t *testing.T) {
	cc := testtool.Require(t, "clang-22", "clang-22")
	dir := t.TempDir()
	src := filepath.Join(dir, "h.c")
	if err := os.WriteFile(src, []byte(halfRefC), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "h")
	if out, err := exec.Command(cc, "-O1", "-o", bin, src).CombinedOutput(); err != nil {
		testtool.Unavailable(t, fmt.Sprintf("clang-22 cannot build a _Float16 program here: %v\n%s", err, out))
	}
	var in []float64
	for h := 0; h < 0x7C00; h++ { // every finite non-negative half
		lo, hi := float64(halfToF32(uint16(h))), float64(halfToF32(uint16(h+1)))
		if h+1 == 0x7C00 {
			hi = 65536 // the overflow threshold is 65520, half-way to 2^16
		}
		mid := (lo + hi) / 2
		for _, v := range []float64{lo, mid, math.Nextafter(mid, 0), math.Nextafter(mid, math.Inf(1))} {
			in = append(in, v, -v)
		}
	}
	r := rand.New(rand.NewSource(16))
	for i := 0; i < 20000; i++ {
		in = append(in, math.Ldexp(r.Float64()*2-1, r.Intn(50)-30))
	}
	in = append(in, math.Inf(1), math.Inf(-1), 1e300, -1e-300, 0x1p-25, 0x1p-26, math.Nextafter(0x1p-25, 1))
	var sb strings.Builder
	for _, v := range in {
		fmt.Fprintf(&sb, "%x\n", math.Float64bits(v))
	}
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader(sb.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	bad, doubleRounded := 0, 0
	for i := 0; sc.Scan(); i++ {
		want, err := strconv.ParseUint(sc.Text(), 16, 16)
		if err != nil || i >= len(in) {
			t.Fatalf("reference output line %d: %q", i, sc.Text())
		}
		got := fromF64(in[i], 16)
		if got != want {
			if bad++; bad <= 10 {
				t.Errorf("%g (%#x): half %#04x, C gives %#04x", in[i], math.Float64bits(in[i]), got, want)
			}
		}
		if uint64(f32ToHalf(float32(in[i]))) != want {
			doubleRounded++
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d conversions differ from C", bad, len(in))
	}
	// Negative control: rounding through float32 first is wrong for the
	// doubles one ulp off a tie, so it must disagree with C somewhere.
	if doubleRounded == 0 {
		t.Error("rounding through float32 agrees with C everywhere: the inputs do not exercise double rounding")
	}
	t.Logf("%d conversions equal C's _Float16; rounding through float32 would get %d wrong", len(in), doubleRounded)
}
