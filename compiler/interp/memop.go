package interp

import (
	"fmt"
	"math/bits"

	"passlens/compiler/ir"
)

// memOp executes alloca, load, store, access, memcpy, memset and atomic
// for the lanes of mask (atomics in ascending lane order, so results are
// deterministic). See memory.go for out-of-bounds behaviour.
func (w *wave) memOp(fr *frame, ic *icode, mask uint64) error {
	mem := w.mc.mem
	in := ic.in
	switch in.Op {
	case ir.OpAlloca:
		t := in.Type().Elem
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			r := w.dst(fr, ic.res, l)
			// An alloca executed again (in a loop) keeps its object: the
			// old contents stand in for the undefined initial value.
			if o, _ := mem.resolve(r[0], 0); o != nil && o.cells != nil {
				continue
			}
			p := mem.alloc(t, 0, ir.SpaceFunction, in.Name())
			fr.objs = append(fr.objs, ptrObj(p))
			r[0] = p
		}
	case ir.OpLoad:
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			r := w.dst(fr, ic.res, l)
			p := w.arg(fr, &ic.args[0], l)[0]
			o, c := mem.resolve(p, len(r))
			if o != nil && o.bytes {
				loadBytes(mem, p, in.Type(), r)
				continue
			}
			if c != nil {
				copy(r, c)
			} else {
				clear(r)
			}
		}
	case ir.OpStore:
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			v := w.arg(fr, &ic.args[0], l)
			o, c := mem.resolve(w.arg(fr, &ic.args[1], l)[0], len(v))
			if o != nil && o.ro {
				return fmt.Errorf("%w: store to read-only %s %s", ErrReadOnly, o.space, o.name)
			}
			if c != nil && !w.helperStore(l, o) {
				copy(c, v)
			}
		}
	case ir.OpAccess:
		bt := ic.args[0].typ.Elem
		idx := make([]int64, len(ic.args)-1)
		byteChain := len(idx) == 1 && bt.Kind == ir.KArray && bt.Len < 0 && bt.Elem.IsScalar() && bitsOf(bt.Elem) == 8
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			if byteChain {
				p, done, err := byteAccess(mem, w.arg(fr, &ic.args[0], l)[0], &ic.args[1], w.arg(fr, &ic.args[1], l)[0])
				if err != nil {
					return err
				}
				if done {
					w.dst(fr, ic.res, l)[0] = p
					continue
				}
			}
			for i := range idx {
				a := &ic.args[i+1]
				v, ok := index(w.arg(fr, a, l)[0], a.typ)
				if ok {
					idx[i] = int64(v)
				} else {
					idx[i] = -1
				}
			}
			w.dst(fr, ic.res, l)[0] = access(w.arg(fr, &ic.args[0], l)[0], bt, idx)
		}
	case ir.OpMemcpy:
		n := slots(ic.args[0].typ.Elem)
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			o, d := mem.resolve(w.arg(fr, &ic.args[0], l)[0], n)
			if o != nil && o.ro {
				return fmt.Errorf("%w: memcpy into read-only %s %s", ErrReadOnly, o.space, o.name)
			}
			if d == nil || w.helperStore(l, o) {
				continue
			}
			if _, s := mem.resolve(w.arg(fr, &ic.args[1], l)[0], n); s != nil {
				copy(d, s)
			} else {
				clear(d)
			}
		}
	case ir.OpMemset:
		leaves := leafTypes(ic.args[0].typ.Elem, 0, nil)
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			o, d := mem.resolve(w.arg(fr, &ic.args[0], l)[0], len(leaves))
			if o != nil && o.ro {
				return fmt.Errorf("%w: memset of read-only %s %s", ErrReadOnly, o.space, o.name)
			}
			if d == nil || w.helperStore(l, o) {
				continue
			}
			by := w.arg(fr, &ic.args[1], l)[0] & 0xFF
			for i, t := range leaves {
				d[i] = byteFill(by, bitsOf(t))
			}
		}
	case ir.OpAtomic:
		t := ic.args[0].typ.Elem
		if !t.IsScalar() {
			return fmt.Errorf("%w: atomic on %s (scalars only)", ErrUnsupported, t)
		}
		b := bitsOf(t)
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			r := w.dst(fr, ic.res, l)
			p := w.arg(fr, &ic.args[0], l)[0]
			o, c := mem.resolve(p, 1)
			if o != nil && o.ro {
				return fmt.Errorf("%w: atomic on read-only %s %s", ErrReadOnly, o.space, o.name)
			}
			if b == 64 && wordPair(o) {
				// A 64-bit integer of a byte address buffer (bufword64.go).
				_, c = mem.resolve(p, 2)
			}
			if c == nil || w.helperStore(l, o) {
				r[0] = 0
				continue
			}
			v := w.arg(fr, &ic.args[1], l)[0]
			var cmp uint64
			if len(ic.args) > 2 {
				cmp = w.arg(fr, &ic.args[2], l)[0]
			}
			if len(c) == 2 {
				r[0] = atomicPair(in.Atomic, t, c, v, cmp)
				continue
			}
			old := c[0]
			c[0] = atomicOp(in.Atomic, t, b, old, v, cmp)
			r[0] = old
		}
	}
	return nil
}

// loadBytes loads a value of type t from an object of one cell per byte:
// each scalar leaf from its bytes, little-endian, leaves packed in order;
// bytes past the end read zero.
func loadBytes(mem *memory, p uint64, t *ir.Type, r []uint64) {
	off := 0
	for i, lt := range leafTypes(t, 0, nil) {
		n := max(1, (bitsOf(lt)+7)/8)
		var v uint64
		if _, c := mem.resolve(mkPtr(ptrObj(p), ptrOff(p)+off), n); c != nil {
			for k := n - 1; k >= 0; k-- {
				v = v<<8 | c[k]&0xFF
			}
		}
		if i < len(r) {
			r[i] = v & widthMask(bitsOf(lt))
		}
		off += n
	}
}

// byteFill repeats a byte over a cell of n bits (bool: byte != 0).
func byteFill(by uint64, n int) uint64 {
	if n == 1 {
		return b2u(by != 0)
	}
	var v uint64
	for i := 0; i < 64; i += 8 {
		v |= by << uint(i)
	}
	return v & widthMask(n)
}

// atomicOp computes the new memory value of an atomic read-modify-write.
func atomicOp(kind ir.AtomicKind, t *ir.Type, b int, old, v, cmp uint64) uint64 {
	m := widthMask(b)
	a := arithOf(t)
	switch kind {
	case ir.AtomicAdd:
		return a.add(old, v)
	case ir.AtomicMin:
		return a.min(old, v)
	case ir.AtomicMax:
		return a.max(old, v)
	case ir.AtomicUMin:
		return min(old&m, v&m)
	case ir.AtomicUMax:
		return max(old&m, v&m)
	case ir.AtomicAnd:
		return old & v & m
	case ir.AtomicOr:
		return (old | v) & m
	case ir.AtomicXor:
		return (old ^ v) & m
	case ir.AtomicXchg:
		return v & m
	case ir.AtomicCmpXchg:
		if old&m == cmp&m {
			return v & m
		}
		return old
	}
	return old
}
