package interp

import (
	"fmt"

	"passlens/compiler/ir"
)

// This file gives byte offsets a meaning in memory made of cells. LLVM
// addresses memory in bytes, and since LLVM 19 it writes constant offsets
// as `getelementptr i8, ptr %p, i64 16` whatever %p points to; the
// importer turns that into an access chain into [? x i8]. Memory here is
// one cell per scalar, so such an access is mapped through the byte
// layout that the amdgcn data layout gives the object's type: scalars
// their size (bool 1 byte), pointers 8 bytes (4 in groupshared and function
// memory, LLVM's address spaces 3 and 5), vectors their size rounded up to
// a power of two, arrays their element size times their length, structs
// their fields at their natural alignment. An offset that lands inside a
// scalar, in padding or outside the object is an error or an invalid
// pointer (byteAccess).

// llSize is the allocation size in bytes of t (0 for runtime-sized arrays
// and types without a layout).
func llSize(t *ir.Type) int {
	switch t.Kind {
	case ir.KBool:
		return 1
	case ir.KInt, ir.KUint, ir.KFloat:
		return max(1, t.Bits/8)
	case ir.KPointer:
		if t.Space == ir.SpaceGroupshared || t.Space == ir.SpaceFunction {
			return 4
		}
		return 8
	case ir.KVector:
		return roundUp(t.Len*llSize(t.Elem), llAlign(t))
	case ir.KMatrix:
		return t.Len * llSize(ir.Vec(t.Elem, t.Cols))
	case ir.KArray:
		if t.Len < 0 {
			return 0
		}
		return t.Len * llSize(t.Elem)
	case ir.KStruct:
		off := 0
		for _, f := range t.Fields {
			off = roundUp(off, llAlign(f.Type)) + llSize(f.Type)
		}
		return roundUp(off, llAlign(t))
	}
	return 0
}

// llAlign is the ABI alignment in bytes of t.
func llAlign(t *ir.Type) int {
	switch t.Kind {
	case ir.KVector:
		n := 1
		for n < t.Len*llSize(t.Elem) {
			n <<= 1
		}
		return n
	case ir.KMatrix:
		return llAlign(ir.Vec(t.Elem, t.Cols))
	case ir.KArray:
		return llAlign(t.Elem)
	case ir.KStruct:
		a := 1
		for _, f := range t.Fields {
			a = max(a, llAlign(f.Type))
		}
		return a
	}
	return max(1, llSize(t))
}

func roundUp(n, a int) int {
	if a <= 1 {
		return n
	}
	return (n + a - 1) / a * a
}

// byteOfCell returns the byte offset of cell c of a value of type t, or
// -1 when t has no cell c.
func byteOfCell(t *ir.Type, c int) int {
	b := 0
	for {
		switch t.Kind {
		case ir.KBool, ir.KInt, ir.KUint, ir.KFloat, ir.KPointer:
			if c != 0 {
				return -1
			}
			return b
		case ir.KVector, ir.KMatrix, ir.KArray:
			var et *ir.Type
			n := t.Len
			switch t.Kind {
			case ir.KVector, ir.KArray:
				et = t.Elem
			default:
				et = ir.Vec(t.Elem, t.Cols)
			}
			es := slots(et)
			if es == 0 || n >= 0 && c >= n*es {
				return -1
			}
			i := c / es
			b += i * llSize(et)
			c -= i * es
			t = et
		case ir.KStruct:
			start, found := 0, false
			for _, f := range t.Fields {
				start = roundUp(start, llAlign(f.Type))
				if n := slots(f.Type); c < n {
					b += start
					t, found = f.Type, true
					break
				} else {
					c -= n
				}
				start += llSize(f.Type)
			}
			if !found {
				return -1
			}
		default:
			return -1
		}
	}
}

// cellAtByte returns the cell at byte offset b of a value of type t; ok is
// false when b is not the first byte of a scalar of t (inside a scalar, in
// padding, or outside).
func cellAtByte(t *ir.Type, b int) (cell int, ok bool) {
	if b < 0 {
		return 0, false
	}
	for {
		switch t.Kind {
		case ir.KBool, ir.KInt, ir.KUint, ir.KFloat, ir.KPointer:
			return cell, b == 0
		case ir.KVector, ir.KMatrix, ir.KArray:
			var et *ir.Type
			switch t.Kind {
			case ir.KVector, ir.KArray:
				et = t.Elem
			default:
				et = ir.Vec(t.Elem, t.Cols)
			}
			es := llSize(et)
			if es == 0 {
				return 0, false
			}
			i := b / es
			if t.Len >= 0 && i >= t.Len {
				return 0, false
			}
			cell += i * slots(et)
			b -= i * es
			t = et
		case ir.KStruct:
			start, found := 0, false
			for _, f := range t.Fields {
				start = roundUp(start, llAlign(f.Type))
				if b >= start && b < start+llSize(f.Type) {
					b -= start
					t, found = f.Type, true
					break
				}
				cell += slots(f.Type)
				start += llSize(f.Type)
			}
			if !found {
				return 0, false
			}
		default:
			return 0, false
		}
	}
}

// byteAccess applies a byte offset (an access chain into [? x i8]) to a
// pointer into an object of cells. done is false for objects of one cell
// per byte (the dispatch packet, i8 buffers), which the ordinary access
// chain handles. Negative offsets are allowed as long as the result stays
// in the object (LLVM pointer arithmetic); an offset to the object's end
// is the one-past-the-end pointer; any other offset that is not the start
// of a scalar is ErrUnsupported, naming the object.
func byteAccess(mem *memory, base uint64, a *operand, v uint64) (p uint64, done bool, err error) {
	o, _ := mem.resolve(base, 0)
	if o == nil {
		return 0, true, nil
	}
	if o.bytes || o.typ == nil || o.typ.Kind == ir.KArray && o.typ.Elem.IsScalar() && llSize(o.typ.Elem) == 1 {
		return 0, false, nil
	}
	off := sext(v, bitsOf(a.typ))
	if a.typ.Kind == ir.KUint {
		off = int64(v & widthMask(bitsOf(a.typ)))
	}
	start := byteOfCell(o.typ, ptrOff(base))
	if ptrOff(base) == len(o.cells) {
		start = objectBytes(o)
	}
	if start < 0 {
		return 0, true, nil
	}
	target := int64(start) + off
	if target < 0 || target > 1<<31 {
		return 0, true, nil
	}
	if int(target) == objectBytes(o) {
		return mkPtr(ptrObj(base), len(o.cells)), true, nil
	}
	cell, ok := cellAtByte(o.typ, int(target))
	if !ok || cell >= len(o.cells) {
		if target < int64(objectBytes(o)) {
			return 0, true, fmt.Errorf("%w: byte offset %d into %s %s (type %s) is not the start of a scalar: the interpreter addresses whole scalars", ErrUnsupported, target, o.space, o.name, o.typ)
		}
		return 0, true, nil
	}
	return mkPtr(ptrObj(base), cell), true, nil
}

// objectBytes is the size in bytes of an object (runtime-sized arrays by
// their cells).
func objectBytes(o *object) int {
	t := o.typ
	if t.Kind == ir.KArray && t.Len < 0 {
		if es := slots(t.Elem); es > 0 {
			return len(o.cells) / es * llSize(t.Elem)
		}
		return 0
	}
	return llSize(t)
}
