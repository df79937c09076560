package ir

import (
	"math"
	"strconv"
	"strings"
)

// Scalar types other than the 32-bit core (bool, i32, u32, f32). The HLSL
// front end makes i16/u16/f16 (-enable-16bit-types) and i64/u64/f64
// (int64_t, uint64_t, double); the LLVM bridge (compiler/llvm) makes them
// too, because LLVM IR uses i8/i16/i64 indices and masks (ballot returns
// i64), half, bfloat and double. Constants of these types keep their value in
// Const.Bits, sign- or zero-extended to 64 bits for integers and as the raw
// IEEE bit pattern for floats.
var (
	I8   = intern(&Type{Kind: KInt, Bits: 8})
	I16  = intern(&Type{Kind: KInt, Bits: 16})
	I64  = intern(&Type{Kind: KInt, Bits: 64})
	U16  = intern(&Type{Kind: KUint, Bits: 16})
	U64  = intern(&Type{Kind: KUint, Bits: 64})
	F16  = intern(&Type{Kind: KFloat, Bits: 16})
	BF16 = intern(&Type{Kind: KFloat, Bits: 16, Name: "bf16"})
	F64  = intern(&Type{Kind: KFloat, Bits: 64})
)

// IntType returns the signed integer type of the given width (i1 is bool).
// It returns nil for widths other than 1, 8, 16, 32 and 64.
func IntType(bits int) *Type {
	switch bits {
	case 1:
		return Bool
	case 8:
		return I8
	case 16:
		return I16
	case 32:
		return I32
	case 64:
		return I64
	}
	return nil
}

// UintType returns the unsigned integer type of the given width (16, 32
// or 64), or nil.
func UintType(bits int) *Type {
	switch bits {
	case 16:
		return U16
	case 32:
		return U32
	case 64:
		return U64
	}
	return nil
}

// FloatType returns the IEEE float type of the given width (16, 32 or
// 64), or nil.
func FloatType(bits int) *Type {
	switch bits {
	case 16:
		return F16
	case 32:
		return F32
	case 64:
		return F64
	}
	return nil
}

// ParseScalarType maps a scalar type spelling (bool, i8, i16, i32, i64, u16,
// u32, u64, f16, bf16, f32, f64) to its type.
func ParseScalarType(s string) (*Type, bool) {
	switch s {
	case "bool":
		return Bool, true
	case "i8":
		return I8, true
	case "i16":
		return I16, true
	case "i32":
		return I32, true
	case "i64":
		return I64, true
	case "u16":
		return U16, true
	case "u32":
		return U32, true
	case "u64":
		return U64, true
	case "f16":
		return F16, true
	case "bf16":
		return BF16, true
	case "f32":
		return F32, true
	case "f64":
		return F64, true
	}
	return nil, false
}

// ConstFloatBits returns a float constant of type t (f16, bf16, f32 or f64)
// with an exact IEEE bit pattern.
func ConstFloatBits(t *Type, bits uint64) *Const { return &Const{typ: t, Bits: bits} }

// extendBits truncates v to t's width and sign-extends (signed) or
// zero-extends (unsigned) it back to 64 bits.
func extendBits(t *Type, v uint64) uint64 {
	w := uint(t.Bits)
	if w == 0 || w >= 64 {
		return v
	}
	v &= 1<<w - 1
	if t.Kind != KUint && v&(1<<(w-1)) != 0 {
		v |= ^uint64(0) << w
	}
	return v
}

// formatFloatBits prints a non-32-bit float constant so that it parses back
// to the same bits: f64 as the shortest round-tripping decimal (with '.' or
// an exponent), NaNs, infinities and negative zero as 0x + the bit pattern;
// f16 and bf16 always as 0x + 4 hex digits (their decimal forms are not
// unique enough to be worth it).
func formatFloatBits(t *Type, bits uint64) string {
	if t.Bits == 64 {
		f := math.Float64frombits(bits)
		if !math.IsNaN(f) && !math.IsInf(f, 0) && bits != 1<<63 {
			s := strconv.FormatFloat(f, 'g', -1, 64)
			if !strings.ContainsAny(s, ".e") {
				s += ".0"
			}
			return s
		}
	}
	digits := t.Bits / 4
	h := strings.ToUpper(strconv.FormatUint(bits, 16))
	for len(h) < digits {
		h = "0" + h
	}
	return "0x" + h
}
