package spirv

import (
	"fmt"
	"sort"

	"passlens/compiler/ir"
)

// This file computes the explicit memory layout of values in buffers.
//
// Uniform buffers (cbuffers, $Globals: the Uniform storage class) use
// "vector-relaxed std140", storage buffers ((RW)StructuredBuffer,
// (RW)Buffer, ByteAddressBuffer-like structs: StorageBuffer) use
// "vector-relaxed std430", the rules DXC uses by default and that Vulkan
// 1.1 accepts (VK_KHR_relaxed_block_layout is core):
//
//   - a scalar of N bytes is N-aligned; bool is stored as a 32-bit uint;
//   - a vector is aligned to its component size, but one that would
//     straddle a 16-byte boundary moves to the next 16-byte boundary (so
//     float3 then float pack into 16 bytes, as in HLSL); its size is
//     components x component size;
//   - the base alignment used for array strides and struct alignment is
//     the standard one (2-vectors 2 x component, 3- and 4-vectors
//     4 x component);
//   - an array's stride is its element size rounded up to the element's
//     alignment; std140 also rounds stride and alignment up to 16;
//   - a matrix <R x C x T> is stored as R row vectors, like an array of R
//     <C x T> (stride as for that array): passlens's IR keeps matrices as
//     rows. A float matrix of at least 2x2 is declared as the same
//     OpTypeMatrix as in plain memory (whose columns are the IR's rows),
//     its struct member decorated ColMajor with that stride as
//     MatrixStride, so loads need no conversion; other matrices are
//     arrays of rows;
//   - a struct member goes at the next offset its alignment allows; a
//     struct's alignment is its largest member alignment (std140: rounded
//     up to 16; also 16 when a vector member sits below its base
//     alignment, so that it cannot straddle 16 bytes where the struct is
//     placed: {int, int2} nested at offset 8 would put the int2 at 12) and its size is rounded up to that alignment, so nothing
//     is placed in the padding after a struct, array or matrix.

// layoutRule says whether a type is laid out explicitly, and how.
type layoutRule uint8

const (
	rulePlain  layoutRule = iota // Function, Private, Workgroup, Input, Output: no offsets
	ruleStd140                   // Uniform
	ruleStd430                   // StorageBuffer
)

func (r layoutRule) String() string {
	return [...]string{"plain", "std140", "std430"}[r]
}

// ruleOf returns the layout rule of an address space.
func ruleOf(s ir.AddrSpace) layoutRule {
	switch s {
	case ir.SpaceUniform:
		return ruleStd140
	case ir.SpaceStorage:
		return ruleStd430
	}
	return rulePlain
}

// Layout is the size and alignment of a type under a layout rule.
type Layout struct {
	Size  int // bytes occupied (arrays: Len x Stride; structs: rounded to Align)
	Align int // base alignment (used for strides and struct alignment)
	// Stride is the array or matrix row stride (0 for other types).
	Stride int
	// Offsets are the struct member offsets (nil for other types).
	Offsets []int
}

func roundUp(n, a int) int {
	if a <= 1 {
		return n
	}
	return (n + a - 1) / a * a
}

// scalarBytes is the storage size of a scalar in a buffer.
func scalarBytes(t *ir.Type) int {
	if t.Kind == ir.KBool {
		return 4
	}
	return t.Bits / 8
}

// typeLayout computes t's layout under rule (std140 or std430). A
// runtime-sized array reports the size of one element as Size 0 with its
// Stride set.
func typeLayout(t *ir.Type, rule layoutRule) (Layout, error) {
	switch t.Kind {
	case ir.KBool, ir.KInt, ir.KUint, ir.KFloat:
		n := scalarBytes(t)
		return Layout{Size: n, Align: n}, nil
	case ir.KVector:
		s := scalarBytes(t.Elem)
		a := 4 * s
		if t.Len == 2 {
			a = 2 * s
		}
		return Layout{Size: t.Len * s, Align: a}, nil
	case ir.KMatrix:
		row := ir.Vec(t.Elem, t.Cols)
		return arrayLayout(row, t.Len, rule)
	case ir.KArray:
		return arrayLayout(t.Elem, t.Len, rule)
	case ir.KStruct:
		for _, f := range t.Fields {
			if f.Placed {
				return placedLayout(t, rule)
			}
		}
		var l Layout
		off, align := 0, 1
		for i, f := range t.Fields {
			if f.Type.Kind == ir.KArray && f.Type.Len < 0 && i != len(t.Fields)-1 {
				return Layout{}, fmt.Errorf("runtime-sized array %s is not the last member of %s", f.Name, t)
			}
			fl, err := typeLayout(f.Type, rule)
			if err != nil {
				return Layout{}, err
			}
			off = placeMember(off, f.Type, fl)
			l.Offsets = append(l.Offsets, off)
			if f.Type.Kind == ir.KVector && off%fl.Align != 0 {
				// A vector placed by the relaxed rule only (below its
				// base alignment) does not straddle 16 bytes relative
				// to the struct; aligning the struct to 16 keeps that
				// true wherever the struct is placed (Vulkan checks
				// straddling at the offset within the block).
				align = max(align, 16)
			}
			off += fl.Size
			if fl.Align > align {
				align = fl.Align
			}
		}
		if rule == ruleStd140 {
			align = roundUp(align, 16)
		}
		l.Align = align
		l.Size = roundUp(off, align)
		return l, nil
	}
	return Layout{}, fmt.Errorf("type %s has no buffer layout", t)
}

// placedLayout lays out a struct some of whose members have explicit
// offsets (HLSL packoffset, register(cN) on a global uniform). Placed
// members keep their offsets when the rule allows them: each aligned as
// placeMember would align it, and none in another member's bytes or in
// the padding after an array, matrix or struct (up to its alignment).
// Otherwise the buffer cannot be declared without scalar block layout,
// and that is an error naming the member. The other members go after
// all placed ones, in order, where the rule puts them (ir.PlaceMembers,
// the rule the HLSL frontend's D3D layout shares).
func placedLayout(t *ir.Type, rule layoutRule) (Layout, error) {
	l := Layout{Offsets: make([]int, len(t.Fields))}
	layouts := make([]Layout, len(t.Fields))
	order := make([]int, len(t.Fields))
	align := 1
	for i, f := range t.Fields {
		if f.Type.Kind == ir.KArray && f.Type.Len < 0 {
			return Layout{}, fmt.Errorf("runtime-sized array %s in %s, whose members have explicit offsets", f.Name, t)
		}
		fl, err := typeLayout(f.Type, rule)
		if err != nil {
			return Layout{}, err
		}
		layouts[i], order[i] = fl, i
		align = max(align, fl.Align)
	}
	extent := func(i int) int {
		e := layouts[i].Size
		switch t.Fields[i].Type.Kind {
		case ir.KArray, ir.KMatrix, ir.KStruct:
			e = roundUp(e, layouts[i].Align)
		}
		return e
	}
	l.Offsets = ir.PlaceMembers(len(t.Fields),
		func(i int) (int, bool) { return t.Fields[i].Offset, t.Fields[i].Placed },
		extent,
		func(i, off int) int { return placeMember(off, t.Fields[i].Type, layouts[i]) })
	sort.SliceStable(order, func(a, b int) bool { return l.Offsets[order[a]] < l.Offsets[order[b]] })
	next, prev := 0, -1 // next legal offset, and the member that ends there
	for _, i := range order {
		f, fl, off := t.Fields[i], layouts[i], l.Offsets[i]
		if want := placeMember(off, f.Type, fl); want != off {
			return Layout{}, fmt.Errorf("member %s (%s) of %s at offset %d is not aligned as Vulkan's %s layout requires (the next aligned offset is %d); it needs scalar block layout",
				f.Name, f.Type, t.Name, off, rule.vulkanName(), want)
		}
		if off < next {
			return Layout{}, fmt.Errorf("member %s (%s) of %s at offset %d lies within %s, which Vulkan's %s layout extends to offset %d; it needs scalar block layout",
				f.Name, f.Type, t.Name, off, t.Fields[prev].Name, rule.vulkanName(), next)
		}
		next, prev = off+extent(i), i
	}
	if rule == ruleStd140 {
		align = roundUp(align, 16)
	}
	l.Align = align
	l.Size = roundUp(next, align)
	return l, nil
}

// vulkanName names the rule as Vulkan's buffer kinds do.
func (r layoutRule) vulkanName() string {
	if r == ruleStd430 {
		return "storage buffer (relaxed std430)"
	}
	return "uniform buffer (relaxed std140)"
}

func arrayLayout(elem *ir.Type, n int, rule layoutRule) (Layout, error) {
	el, err := typeLayout(elem, rule)
	if err != nil {
		return Layout{}, err
	}
	align := el.Align
	if rule == ruleStd140 {
		align = roundUp(align, 16)
	}
	stride := roundUp(el.Size, align)
	if stride == 0 {
		stride = align
	}
	size := 0
	if n > 0 {
		size = n * stride
	}
	return Layout{Size: size, Align: align, Stride: stride}, nil
}

// placeMember returns the offset of a member of type t (layout l) when the
// next free byte is off: vectors and scalars use their component alignment
// unless they would straddle a 16-byte boundary; aggregates use their base
// alignment.
func placeMember(off int, t *ir.Type, l Layout) int {
	switch t.Kind {
	case ir.KBool, ir.KInt, ir.KUint, ir.KFloat:
		return roundUp(off, l.Align)
	case ir.KVector:
		s := scalarBytes(t.Elem)
		o := roundUp(off, s)
		if l.Size <= 16 {
			if o/16 != (o+l.Size-1)/16 {
				o = roundUp(o, 16)
			}
		} else {
			o = roundUp(o, 16)
		}
		return o
	}
	return roundUp(off, l.Align)
}

// BufferLayout returns the layout of a uniform or storage global's value
// as the SPIR-V back end declares it (std140 for uniform, std430 for
// storage). Hosts that fill buffers for a compiled module (the Vulkan
// runner in tests) use it to place data.
func BufferLayout(g *ir.Global) (Layout, error) {
	rule := ruleOf(g.Space)
	if rule == rulePlain {
		return Layout{}, fmt.Errorf("@%s is in %s space, which has no buffer layout", g.Name(), g.Space)
	}
	return typeLayout(g.ValType, rule)
}

// TypeLayout returns the layout of t in a uniform (std140 = true) or
// storage buffer.
func TypeLayout(t *ir.Type, std140 bool) (Layout, error) {
	if std140 {
		return typeLayout(t, ruleStd140)
	}
	return typeLayout(t, ruleStd430)
}
