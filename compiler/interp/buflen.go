package interp

import (
	"fmt"
	"math/bits"

	"passlens/compiler/ir"
)

// bufLength executes buf.length (ir/buflen.go): the element count of the
// runtime array of the buffer the pointer operand points into.
func (w *wave) bufLength(fr *frame, ic *icode, mask uint64) error {
	if ic.res < 0 {
		return fmt.Errorf("%w: buf.length must have a result", ErrMalformed)
	}
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		p := w.arg(fr, &ic.args[0], l)[0]
		n := uint64(0)
		if id := ptrObj(p); id > 0 && id < len(w.mc.mem.objs) {
			if o := w.mc.mem.objs[id]; o != nil && o.typ != nil && o.typ.Kind == ir.KArray {
				if s := slots(o.typ.Elem); s > 0 {
					n = uint64(len(o.cells) / s)
				}
			}
		}
		w.dst(fr, ic.res, l)[0] = n
	}
	return nil
}
