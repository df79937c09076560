package lower

import (
	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
)

// Globals. Each constant buffer (the implicit $Globals for loose uniforms
// and `uniform` entry parameters, then the cbuffers in source order)
// becomes one uniform global whose value is a struct of its members, kind
// "cbuffer", bound to its register(bN, spaceM). Buffers
// ((RW)StructuredBuffer<T>, (RW)Buffer<T>, (RW)ByteAddressBuffer) become
// storage globals holding a runtime-sized array of T (of u32 words for
// byte address buffers), read-only unless RW, with the HLSL type name as
// kind. Static globals live in private memory with their initializer;
// groupshared variables in groupshared memory.

// varInfo says where a variable lives.
type varInfo struct {
	t *hlsl.Type // the variable's HLSL type
	// ptr points at the variable's storage (a global, an alloca or an
	// out/inout parameter). For a cbuffer member it is nil and buf/field
	// locate it.
	ptr   ir.Value
	buf   *ir.Global
	field int
	// mem marks buffer memory (column-major matrices stored transposed).
	mem bool
	// value is an SSA value standing for the variable: the buffer pointer
	// of a resource parameter or local.
	value ir.Value
	// konst is the compile-time value of a static const scalar or vector,
	// used instead of loading it.
	konst *ir.Const
	// decl is the declaration (for resources: the counter lookup).
	decl *hlsl.VarDecl
	// alias is the global buffer a local buffer variable that is never
	// reassigned was initialized with (lower_resvalue.go).
	alias *hlsl.VarDecl
}

// lowerGlobals creates the module's globals in source order: constant
// buffers first, then the other global variables.
func (l *lowerer) lowerGlobals() {
	for _, cb := range l.prog.Buffers {
		l.lowerCBuffer(cb)
	}
	for _, v := range l.prog.Globals {
		if v.Buffer != nil || l.globals[v] != nil {
			continue
		}
		l.lowerGlobal(v)
	}
}

// lowerCBuffer creates the uniform global of one constant buffer (for
// $Globals the members include the entry point's uniform parameters; a
// parameter named like a global uniform gets a suffixed field name).
func (l *lowerer) lowerCBuffer(cb *hlsl.CBuffer) {
	members := cb.Members
	if len(members) == 0 {
		return
	}
	// packoffset fixes where members live, so the struct carries the D3D
	// offsets of all members (layout.go) for the back ends; register(cN)
	// on a global uniform fixes that member only (the SM3 back end
	// allocates the others around it, as fxc does). Without either each
	// back end lays the buffer out by its own rules, as DXC does.
	packed := false
	for _, m := range members {
		packed = packed || m.PackOffset != nil
	}
	fields := make([]ir.Field, len(members))
	names := map[string]bool{}
	for i, m := range members {
		_, reserved := hlsl.ReservedOffset(m)
		fields[i] = ir.Field{Name: uniqueIn(names, m.Name), Type: l.memType(m.Type), Placed: packed || reserved, Offset: m.Offset}
		if reserved && m.PackOffset == nil {
			fields[i].RegShift = m.Register.Shift // register(cN[k]): FXC's k, for sm3
			fields[i].Loc = l.loc(m.Register.Pos())
		}
	}
	st := ir.Struct(uniqueIn(l.structNames, cb.Name), fields)
	l.m.AddStruct(st)
	g := ir.NewGlobal(l.uniqueGlobalName(cb.Name), ir.SpaceUniform, st)
	g.Kind = "cbuffer"
	g.Loc = l.loc(cb.Pos())
	if r := cb.Register; r != nil {
		g.Set, g.Binding = r.Space, r.Index
	}
	vkDecorate(g, cb.Vk)
	g.Array, g.ArrayIndex, g.ArrayLen = cb.Array, cb.ArrayIndex, cb.ArrayLen
	l.m.AddGlobal(g)
	for i, m := range members {
		l.globals[m] = &varInfo{t: m.Type, buf: g, field: i, mem: true, decl: m}
	}
}

// vkDecorate carries [[vk::binding]] and [[vk::push_constant]] to the
// global (used by the SPIR-V back end only, as DXC reads them only for
// SPIR-V).
func vkDecorate(g *ir.Global, vk hlsl.VkDecor) {
	if vk.HasBinding {
		g.VkSet, g.VkBinding = vk.Set, vk.Binding
	}
	g.PushConstant = vk.PushConstant
}

// lowerGlobal creates the global of a non-uniform global variable.
func (l *lowerer) lowerGlobal(v *hlsl.VarDecl) {
	t := v.Type
	switch {
	case t.Kind == hlsl.KindResource:
		g := ir.NewGlobal(l.uniqueGlobalName(v.Name), ir.SpaceStorage, l.resourceValueType(t))
		g.Kind = t.Resource.String()
		g.ReadOnly = !t.Resource.Writable()
		g.Loc = l.loc(v.NamePos)
		if r := v.Register; r != nil {
			g.Set, g.Binding = r.Space, r.Index
		}
		vkDecorate(g, v.Vk)
		l.m.AddGlobal(g)
		l.globals[v] = &varInfo{t: t, value: g, decl: v}
		l.registerResource(g, t, v)
	case l.lowerResourceArray(v):
	case l.lowerResourceStruct(v):
	case t.ContainsResource():
		if v.Used {
			l.errorf(v, "arrays and structs of resources ('%s') are not supported", t)
		}
	case v.Mods&hlsl.ModGroupshared != 0:
		g := ir.NewGlobal(l.uniqueGlobalName(v.Name), ir.SpaceGroupshared, l.irType(t))
		g.Loc = l.loc(v.NamePos)
		l.m.AddGlobal(g)
		l.globals[v] = &varInfo{t: t, ptr: g, decl: v}
	default: // static
		l.lowerStatic(v, v.Name)
	}
}

// lowerStatic creates the private global of a static variable (global,
// or local to a function: name is then "function.variable") with its
// initializer. A static const scalar or vector is also remembered as a
// constant so reads need no load.
func (l *lowerer) lowerStatic(v *hlsl.VarDecl, name string) *varInfo {
	g := ir.NewGlobal(l.uniqueGlobalName(name), ir.SpacePrivate, l.irType(v.Type))
	g.Loc = l.loc(v.NamePos)
	info := &varInfo{t: v.Type, ptr: g, decl: v}
	if v.Init != nil {
		if k, ok := l.constValue(v.Init, v.Type); ok {
			if !k.IsZeroValue() {
				g.Init = k
			}
			if v.Mods&hlsl.ModConst != 0 && (v.Type.IsScalar() || v.Type.IsVector()) && !v.Vk.HasSpecID {
				info.konst = k
			}
			if v.Vk.HasSpecID {
				// A specialization constant: the initializer is its
				// default; reads load it so a run can override it.
				g.SpecID = v.Vk.SpecID
				g.Init = k
			}
		} else if v.Kind == hlsl.VarGlobal {
			l.runtimeInits = append(l.runtimeInits, v)
		} else {
			l.errorf(v.Init, "the initializer of static local '%s' is not a compile-time constant", v.Name)
		}
	}
	l.m.AddGlobal(g)
	l.globals[v] = info
	return info
}

// counter returns the hidden counter of a RWStructuredBuffer (for
// IncrementCounter/DecrementCounter): a storage global holding one u32.
func (l *lowerer) counter(v *hlsl.VarDecl) *ir.Global {
	if g, ok := l.counters[v]; ok {
		return g
	}
	g := ir.NewGlobal(l.uniqueGlobalName(v.Name+".counter"), ir.SpaceStorage, ir.U32)
	g.Kind = "counter"
	g.Loc = l.loc(v.NamePos)
	counterBinding(g, v)
	l.m.AddGlobal(g)
	l.counters[v] = g
	return g
}
