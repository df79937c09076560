package interp

import (
	"fmt"

	"passlens/compiler/ir"
)

// The SM6.4 packed dot products with accumulate (compiler/ir's
// dot4add_i8packed, dot4add_u8packed and dot2add), as DXIL defines
// Dot4AddI8Packed, Dot4AddU8Packed and Dot2AddHalf.
func init() {
	wholeValue["dot4add_i8packed"] = func(env fenv, args [][]uint64, at []*ir.Type, rt *ir.Type, r []uint64) error {
		a, b, acc := uint32(args[0][0]), uint32(args[1][0]), uint32(args[2][0])
		for i := range 4 {
			acc += uint32(int32(int8(a>>(8*i))) * int32(int8(b>>(8*i))))
		}
		r[0] = uint64(acc)
		return nil
	}
	wholeValue["dot4add_u8packed"] = func(env fenv, args [][]uint64, at []*ir.Type, rt *ir.Type, r []uint64) error {
		a, b, acc := uint32(args[0][0]), uint32(args[1][0]), uint32(args[2][0])
		for i := range 4 {
			acc += (a >> (8 * i) & 0xff) * (b >> (8 * i) & 0xff)
		}
		r[0] = uint64(acc)
		return nil
	}
	// dot2add: the products of two halves are exact in f32; their sum
	// and then the accumulator are added in f32 (with the run's fp32
	// denormal rule).
	wholeValue["dot2add"] = func(env fenv, args [][]uint64, at []*ir.Type, rt *ir.Type, r []uint64) error {
		for i := range 4 {
			if at[i] != ir.F16 {
				return fmt.Errorf("%w: dot2add operand %d is %s, not f16", ErrMalformed, i+1, at[i])
			}
		}
		f := env.arith(ir.F32)
		h := func(i int) uint64 { return f.from(toF64(args[i][0], 16)) }
		p0 := f.mul(h(0), h(2))
		p1 := f.mul(h(1), h(3))
		r[0] = f.add(f.add(p0, p1), args[4][0])
		return nil
	}
}
