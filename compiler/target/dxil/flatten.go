package dxil

import (
	"strconv"

	"passlens/compiler/ir"
)

// flattenDeclarations gives external functions (declarations, which the
// inline pass cannot remove) scalar signatures: a <N x T> parameter
// becomes N parameters of type T, and every call passes the elements —
// the components of a vector constant, the operands of the construct that
// built the vector, or else extractvalues of it. Constructs left without
// users are deleted afterwards. A <N x T> result becomes the struct
// %<name>.ret of N fields T, as scalarize does for defined functions: the
// scalarized callers read it with extractvalue, whose index paths are the
// same on the struct (a result used whole stays a vector, which the
// legalizer reports).
func flattenDeclarations(m *ir.Module) {
	repl := map[*ir.Function]*ir.Function{}
	for i, f := range m.Funcs {
		if !f.IsDeclaration() {
			continue
		}
		if f.Ret != nil && f.Ret.Kind == ir.KVector && onlyExtracted(m, f) {
			fields := make([]ir.Field, f.Ret.Len)
			for k := range fields {
				fields[k] = ir.Field{Name: "e" + strconv.Itoa(k), Type: f.Ret.Elem}
			}
			st := ir.Struct(f.Name()+".ret", fields)
			m.AddStruct(st)
			setCallTypes(m, f, st)
			f.Ret = st
		}
		if !hasVectorParam(f) {
			continue
		}
		var names []string
		var types []*ir.Type
		for _, p := range f.Params {
			if t := p.Type(); t.Kind == ir.KVector {
				for k := 0; k < t.Len; k++ {
					names = append(names, p.Name()+"."+strconv.Itoa(k))
					types = append(types, t.Elem)
				}
				continue
			}
			names = append(names, p.Name())
			types = append(types, p.Type())
		}
		nf := m.NewFunction(f.Name(), f.Ret, names, types)
		m.Funcs = m.Funcs[:len(m.Funcs)-1] // NewFunction appended it; it takes f's slot
		j := 0
		for _, p := range f.Params {
			n := 1
			if p.Type().Kind == ir.KVector {
				n = p.Type().Len
			}
			for k := 0; k < n; k++ {
				nf.Params[j].Uniform = p.Uniform
				j++
			}
		}
		m.Funcs[i] = nf
		repl[f] = nf
	}
	if len(repl) == 0 {
		return
	}
	for _, f := range m.Funcs {
		bd := ir.NewBuilder(f)
		for _, b := range f.Blocks {
			for _, in := range append([]*ir.Instr(nil), b.Instrs...) {
				nf, ok := repl[in.Callee]
				if in.Op != ir.OpCall || !ok {
					continue
				}
				var args []ir.Value
				for _, a := range in.Args {
					if a.Type().Kind != ir.KVector {
						args = append(args, a)
						continue
					}
					args = append(args, elements(bd, in, a)...)
				}
				in.Callee, in.Args = nf, args
			}
		}
		removeDead(f)
	}
}

// elements returns the scalar components of the vector v passed to call.
func elements(bd *ir.Builder, call *ir.Instr, v ir.Value) []ir.Value {
	t := v.Type()
	out := make([]ir.Value, t.Len)
	switch x := v.(type) {
	case *ir.Const:
		for k := range out {
			switch {
			case len(x.Elems) == t.Len:
				out[k] = x.Elems[k]
			case x.Undef:
				out[k] = ir.ConstUndef(t.Elem)
			default:
				out[k] = ir.ConstZero(t.Elem)
			}
		}
		return out
	case *ir.Instr:
		if x.Op == ir.OpConstruct && len(x.Args) == t.Len {
			scalar := true
			for _, a := range x.Args {
				scalar = scalar && a.Type() == t.Elem
			}
			if scalar {
				return append(out[:0], x.Args...)
			}
		}
	}
	bd.SetBefore(call)
	for k := range out {
		out[k] = bd.ExtractValue(v, []int{k}, call.Name()+".arg")
	}
	return out
}

func hasVectorParam(f *ir.Function) bool {
	for _, p := range f.Params {
		if p.Type().Kind == ir.KVector {
			return true
		}
	}
	return false
}

// onlyExtracted reports whether every call of f has its result used only
// by extractvalue.
func onlyExtracted(m *ir.Module, f *ir.Function) bool {
	calls := map[ir.Value]bool{}
	for _, g := range m.Funcs {
		for _, b := range g.Blocks {
			for _, in := range b.Instrs {
				if in.Op == ir.OpCall && in.Callee == f {
					calls[in] = true
				}
			}
		}
	}
	for _, g := range m.Funcs {
		for _, b := range g.Blocks {
			for _, in := range b.Instrs {
				for k, a := range in.Args {
					if calls[a] && (in.Op != ir.OpExtractValue || k != 0) {
						return false
					}
				}
			}
		}
	}
	return true
}

// setCallTypes gives every call of f the result type t.
func setCallTypes(m *ir.Module, f *ir.Function, t *ir.Type) {
	for _, g := range m.Funcs {
		for _, b := range g.Blocks {
			for _, in := range b.Instrs {
				if in.Op == ir.OpCall && in.Callee == f && in.HasResult() {
					in.SetType(t)
				}
			}
		}
	}
}
