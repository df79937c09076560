package lower

import (
	"fmt"

	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
)

// Resource arrays. A global array of resources (RWStructuredBuffer<int>
// Out[4] : register(u0), multi-dimensional arrays flattened in row-major
// order) becomes one global per element, named "Out.0", "Out.1", …, bound
// to consecutive registers from the array's (D3D binds an array to a
// register range) and, with [[vk::binding(b, s)]], to consecutive
// Vulkan bindings from b: the IR keeps one buffer per global, so the
// SPIR-V back end declares one descriptor per element rather than one
// arrayed binding as DXC does. A constant index selects the element's
// global; a dynamic one (NonUniformResourceIndex or not) selects its
// buffer pointer with a chain of selects over the elements, which the
// interpreter runs and the uniformity analysis sees as divergent when the
// index is. An unbounded array of buffers (RWBuffer<int> Buf[]) is one
// global @Buf marked `array "Buf" 0 of ?` (its first register, element 0)
// and every index into it, constant or not, is res.index(@Buf, i)
// (ir.UnboundedArray): the elements are whatever the bindings give.
// Unbounded arrays of textures or samplers are not supported.

// resArray is a lowered resource array.
type resArray struct {
	decl  *hlsl.VarDecl
	dims  []int           // element counts, outermost first (-1: unbounded)
	elems []*hlsl.VarDecl // one declaration per element, flattened
	// unbounded is the declaration of an unbounded buffer array's one
	// global (nil otherwise).
	unbounded *hlsl.VarDecl
}

// lowerResourceArray creates the element globals of a global resource
// array; it reports whether t is one.
func (l *lowerer) lowerResourceArray(v *hlsl.VarDecl) bool {
	t := v.Type
	var dims []int
	for t.Kind == hlsl.KindArray {
		dims = append(dims, t.Len)
		t = t.Elem
	}
	if t.Kind != hlsl.KindResource {
		return false
	}
	ra := &resArray{decl: v, dims: dims}
	if l.resArrays == nil {
		l.resArrays = map[*hlsl.VarDecl]*resArray{}
	}
	l.resArrays[v] = ra
	n := 1
	for i, d := range dims {
		if d < 0 {
			if i == 0 && hlsl.IsBufferResource(t) {
				e := *v
				e.Type, e.Dims, e.Attrs = t, nil, nil
				l.lowerGlobal(&e)
				if vi := l.globals[&e]; vi != nil {
					if g, ok := vi.value.(*ir.Global); ok {
						g.Array, g.ArrayIndex, g.ArrayLen = v.Name, 0, ir.UnboundedArray
						ra.unbounded = &e
					}
				}
			}
			return true // unbounded: uses are reported by arrayElement unless a buffer array
		}
		n *= d
	}
	for k := 0; k < n; k++ {
		e := *v
		e.Type, e.Name, e.Dims, e.Attrs = t, fmt.Sprintf("%s.%d", v.Name, k), nil, nil
		if v.Register != nil {
			r := *v.Register
			r.Index += k
			e.Register = &r
		}
		if e.Vk.HasBinding {
			e.Vk.Binding += k
		}
		ra.elems = append(ra.elems, &e)
		l.lowerGlobal(&e)
		l.markArrayElement(&e, v.Name, k, n)
	}
	return true
}

// arrayIndex splits an index expression into a global resource array
// (A[i] or A[i][j]) into the array and its indices, and gives the element
// when every index is constant. ok is false when e is no such expression.
// It emits no code.
func (fl *fnLowerer) arrayIndex(e hlsl.Expr) (ra *resArray, indices []hlsl.Expr, elem *hlsl.VarDecl, ok bool) {
	x := stripNoop(e)
	for {
		ix, isIndex := x.(*hlsl.Index)
		if !isIndex {
			break
		}
		indices = append([]hlsl.Expr{ix.Index}, indices...)
		x = stripNoop(ix.X)
	}
	id, isIdent := x.(*hlsl.Ident)
	if !isIdent || id.Var == nil || len(indices) == 0 {
		return nil, nil, nil, false
	}
	ra = fl.resArrays[id.Var]
	if ra == nil || len(indices) != len(ra.dims) || len(ra.elems) == 0 {
		return ra, indices, nil, ra != nil && len(indices) == len(ra.dims)
	}
	lin := 0
	for i, ix := range indices {
		k, isConst := hlsl.ConstEval(ix)
		if !isConst {
			return ra, indices, nil, true
		}
		v := int(k.AsInt())
		if v < 0 || v >= ra.dims[i] {
			return ra, indices, nil, true // reported by arrayElement
		}
		lin = lin*ra.dims[i] + v
	}
	return ra, indices, ra.elems[lin], true
}

// arrayElement resolves an index expression into a global resource array
// to its array, the element's declaration when the index is constant,
// and otherwise the flattened index value (emitting its computation). ok
// is false when e is no such expression; errors are reported and give
// neither element nor index.
func (fl *fnLowerer) arrayElement(e hlsl.Expr) (ra *resArray, elem *hlsl.VarDecl, idx ir.Value, ok bool) {
	ra, indices, elem, ok := fl.arrayIndex(e)
	switch {
	case !ok:
		return nil, nil, nil, false
	case len(ra.elems) == 0 && ra.unbounded == nil:
		fl.errorf(e, "unbounded resource array '%s' of textures or samplers is not supported: give it a size", ra.decl.Name)
		return ra, nil, nil, true
	case elem != nil:
		return ra, elem, nil, true
	}
	var linv ir.Value
	for i, ix := range indices {
		if k, isConst := hlsl.ConstEval(ix); isConst {
			if v := k.AsInt(); v < 0 || ra.dims[i] >= 0 && v >= int64(ra.dims[i]) {
				fl.errorf(ix, "index %d is out of bounds for resource array '%s' of %d elements", v, ra.decl.Name, ra.dims[i])
				return ra, nil, nil, true
			}
		}
		v := fl.convert(fl.rv(ix), ix.Type(), hlsl.TypeUint)
		if linv == nil {
			linv = v
			continue
		}
		linv = fl.b.Binary(ir.OpMul, linv, ir.ConstInt(ir.U32, int64(ra.dims[i])), "res.idx")
		linv = fl.b.Binary(ir.OpAdd, linv, v, "res.idx")
	}
	return ra, nil, linv, true
}

// selectElement returns the buffer pointer of element idx of ra: a chain
// of selects, the last element for an out-of-range index; for an
// unbounded array res.index(@Buf, idx).
func (fl *fnLowerer) selectElement(ra *resArray, idx ir.Value) ir.Value {
	if ra.unbounded != nil {
		g := fl.local(ra.unbounded).value
		return fl.b.Intrinsic(ir.ResIndex, g.Type(), []ir.Value{g, idx}, ra.decl.Name)
	}
	last := len(ra.elems) - 1
	p := fl.local(ra.elems[last]).value
	for k := last - 1; k >= 0; k-- {
		is := fl.b.Cmp(ir.PredEQ, idx, ir.ConstInt(ir.U32, int64(k)), "res.is")
		p = fl.b.Select(is, fl.local(ra.elems[k]).value, p, ra.decl.Name)
	}
	return p
}

// markArrayElement records on the global of element k of the n-element
// resource array name that it is one (ir.Global.Array), so back ends can
// bind the elements as one arrayed descriptor or register range.
func (l *lowerer) markArrayElement(e *hlsl.VarDecl, name string, k, n int) {
	vi := l.globals[e]
	if vi == nil {
		return
	}
	for _, x := range []ir.Value{vi.value, vi.ptr} {
		if g, ok := x.(*ir.Global); ok && (g.Space == ir.SpaceStorage || g.Space == ir.SpaceUniform) {
			g.Array, g.ArrayIndex, g.ArrayLen = name, k, n
			return
		}
	}
}
