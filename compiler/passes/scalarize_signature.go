package passes

import (
	"strings"

	"passlens/compiler/ir"
)

// Signature flattening for scalarize. DXIL has no vector values, so a
// function that keeps a vector or matrix in its signature (the dxil
// pipeline inlines every call into entry points, but a library's exported
// functions stay, and so do the callees of a pipeline without inline)
// cannot be emitted. DXC's SROA_Parameter_HLSL (createFlattenedFunction,
// flattenArgument; seed dxil-scalarization.md) flattens such signatures;
// scalarize does the same for defined functions that are not entry points:
//
//   - a parameter whose type is splittable and holds a vector or matrix
//     becomes one scalar parameter per leaf, named after the leaf
//     (%a: <4 x f32> becomes %a.x, %a.y, %a.z, %a.w); the body rebuilds
//     %a with a construct at its start, which scalarize then forwards, so
//     the leaves are used directly;
//   - such a return type becomes a struct of the leaves,
//     `type %<fn>.ret = { f32 x, f32 y, ... }` (one scalar leaf is
//     returned as that scalar): LLVM returns aggregates by value, which
//     keeps the result in SSA form (an out pointer parameter would send
//     it through memory), the same shape DXIL uses for dx.op results with
//     several values (%dx.types.ResRet, %dx.types.fouri32);
//   - every call passes the leaves of its arguments and rebuilds the
//     returned value from the struct's fields (forwarded likewise).
//
// Entry points keep their signatures (they have none in HLSL: stage
// inputs and outputs are globals); declarations are the back end's to
// flatten (compiler/target/dxil/flatten.go); pointer parameters (out and
// inout) are not values and stay.

// sigPlan is the flattened signature of one function.
type sigPlan struct {
	params  []bool // parameter i is flattened
	oldRet  *ir.Type
	ret     *ir.Type // new return type (nil: unchanged)
	retLeaf []leaf   // leaves of oldRet when the return is flattened
}

// sigFlattenable reports whether a value of type t in a signature is
// flattened: splittable and holding a vector or matrix.
func sigFlattenable(t *ir.Type) bool {
	return t != nil && t.Kind != ir.KPointer && splittable(t) && holdsVector(t)
}

// holdsVector reports whether t has a vector or matrix inside.
func holdsVector(t *ir.Type) bool {
	return t.Contains(func(u *ir.Type) bool { return u.Kind == ir.KVector || u.Kind == ir.KMatrix })
}

// flattenSignatures flattens the signatures of m's defined non-entry
// functions, rewriting their bodies and every call to them.
func flattenSignatures(m *ir.Module) bool {
	lay := newScalarizer(nil)
	plans := map[*ir.Function]*sigPlan{}
	for _, f := range m.Funcs {
		if f.IsDeclaration() || f.Entry != nil {
			continue
		}
		p := &sigPlan{params: make([]bool, len(f.Params)), oldRet: f.Ret}
		need := false
		for i, pa := range f.Params {
			if sigFlattenable(pa.Type()) {
				p.params[i], need = true, true
			}
		}
		if sigFlattenable(f.Ret) {
			need = true
			p.retLeaf = lay.layout(f.Ret)
			if len(p.retLeaf) == 1 {
				p.ret = p.retLeaf[0].typ
			} else {
				fields := make([]ir.Field, len(p.retLeaf))
				for i, lf := range p.retLeaf {
					fields[i] = ir.Field{Name: fieldName(lf.suffix), Type: lf.typ}
				}
				p.ret = ir.Struct(uniqueStructName(m, f.Name()+".ret"), fields)
				m.AddStruct(p.ret)
			}
		}
		if need {
			plans[f] = p
		}
	}
	if len(plans) == 0 {
		return false
	}
	for f, p := range plans {
		flattenBody(f, p, lay)
	}
	for _, g := range m.Funcs {
		for _, b := range g.Blocks {
			for _, in := range append([]*ir.Instr(nil), b.Instrs...) {
				if in.Op == ir.OpCall && plans[in.Callee] != nil {
					flattenCall(g, in, plans[in.Callee], lay)
				}
			}
		}
	}
	return true
}

// fieldName turns a leaf suffix (".x", ".1.z", ".pos.y") into a field
// name (x, e1_z, pos_y).
func fieldName(suffix string) string {
	n := strings.ReplaceAll(strings.TrimPrefix(suffix, "."), ".", "_")
	if n == "" || n[0] >= '0' && n[0] <= '9' {
		n = "e" + n
	}
	return n
}

// uniqueStructName returns base, or base_N, unused by m's structs.
func uniqueStructName(m *ir.Module, base string) string {
	used := map[string]bool{}
	for _, s := range m.Structs {
		used[s.Name] = true
	}
	name := base
	for i := 1; used[name]; i++ {
		name = base + "_" + itoa(i)
	}
	return name
}

// flattenBody gives f its new parameters and return type.
func flattenBody(f *ir.Function, p *sigPlan, lay *scalarizer) {
	entry := f.Blocks[0]
	var names []string
	var types []*ir.Type
	var uniform []bool
	for i, pa := range f.Params {
		if !p.params[i] {
			names = append(names, pa.Name())
			types = append(types, pa.Type())
			uniform = append(uniform, pa.Uniform)
			continue
		}
		for _, lf := range lay.layout(pa.Type()) {
			names = append(names, f.UniqueName(pa.Name()+lf.suffix))
			types = append(types, lf.typ)
			uniform = append(uniform, pa.Uniform)
		}
	}
	// A detached function makes the Param values; they move to f (their
	// names are already reserved in f, or are the kept parameters' own).
	tmp := (*ir.Module)(nil).NewFunction("", nil, names, types)
	newParams := tmp.Params
	repl := map[ir.Value]ir.Value{}
	var pre []*ir.Instr
	j := 0
	for i, pa := range f.Params {
		if !p.params[i] {
			newParams[j].SetName(pa.Name())
			repl[pa] = newParams[j]
			j++
			continue
		}
		n := len(lay.layout(pa.Type()))
		leaves := make([]ir.Value, n)
		for k := range leaves {
			leaves[k] = newParams[j+k]
		}
		j += n
		v, ins := buildValue(f, pa.Type(), leaves, pa.Name()+".arg")
		pre = append(pre, ins...)
		repl[pa] = v
	}
	for i, np := range newParams {
		np.Func, np.Index, np.Uniform = f, i, uniform[i]
	}
	f.ReplaceUses(repl)
	f.Params = newParams
	pos := entry.FirstNonPhi()
	for k, in := range pre {
		insertAt(entry, pos+k, in)
	}
	if p.ret == nil {
		return
	}
	f.Ret = p.ret
	for _, b := range f.Blocks {
		t := b.Terminator()
		if t == nil || t.Op != ir.OpRet || len(t.Args) != 1 {
			continue
		}
		leaves, ins := leavesOf(f, t.Args[0], p.retLeaf, "ret")
		for _, in := range ins {
			insertAt(b, len(b.Instrs)-1, in)
		}
		if len(leaves) == 1 {
			t.Args[0] = leaves[0]
			continue
		}
		c := newInstr(f, ir.OpConstruct, p.ret, "retval")
		c.Args = leaves
		insertAt(b, len(b.Instrs)-1, c)
		t.Args[0] = c
	}
}

// flattenCall rewrites one call of a flattened function in g.
func flattenCall(g *ir.Function, call *ir.Instr, p *sigPlan, lay *scalarizer) {
	b := call.Block
	var args []ir.Value
	for i, a := range call.Args {
		if i >= len(p.params) || !p.params[i] {
			args = append(args, a)
			continue
		}
		leaves, ins := leavesOf(g, a, lay.layout(a.Type()), "arg")
		for _, in := range ins {
			insertAt(b, indexInBlock(call), in)
		}
		args = append(args, leaves...)
	}
	call.Args = args
	if p.ret == nil || !call.HasResult() {
		return
	}
	call.SetType(p.ret)
	var leaves []ir.Value
	var after []*ir.Instr
	if len(p.retLeaf) == 1 {
		leaves = []ir.Value{call}
	} else {
		for i, lf := range p.retLeaf {
			ev := newInstr(g, ir.OpExtractValue, lf.typ, baseName(call)+".f"+lf.suffix)
			ev.Args = []ir.Value{call}
			ev.Idx = []int{i}
			after = append(after, ev)
			leaves = append(leaves, ev)
		}
	}
	v, ins := buildValue(g, p.oldRet, leaves, baseName(call)+".val")
	after = append(after, ins...)
	mine := map[*ir.Instr]bool{}
	for _, in := range after {
		mine[in] = true
	}
	// Every other use of the call now reads the rebuilt value.
	for _, bb := range g.Blocks {
		for _, in := range bb.Instrs {
			if mine[in] || in == call {
				continue
			}
			for k, a := range in.Args {
				if a == ir.Value(call) {
					in.Args[k] = v
				}
			}
		}
	}
	pos := indexInBlock(call) + 1
	for k, in := range after {
		insertAt(b, pos+k, in)
	}
}

// buildValue returns the instructions constructing a value of type t from
// its leaves (nested constructs for nested types) and the value.
func buildValue(f *ir.Function, t *ir.Type, leaves []ir.Value, name string) (ir.Value, []*ir.Instr) {
	var ins []*ir.Instr
	var build func(t *ir.Type, leaves []ir.Value, name string) ir.Value
	build = func(t *ir.Type, leaves []ir.Value, name string) ir.Value {
		if t.IsScalar() {
			return leaves[0]
		}
		n := t.NumElems()
		elems := make([]ir.Value, n)
		off := 0
		for i := 0; i < n; i++ {
			et := t.ElemType(i)
			c := et.ScalarCount()
			elems[i] = build(et, leaves[off:off+c], name)
			off += c
		}
		in := newInstr(f, ir.OpConstruct, t, name)
		in.Args = elems
		ins = append(ins, in)
		return in
	}
	v := build(t, leaves, name)
	return v, ins
}

// leavesOf returns the leaves of v (layout lay) and the extractvalues that
// read them (none for a constant).
func leavesOf(f *ir.Function, v ir.Value, lay []leaf, tag string) ([]ir.Value, []*ir.Instr) {
	if c, ok := v.(*ir.Const); ok {
		return constLeaves(c, lay), nil
	}
	out := make([]ir.Value, len(lay))
	ins := make([]*ir.Instr, len(lay))
	for i, lf := range lay {
		ev := newInstr(f, ir.OpExtractValue, lf.typ, baseName(v)+"."+tag+lf.suffix)
		ev.Args = []ir.Value{v}
		ev.Idx = lf.path
		ins[i] = ev
		out[i] = ev
	}
	return out, ins
}
