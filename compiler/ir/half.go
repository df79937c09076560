package ir

import "math"

// IEEE binary16 conversions, shared by the interpreter (every f16
// operation rounds through FloatToHalf) and the HLSL front end's constant
// folding, so a folded half constant equals the computed one.

// HalfToFloat converts IEEE binary16 bits to their (exact) value.
func HalfToFloat(h uint16) float64 { return float64(halfToF32(h)) }

func halfToF32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := int(h>>10) & 0x1F
	man := uint32(h) & 0x3FF
	switch {
	case exp == 0x1F: // inf or NaN (payload kept in the high mantissa bits)
		return math.Float32frombits(sign | 0x7F800000 | man<<13)
	case exp == 0:
		if man == 0 {
			return math.Float32frombits(sign)
		}
		// Subnormal half: value = man * 2^-24.
		f := float32(man) * (1.0 / (1 << 24))
		if sign != 0 {
			f = -f
		}
		return f
	}
	return math.Float32frombits(sign | uint32(exp-15+127)<<23 | man<<13)
}

// FloatToHalf converts a float64 to IEEE binary16 bits with one rounding
// (to nearest, ties to even) straight from the double's 53-bit
// significand, so a double that lies just off a half-way point between
// two halves is not rounded twice (through float32) onto the wrong side.
// Results below the smallest half subnormal round to zero, above the
// largest finite half to infinity; half subnormals are kept (D3D flushes
// only fp32). NaNs stay NaNs, quieted, with the payload's top bits.
func FloatToHalf(f float64) uint16 {
	b := math.Float64bits(f)
	sign := uint16(b>>48) & 0x8000
	exp := int(b>>52) & 0x7FF
	man := b & (1<<52 - 1)
	if exp == 0x7FF {
		if man != 0 {
			return sign | 0x7E00 | uint16(man>>42)
		}
		return sign | 0x7C00
	}
	if exp == 0 {
		// Double subnormals are far below the half range: round to zero.
		return sign
	}
	e := exp - 1023
	m := man | 1<<52 // 53 significant bits, value = m * 2^(e-52)
	if e > 15 {
		return sign | 0x7C00
	}
	var shift int // how many low bits of m to drop
	var hexp int
	if e >= -14 { // normal half
		shift = 42
		hexp = e + 15
	} else { // subnormal half: unit is 2^-24
		shift = 42 + (-14 - e)
		hexp = 0
		if shift > 54 { // below half the smallest subnormal
			return sign
		}
	}
	r := m >> uint(shift)
	rem := m & (1<<uint(shift) - 1)
	halfway := uint64(1) << uint(shift-1)
	if rem > halfway || (rem == halfway && r&1 == 1) {
		r++
	}
	if hexp == 0 {
		// r counts units of 2^-24; r == 0x400 rolls into the smallest normal.
		return sign | uint16(r)
	}
	// r has 11 significant bits (hidden bit 0x400); rounding may carry.
	if r >= 0x800 {
		r >>= 1
		hexp++
	}
	if hexp >= 0x1F {
		return sign | 0x7C00
	}
	return sign | uint16(hexp)<<10 | uint16(r&0x3FF)
}
