package dxil

import (
	"fmt"

	"passlens/compiler/ir"
)

// legalizer rewrites the types of a (cloned) module so that no LLVM vector
// type is left: vectors in memory become arrays of the same length (the
// element addresses and the access/getelementptr index paths stay the
// same), matrices become arrays of row arrays (the bridge's layout, rows of
// Cols elements), runtime-sized arrays become [0 x T] (an external global
// indexed past its declared size, the usual LLVM idiom), and struct types
// get a twin with legal field types under the same name.
type legalizer struct {
	m       *ir.Module
	memo    map[*ir.Type]*ir.Type
	structs map[*ir.Type]*ir.Type
}

func newLegalizer(m *ir.Module) *legalizer {
	return &legalizer{m: m, memo: map[*ir.Type]*ir.Type{}, structs: map[*ir.Type]*ir.Type{}}
}

// memType is the legal form of a type stored in memory.
func (lz *legalizer) memType(t *ir.Type) *ir.Type {
	if t == nil {
		return nil
	}
	if r, ok := lz.memo[t]; ok {
		return r
	}
	r := t
	switch t.Kind {
	case ir.KVector:
		r = ir.Array(lz.memType(t.Elem), t.Len)
	case ir.KMatrix:
		// Rows as the IR types them: a scalar when there is one column.
		r = ir.Array(lz.memType(ir.Vec(t.Elem, t.Cols)), t.Len)
	case ir.KArray:
		n := t.Len
		if n < 0 {
			n = 0
		}
		r = ir.Array(lz.memType(t.Elem), n)
	case ir.KPointer:
		r = ir.Ptr(t.Space, lz.memType(t.Elem))
	case ir.KStruct:
		changed := false
		fields := make([]ir.Field, len(t.Fields))
		for i, f := range t.Fields {
			fields[i] = f
			fields[i].Type = lz.memType(f.Type)
			changed = changed || fields[i].Type != f.Type
		}
		if changed {
			r = ir.Struct(t.Name, fields)
			lz.structs[t] = r
		}
	}
	lz.memo[t] = r
	return r
}

// run legalizes every global, struct and instruction type of the module.
// It fails on a vector-typed value (not pointer) that the pipeline left,
// naming the instruction: those need the scalarize pass.
func (lz *legalizer) run() error {
	for i, s := range lz.m.Structs {
		lz.m.Structs[i] = lz.memType(s)
	}
	repl := map[ir.Value]ir.Value{}
	for i, g := range lz.m.Globals {
		vt := lz.memType(g.ValType)
		if vt == g.ValType {
			continue
		}
		if g.Init != nil && g.Init.Type() != vt {
			return fmt.Errorf("global @%s: initializer of type %s needs vector legalization (not supported)", g.Name(), g.Init.Type())
		}
		ng := ir.NewGlobal(g.Name(), g.Space, vt)
		ng.Init, ng.Semantic, ng.Set, ng.Binding = g.Init, g.Semantic, g.Set, g.Binding
		ng.ReadOnly, ng.Flat, ng.Kind, ng.Loc = g.ReadOnly, g.Flat, g.Kind, g.Loc
		lz.m.Globals[i] = ng
		repl[g] = ng
	}
	for _, f := range lz.m.Funcs {
		lz.params(f, repl)
		f.ReplaceUses(repl)
		if hasVector(f.Ret) {
			return fmt.Errorf("@%s: return type %s: DXIL has no vector values and the back end does not flatten signatures", f.Name(), f.Ret)
		}
		for _, p := range f.Params {
			if hasVector(p.Type()) && p.Type().Kind != ir.KPointer {
				return fmt.Errorf("@%s: parameter %s has vector type %s: DXIL has no vector values and the back end does not flatten signatures (inline the function, or declare it with scalar parameters)", f.Name(), p.Ref(), p.Type())
			}
		}
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if err := lz.instr(f, in); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (lz *legalizer) instr(f *ir.Function, in *ir.Instr) error {
	t := in.Type()
	if t != nil && t.Kind == ir.KPointer {
		in.SetType(lz.memType(t))
	} else if t != nil && hasVector(t) {
		return fmt.Errorf("%s@%s: %s: vector value survived scalarization (type %s); DXIL has no vector values",
			where(f, in), f.Name(), ir.InstrString(in), t)
	}
	for _, a := range in.Args {
		if c, ok := a.(*ir.Const); ok && hasVector(c.Type()) {
			return fmt.Errorf("%s@%s: %s: vector constant operand %s; DXIL has no vector values",
				where(f, in), f.Name(), ir.InstrString(in), c.Ref())
		}
	}
	return nil
}

// hasVector reports whether t is or contains (outside pointers) a vector or
// matrix.
func hasVector(t *ir.Type) bool {
	return t.Contains(func(u *ir.Type) bool { return u.Kind == ir.KVector || u.Kind == ir.KMatrix })
}

// params gives pointer parameters legal pointee types (an HLSL out float4
// is a ptr<function, <4 x f32>>): Param types are fixed at creation, so
// the function gets new parameters of the same names, recorded in repl.
func (lz *legalizer) params(f *ir.Function, repl map[ir.Value]ir.Value) {
	changed := false
	names := make([]string, len(f.Params))
	types := make([]*ir.Type, len(f.Params))
	for i, p := range f.Params {
		names[i], types[i] = p.Name(), p.Type()
		if p.Type().Kind == ir.KPointer {
			if t := lz.memType(p.Type()); t != p.Type() {
				types[i], changed = t, true
			}
		}
	}
	if !changed {
		return
	}
	// A detached function makes the Param values (names are f's already).
	tmp := (*ir.Module)(nil).NewFunction("", nil, names, types)
	for i, np := range tmp.Params {
		old := f.Params[i]
		np.SetName(old.Name())
		np.Func, np.Index, np.Uniform = f, i, old.Uniform
		if np.Type() != old.Type() {
			repl[old] = np
		}
		f.Params[i] = np
	}
}
