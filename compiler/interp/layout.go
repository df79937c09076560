package interp

import (
	"passlens/compiler/ir"
)

// This file defines how IR values are laid out as cells. Every value, in a
// register or in memory, is a flat sequence of 64-bit cells: one cell per
// scalar leaf (bool, integer, float) or pointer, in declaration order
// (vector components, matrix rows then columns, array elements, struct
// fields). A scalar cell holds the value's bit pattern zero-extended to 64
// bits (bool 0 or 1, i32 -1 as 0xFFFFFFFF, f32 as its IEEE bits); a pointer
// cell holds an encoded pointer (see memory.go). Flat cells make loads,
// stores, extractvalue and bitcasts simple copies and make results
// comparable bit for bit.

// slots returns the number of cells of a value of type t. Runtime-sized
// arrays count as zero elements (their length is a property of the memory
// object, never of a register value).
func slots(t *ir.Type) int {
	switch t.Kind {
	case ir.KBool, ir.KInt, ir.KUint, ir.KFloat, ir.KPointer:
		return 1
	case ir.KVector:
		return t.Len
	case ir.KMatrix:
		return t.Len * t.Cols
	case ir.KArray:
		if t.Len < 0 {
			return 0
		}
		return t.Len * slots(t.Elem)
	case ir.KStruct:
		n := 0
		for _, f := range t.Fields {
			n += slots(f.Type)
		}
		return n
	}
	return 0
}

// component returns the cell offset and type of direct component i of the
// aggregate t, or ok=false when i is out of range. Runtime arrays accept
// any i >= 0 (bounds are checked against the memory object).
func component(t *ir.Type, i int) (off int, et *ir.Type, ok bool) {
	if i < 0 {
		return 0, nil, false
	}
	switch t.Kind {
	case ir.KVector:
		if i >= t.Len {
			return 0, nil, false
		}
		return i, t.Elem, true
	case ir.KMatrix:
		if i >= t.Len {
			return 0, nil, false
		}
		return i * t.Cols, ir.Vec(t.Elem, t.Cols), true
	case ir.KArray:
		if t.Len >= 0 && i >= t.Len {
			return 0, nil, false
		}
		return i * slots(t.Elem), t.Elem, true
	case ir.KStruct:
		if i >= len(t.Fields) {
			return 0, nil, false
		}
		for j := 0; j < i; j++ {
			off += slots(t.Fields[j].Type)
		}
		return off, t.Fields[i].Type, true
	}
	return 0, nil, false
}

// pathOffset follows a constant index path (extractvalue/insertvalue).
func pathOffset(t *ir.Type, path []int) (int, *ir.Type, bool) {
	off := 0
	for _, i := range path {
		o, et, ok := component(t, i)
		if !ok {
			return 0, nil, false
		}
		off += o
		t = et
	}
	return off, t, true
}

// leafTypes appends the scalar (or pointer) type of every cell of t, in
// cell order; a runtime-sized array counts tail elements.
func leafTypes(t *ir.Type, tail int, out []*ir.Type) []*ir.Type {
	switch t.Kind {
	case ir.KBool, ir.KInt, ir.KUint, ir.KFloat, ir.KPointer:
		return append(out, t)
	case ir.KVector, ir.KMatrix:
		for i := 0; i < slots(t); i++ {
			out = append(out, t.Elem)
		}
		return out
	case ir.KArray:
		n := t.Len
		if n < 0 {
			n = tail
		}
		for i := 0; i < n; i++ {
			out = leafTypes(t.Elem, tail, out)
		}
		return out
	case ir.KStruct:
		for _, f := range t.Fields {
			out = leafTypes(f.Type, tail, out)
		}
	}
	return out
}

// runtimeElem returns the element type of the runtime-sized array a value
// of type t ends with (t itself, or its last struct member, recursively;
// ByteAddressBuffer-like structs), or nil.
func runtimeElem(t *ir.Type) *ir.Type {
	switch t.Kind {
	case ir.KArray:
		if t.Len < 0 {
			return t.Elem
		}
	case ir.KStruct:
		if n := len(t.Fields); n > 0 {
			return runtimeElem(t.Fields[n-1].Type)
		}
	}
	return nil
}

// tailLen infers the length of t's trailing runtime array from the number
// of cells n holding a value of t.
func tailLen(t *ir.Type, n int) int {
	e := runtimeElem(t)
	if e == nil || slots(e) == 0 {
		return 0
	}
	return max(0, (n-slots(t))/slots(e))
}

// numParts returns the number of direct components of a value of type t
// held in n cells (a runtime-sized array has as many as fit).
func numParts(t *ir.Type, n int) int {
	if t.Kind == ir.KArray && t.Len < 0 {
		if e := slots(t.Elem); e > 0 {
			return n / e
		}
		return 0
	}
	return t.NumElems()
}

// part returns the type and cells of component i of a value of type t held
// in cells; a trailing runtime-sized member takes the remaining cells.
func part(t *ir.Type, cells []uint64, i int) (*ir.Type, []uint64, bool) {
	off, et, ok := component(t, i)
	if !ok {
		return nil, nil, false
	}
	n := slots(et)
	if t.Kind == ir.KStruct && i == len(t.Fields)-1 && runtimeElem(et) != nil {
		n = len(cells) - off
	}
	if n < 0 || off+n > len(cells) {
		return nil, nil, false
	}
	return et, cells[off : off+n], true
}

// bitsOf returns the width in bits of a scalar type's cell (pointers: 64).
func bitsOf(t *ir.Type) int {
	switch t.Kind {
	case ir.KBool:
		return 1
	case ir.KPointer:
		return 64
	}
	if t.Bits <= 0 || t.Bits > 64 {
		return 32
	}
	return t.Bits
}

// bf16Format is the float format code of bfloat16 (ir.BF16), which has
// the width of a half but a different layout: the high half of a float32.
const bf16Format = -16

// fbits returns the float format of a scalar type: its width, or
// bf16Format. Masks take it too (widthMask uses its magnitude).
func fbits(t *ir.Type) int {
	if t.Kind == ir.KFloat && t.Bits == 16 && t.Name == "bf16" {
		return bf16Format
	}
	return bitsOf(t)
}

// signBit returns the sign bit of a float format.
func signBit(b int) uint64 {
	if b < 0 {
		b = -b
	}
	return 1 << uint(b-1)
}

// widthMask returns the mask of the low n bits (n < 0: a float format code,
// see fbits).
func widthMask(n int) uint64 {
	if n < 0 {
		n = -n
	}
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(n) - 1
}

// sext sign-extends the low n bits of x.
func sext(x uint64, n int) int64 {
	if n >= 64 {
		return int64(x)
	}
	s := uint(64 - n)
	return int64(x<<s) >> s
}

// constCells flattens a constant into cells. Undefined values read as zero
// so runs are deterministic.
func constCells(c *ir.Const) []uint64 {
	out := make([]uint64, slots(c.Type()))
	fillConst(c, out)
	return out
}

func fillConst(c *ir.Const, out []uint64) {
	t := c.Type()
	if c.Zero || c.Undef {
		clear(out)
		return
	}
	switch t.Kind {
	case ir.KBool, ir.KInt, ir.KUint, ir.KFloat:
		if len(out) > 0 {
			out[0] = c.Bits & widthMask(bitsOf(t))
		}
		return
	case ir.KPointer:
		clear(out)
		return
	}
	off := 0
	for i := 0; i < t.NumElems(); i++ {
		e := c.Elem(i)
		if e == nil {
			break
		}
		n := slots(e.Type())
		if off+n > len(out) {
			break
		}
		fillConst(e, out[off:off+n])
		off += n
	}
}
