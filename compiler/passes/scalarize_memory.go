package passes

import (
	"passlens/compiler/ir"
)

// Memory flattening for scalarize: function allocas and private and
// groupshared globals whose types contain vectors or matrices are retyped
// with every vector <N x T> replaced by the array [N x T] and every matrix
// <R x C x T> by [R x [C x T]] ([R x T] for one column, whose rows are
// scalars) (structs get a flattened copy named
// `<name>.flat`). The layout is the seed's "scalar layout": the same
// scalars in the same order, now addressed one by one (`sharedData[1].y`
// stays `access @sharedData, 1, 1`, a pointer to f32), so that no memory
// operation needs a vector. Access chains keep their indices; only their
// result types change.
//
// Externally visible memory (uniform, storage, input and output globals)
// keeps its declared types — its layout is an interface with the host — and
// is accessed per component instead.
//
// An object is left alone if a pointer to it (or into it) is used other
// than as the address of a load, store, access chain, memcpy, memset or
// atomic (passed to a call, stored as a value, selected between), or if a
// load, store or memcpy moves a value containing vectors too large for
// scalarize to split (maxValueLeaves).

// flatType returns t with vectors and matrices replaced by arrays, creating
// flattened struct types in m as needed.
func (fl *flattener) flatType(t *ir.Type) *ir.Type {
	if r, ok := fl.types[t]; ok {
		return r
	}
	var r *ir.Type
	switch t.Kind {
	case ir.KVector:
		r = ir.Array(t.Elem, t.Len)
	case ir.KMatrix:
		// A row is the matrix's element type (ir.Type.ElemType): the
		// scalar itself when there is one column.
		r = ir.Array(fl.flatType(ir.Vec(t.Elem, t.Cols)), t.Len)
	case ir.KArray:
		e := fl.flatType(t.Elem)
		if e == t.Elem {
			r = t
		} else {
			r = ir.Array(e, t.Len)
		}
	case ir.KStruct:
		fields := make([]ir.Field, len(t.Fields))
		same := true
		for i, fd := range t.Fields {
			fields[i] = fd // keeps a packoffset placement: the member starts where it did
			fields[i].Type = fl.flatType(fd.Type)
			if fields[i].Type != fd.Type {
				same = false
			}
		}
		if same {
			r = t
		} else {
			r = ir.Struct(fl.structName(t.Name+".flat"), fields)
			fl.m.AddStruct(r)
		}
	default:
		r = t
	}
	fl.types[t] = r
	return r
}

// structName returns base, or base_N, unused by the module's structs.
func (fl *flattener) structName(base string) string {
	used := map[string]bool{}
	for _, s := range fl.m.Structs {
		used[s.Name] = true
	}
	name := base
	for i := 1; used[name]; i++ {
		name = base + "_" + itoa(i)
	}
	return name
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	return string(b[n:])
}

type flattener struct {
	m     *ir.Module
	types map[*ir.Type]*ir.Type
	users map[*ir.Function]userMap
}

// flattenMemory retypes the eligible memory objects of m. It reports
// whether anything changed.
func flattenMemory(m *ir.Module) bool {
	fl := &flattener{m: m, types: map[*ir.Type]*ir.Type{}, users: map[*ir.Function]userMap{}}
	usersOf := func(f *ir.Function) userMap {
		u, ok := fl.users[f]
		if !ok {
			u = computeUsers(f)
			fl.users[f] = u
		}
		return u
	}
	changed := false
	// Globals: checked across every function.
	repl := map[ir.Value]ir.Value{}
	for gi, g := range m.Globals {
		if g.Space != ir.SpacePrivate && g.Space != ir.SpaceGroupshared || !holdsVector(g.ValType) {
			continue
		}
		ok := true
		for _, f := range m.Funcs {
			if !f.IsDeclaration() && !flattenable(g, usersOf(f)) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		nt := fl.flatType(g.ValType)
		ng := ir.NewGlobal(g.Name(), g.Space, nt)
		ng.Semantic, ng.Set, ng.Binding = g.Semantic, g.Set, g.Binding
		ng.ReadOnly, ng.Flat, ng.Kind, ng.Loc = g.ReadOnly, g.Flat, g.Kind, g.Loc
		if g.Init != nil {
			ng.Init = convertConst(g.Init, nt)
		}
		m.Globals[gi] = ng
		repl[g] = ng
		changed = true
	}
	for _, f := range m.Funcs {
		if f.IsDeclaration() {
			continue
		}
		if len(repl) > 0 {
			f.ReplaceUses(repl)
			delete(fl.users, f)
			u := usersOf(f)
			for _, ng := range repl {
				retypeDerived(ng, u)
			}
		}
		u := usersOf(f)
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Op != ir.OpAlloca || !holdsVector(in.Type().Elem) || !flattenable(in, u) {
					continue
				}
				in.SetType(ir.Ptr(ir.SpaceFunction, fl.flatType(in.Type().Elem)))
				retypeDerived(in, u)
				changed = true
			}
		}
	}
	return changed
}

// flattenable reports whether every use of root (through access chains) in
// the function of users is a memory operation scalarize can rewrite.
func flattenable(root ir.Value, users userMap) bool {
	work := []ir.Value{root}
	for len(work) > 0 {
		p := work[len(work)-1]
		work = work[:len(work)-1]
		for _, u := range uniqueUsers(users[p]) {
			switch u.Op {
			case ir.OpLoad:
				if !movable(u.Type()) {
					return false
				}
			case ir.OpStore:
				if u.Args[0] == p || !movable(u.Args[0].Type()) {
					return false
				}
			case ir.OpAccess:
				if u.Args[0] != p {
					return false
				}
				work = append(work, u)
			case ir.OpMemcpy, ir.OpMemset:
				if !movable(p.Type().Elem) {
					return false
				}
			case ir.OpAtomic:
				if u.Args[0] != p {
					return false
				}
			default:
				return false
			}
		}
	}
	return true
}

// movable reports whether a value of type t can be loaded or stored by
// scalarize once the memory holding it is flattened: either it has no
// vectors (its type does not change) or it is small enough to split.
func movable(t *ir.Type) bool {
	return !holdsVector(t) || splittable(t)
}

// retypeDerived recomputes the result types of the access chains derived
// from root after root's pointee type changed.
func retypeDerived(root ir.Value, users userMap) {
	work := []ir.Value{root}
	for len(work) > 0 {
		p := work[len(work)-1]
		work = work[:len(work)-1]
		for _, u := range uniqueUsers(users[p]) {
			if u.Op == ir.OpAccess && u.Args[0] == p {
				if t := ir.AccessType(p.Type(), u.Args[1:]); t != nil {
					u.SetType(t)
				}
				work = append(work, u)
			}
		}
	}
}

// convertConst rebuilds constant c (of a type with vectors) as a constant
// of the flattened type t with the same scalars.
func convertConst(c *ir.Const, t *ir.Type) *ir.Const {
	switch {
	case c.Zero:
		return ir.ConstZero(t)
	case c.Undef:
		return ir.ConstUndef(t)
	case t.IsScalar():
		return c
	}
	n := t.NumElems()
	elems := make([]*ir.Const, n)
	for i := 0; i < n; i++ {
		e := c.Elem(i)
		if e == nil {
			return ir.ConstZero(t)
		}
		elems[i] = convertConst(e, t.ElemType(i))
	}
	return ir.ConstAggregate(t, elems)
}
