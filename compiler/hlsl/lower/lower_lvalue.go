package lower

import (
	"strconv"

	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
)

// Places (lvalues). A place is a pointer to some storage plus a list of
// value projections applied after loading it. Struct members, array
// elements, buffer elements and matrix rows are reached with access
// chains (the pointer part); vector components and swizzles are
// projections on the loaded value (so locals stay whole-vector loads and
// stores that sroa promotes): reading `v.yx` loads v and shuffles, and
// writing a local's components loads v, shuffles the new components in,
// and stores v back (a masked write); writing components of any other
// storage stores each component through its own pointer (store). A row
// of a column-major matrix in buffer memory is a projection too, since
// the matrix is stored transposed there.

// place is an assignable location.
type place struct {
	ptr  ir.Value   // pointer to the storage of a value of type t
	t    *hlsl.Type // logical type of the pointee
	mem  bool       // the pointee uses the buffer memory layout
	proj []proj     // projections applied to the loaded value, in order
	name string     // base name for loads
	// tex and coord make a texel of a read-write texture the place (ptr
	// is nil): read with tex.read, written with tex.write, its pointer
	// (for atomics) is tex.texel (lower_rwtexture.go).
	tex, coord ir.Value
}

// proj selects components of a value of type from.
type proj struct {
	from  *hlsl.Type
	comps []int    // constant components (matrix: row*Cols+col), or a constant row
	idx   ir.Value // dynamic vector component or matrix row (comps nil)
	row   bool     // selects a matrix row
	name  string   // name of the projected value
}

// typ is the type a projection yields.
func (p proj) typ() *hlsl.Type {
	switch {
	case p.row:
		return rowType(p.from)
	case p.idx != nil:
		return p.from.Elem
	case len(p.comps) == 1:
		return p.from.Scalar()
	}
	return hlsl.VectorOf(p.from.Scalar(), len(p.comps))
}

// projName is the name of the place's current (projected) value.
func (pl *place) projName() string {
	if n := len(pl.proj); n > 0 {
		return pl.proj[n-1].name
	}
	return pl.name
}

// typ is the type of the place's value.
func (pl *place) typ() *hlsl.Type {
	if n := len(pl.proj); n > 0 {
		return pl.proj[n-1].typ()
	}
	return pl.t
}

// stripNoop removes casts that change nothing observable (identical
// types, matrix storage order).
func stripNoop(e hlsl.Expr) hlsl.Expr {
	for {
		switch x := e.(type) {
		case *hlsl.ImplicitCast:
			if x.Kind != hlsl.CastNoop || !hlsl.Identical(x.T, x.X.Type()) {
				return e
			}
			e = x.X
		case *hlsl.Cast:
			if x.Kind != hlsl.CastNoop || !hlsl.Identical(x.T, x.X.Type()) {
				return e
			}
			e = x.X
		default:
			return e
		}
	}
}

// addressable reports whether e designates storage (a variable or part of
// one), so reading it can load just the part it names.
func (fl *fnLowerer) addressable(e hlsl.Expr) bool {
	switch x := stripNoop(e).(type) {
	case *hlsl.Ident:
		if x.Var == nil {
			return false
		}
		if len(x.Var.Elements) > 0 {
			return true // an array of ConstantBuffer<T>: in its elements' buffers
		}
		info := fl.local(x.Var)
		return info != nil && (info.ptr != nil || info.buf != nil)
	case *hlsl.Member:
		return fl.addressable(x.X)
	case *hlsl.Swizzle:
		return fl.addressable(x.X)
	case *hlsl.Index:
		if x.X.Type().Kind == hlsl.KindResource {
			return true
		}
		return fl.addressable(x.X)
	}
	return false
}

// lvalue returns the place e designates. e must be addressable (the
// checker only lets assignable expressions reach here).
func (fl *fnLowerer) lvalue(e hlsl.Expr) *place {
	e = stripNoop(e)
	switch x := e.(type) {
	case *hlsl.Ident:
		info := fl.local(x.Var)
		switch {
		case info == nil:
		case info.ptr != nil:
			return &place{ptr: info.ptr, t: info.t, mem: info.mem, name: x.Name}
		case info.buf != nil:
			fl.atNode(x)
			p := fl.b.Access(info.buf, []ir.Value{ir.ConstInt(ir.I32, int64(info.field))}, x.Name)
			return &place{ptr: p, t: info.t, mem: true, name: x.Name}
		}
	case *hlsl.Member:
		base := fl.lvalue(x.X)
		if base == nil {
			return nil
		}
		if len(base.proj) > 0 || x.Field == nil {
			break
		}
		fl.atNode(x)
		name := base.name + "." + x.Name
		p := fl.b.Access(base.ptr, []ir.Value{ir.ConstInt(ir.I32, int64(x.Field.Index))}, name)
		return &place{ptr: p, t: x.Field.Type, mem: base.mem, name: name}
	case *hlsl.Swizzle:
		base := fl.lvalue(x.X)
		if base == nil {
			return nil
		}
		from := base.typ()
		if from.IsVector() && isIdentity(x.Comps, from.Len) {
			return base
		}
		base.proj = append(base.proj, proj{from: from, comps: x.Comps, name: base.projName() + "." + x.Name})
		return base
	case *hlsl.Index:
		if id, ok := stripNoop(x.X).(*hlsl.Ident); ok && id.Var != nil && len(id.Var.Elements) > 0 {
			return fl.constantBufferElement(x, id.Var)
		}
		return fl.indexPlace(x)
	}
	fl.errorf(e, "cannot lower this expression as an assignable place")
	return nil
}

// indexPlace is the place of x[i]: a buffer or array element, a matrix
// row or a vector component.
func (fl *fnLowerer) indexPlace(x *hlsl.Index) *place {
	xt := x.X.Type()
	if xt.Kind == hlsl.KindResource && xt.Resource.IsRWTexture() {
		return fl.texelPlace(x)
	}
	if xt.Kind == hlsl.KindResource {
		buf := fl.resourcePtr(x.X)
		idx := fl.rv(x.Index)
		fl.atNode(x)
		name := exprName(x.X) + "." + indexName(x.Index)
		p := fl.b.Access(buf, []ir.Value{idx}, name)
		return &place{ptr: p, t: x.T, mem: true, name: name}
	}
	base := fl.lvalue(x.X)
	if base == nil {
		return nil
	}
	from := base.typ()
	k, isConst := constIndex(x.Index)
	var idx ir.Value
	if !isConst {
		idx = fl.rv(x.Index)
	}
	fl.atNode(x)
	name := base.name + "." + indexName(x.Index)
	pointerStep := len(base.proj) == 0 && (from.Kind == hlsl.KindArray ||
		from.IsMatrix() && !(base.mem && !from.RowMajor))
	switch {
	case pointerStep:
		if isConst {
			idx = ir.ConstInt(ir.I32, k)
		}
		p := fl.b.Access(base.ptr, []ir.Value{idx}, name)
		t := from.Elem
		if from.IsMatrix() {
			t = rowType(from)
		}
		return &place{ptr: p, t: t, mem: base.mem, name: name}
	case from.IsMatrix():
		pr := proj{from: from, row: true, idx: idx, name: base.projName() + "." + indexName(x.Index)}
		if isConst {
			pr.idx, pr.comps = nil, []int{int(k)}
		}
		base.proj = append(base.proj, pr)
		return base
	case from.IsVector():
		pr := proj{from: from, idx: idx, name: base.projName() + "." + indexName(x.Index)}
		if isConst {
			pr.idx, pr.comps = nil, []int{int(k)}
		}
		base.proj = append(base.proj, pr)
		return base
	}
	fl.errorf(x, "cannot index a value of type '%s' here", from)
	return nil
}

// constIndex returns the value of a constant index expression.
func constIndex(e hlsl.Expr) (int64, bool) {
	if !constTree(e, 0) {
		return 0, false
	}
	k, ok := hlsl.ConstEval(e)
	if !ok {
		return 0, false
	}
	if k.Type.Kind == hlsl.KindUint {
		return int64(uint32(k.Int)), true
	}
	return k.AsInt(), true
}

// isIdentity reports whether comps selects 0..n-1 in order.
func isIdentity(comps []int, n int) bool {
	if len(comps) != n {
		return false
	}
	for i, c := range comps {
		if c != i {
			return false
		}
	}
	return true
}

// exprName derives a value name from an expression (the variable it
// names, if any).
func exprName(e hlsl.Expr) string {
	switch x := stripNoop(e).(type) {
	case *hlsl.Ident:
		return x.Name
	case *hlsl.Member:
		return exprName(x.X) + "." + x.Name
	case *hlsl.Index:
		return exprName(x.X) + "." + indexName(x.Index)
	case *hlsl.Swizzle:
		return exprName(x.X) + "." + x.Name
	case *hlsl.ImplicitCast:
		return exprName(x.X)
	}
	return "tmp"
}

// indexName names an element access: the constant index or the index
// variable's name.
func indexName(e hlsl.Expr) string {
	if k, ok := constIndex(e); ok {
		return strconv.FormatInt(k, 10)
	}
	if id, ok := stripConv(e).(*hlsl.Ident); ok {
		return id.Name
	}
	return "idx"
}

// stripConv removes every conversion from the top of e.
func stripConv(e hlsl.Expr) hlsl.Expr {
	for {
		switch x := e.(type) {
		case *hlsl.ImplicitCast:
			e = x.X
		case *hlsl.Cast:
			e = x.X
		default:
			return e
		}
	}
}

// load reads the value of a place.
func (fl *fnLowerer) load(pl *place) ir.Value {
	if pl.tex != nil {
		return fl.loadTexel(pl)
	}
	v := ir.Value(fl.b.Load(pl.ptr, pl.name))
	if pl.mem {
		v = fl.fromMem(v, pl.t)
	}
	for _, p := range pl.proj {
		v = fl.project(v, p)
	}
	return v
}

// store writes v (of the place's type) to a place. A write to selected
// components of shared storage (groupshared, buffers, outputs, statics)
// stores each component through its own pointer, as D3D and Vulkan do:
// other invocations may write the other components at the same time, so
// reading the whole value and writing it back would undo their writes.
// Other projections (of a function-local value, which no other
// invocation sees, or a dynamic row of a matrix value) read the whole
// value, insert v, and write it back; sroa turns that into SSA values.
func (fl *fnLowerer) store(pl *place, v ir.Value) {
	if pl.tex != nil {
		fl.storeTexel(pl, v)
		return
	}
	if ptrs := fl.componentPtrs(pl); ptrs != nil {
		for i, p := range ptrs {
			e := v
			if len(ptrs) > 1 {
				e = fl.b.ExtractValue(v, []int{i}, "elem")
			}
			fl.b.Store(e, p)
		}
		return
	}
	if len(pl.proj) > 0 {
		olds := make([]ir.Value, len(pl.proj))
		cur := ir.Value(fl.b.Load(pl.ptr, pl.name))
		if pl.mem {
			cur = fl.fromMem(cur, pl.t)
		}
		for i, p := range pl.proj {
			olds[i] = cur
			if i+1 < len(pl.proj) {
				cur = fl.project(cur, p)
			}
		}
		for i := len(pl.proj) - 1; i >= 0; i-- {
			v = fl.inject(olds[i], pl.proj[i], v)
		}
	}
	if pl.mem {
		v = fl.toMem(v, pl.t)
	}
	fl.b.Store(v, pl.ptr)
}

// componentPtrs returns one pointer per scalar component of the place's
// value when the place projects components of storage other invocations
// can see (not a function-local alloca) and every projection can be
// expressed as an access step: vector components and swizzles, matrix
// element swizzles, and rows and elements of a column-major matrix stored
// transposed in buffer memory. Otherwise it returns nil.
func (fl *fnLowerer) componentPtrs(pl *place) []ir.Value {
	if len(pl.proj) == 0 || len(pl.proj) > 2 {
		return nil
	}
	pt := pl.ptr.Type()
	if pt == nil || pt.Kind != ir.KPointer || pt.Space == ir.SpaceFunction {
		return nil
	}
	first := pl.proj[0]
	// transposed: the pointee is a matrix stored column by column.
	transposed := first.from.IsMatrix() && pl.mem && !first.from.RowMajor
	idx := func(k int) ir.Value { return ir.ConstInt(ir.I32, int64(k)) }
	// elemPath is the access path of matrix element (r, c) or vector
	// component c (r nil).
	elemPath := func(r, c ir.Value) []ir.Value {
		switch {
		case r == nil:
			return []ir.Value{c}
		case transposed:
			return []ir.Value{c, r}
		}
		return []ir.Value{r, c}
	}
	var paths [][]ir.Value
	switch {
	case len(pl.proj) == 1 && first.row:
		if !transposed {
			return nil // a dynamic row of a matrix value: not addressable here
		}
		r := first.idx
		if r == nil {
			r = idx(first.comps[0])
		}
		for c := 0; c < first.from.Cols; c++ {
			paths = append(paths, elemPath(r, idx(c)))
		}
	case len(pl.proj) == 1 && first.from.IsVector() && first.from.Len > 1:
		if first.idx != nil {
			paths = append(paths, elemPath(nil, first.idx))
			break
		}
		for _, c := range first.comps {
			paths = append(paths, elemPath(nil, idx(c)))
		}
	case len(pl.proj) == 1 && first.from.IsMatrix():
		if first.idx != nil {
			return nil
		}
		for _, c := range first.comps {
			paths = append(paths, elemPath(idx(c/first.from.Cols), idx(c%first.from.Cols)))
		}
	case len(pl.proj) == 2 && first.row && transposed:
		second := pl.proj[1]
		if !second.from.IsVector() || second.from.Len < 2 {
			return nil
		}
		r := first.idx
		if r == nil {
			r = idx(first.comps[0])
		}
		if second.idx != nil {
			paths = append(paths, elemPath(r, second.idx))
			break
		}
		for _, c := range second.comps {
			paths = append(paths, elemPath(r, idx(c)))
		}
	default:
		return nil
	}
	ptrs := make([]ir.Value, len(paths))
	for i, path := range paths {
		ptrs[i] = fl.b.Access(pl.ptr, path, pl.projName()+".p")
	}
	return ptrs
}

// pointer returns a pointer to the place's value, for atomics: places
// with at most one vector component projection have one.
func (fl *fnLowerer) pointer(pl *place) ir.Value {
	if pl.tex != nil {
		return nil // atomics on texels: texelAtomic (lower_rwtexture.go)
	}
	switch {
	case len(pl.proj) == 0:
		return pl.ptr
	case len(pl.proj) == 1 && pl.proj[0].from.IsVector() && !pl.proj[0].row:
		p := pl.proj[0]
		idx := p.idx
		if idx == nil {
			if len(p.comps) != 1 {
				return nil
			}
			idx = ir.ConstInt(ir.I32, int64(p.comps[0]))
		}
		return fl.b.Access(pl.ptr, []ir.Value{idx}, pl.name+".elem")
	}
	return nil
}

// project applies one projection to a value.
func (fl *fnLowerer) project(v ir.Value, p proj) ir.Value {
	from := p.from
	switch {
	case p.row && p.idx == nil:
		return fl.b.ExtractValue(v, []int{p.comps[0]}, p.name)
	case p.row:
		// A dynamic row of a matrix value: through a temporary.
		tmp := fl.alloca(from, "tmp")
		fl.b.Store(v, tmp)
		return fl.b.Load(fl.b.Access(tmp, []ir.Value{p.idx}, p.name+".p"), p.name)
	case p.idx != nil:
		return fl.b.ExtractElem(v, p.idx, p.name)
	}
	return fl.swizzleNamed(v, from, p.comps, p.name)
}

// swizzle selects components of a scalar, vector or matrix value.
func (fl *fnLowerer) swizzle(v ir.Value, from *hlsl.Type, comps []int) ir.Value {
	return fl.swizzleNamed(v, from, comps, "swizzle")
}

func (fl *fnLowerer) swizzleNamed(v ir.Value, from *hlsl.Type, comps []int, name string) ir.Value {
	switch {
	case from.IsScalar() || from.IsVector() && from.Len == 1:
		if len(comps) == 1 {
			return v
		}
		return fl.splat(v, hlsl.VectorOf(from.Scalar(), len(comps)))
	case from.IsVector():
		if isIdentity(comps, from.Len) {
			return v
		}
		if len(comps) == 1 {
			return fl.b.ExtractValue(v, comps, name)
		}
		return fl.b.Shuffle(v, v, comps, name)
	case from.IsMatrix():
		el := make([]ir.Value, len(comps))
		for i, c := range comps {
			el[i] = fl.b.ExtractValue(v, matPath(from, c/from.Cols, c%from.Cols), name)
		}
		if len(el) == 1 {
			return el[0]
		}
		return fl.construct(hlsl.VectorOf(from.Scalar(), len(el)), el, name)
	}
	fl.errorf(nil, "internal compiler error: swizzle of '%s'", from)
	return ir.ConstUndef(fl.irType(from.Scalar()))
}

// inject writes nv into the components of old that projection p selects
// and returns the updated value.
func (fl *fnLowerer) inject(old ir.Value, p proj, nv ir.Value) ir.Value {
	from := p.from
	switch {
	case p.row && p.idx == nil:
		return fl.b.InsertValue(old, nv, []int{p.comps[0]}, "ins")
	case p.row:
		tmp := fl.alloca(from, "tmp")
		fl.b.Store(old, tmp)
		fl.b.Store(nv, fl.b.Access(tmp, []ir.Value{p.idx}, "row.p"))
		return fl.b.Load(tmp, "ins")
	case p.idx != nil:
		return fl.b.InsertElem(old, nv, p.idx, "ins")
	case from.IsScalar() || from.IsVector() && from.Len == 1:
		return nv
	case from.IsVector():
		if len(p.comps) == 1 {
			return fl.b.InsertValue(old, nv, p.comps, "ins")
		}
		mask := make([]int, from.Len)
		for i := range mask {
			mask[i] = i
		}
		for j, c := range p.comps {
			mask[c] = from.Len + j
		}
		return fl.b.Shuffle(old, nv, mask, "ins")
	case from.IsMatrix():
		v := old
		for j, c := range p.comps {
			e := nv
			if len(p.comps) > 1 {
				e = fl.b.ExtractValue(nv, []int{j}, "elem")
			}
			v = fl.b.InsertValue(v, e, matPath(from, c/from.Cols, c%from.Cols), "ins")
		}
		return v
	}
	fl.errorf(nil, "internal compiler error: masked write into '%s'", from)
	return old
}

// resourcePtr returns the buffer pointer a resource expression denotes.
func (fl *fnLowerer) resourcePtr(e hlsl.Expr) ir.Value {
	if hlsl.IsBufferResource(e.Type()) {
		if d := fl.staticResource(e); d != nil {
			return fl.local(d).value
		}
		if _, _, _, ok := fl.arrayIndex(e); !ok {
			if id, isIdent := stripNoop(e).(*hlsl.Ident); isIdent && id.Var != nil && id.Var.Kind == hlsl.VarLocal &&
				id.Var.Init == nil && !id.Var.Reassigned && id.Var.Mods&hlsl.ModStatic == 0 {
				// Never given a buffer: DXC cannot map it to a global either.
				fl.errorf(e, "local resource '%s' is used but never assigned a global resource", id.Name)
				return ir.ConstUndef(ir.Ptr(ir.SpaceStorage, fl.resourceValueType(e.Type())))
			}
			return fl.bufferFromID(e, fl.rv(e))
		}
	}
	if id, ok := stripNoop(e).(*hlsl.Ident); ok && id.Var != nil {
		if info := fl.local(id.Var); info != nil && info.value != nil {
			return info.value
		}
	}
	if ra, elem, idx, ok := fl.arrayElement(e); ok {
		switch {
		case elem != nil:
			return fl.local(elem).value
		case idx != nil:
			return fl.selectElement(ra, idx)
		}
		return ir.ConstUndef(fl.irType(e.Type()))
	}
	fl.errorf(e, "only buffer variables and parameters can be used as buffers here")
	return ir.ConstUndef(fl.irType(e.Type()))
}

// resourceDecl returns the global declaration behind a resource
// expression (nil for parameters).
func (fl *fnLowerer) resourceDecl(e hlsl.Expr) *hlsl.VarDecl {
	if d := fl.staticResource(e); d != nil {
		return d
	}
	if id, ok := stripNoop(e).(*hlsl.Ident); ok && id.Var != nil && id.Var.Kind == hlsl.VarGlobal {
		return id.Var
	}
	if _, _, elem, ok := fl.arrayIndex(e); ok && elem != nil {
		return elem // a constant index: the element's own counter
	}
	return nil
}

// constantBufferElement is cbs[k] of an array of ConstantBuffer<T>: the
// one member of element k's constant buffer. The index must be constant.
func (fl *fnLowerer) constantBufferElement(x *hlsl.Index, arr *hlsl.VarDecl) *place {
	k, ok := hlsl.ConstEval(x.Index)
	if !ok {
		fl.errorf(x.Index, "an index into the ConstantBuffer array '%s' must be constant: SPIR-V cannot select a uniform buffer per lane", arr.Name)
		return nil
	}
	i := int(k.AsInt())
	if i < 0 || i >= len(arr.Elements) {
		fl.errorf(x.Index, "index %d is out of bounds for ConstantBuffer array '%s' of %d elements", i, arr.Name, len(arr.Elements))
		return nil
	}
	m := arr.Elements[i]
	info := fl.local(m)
	if info == nil || info.buf == nil {
		fl.errorf(x, "cannot lower the ConstantBuffer array element '%s'", m.Name)
		return nil
	}
	fl.atNode(x)
	p := fl.b.Access(info.buf, []ir.Value{ir.ConstInt(ir.I32, int64(info.field))}, m.Name)
	return &place{ptr: p, t: info.t, mem: true, name: m.Name}
}
