package interp

import (
	"fmt"

	"passlens/compiler/ir"
)

// Memory is a table of objects, each a flat run of cells (layout.go). A
// pointer cell encodes (object id << 32 | cell offset); object id 0 is the
// invalid pointer. Objects are created per lane (allocas, private, input
// and output globals), per group (groupshared) or once per run (storage
// and uniform globals).
//
// Undefined behaviour never crashes the interpreter; it is given a fixed
// meaning, in the spirit of D3D robust buffer access, for every address
// space alike:
//   - an access chain index outside a fixed-size array, vector or matrix,
//     or negative, yields the invalid pointer;
//   - an element past the end of a runtime-sized array is out of bounds;
//   - loading through an invalid or out-of-bounds pointer yields zero,
//     storing through one does nothing, an atomic on one returns zero and
//     does nothing.

// object is one memory allocation.
type object struct {
	cells []uint64
	typ   *ir.Type // value type (for runtime arrays: the array type)
	space ir.AddrSpace
	name  string // global name or alloca name, for messages
	ro    bool   // stores are errors (uniform, read-only storage)
	// bytes marks an object of one cell per byte (the AMDGPU dispatch
	// packet): a load of a wider scalar reads its bytes little-endian.
	bytes bool
	// arrayLen is set on element 0 of an unbounded resource array: the
	// number of elements bound, the objects following this one
	// (resarray.go).
	arrayLen int
}

// memory owns all objects of a run.
type memory struct {
	objs []*object // objs[0] is nil: the invalid pointer
	live int       // cells allocated and not freed
}

// MaxMemoryCells bounds the memory of a run (cells of all live objects:
// buffers, render targets' sources, per-lane variables): 2^25 cells, 256
// MiB. A run needing more stops with ErrMemoryLimit instead of exhausting
// the host.
const MaxMemoryCells = 1 << 25

// memoryLimit is the panic value alloc uses to abandon a run; RunContext
// turns it into an ErrMemoryLimit error.
type memoryLimit struct{ what string }

func newMemory() *memory { return &memory{objs: []*object{nil}} }

// alloc creates an object of type t (runtime arrays get count elements)
// and returns a pointer to its start.
func (m *memory) alloc(t *ir.Type, count int, space ir.AddrSpace, name string) uint64 {
	return m.allocCells(cellsFor(t, count), t, space, name)
}

// allocCells creates an object of n cells.
func (m *memory) allocCells(n int, t *ir.Type, space ir.AddrSpace, name string) uint64 {
	if n < 0 || m.live+n > MaxMemoryCells {
		panic(memoryLimit{what: fmt.Sprintf("%s %s of %d cells", space, name, n)})
	}
	m.live += n
	o := &object{cells: make([]uint64, n), typ: t, space: space, name: name}
	m.objs = append(m.objs, o)
	return uint64(len(m.objs)-1) << 32
}

// free drops the cells of object id.
func (m *memory) free(id int) {
	if o := m.objs[id]; o != nil {
		m.live -= len(o.cells)
		o.cells = nil
	}
}

// cellsFor is slots(t) with runtime-sized arrays (also as the last member
// of a struct) holding count elements.
func cellsFor(t *ir.Type, count int) int {
	switch t.Kind {
	case ir.KArray:
		if t.Len < 0 {
			return count * slots(t.Elem)
		}
	case ir.KStruct:
		n := 0
		for _, f := range t.Fields {
			n += cellsFor(f.Type, count)
		}
		return n
	}
	return slots(t)
}

// mark returns the current object count, for release.
func (m *memory) mark() int { return len(m.objs) }

// truncate drops objects created after mark entirely (between groups, when
// no pointer to them can survive).
func (m *memory) truncate(mark int) {
	for i := mark; i < len(m.objs); i++ {
		m.free(i)
	}
	clear(m.objs[mark:])
	m.objs = m.objs[:mark]
}

func ptrObj(p uint64) int       { return int(p >> 32) }
func ptrOff(p uint64) int       { return int(uint32(p)) }
func mkPtr(obj, off int) uint64 { return uint64(obj)<<32 | uint64(uint32(off)) }

// resolve returns the cells a pointer designates for a value of n cells,
// or nil when the pointer is invalid or out of bounds.
func (m *memory) resolve(p uint64, n int) (*object, []uint64) {
	id := ptrObj(p)
	if id <= 0 || id >= len(m.objs) || m.objs[id] == nil {
		return nil, nil
	}
	o := m.objs[id]
	off := ptrOff(p)
	if off+n > len(o.cells) || n == 0 && off > len(o.cells) {
		return o, nil
	}
	return o, o.cells[off : off+n]
}

// access applies an access chain: base points to a value of type t; each
// index selects a component. Struct indices are constants (checked by the
// caller); other indices are signed or unsigned integers per their type.
// It returns the invalid pointer when an index is out of range.
func access(base uint64, t *ir.Type, idx []int64) uint64 {
	if ptrObj(base) == 0 {
		return 0
	}
	off := int64(ptrOff(base))
	for _, i := range idx {
		if i < 0 {
			return 0
		}
		if t.Kind == ir.KArray && t.Len < 0 {
			off += i * int64(slots(t.Elem))
			t = t.Elem
		} else {
			if i > 1<<31 {
				return 0
			}
			o, et, ok := component(t, int(i))
			if !ok {
				return 0
			}
			off += int64(o)
			t = et
		}
		if off >= 1<<32-1 {
			return 0
		}
	}
	return mkPtr(ptrObj(base), int(off))
}
