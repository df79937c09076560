package lower

import (
	"fmt"

	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
)

// Buffer resources as values (hlsl/resvalue.go). Every global buffer
// (each element of a resource array, each resource leaf of a global
// struct) gets an id, its index in l.resGlobals. A buffer held by a local,
// a parameter, a return value, a struct member or a local array element is
// that id, an i32, so resources never live in memory as pointers. Where a
// resource is used (indexed, a method called), an expression that names a
// global statically (a global, a constant element of a resource array, a
// leaf of a global struct) gives that global directly; any other gives its
// id and the buffer is the select chain over the globals of the same type,
// compared with the id. After inlining, SROA and constant folding an id
// that DXC's legalization would resolve is a constant and the chain folds
// to the one global; an id that stays dynamic (a resource chosen by a
// divergent branch) keeps the selects, the path dynamic resource array
// indices take (lower_resarray.go). An id of no global (a local never
// assigned) selects the first candidate.
//
// A global struct holding buffers (struct A { RWBuffer<int> Buf; }; A a :
// register(u5)), or an array of such structs, becomes one global per
// resource leaf, named by its path ("a.Buf", "d.2.Buf"), bound as DXC binds
// them: the leaves of the register's class take consecutive registers from
// it in declaration order (array elements outermost, then members, members
// of a base struct first); the struct's value is the constant aggregate of
// its leaves' ids, so it can be copied and passed.

// resGlobal is a global buffer with an id.
type resGlobal struct {
	g    *ir.Global
	t    *hlsl.Type
	decl *hlsl.VarDecl
}

// registerResource gives the buffer global g of type t, declared by v, its
// id.
func (l *lowerer) registerResource(g *ir.Global, t *hlsl.Type, v *hlsl.VarDecl) {
	if !hlsl.IsBufferResource(t) {
		return
	}
	if l.resIDs == nil {
		l.resIDs = map[*ir.Global]int{}
	}
	l.resIDs[g] = len(l.resGlobals)
	l.resGlobals = append(l.resGlobals, resGlobal{g: g, t: t, decl: v})
}

// resourceIDOf returns the constant id of global g.
func (l *lowerer) resourceIDOf(g *ir.Global) *ir.Const {
	return ir.ConstInt(ir.I32, int64(l.resIDs[g]))
}

// lowerResourceStruct creates the leaf globals of a global struct (or
// array of structs) holding buffers; it reports whether v is one.
func (l *lowerer) lowerResourceStruct(v *hlsl.VarDecl) bool {
	if !v.Type.ContainsResource() {
		return false
	}
	t := v.Type
	for t.Kind == hlsl.KindArray {
		t = t.Elem
	}
	if t.Kind != hlsl.KindStruct {
		return false
	}
	if !onlyBuffers(v.Type) {
		l.errorf(v, "a global struct holding resources may hold only buffers, not '%s'", v.Type)
		return true
	}
	leaves := map[string]*hlsl.VarDecl{}
	next := map[byte]int{}
	var build func(t *hlsl.Type, path string) *ir.Const
	build = func(t *hlsl.Type, path string) *ir.Const {
		switch t.Kind {
		case hlsl.KindArray:
			if t.Len < 0 {
				l.errorf(v, "an unbounded array in the resource struct '%s' is not supported", v.Name)
				return ir.ConstUndef(l.irType(t))
			}
			elems := make([]*ir.Const, t.Len)
			for k := range elems {
				elems[k] = build(t.Elem, fmt.Sprintf("%s.%d", path, k))
			}
			return ir.ConstAggregate(l.irType(t), elems)
		case hlsl.KindStruct:
			elems := make([]*ir.Const, len(t.Struct.Fields))
			for i, f := range t.Struct.Fields {
				elems[i] = build(f.Type, path+"."+f.Name)
			}
			return ir.ConstAggregate(l.irType(t), elems)
		case hlsl.KindResource:
			e := *v
			e.Type, e.Name, e.Dims, e.Attrs, e.Register = t, path, nil, nil, nil
			class := byte('t')
			if t.Resource.Writable() {
				class = 'u'
			}
			if r := v.Register.ClassReg(class); r != nil {
				rr := *r
				rr.Index += next[class]
				rr.Also = nil
				e.Register = &rr
			}
			implicit := e.Register == nil
			if e.Vk.HasBinding {
				e.Vk.Binding += next['u'] + next['t']
			}
			next[class]++
			leaves[path] = &e
			l.lowerGlobal(&e)
			if info := l.globals[&e]; info != nil {
				if g, ok := info.value.(*ir.Global); ok {
					if implicit {
						l.implicitLeaves = append(l.implicitLeaves, g)
					}
					return l.resourceIDOf(g)
				}
			}
			return ir.ConstInt(ir.I32, -1)
		}
		l.errorf(v, "the member of type '%s' in the resource struct '%s' is not supported: such a struct may hold only resources", t, v.Name)
		return ir.ConstUndef(l.irType(t))
	}
	agg := build(v.Type, v.Name)
	if l.resStructs == nil {
		l.resStructs = map[*hlsl.VarDecl]map[string]*hlsl.VarDecl{}
	}
	l.resStructs[v] = leaves
	l.globals[v] = &varInfo{t: v.Type, value: agg, decl: v}
	return true
}

// onlyBuffers reports whether every leaf of t is a buffer resource.
func onlyBuffers(t *hlsl.Type) bool {
	switch t.Kind {
	case hlsl.KindArray:
		return onlyBuffers(t.Elem)
	case hlsl.KindStruct:
		for _, f := range t.Struct.Fields {
			if !onlyBuffers(f.Type) {
				return false
			}
		}
		return true
	}
	return hlsl.IsBufferResource(t)
}

// staticResource returns the declaration of the global buffer e names
// statically (a global, a constant element of a resource array, a leaf of
// a global resource struct reached by members and constant indices, or a
// local that aliases one and is never reassigned), or nil.
func (fl *fnLowerer) staticResource(e hlsl.Expr) *hlsl.VarDecl {
	if !hlsl.IsBufferResource(e.Type()) {
		return nil
	}
	x := stripNoop(e)
	if id, ok := x.(*hlsl.Ident); ok && id.Var != nil {
		if id.Var.Kind == hlsl.VarGlobal {
			if _, isGlobal := fl.local(id.Var).value.(*ir.Global); isGlobal {
				return id.Var
			}
			return nil
		}
		if info := fl.locals[id.Var]; info != nil && info.alias != nil {
			return info.alias
		}
		return nil
	}
	if _, _, elem, ok := fl.arrayIndex(e); ok {
		return elem
	}
	path := ""
	for {
		switch y := x.(type) {
		case *hlsl.Member:
			path = "." + y.Name + path
			x = stripNoop(y.X)
			continue
		case *hlsl.Index:
			k, ok := hlsl.ConstEval(y.Index)
			if !ok {
				return nil
			}
			path = fmt.Sprintf(".%d", k.AsInt()) + path
			x = stripNoop(y.X)
			continue
		case *hlsl.Ident:
			if y.Var == nil || fl.resStructs[y.Var] == nil {
				return nil
			}
			return fl.resStructs[y.Var][y.Var.Name+path]
		}
		return nil
	}
}

// globalResourceID is the id of a resource expression that names a global
// buffer, statically or by a dynamic index into a resource array; nil for
// any other expression (a local, a member of a local struct, a call: their
// ids are ordinary values).
func (fl *fnLowerer) globalResourceID(e hlsl.Expr) ir.Value {
	if d := fl.staticResource(e); d != nil {
		if g, ok := fl.local(d).value.(*ir.Global); ok {
			return fl.resourceIDOf(g)
		}
		return nil
	}
	if ra, _, idx, ok := fl.arrayElement(e); ok {
		if idx != nil && ra.unbounded != nil {
			fl.errorf(e, "an element of the unbounded resource array '%s' held as a value (a local, a parameter) is not supported", ra.decl.Name)
			return ir.ConstInt(ir.I32, -1)
		}
		if idx == nil || len(ra.elems) == 0 {
			return ir.ConstInt(ir.I32, -1) // reported by arrayElement
		}
		g, ok := fl.local(ra.elems[0]).value.(*ir.Global)
		if !ok {
			return nil
		}
		fl.atNode(e)
		return fl.b.Binary(ir.OpAdd, fl.b.Cast(ir.OpBitcast, idx, ir.I32, "res.idx"), fl.resourceIDOf(g), "res.id")
	}
	return nil
}

// bufferFromID returns the buffer of type t whose id is id: the select
// chain over the global buffers of type t.
func (fl *fnLowerer) bufferFromID(e hlsl.Expr, id ir.Value) ir.Value {
	return fl.fromID(e, id, func(r resGlobal) ir.Value { return r.g })
}

// counterOf returns the hidden counter of buffer expression e: the
// counter of the global e names statically, else the select chain over
// the counters of the global buffers of e's type by e's id.
func (fl *fnLowerer) counterOf(e hlsl.Expr) ir.Value {
	if d := fl.resourceDecl(e); d != nil {
		return fl.counter(d)
	}
	return fl.fromID(e, fl.rv(e), func(r resGlobal) ir.Value { return fl.counter(r.decl) })
}

// fromID selects what of(global) gives for the global buffer of e's type
// whose id is id.
func (fl *fnLowerer) fromID(e hlsl.Expr, id ir.Value, of func(resGlobal) ir.Value) ir.Value {
	t := e.Type()
	var cands []resGlobal
	for _, r := range fl.resGlobals {
		if hlsl.Identical(r.t, t) {
			cands = append(cands, r)
		}
	}
	if len(cands) == 0 {
		fl.errorf(e, "local resource of type '%s' does not refer to a global resource: no global '%s' is declared", t, t)
		return ir.ConstUndef(ir.Ptr(ir.SpaceStorage, fl.resourceValueType(t)))
	}
	if k, ok := id.(*ir.Const); ok && !k.Undef {
		for _, c := range cands {
			if int64(fl.resIDs[c.g]) == k.Int() {
				return of(c)
			}
		}
	}
	fl.atNode(e)
	p := of(cands[0])
	for _, c := range cands[1:] {
		is := fl.b.Cmp(ir.PredEQ, id, fl.resourceIDOf(c.g), "res.is")
		p = fl.b.Select(is, of(c), p, exprName(e))
	}
	return p
}

// bindLeaves binds the leaves of global resource structs declared without
// register() as DXC does: the leaves the code uses, in declaration order,
// take the lowest registers of their class (u for writable, t for
// read-only buffers) in space 0 that no explicitly bound buffer holds;
// unused leaves stay unbound.
func (l *lowerer) bindLeaves() {
	if len(l.implicitLeaves) == 0 {
		return
	}
	used := map[*ir.Global]bool{}
	for _, f := range l.m.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				for _, a := range in.Args {
					if g, ok := a.(*ir.Global); ok {
						used[g] = true
					}
				}
			}
		}
	}
	taken := map[[2]int]bool{} // (read-only, register) in space 0
	ro := func(g *ir.Global) int {
		if g.ReadOnly {
			return 1
		}
		return 0
	}
	for _, g := range l.m.Globals {
		if g.Space == ir.SpaceStorage && g.Set <= 0 && g.Binding >= 0 && g.Kind != "counter" {
			taken[[2]int{ro(g), g.Binding}] = true
		}
	}
	for _, g := range l.implicitLeaves {
		if !used[g] {
			continue
		}
		r := 0
		for taken[[2]int{ro(g), r}] {
			r++
		}
		taken[[2]int{ro(g), r}] = true
		g.Set, g.Binding = 0, r
	}
}

// globalResourceArray is the value (an array of ids) of a global resource
// array or of a sub-array of one (In[i] of RWBuffer<int> In[4][2]), as
// passed to an array parameter or copied to a local array; nil for any
// other expression. The prefix indices may be dynamic.
func (fl *fnLowerer) globalResourceArray(e hlsl.Expr) ir.Value {
	t := e.Type()
	if t.Kind != hlsl.KindArray || !onlyBuffers(t) {
		return nil
	}
	x := stripNoop(e)
	var indices []hlsl.Expr
	for {
		ix, ok := x.(*hlsl.Index)
		if !ok {
			break
		}
		indices = append([]hlsl.Expr{ix.Index}, indices...)
		x = stripNoop(ix.X)
	}
	id, ok := x.(*hlsl.Ident)
	if !ok || id.Var == nil {
		return nil
	}
	ra := fl.resArrays[id.Var]
	if ra == nil || len(ra.elems) == 0 || len(indices) >= len(ra.dims) {
		return nil
	}
	g, ok := fl.local(ra.elems[0]).value.(*ir.Global)
	if !ok {
		return nil
	}
	fl.atNode(e)
	var lin ir.Value = ir.ConstInt(ir.I32, 0)
	for i, ix := range indices {
		v := fl.b.Cast(ir.OpBitcast, fl.convert(fl.rv(ix), ix.Type(), hlsl.TypeUint), ir.I32, "res.idx")
		lin = fl.b.Binary(ir.OpAdd, fl.b.Binary(ir.OpMul, lin, ir.ConstInt(ir.I32, int64(ra.dims[i])), "res.idx"), v, "res.idx")
	}
	rest := ra.dims[len(indices):]
	inner := 1
	for _, d := range rest {
		inner *= d
	}
	base := fl.b.Binary(ir.OpAdd, fl.b.Binary(ir.OpMul, lin, ir.ConstInt(ir.I32, int64(inner)), "res.base"), fl.resourceIDOf(g), "res.base")
	var v ir.Value = ir.ConstUndef(fl.irType(t))
	for k := 0; k < inner; k++ {
		path := make([]int, len(rest))
		for r, j := k, len(rest)-1; j >= 0; j-- {
			path[j], r = r%rest[j], r/rest[j]
		}
		v = fl.b.InsertValue(v, fl.b.Binary(ir.OpAdd, base, ir.ConstInt(ir.I32, int64(k)), "res.id"), path, "res.array")
	}
	return v
}
