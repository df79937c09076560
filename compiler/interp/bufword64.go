package interp

import (
	"fmt"
	"math/bits"

	"passlens/compiler/ir"
)

// bufWord64 executes buf.word64 (ir/bufword64.go): a pointer to the cell
// of the 32-bit word at byteOffset/4 of the byte address buffer, which an
// atomic of a 64-bit type then treats as the pair of words (wordPair). A
// byte offset that is not a multiple of 8, or whose two words are not both
// in the buffer, gives the invalid pointer (the atomic does nothing and
// returns 0).
func (w *wave) bufWord64(fr *frame, ic *icode, mask uint64) error {
	if ic.res < 0 {
		return fmt.Errorf("%w: %s must have a result", ErrMalformed, ir.BufWord64)
	}
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		base := w.arg(fr, &ic.args[0], l)[0]
		off := w.arg(fr, &ic.args[1], l)[0] & 0xFFFFFFFF
		p := uint64(0)
		if o, _ := w.mc.mem.resolve(base, 0); wordPair(o) && off%8 == 0 {
			k := ptrOff(base) + int(off/4)
			if k+2 <= len(o.cells) {
				p = mkPtr(ptrObj(base), k)
			}
		}
		w.dst(fr, ic.res, l)[0] = p
	}
	return nil
}

// wordPair reports whether o is an array of 32-bit words (a byte address
// buffer), in which a 64-bit atomic (through buf.word64) spans two cells.
func wordPair(o *object) bool {
	return o != nil && o.typ != nil && o.typ.Kind == ir.KArray && o.typ.Elem.IsScalar() && bitsOf(o.typ.Elem) == 32
}

// atomicPair performs a 64-bit atomic of kind on the two 32-bit words c
// (low word first) and returns the old 64-bit value.
func atomicPair(kind ir.AtomicKind, t *ir.Type, c []uint64, v, cmp uint64) uint64 {
	old := c[0]&0xFFFFFFFF | c[1]<<32
	nv := atomicOp(kind, t, 64, old, v, cmp)
	c[0], c[1] = nv&0xFFFFFFFF, nv>>32&0xFFFFFFFF
	return old
}
