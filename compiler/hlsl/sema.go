package hlsl

import (
	"fmt"
	"strings"
)

// checker performs semantic analysis: it resolves names and types,
// inserts implicit conversions, resolves overloads and intrinsics, folds
// constants where the language requires them, and validates the entry
// point. It annotates the AST in place.
type checker struct {
	rep  *reporter
	opts *Options
	prog *Program

	scopes []*scope
	funcs  map[string][]*FuncDecl // overload sets by name
	// legacyDims is the texture dimension each sampler variable is read
	// with by the legacy texture intrinsics (sm1tex.go).
	legacyDims map[legacySampler]ResourceKind
	// curFunc is the function whose body is being checked.
	curFunc *FuncDecl

	// methodScope is the index of the scope of the member function being
	// checked (struct_decl.go).
	methodScope int

	// breakable / continuable count enclosing loops and switches.
	breakable, continuable int
	rowMajor               bool // #pragma pack_matrix(row_major) in effect
	globals                *CBuffer
	// calls records, per function, the calls to user functions (for the
	// recursion check), with the call expression for diagnostics.
	calls map[*FuncDecl][]*Call
	// intrinsicCalls records intrinsic calls per function, for checks
	// that depend on the entry point's stage.
	intrinsicCalls map[*FuncDecl][]*Call
	// methodCalls records resource method calls per function, for the
	// shader-model checks of the entry point (profile_check.go).
	methodCalls map[*FuncDecl][]*MethodCall
	discards    map[*FuncDecl][]*DiscardStmt
	// typedefMajority records typedefs of matrices whose storage order
	// was fixed when declared (explicitly or by #pragma pack_matrix).
	typedefMajority map[string]Modifiers
	pragmaSeen      bool
	// unsizedCalls are calls passing arrays to unsized array parameters.
	unsizedCalls []*Call
	// globalUses records, per function, the uses of global variables and
	// cbuffer members, for the checks that concern only what an entry
	// point uses (entry_limits.go).
	globalUses map[*FuncDecl][]*Ident
	// wideLits are untyped integer literals and folded literal
	// expressions beyond 32 bits, warned about at the end unless folded
	// into a larger expression (literal_int.go).
	wideLits []*IntLit
	wideSeen map[*IntLit]bool
}

// scope is one level of names: variables and types.
type scope struct {
	vars  map[string]*VarDecl
	types map[string]typeSym
}

type typeSym struct {
	t   *Type
	pos Pos
}

func newChecker(rep *reporter, opts *Options, prog *Program) *checker {
	c := &checker{rep: rep, opts: opts, prog: prog, funcs: map[string][]*FuncDecl{}, calls: map[*FuncDecl][]*Call{}, intrinsicCalls: map[*FuncDecl][]*Call{}, methodCalls: map[*FuncDecl][]*MethodCall{},
		discards: map[*FuncDecl][]*DiscardStmt{}, typedefMajority: map[string]Modifiers{}, globalUses: map[*FuncDecl][]*Ident{}, wideSeen: map[*IntLit]bool{}}
	c.rowMajor = opts.RowMajor
	c.push()
	c.globals = &CBuffer{Name: "$Globals", Implicit: true}
	return c
}

func (c *checker) push() {
	c.scopes = append(c.scopes, &scope{vars: map[string]*VarDecl{}, types: map[string]typeSym{}})
}

func (c *checker) pop() { c.scopes = c.scopes[:len(c.scopes)-1] }

func (c *checker) errorf(n Node, format string, args ...any) {
	c.rep.errorf(n.Pos(), n.End(), format, args...)
}

func (c *checker) warnf(n Node, format string, args ...any) {
	c.rep.warnf(n.Pos(), n.End(), format, args...)
}

// lookupVar finds a variable by name, innermost scope first.
func (c *checker) lookupVar(name string) *VarDecl {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if v, ok := c.scopes[i].vars[name]; ok {
			return v
		}
		if _, ok := c.scopes[i].types[name]; ok {
			return nil
		}
	}
	return nil
}

// lookupType finds a user type (struct or typedef) by name.
func (c *checker) lookupType(name string) (*Type, bool) {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if t, ok := c.scopes[i].types[name]; ok {
			return t.t, true
		}
		if _, ok := c.scopes[i].vars[name]; ok {
			return nil, false
		}
	}
	return nil, false
}

// declareVar adds v to the innermost scope, reporting redefinitions.
func (c *checker) declareVar(v *VarDecl) {
	if v.Name == "" {
		return
	}
	if isBuiltinTypeName(v.Name) {
		c.rep.errorf(v.NamePos, v.NamePos.advance(len(v.Name)), "type name '%s' cannot be used as a variable name", v.Name)
		return
	}
	s := c.scopes[len(c.scopes)-1]
	if old, ok := s.vars[v.Name]; ok {
		c.rep.add(Diagnostic{Severity: Error, Pos: v.NamePos, End: v.NamePos.advance(len(v.Name)),
			Message: fmt.Sprintf("redefinition of '%s'", v.Name),
			Notes:   []Diagnostic{note(old.NamePos, "previous definition is here")}})
		return
	}
	if old, ok := s.types[v.Name]; ok {
		c.rep.add(Diagnostic{Severity: Error, Pos: v.NamePos, End: v.NamePos.advance(len(v.Name)),
			Message: fmt.Sprintf("redefinition of '%s' as a different kind of symbol", v.Name),
			Notes:   []Diagnostic{note(old.pos, "previous definition is here")}})
		return
	}
	if len(c.scopes) == 1 {
		if fs := c.funcs[v.Name]; len(fs) > 0 {
			c.rep.add(Diagnostic{Severity: Error, Pos: v.NamePos, End: v.NamePos.advance(len(v.Name)),
				Message: fmt.Sprintf("redefinition of '%s' as a different kind of symbol", v.Name),
				Notes:   []Diagnostic{note(fs[0].NamePos, "previous definition is here")}})
			return
		}
	}
	s.vars[v.Name] = v
}

// declareType adds a named type to the innermost scope.
func (c *checker) declareType(name string, t *Type, pos Pos) {
	if isBuiltinTypeName(name) && !(len(c.scopes) > 1 && (name == "vector" || name == "matrix")) {
		c.rep.errorf(pos, pos.advance(len(name)), "cannot redefine built-in type '%s'", name)
		return
	}
	s := c.scopes[len(c.scopes)-1]
	if old, ok := s.types[name]; ok {
		if Identical(old.t, t) && t.Kind != KindStruct {
			return // C allows repeating an identical typedef
		}
		c.rep.add(Diagnostic{Severity: Error, Pos: pos, End: pos.advance(len(name)),
			Message: fmt.Sprintf("redefinition of '%s'", name),
			Notes:   []Diagnostic{note(old.pos, "previous definition is here")}})
		return
	}
	if old, ok := s.vars[name]; ok {
		c.rep.add(Diagnostic{Severity: Error, Pos: pos, End: pos.advance(len(name)),
			Message: fmt.Sprintf("redefinition of '%s' as a different kind of symbol", name),
			Notes:   []Diagnostic{note(old.NamePos, "previous definition is here")}})
		return
	}
	s.types[name] = typeSym{t, pos}
}

// checkProgram checks all declarations in order, then the entry point and
// the call graph.
func (c *checker) checkProgram() {
	for _, d := range c.prog.Decls {
		if c.rep.stopped() {
			return
		}
		switch d := d.(type) {
		case *PragmaDecl:
			c.rowMajor = d.RowMajor
			c.pragmaSeen = true
		case *StructDecl:
			c.checkStruct(d)
		case *TypedefDecl:
			c.checkTypedef(d)
		case *VarGroup:
			for _, v := range d.Vars {
				c.checkGlobal(v)
			}
		case *CBuffer:
			c.checkCBuffer(d)
		case *FuncDecl:
			if strings.Contains(d.Name, "::") {
				c.defineMethod(d) // member_outofline.go
				break
			}
			c.checkFunc(d)
		}
	}
	// $Globals is laid out after the entry point is known: its uniform
	// parameters join the global uniforms.
	defer func() {
		if len(c.globals.Members) > 0 {
			layoutBuffer(c.globals)
			c.prog.Buffers = append([]*CBuffer{c.globals}, c.prog.Buffers...)
		}
	}()
	if c.rep.stopped() {
		return
	}
	c.warnWideLiterals()
	c.checkUndefinedCalls()
	c.sizeUnsizedParams()
	c.checkRecursion()
	if !c.opts.Library {
		c.checkEntry()
	}
}

// --- types ------------------------------------------------------------------

// checkStruct resolves a struct's fields and declares its name.
func (c *checker) checkStruct(sd *StructDecl) {
	if sd.Type != nil {
		return
	}
	sd.Type = &Type{Kind: KindStruct, Struct: sd}
	if sd.Name != "" {
		c.declareType(sd.Name, sd.Type, sd.P)
	}
	c.checkStructBase(sd)
	c.checkStructStatics(sd)
	seen := map[string]*Field{}
	for _, f := range sd.Fields {
		f.Type = c.resolveSpec(f.Spec, f.Dims)
		c.checkInterpMods(f.Mods, f.P, f.Name, "field")
		if f.Type.Kind == KindArray && f.Type.Len < 0 {
			c.errorf(f, "struct member '%s' must have an explicit array size", f.Name)
			f.Type = TypeError
		}
		if f.Type.Kind == KindVoid {
			c.errorf(f, "field '%s' has incomplete type 'void'", f.Name)
			f.Type = TypeError
		}
		if f.Type.IsError() {
			// Keep a usable shape so later uses don't cascade.
			f.Type = TypeError
		}
		if old, ok := seen[f.Name]; ok {
			c.rep.add(Diagnostic{Severity: Error, Pos: f.P, End: f.E,
				Message: fmt.Sprintf("duplicate member '%s'", f.Name),
				Notes:   []Diagnostic{note(old.P, "previous declaration is here")}})
		}
		seen[f.Name] = f
	}
	sd.done = true
	c.checkMethods(sd)
}

func (c *checker) checkTypedef(td *TypedefDecl) {
	t := c.resolveSpec(td.Spec, td.Dims)
	if t.IsMatrix() {
		switch {
		case td.Spec.Mods&ModRowMajor != 0 || td.Spec.Mods&ModColumnMajor == 0 && c.typedefMajority[td.Spec.Name] == ModRowMajor:
			c.typedefMajority[td.Name] = ModRowMajor
		case td.Spec.Mods&ModColumnMajor != 0 || c.typedefMajority[td.Spec.Name] == ModColumnMajor:
			c.typedefMajority[td.Name] = ModColumnMajor
		case c.pragmaSeen && c.rowMajor:
			c.typedefMajority[td.Name] = ModRowMajor
		case c.pragmaSeen:
			c.typedefMajority[td.Name] = ModColumnMajor
		}
	}
	if sd := td.Spec.Struct; sd != nil && sd.Name == "" && sd.TypedefName == "" {
		sd.TypedefName = td.Name
	}
	// An unsized array typedef stays unsized: each variable is sized from
	// its initializer (sizeFromInit builds a new type).
	td.Type = t
	c.declareType(td.Name, t, td.P)
}

// checkGlobal checks a global variable and classifies it.
func (c *checker) checkGlobal(v *VarDecl) {
	if strings.Contains(v.Name, "::") && v.Kind == VarGlobal && v.Mods&ModStatic == 0 {
		c.defineStatic(v)
		return
	}
	if c.isConstantBufferT(v) {
		c.checkConstantBufferT(v)
		return
	}
	c.checkVarType(v)
	c.checkStorage(v)
	c.checkDeclAttrs(v)
	switch {
	case v.Mods&(ModStatic|ModGroupshared) != 0:
	case v.Vk.HasSpecID:
		// A specialization constant: its initializer is the default
		// value; it lives outside every constant buffer.
	case v.Vk.PushConstant:
		// [[vk::push_constant]] S s;: a buffer of its own holding s.
		cb := &CBuffer{span: v.span, Name: v.Name, Members: []*VarDecl{v}, Vk: v.Vk}
		v.Buffer = cb
		layoutBuffer(cb)
		c.prog.Buffers = append(c.prog.Buffers, cb)
	case v.Type.ContainsResource():
	default:
		// A uniform: lives in $Globals.
		// Initializers of uniforms are default values, which D3D12 ignores.
		if v.Buffer == nil && v.Init != nil {
			c.checkUnnamedUniformInit(v)
		}
		if v.Buffer == nil {
			v.Buffer = c.globals
			c.globals.Members = append(c.globals.Members, v)
		}
	}
	c.checkGlobalInit(v)
	c.foldVarConst(v)
	c.declareVar(v)
	c.prog.Globals = append(c.prog.Globals, v)
}

// checkGlobalInit checks the initializer of a global or cbuffer member and
// sizes an unsized array from it; an array left unsized is an error.
func (c *checker) checkGlobalInit(v *VarDecl) {
	if v.Init != nil {
		v.Init = c.checkInitializer(v.Init, v.Type)
		if v.Type.Kind == KindArray && v.Type.Len < 0 {
			v.Type = c.sizeFromInit(v, v.Type)
		}
	}
	if v.Type.Kind == KindArray && v.Type.Len < 0 && v.Kind == VarGlobal && v.Type.Elem.ContainsResource() && v.Type.Elem.Kind != KindStruct {
		// An unbounded resource array (Buf[] : register(u0)): D3D binds
		// it to every register from its first; it stays unsized.
		return
	}
	if v.Type.Kind == KindArray && v.Type.Len < 0 {
		c.rep.errorf(v.NamePos, v.NamePos.advance(len(v.Name)), "definition of variable '%s' with array type needs an explicit size or an initializer", v.Name)
		v.Type = TypeError
	}
}

// checkUnnamedUniformInit rejects an initializer on a $Globals uniform
// whose type is an unnamed struct (or an array of one), as DXC does at
// SM6. DXC ignores a uniform's initializer only for variables visible
// outside the translation unit; a variable of a type with no linkage is
// not, so DXC compiles its initializer into stores to the constant
// buffer, which its lowering cannot handle (vkd3d's default-values test
// expects the failure; named structs, typedef'd anonymous structs, static
// variables and cbuffer members compile).
func (c *checker) checkUnnamedUniformInit(v *VarDecl) {
	t := v.Type
	for t.Kind == KindArray {
		t = t.Elem
	}
	if t.Kind != KindStruct || t.Struct == nil || t.Struct.Name != "" || t.Struct.TypedefName != "" {
		return
	}
	c.rep.add(Diagnostic{Severity: Error, Pos: v.Init.Pos(), End: v.Init.End(),
		Message: fmt.Sprintf("uniform '%s' of an unnamed struct type cannot have an initializer (DXC compiles it into stores to the constant buffer); name the struct or declare '%s' static", v.Name, v.Name),
		Notes:   []Diagnostic{note(t.Struct.P, "the unnamed struct is defined here")}})
}

// checkVarType resolves the declared type of a variable or parameter.
func (c *checker) checkVarType(v *VarDecl) {
	v.Spec.Mods |= v.Mods & (ModRowMajor | ModColumnMajor | ModUnorm | ModSnorm)
	v.Type = c.resolveSpec(v.Spec, v.Dims)
	if v.Type.Kind == KindVoid {
		c.rep.errorf(v.NamePos, v.NamePos.advance(len(v.Name)), "variable '%s' has incomplete type 'void'", v.Name)
		v.Type = TypeError
	}
}

// checkStorage validates storage modifiers for where v is declared.
func (c *checker) checkStorage(v *VarDecl) {
	m := v.Mods
	bad := func(what string) {
		c.rep.errorf(v.NamePos, v.NamePos.advance(len(v.Name)), "%s", what)
	}
	switch v.Kind {
	case VarGlobal:
		c.checkInterpMods(m, v.NamePos, v.Name, "global variable")
	case VarLocal:
		c.checkInterpMods(m, v.NamePos, v.Name, "local variable")
	}
	switch v.Kind {
	case VarGlobal:
		if m&ModStatic != 0 && m&ModUniform != 0 {
			bad("'static' and 'uniform' cannot be combined")
		}
		if m&(ModIn|ModOut|ModInOut) != 0 {
			bad("'in'/'out' are only allowed on parameters")
		}
		if m&ModGroupshared != 0 && v.Init != nil {
			bad("groupshared variables cannot have an initializer")
		}
		if v.Type.ContainsResource() && m&ModGroupshared != 0 {
			bad("resources cannot be groupshared")
		}
	case VarLocal:
		if m&(ModUniform|ModExtern|ModGroupshared|ModShared) != 0 {
			bad("local variables cannot be declared 'uniform', 'extern', 'shared' or 'groupshared'")
		}
		if m&(ModIn|ModOut|ModInOut) != 0 {
			bad("'in'/'out' are only allowed on parameters")
		}
	case VarBufferField:
		if m&(ModStatic|ModGroupshared) != 0 {
			bad("constant buffer members cannot be 'static' or 'groupshared'")
		}
		if v.Type.ContainsResource() {
			bad("resources cannot be members of a constant buffer")
		}
	}
	switch {
	case v.Register == nil || v.Kind == VarGlobal:
	case v.Kind == VarBufferField && v.Register.Class == 'c':
		// Accepted and ignored (vkd3d's cbuffer tests: DXC does not count
		// it as packing).
	case v.Kind == VarBufferField:
		c.rep.errorf(v.Register.P, v.Register.E, "invalid register class '%c' for constant buffer member '%s': expected 'c'", v.Register.Class, v.Name)
	default:
		c.rep.errorf(v.Register.P, v.Register.E, "register binding is only allowed on global variables")
	}
	// The class follows the resource, also for an array of resources
	// (hlsl::DiagnoseRegisterType looks through arrays); structs holding
	// resources are bound per member and not checked here.
	rt := v.Type
	for rt.Kind == KindArray {
		rt = rt.Elem
	}
	if v.Register != nil && len(v.Register.Also) > 0 && rt.Kind != KindStruct {
		a := v.Register.Also[0]
		c.rep.errorf(a.P, a.E, "conflicting register reservations for the same declaration")
	}
	if v.Register != nil && v.Kind == VarGlobal && rt.IsNumeric() && v.Register.Profile == "" && strings.IndexByte("bci", v.Register.Class) < 0 {
		// Numbers bind to b, c or i (hlsl::DiagnoseRegisterType).
		c.rep.errorf(v.Register.P, v.Register.E, "invalid register class '%c' for '%s': expected 'b', 'c' or 'i'", v.Register.Class, v.Type)
	}
	if v.Register != nil && v.Kind == VarGlobal && rt.Kind == KindResource {
		// The element type decides the class: an array of UAVs binds u
		// registers (one per element, consecutive); samplers bind s.
		want := rt.Resource.RegisterClass()
		if v.Register.Class != want && v.Register.Profile == "" {
			c.rep.errorf(v.Register.P, v.Register.E, "invalid register class '%c' for '%s': expected '%c'", v.Register.Class, v.Type, want)
		}
	}
}

// sizeFromInit completes an unsized array type from its initializer.
func (c *checker) sizeFromInit(v *VarDecl, t *Type) *Type {
	if v.Init == nil || v.Init.Type().IsError() {
		return TypeError
	}
	elem := t.Elem
	if elem.Kind == KindArray && elem.Len < 0 {
		c.rep.errorf(v.NamePos, v.NamePos.advance(len(v.Name)), "only the first array dimension can be implicit")
		return TypeError
	}
	n := componentsOf(v.Init)
	per := elem.ComponentCount()
	if per == 0 || n%per != 0 || n == 0 {
		c.errorf(v.Init, "cannot size array of '%s' from an initializer of %d components", elem, n)
		return TypeError
	}
	nt := ArrayOf(elem, n/per)
	if il, ok := v.Init.(*InitList); ok {
		il.T = nt
	}
	return nt
}

// checkCBuffer checks a cbuffer block; its members are globals.
func (c *checker) checkCBuffer(cb *CBuffer) {
	for _, other := range c.prog.Buffers {
		if other.Name == cb.Name {
			c.rep.add(Diagnostic{Severity: Error, Pos: cb.P, End: cb.P.advance(7),
				Message: fmt.Sprintf("redefinition of constant buffer '%s'", cb.Name),
				Notes:   []Diagnostic{note(other.P, "previous definition is here")}})
			break
		}
	}
	defer c.checkPackOffsets(cb)
	c.checkCBufferAttrs(cb)
	if cb.Register != nil && cb.Register.Class != 'b' && cb.Register.Profile == "" {
		c.rep.errorf(cb.Register.P, cb.Register.E, "invalid register class '%c' for constant buffer: expected 'b'", cb.Register.Class)
	}
	for _, m := range cb.Members {
		m.Buffer = cb
		c.checkVarType(m)
		c.checkStorage(m)
		c.checkGlobalInit(m)
		c.declareVar(m)
		c.prog.Globals = append(c.prog.Globals, m)
	}
	c.prog.Buffers = append(c.prog.Buffers, cb)
}

// --- functions ----------------------------------------------------------------
