package offload

import (
	"fmt"
	"math"

	"passlens/compiler/interp"
)

// Compare applies a result's rule to the actual and expected values (bit
// patterns of width bits; float says they are floats) and describes the
// first difference ("" if they agree):
//   - BufferExact: equal bits;
//   - BufferFloatULP: NaN matches NaN, otherwise at most ULPT units in
//     the last place apart (+0 and -0 are 0 apart); unless DenormMode is
//     Preserve, denormals on either side count as zero of their sign
//     (Any accepts a flushed or a kept denormal, FTZ expects flushing);
//   - BufferFloatEpsilon: NaN matches NaN, infinities match themselves,
//     otherwise |actual - expected| <= Epsilon.
func Compare(r Result, actual, expected []uint64, bits int, float bool) string {
	if len(actual) != len(expected) {
		return fmt.Sprintf("%s has %d values, %s %d", r.Actual, len(actual), r.Expected, len(expected))
	}
	for i := range expected {
		a, e := actual[i], expected[i]
		ok := false
		switch r.Rule {
		case "BufferExact":
			ok = a == e
		case "BufferFloatULP":
			ok = float && ulpOK(a, e, bits, r.ULPT, r.DenormMode != "Preserve")
		case "BufferFloatEpsilon":
			ok = float && epsOK(a, e, bits, r.Epsilon)
		default:
			return fmt.Sprintf("unknown rule %q", r.Rule)
		}
		if !ok {
			return fmt.Sprintf("%s[%d] = %s, want %s (%s)", r.Actual, i, show(a, bits, float), show(e, bits, float), r.Rule)
		}
	}
	return ""
}

func show(v uint64, bits int, float bool) string {
	if float {
		return fmt.Sprintf("%g (0x%0*x)", toFloat(v, bits), bits/4, v)
	}
	return fmt.Sprintf("0x%0*x", bits/4, v)
}

func toFloat(v uint64, bits int) float64 { return interp.CellFloat(floatType(bits), v) }

// isNaN and isDenorm classify a float bit pattern.
func isNaN(v uint64, bits int) bool { return math.IsNaN(toFloat(v, bits)) }

func isDenorm(v uint64, bits int) bool {
	expBits := map[int]int{16: 5, 32: 8, 64: 11}[bits]
	manBits := bits - 1 - expBits
	exp := v >> uint(manBits) & (1<<uint(expBits) - 1)
	return exp == 0 && v&(1<<uint(manBits)-1) != 0
}

// ordered maps a float bit pattern to an integer that orders like the
// value, with +0 and -0 both 0.
func ordered(v uint64, bits int) int64 {
	sign := uint64(1) << uint(bits-1)
	if v&sign != 0 {
		return -int64(v &^ sign)
	}
	return int64(v)
}

func ulpOK(a, e uint64, bits, ulps int, flush bool) bool {
	if isNaN(a, bits) || isNaN(e, bits) {
		return isNaN(a, bits) && isNaN(e, bits)
	}
	sign := uint64(1) << uint(bits-1)
	if flush {
		if isDenorm(a, bits) {
			a &= sign
		}
		if isDenorm(e, bits) {
			e &= sign
		}
	}
	d := ordered(a, bits) - ordered(e, bits)
	if d < 0 {
		d = -d
	}
	return d <= int64(ulps)
}

func epsOK(a, e uint64, bits int, eps float64) bool {
	fa, fe := toFloat(a, bits), toFloat(e, bits)
	switch {
	case math.IsNaN(fa) || math.IsNaN(fe):
		return math.IsNaN(fa) && math.IsNaN(fe)
	case math.IsInf(fe, 0):
		return fa == fe
	}
	return math.Abs(fa-fe) <= eps
}
