package interp

import (
	"fmt"
	"math/bits"

	"passlens/compiler/ir"
)

// Unbounded resource arrays (ir.UnboundedArray: RWBuffer<int> Buf[] is
// one global @Buf, element 0). The run input binds as many elements as it
// gives: element 0 is the buffer named "Buf.0" (or "Buf", or bound at
// @Buf's register), element k the buffer named "Buf.k", for k = 1, 2, …
// while such a buffer is given. The elements are objects allocated one
// after another, so element k is the object k after element 0's, and
// res.index(@Buf, i) is the pointer to element i's start, or the invalid
// pointer (reads give zero, writes do nothing: D3D's out-of-bounds rule)
// for i past the bound elements. The result lists the elements as
// buffers "Buf.0", "Buf.1", ….

// unboundedElements binds elements 1, 2, … of the unbounded array g whose
// element 0 is object o0.
func (mc *machine) unboundedElements(g *ir.Global, o0 *object, in *Input, used []bool, invocations int) error {
	elem, count, runtime := elemOf(g.ValType)
	if runtimeElem(elem) != nil {
		return &Error{Msg: fmt.Sprintf("unbounded resource array @%s: elements of %s (ending in a runtime array) are not supported", g.Name(), g.ValType), Err: ErrUnsupported}
	}
	n := 1
	for k := 1; ; k++ {
		name := fmt.Sprintf("%s.%d", g.Name(), k)
		var bi *BufferInput
		for i := range in.Buffers {
			if !used[i] && in.Buffers[i].Name == name {
				bi, used[i] = &in.Buffers[i], true
				break
			}
		}
		if bi == nil {
			break
		}
		c, err := bufferCount("buffer "+name, bi, elem, count, runtime, invocations)
		if err != nil {
			return err
		}
		size := cellsFor(g.ValType, 0)
		if runtime {
			size = cellsFor(g.ValType, c)
		}
		p := mc.mem.allocCells(size, g.ValType, g.Space, "@"+name)
		o := mc.mem.objs[ptrObj(p)]
		o.ro = g.ReadOnly
		if len(bi.Data) > 0 {
			if err := fillBuffer(o.cells, elem, c, cellsFor(elem, 0), bi.Data, "buffer "+name); err != nil {
				return &Error{Msg: err.Error(), Err: ErrInput}
			}
		}
		n++
	}
	o0.arrayLen = n
	return nil
}

// resIndex executes res.index(@Buf, i): the pointer to element i of the
// unbounded array, invalid past the bound elements.
func (w *wave) resIndex(fr *frame, ic *icode, mask uint64) error {
	if ic.res < 0 || len(ic.args) != 2 {
		return fmt.Errorf("%w: res.index needs a result and two operands", ErrMalformed)
	}
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		p := w.arg(fr, &ic.args[0], l)[0]
		i := w.arg(fr, &ic.args[1], l)[0]
		if t := ic.args[1].typ; t.Bits < 64 {
			if t.Kind == ir.KInt && i>>(t.Bits-1)&1 != 0 {
				i = ^uint64(0) // negative: out of range
			} else {
				i &= 1<<t.Bits - 1
			}
		}
		r := uint64(0)
		if id := ptrObj(p); id > 0 && id < len(w.mc.mem.objs) && p&0xFFFFFFFF == 0 {
			if o := w.mc.mem.objs[id]; o != nil && i < uint64(o.arrayLen) {
				r = p + i<<32
			}
		}
		w.dst(fr, ic.res, l)[0] = r
	}
	return nil
}

// collectUnbounded adds the elements of the unbounded array g (element 0
// at p0) to the result as buffers "g.0", "g.1", ….
func (mc *machine) collectUnbounded(g *ir.Global, p0 uint64) {
	o0 := mc.mem.objs[ptrObj(p0)]
	elem, _, runtime := elemOf(g.ValType)
	for k := 0; k < o0.arrayLen; k++ {
		o := mc.mem.objs[ptrObj(p0)+k]
		b := Buffer{Name: fmt.Sprintf("%s.%d", g.Name(), k), Set: g.Set, Binding: g.Binding, Elem: elem, Count: 1,
			Cells: append([]uint64(nil), o.cells...)}
		if runtime {
			b.Count = len(o.cells) / max(1, slots(elem))
		} else if g.ValType.Kind == ir.KArray {
			b.Count = g.ValType.Len
		}
		mc.result.Buffers = append(mc.result.Buffers, b)
	}
}
