package hlsl

import (
	"fmt"

	"passlens/compiler/ir"
)

// Constant buffer layout (the legacy D3D cbuffer packing rules): values
// are packed into 16-byte registers; a value may not straddle a register
// boundary; matrices, arrays and structs start on a register; array
// elements each start on a register. Scalars take their width: 2 bytes
// for the 16-bit types of -enable-16bit-types, 8 for double and the
// 64-bit integers, 4 otherwise (bool, and the default mode's half and
// minimum-precision types); a value that fits in the current register
// starts at a multiple of its scalar size (DXC's
// AlignBufferOffsetInLegacy: double after a float moves to offset 8).

// CBufferSize returns the size in bytes of t in a constant buffer and whether
// it must start on a 16-byte register boundary.
func CBufferSize(t *Type) (size int, aligned bool) {
	switch {
	case t == nil || t.IsError():
		return 0, false
	case t.IsScalar():
		return cbScalarBytes(t), false
	case t.IsVector():
		return cbScalarBytes(t.Elem) * t.Len, false
	case t.IsMatrix():
		w := cbScalarBytes(t.Elem)
		if t.RowMajor {
			return (t.Rows-1)*16 + t.Cols*w, true
		}
		return (t.Cols-1)*16 + t.Rows*w, true
	case t.Kind == KindArray:
		e, _ := CBufferSize(t.Elem)
		if t.Len <= 0 {
			return 0, true
		}
		return (t.Len-1)*roundUp16(e) + e, true
	case t.Kind == KindStruct:
		off := 0
		for _, f := range t.Struct.Fields {
			off = CBufferPlace(off, f.Type)
			sz, _ := CBufferSize(f.Type)
			off += sz
		}
		return off, true
	}
	return 0, false
}

func roundUp16(n int) int { return (n + 15) &^ 15 }

// cbScalarBytes is the size of a scalar (or of a vector's or matrix's
// component) in a constant buffer.
func cbScalarBytes(t *Type) int {
	if t == nil || t.Kind == KindBool {
		return 4
	}
	return t.Width() / 8
}

// CBufferPlace returns the offset at which a value of type t goes when the
// next free byte is off.
func CBufferPlace(off int, t *Type) int {
	size, aligned := CBufferSize(t)
	if aligned || size > 0 && off/16 != (off+size-1)/16 {
		return roundUp16(off)
	}
	if t.IsScalar() || t.IsVector() {
		w := cbScalarBytes(t)
		if t.IsVector() {
			w = cbScalarBytes(t.Elem)
		}
		off = (off + w - 1) / w * w
		if size > 0 && off/16 != (off+size-1)/16 {
			return roundUp16(off)
		}
	}
	return off
}

// ReservedOffset is the byte offset a member's declaration fixes:
// packoffset(cN.c) in a cbuffer, or register(cN) on a global uniform (the
// $Globals member then sits at cN, as DXC places it; inside a cbuffer
// register(cN) is ignored, as vkd3d's cbuffer tests record).
func ReservedOffset(m *VarDecl) (int, bool) {
	switch {
	case m.PackOffset != nil:
		return m.PackOffset.Register*16 + m.PackOffset.Component*4, true
	case m.Kind == VarGlobal && m.Register != nil && m.Register.Class == 'c' && m.Register.Profile == "":
		return m.Register.Index * 16, true
	}
	return 0, false
}

// layoutBuffer assigns byte offsets to a constant buffer's members:
// packoffset and register(cN) reservations keep theirs, the others follow
// all of them (ir.PlaceMembers, the rule every layout shares).
func layoutBuffer(cb *CBuffer) {
	ms := cb.Members
	offs := ir.PlaceMembers(len(ms),
		func(i int) (int, bool) { return ReservedOffset(ms[i]) },
		func(i int) int { sz, _ := CBufferSize(ms[i].Type); return sz },
		func(i, off int) int { return CBufferPlace(off, ms[i].Type) })
	for i, m := range ms {
		m.Offset = offs[i]
	}
}

// checkPackOffsets validates packoffset annotations: alignment, register
// boundaries and overlaps; then lays the buffer out.
func (c *checker) checkPackOffsets(cb *CBuffer) {
	type placed struct {
		v          *VarDecl
		start, end int
	}
	var done []placed
	for _, m := range cb.Members {
		po := m.PackOffset
		if po == nil || m.Type.IsError() {
			continue
		}
		size, aligned := CBufferSize(m.Type)
		start := po.Register*16 + po.Component*4
		switch {
		case aligned && po.Component != 0:
			c.rep.errorf(po.P, po.E, "packoffset of '%s' must start at a register boundary: '%s' must be register-aligned", m.Name, m.Type)
			continue
		case !aligned && po.Component*4+size > 16:
			c.rep.errorf(po.P, po.E, "packoffset of '%s' crosses a register boundary", m.Name)
			continue
		}
		for _, d := range done {
			if start < d.end && d.start < start+size {
				c.rep.add(Diagnostic{Severity: Error, Pos: po.P, End: po.E,
					Message: fmt.Sprintf("packoffset of '%s' overlaps '%s'", m.Name, d.v.Name),
					Notes:   []Diagnostic{note(d.v.NamePos, "'%s' is declared here", d.v.Name)}})
				break
			}
		}
		done = append(done, placed{m, start, start + size})
	}
	layoutBuffer(cb)
}
