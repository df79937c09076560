package hlsl

import (
	"fmt"
	"sort"
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
	// curFunc is the function whose body is being checked.
	curFunc *FuncDecl
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
	discards       map[*FuncDecl][]*DiscardStmt
	// typedefMajority records typedefs of matrices whose storage order
	// was fixed when declared (explicitly or by #pragma pack_matrix).
	typedefMajority map[string]Modifiers
	pragmaSeen      bool
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
	c := &checker{rep: rep, opts: opts, prog: prog, funcs: map[string][]*FuncDecl{}, calls: map[*FuncDecl][]*Call{}, intrinsicCalls: map[*FuncDecl][]*Call{},
		discards: map[*FuncDecl][]*DiscardStmt{}, typedefMajority: map[string]Modifiers{}}
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
			c.checkFunc(d)
		}
	}
	if len(c.globals.Members) > 0 {
		layoutBuffer(c.globals)
		c.prog.Buffers = append([]*CBuffer{c.globals}, c.prog.Buffers...)
	}
	if c.rep.stopped() {
		return
	}
	c.checkUndefinedCalls()
	c.checkRecursion()
	if !c.opts.Library {
		c.checkEntry()
	}
}

// --- types ------------------------------------------------------------------

// resolveSpec resolves a written type (plus array dims) to a Type,
// reporting unknown and unsupported types at their use.
func (c *checker) resolveSpec(ts *TypeSpec, dims []Expr) *Type {
	t := c.resolveBase(ts)
	if maj := ts.Mods & (ModRowMajor | ModColumnMajor); maj != 0 && !t.IsError() {
		fixed := c.typedefMajority[ts.Name]
		switch {
		case !t.IsMatrix():
			c.errorf(ts, "'%s' can only be applied to matrix types, not '%s'", majorityName(maj), t)
			return TypeError
		case fixed != 0 && fixed != maj && ts.Struct == nil:
			c.errorf(ts, "'%s' conflicts with the %s storage of typedef '%s'", majorityName(maj), majorityName(fixed), ts.Name)
			return TypeError
		}
	}
	if ts.Mods&(ModUnorm|ModSnorm) != 0 && !t.IsError() && !t.IsFloat() {
		c.errorf(ts, "'unorm' and 'snorm' can only be applied to float types, not '%s'", t)
		return TypeError
	}
	if !t.IsError() && t.IsMatrix() {
		rm := c.rowMajor
		if ts.Mods&ModRowMajor != 0 {
			rm = true
		} else if ts.Mods&ModColumnMajor != 0 {
			rm = false
		}
		t = matrixOf(t.Elem, t.Rows, t.Cols, rm)
	}
	if ts.Mods&ModRowMajor != 0 && ts.Mods&ModColumnMajor != 0 {
		c.errorf(ts, "'row_major' and 'column_major' cannot both be specified")
	}
	return c.applyDims(t, dims)
}

func majorityName(m Modifiers) string {
	if m&ModRowMajor != 0 {
		return "row_major"
	}
	return "column_major"
}

// applyDims wraps t in array types for dims (outermost first). An unsized
// first dimension yields Len -1, completed from the initializer by
// sizeFromInit.
func (c *checker) applyDims(t *Type, dims []Expr) *Type {
	for i := len(dims) - 1; i >= 0; i-- {
		d := dims[i]
		if t.IsError() {
			return TypeError
		}
		if d == nil {
			if i != 0 {
				c.rep.errorf(Pos{}, Pos{}, "only the first array dimension can be implicit")
				return TypeError
			}
			return &Type{Kind: KindArray, Elem: t, Len: -1} // sized from the initializer
		}
		n, ok := c.constInt(d, "array size")
		if !ok {
			return TypeError
		}
		if n <= 0 {
			c.errorf(d, "array size must be positive (is %d)", n)
			return TypeError
		}
		if n > 1<<16 {
			c.errorf(d, "array size %d is too large", n)
			return TypeError
		}
		if t.Kind == KindVoid {
			c.errorf(d, "array has incomplete element type 'void'")
			return TypeError
		}
		t = ArrayOf(t, int(n))
	}
	return t
}

func (c *checker) resolveBase(ts *TypeSpec) *Type {
	if ts.Resolved != nil {
		return ts.Resolved
	}
	t := c.resolveBaseUncached(ts)
	ts.Resolved = t
	return t
}

func (c *checker) resolveBaseUncached(ts *TypeSpec) *Type {
	if ts.Name == "[]" { // cast to array type
		if len(ts.Args) == 0 {
			return TypeError
		}
		elem, _ := ts.Args[0].(*TypeSpec)
		if elem == nil {
			return TypeError
		}
		var dims []Expr
		for _, a := range ts.Args[1:] {
			if e, ok := a.(Expr); ok {
				dims = append(dims, e)
			}
		}
		return c.applyDims(c.resolveSpec(elem, nil), dims)
	}
	if ts.Struct != nil {
		c.checkStruct(ts.Struct)
		if ts.Struct.Type == nil {
			return TypeError
		}
		return ts.Struct.Type
	}
	if ts.Name == "<error>" || ts.Name == "" {
		return TypeError
	}
	if ts.StructRef {
		if t, ok := c.lookupType(ts.Name); !ok || t.Kind != KindStruct || t.Struct.Name != ts.Name {
			c.errorf(ts, "'%s' is not a struct", ts.Name)
			return TypeError
		}
	}
	if t, ok := c.lookupType(ts.Name); ok {
		if t.Kind == KindStruct && !t.Struct.done {
			c.errorf(ts, "incomplete type '%s' is not allowed here", ts.Name)
			return TypeError
		}
		if len(ts.Args) > 0 {
			c.errorf(ts, "'%s' is not a template", ts.Name)
		}
		return t
	}
	if base, rows, cols, ok := builtinTypeName(ts.Name); ok {
		if unsupportedScalars[base] {
			c.errorf(ts, "unsupported type '%s'", ts.Name)
			return TypeError
		}
		s := scalarByName[base]
		switch {
		case rows > 0:
			return MatrixOf(s, rows, cols)
		case cols > 0:
			return VectorOf(s, cols)
		}
		return s
	}
	switch ts.Name {
	case "void":
		return TypeVoid
	case "vector":
		return c.resolveVectorTemplate(ts)
	case "matrix":
		return c.resolveMatrixTemplate(ts)
	}
	if rk, ok := resourceByName[ts.Name]; ok {
		return c.resolveResource(ts, rk)
	}
	if _, ok := unsupportedObjects[ts.Name]; ok {
		c.errorf(ts, "unsupported type '%s'", ts.Name)
		return TypeError
	}
	c.errorf(ts, "unknown type name '%s'", ts.Name)
	return TypeError
}

// templateScalar resolves a template argument that must be a scalar type.
func (c *checker) templateScalar(ts *TypeSpec, i int) *Type {
	if i >= len(ts.Args) {
		return nil
	}
	a, ok := ts.Args[i].(*TypeSpec)
	if !ok {
		c.errorf(ts.Args[i], "template argument for '%s' must be a type", ts.Name)
		return TypeError
	}
	t := c.resolveSpec(a, nil)
	if t.IsError() {
		return TypeError
	}
	if !t.IsScalar() {
		c.errorf(a, "'%s' is not a scalar type: '%s' requires a scalar element type", t, ts.Name)
		return TypeError
	}
	return t
}

// templateInt resolves a template argument that must be an integer 1..4.
func (c *checker) templateInt(ts *TypeSpec, i int) (int, bool) {
	e, ok := ts.Args[i].(Expr)
	if !ok {
		c.errorf(ts.Args[i], "template argument for '%s' must be an integer constant", ts.Name)
		return 0, false
	}
	n, ok := c.constInt(e, "template argument")
	if !ok {
		return 0, false
	}
	if n < 1 || n > 4 {
		c.errorf(e, "%s dimension must be between 1 and 4 (is %d)", ts.Name, n)
		return 0, false
	}
	return int(n), true
}

func (c *checker) resolveVectorTemplate(ts *TypeSpec) *Type {
	switch len(ts.Args) {
	case 0:
		return VectorOf(TypeFloat, 4)
	case 2:
		s := c.templateScalar(ts, 0)
		n, ok := c.templateInt(ts, 1)
		if s.IsError() || !ok {
			return TypeError
		}
		return VectorOf(s, n)
	}
	c.errorf(ts, "'vector' takes 2 template arguments (element type and size)")
	return TypeError
}

func (c *checker) resolveMatrixTemplate(ts *TypeSpec) *Type {
	switch len(ts.Args) {
	case 0:
		return MatrixOf(TypeFloat, 4, 4)
	case 3:
		s := c.templateScalar(ts, 0)
		r, ok1 := c.templateInt(ts, 1)
		cl, ok2 := c.templateInt(ts, 2)
		if s.IsError() || !ok1 || !ok2 {
			return TypeError
		}
		return MatrixOf(s, r, cl)
	}
	c.errorf(ts, "'matrix' takes 3 template arguments (element type, rows and columns)")
	return TypeError
}

func (c *checker) resolveResource(ts *TypeSpec, rk ResourceKind) *Type {
	t := &Type{Kind: KindResource, Resource: rk}
	if !rk.Templated() {
		if len(ts.Args) > 0 {
			c.errorf(ts, "'%s' is not a template", ts.Name)
		}
		return t
	}
	if len(ts.Args) == 0 {
		if rk == ResBuffer || rk == ResRWBuffer {
			t.Elem = VectorOf(TypeFloat, 4)
			return t
		}
		c.errorf(ts, "'%s' requires an element type template argument", ts.Name)
		return TypeError
	}
	if len(ts.Args) != 1 {
		c.errorf(ts, "'%s' takes one template argument", ts.Name)
		return TypeError
	}
	a, ok := ts.Args[0].(*TypeSpec)
	if !ok {
		c.errorf(ts.Args[0], "template argument for '%s' must be a type", ts.Name)
		return TypeError
	}
	elem := c.resolveSpec(a, nil)
	if elem.IsError() {
		return TypeError
	}
	switch {
	case elem.containsResource() || elem.Kind == KindVoid:
		c.errorf(a, "'%s' is not a valid element type for '%s'", elem, ts.Name)
		return TypeError
	case (rk == ResBuffer || rk == ResRWBuffer) && !(elem.IsScalar() || elem.IsVector()):
		c.errorf(a, "elements of typed buffer '%s' must be scalars or vectors, not '%s'", ts.Name, elem)
		return TypeError
	case (rk == ResBuffer || rk == ResRWBuffer) && elem.Dim() > 4:
		c.errorf(a, "elements of typed buffer '%s' must fit in 4 components", ts.Name)
		return TypeError
	}
	t.Elem = elem
	return t
}

// --- declarations -----------------------------------------------------------

// checkStruct resolves a struct's fields and declares its name.
func (c *checker) checkStruct(sd *StructDecl) {
	if sd.Type != nil {
		return
	}
	sd.Type = &Type{Kind: KindStruct, Struct: sd}
	if sd.Name != "" {
		c.declareType(sd.Name, sd.Type, sd.P)
	}
	seen := map[string]*Field{}
	for _, f := range sd.Fields {
		f.Type = c.resolveSpec(f.Spec, f.Dims)
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
	if t.Kind == KindArray && t.Len < 0 {
		c.errorf(td, "typedef of an unsized array is not supported")
		t = TypeError
	}
	td.Type = t
	c.declareType(td.Name, t, td.P)
}

// checkGlobal checks a global variable and classifies it.
func (c *checker) checkGlobal(v *VarDecl) {
	c.checkVarType(v)
	c.checkStorage(v)
	switch {
	case v.Mods&(ModStatic|ModGroupshared) != 0:
	case v.Type.containsResource():
	default:
		// A uniform: lives in $Globals.
		// Initializers of uniforms are default values, which D3D12 ignores.
		if v.Buffer == nil {
			v.Buffer = c.globals
			c.globals.Members = append(c.globals.Members, v)
		}
	}
	if v.Init != nil {
		v.Init = c.checkInitializer(v.Init, v.Type)
		if v.Type.Kind == KindArray && v.Type.Len < 0 {
			v.Type = c.sizeFromInit(v, v.Type)
		}
		c.foldVarConst(v)
	}
	if v.Type.Kind == KindArray && v.Type.Len < 0 {
		c.rep.errorf(v.NamePos, v.NamePos.advance(len(v.Name)), "definition of variable '%s' with array type needs an explicit size or an initializer", v.Name)
		v.Type = TypeError
	}
	c.declareVar(v)
	c.prog.Globals = append(c.prog.Globals, v)
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
		if m&ModStatic != 0 && m&ModUniform != 0 {
			bad("'static' and 'uniform' cannot be combined")
		}
		if m&(ModIn|ModOut|ModInOut) != 0 {
			bad("'in'/'out' are only allowed on parameters")
		}
		if m&ModGroupshared != 0 && v.Init != nil {
			bad("groupshared variables cannot have an initializer")
		}
		if v.Type.containsResource() && m&ModGroupshared != 0 {
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
		if v.Type.containsResource() {
			bad("resources cannot be members of a constant buffer")
		}
	}
	if v.Register != nil && v.Kind != VarGlobal {
		c.rep.errorf(v.Register.P, v.Register.E, "register binding is only allowed on global variables")
	}
	if v.Register != nil && v.Kind == VarGlobal && v.Type.containsResource() {
		want := byte('t')
		if v.Type.Kind == KindResource && v.Type.Resource.Writable() {
			want = 'u'
		}
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
	if cb.Register != nil && cb.Register.Class != 'b' && cb.Register.Profile == "" {
		c.rep.errorf(cb.Register.P, cb.Register.E, "invalid register class '%c' for constant buffer: expected 'b'", cb.Register.Class)
	}
	for _, m := range cb.Members {
		m.Buffer = cb
		c.checkVarType(m)
		c.checkStorage(m)
		if m.Init != nil {
			m.Init = c.checkInitializer(m.Init, m.Type)
		}
		c.declareVar(m)
		c.prog.Globals = append(c.prog.Globals, m)
	}
	c.prog.Buffers = append(c.prog.Buffers, cb)
}

// --- functions ----------------------------------------------------------------

// checkFunc checks a function declaration and its body.
func (c *checker) checkFunc(f *FuncDecl) {
	f.Ret = c.resolveSpec(f.RetSpec, nil)
	c.push()
	for _, p := range f.Params {
		c.checkVarType(p)
		if p.Type.Kind == KindArray && p.Type.Len < 0 {
			c.errorf(p, "parameter '%s' must have an explicit array size", p.Name)
			p.Type = TypeError
		}
		if p.Mods&(ModStatic|ModGroupshared|ModExtern) != 0 {
			c.rep.errorf(p.NamePos, p.NamePos.advance(len(p.Name)), "invalid storage class for parameter '%s'", p.Name)
		}
		if p.Init != nil {
			p.Init = c.checkInitializer(p.Init, p.Type)
		}
		c.declareVar(p)
	}
	c.declareFunc(f)
	entry := c.opts.Entry
	if entry == "" {
		entry = "main"
	}
	for _, a := range f.Attrs {
		if strings.EqualFold(a.Name, "numthreads") {
			c.checkNumThreads(a)
		}
	}
	if f.Name != entry && !c.opts.Library {
		for _, p := range f.Params {
			if p.Mods&ModUniform != 0 {
				c.rep.errorf(p.NamePos, p.NamePos.advance(len(p.Name)), "'uniform' is only allowed on entry point parameters")
			}
		}
	}
	if f.Body != nil {
		c.curFunc = f
		c.checkBody(f)
		c.curFunc = nil
		c.prog.Funcs = append(c.prog.Funcs, f)
	}
	c.pop()
}

// declareFunc adds f to its overload set, linking prototypes with their
// definition and rejecting duplicate definitions.
func (c *checker) declareFunc(f *FuncDecl) {
	if v := c.scopes[0].vars[f.Name]; v != nil {
		c.rep.add(Diagnostic{Severity: Error, Pos: f.NamePos, End: f.NamePos.advance(len(f.Name)),
			Message: fmt.Sprintf("redefinition of '%s' as a different kind of symbol", f.Name),
			Notes:   []Diagnostic{note(v.NamePos, "previous definition is here")}})
		return
	}
	if _, ok := c.scopes[0].types[f.Name]; ok {
		c.rep.errorf(f.NamePos, f.NamePos.advance(len(f.Name)), "redefinition of '%s' as a different kind of symbol", f.Name)
		return
	}
	f.Def = nil
	if f.Body != nil {
		f.Def = f
	}
	for _, g := range c.funcs[f.Name] {
		if !sameSignature(f, g) {
			continue
		}
		if !Identical(f.Ret, g.Ret) && !f.Ret.IsError() && !g.Ret.IsError() {
			c.rep.add(Diagnostic{Severity: Error, Pos: f.NamePos, End: f.NamePos.advance(len(f.Name)),
				Message: "functions that differ only in their return type cannot be overloaded",
				Notes:   []Diagnostic{note(g.NamePos, "previous declaration is here")}})
			return
		}
		if f.Body != nil && g.Def != nil {
			c.rep.add(Diagnostic{Severity: Error, Pos: f.NamePos, End: f.NamePos.advance(len(f.Name)),
				Message: fmt.Sprintf("redefinition of '%s'", f.Name),
				Notes:   []Diagnostic{note(g.Def.NamePos, "previous definition is here")}})
			return
		}
		// A prototype and its definition: g stays in the set, and shares
		// the definition.
		if f.Body != nil {
			g.Def = f
			for _, h := range c.funcs[f.Name] {
				if sameSignature(h, f) {
					h.Def = f
				}
			}
		} else {
			f.Def = g.Def
		}
		c.funcs[f.Name] = append(c.funcs[f.Name], f)
		return
	}
	c.funcs[f.Name] = append(c.funcs[f.Name], f)
}

// sameSignature reports whether two functions have identical parameter
// types (and directions).
func sameSignature(a, b *FuncDecl) bool {
	if len(a.Params) != len(b.Params) {
		return false
	}
	for i := range a.Params {
		if !Identical(a.Params[i].Type, b.Params[i].Type) || a.Params[i].Dir != b.Params[i].Dir {
			return false
		}
	}
	return true
}

// checkBody checks a function body and that every path returns a value.
func (c *checker) checkBody(f *FuncDecl) {
	c.checkBlockNoScope(f.Body)
	if f.Ret.Kind != KindVoid && !f.Ret.IsError() && !stmtsTerminate(f.Body.Stmts) {
		end := f.Body.E
		if end.Col > 1 {
			end.Col--
		}
		c.rep.errorf(end, end.advance(1), "not all control paths of '%s' return a value", f.Name)
	}
}

// checkRecursion rejects recursive calls (direct or mutual), naming the
// cycle; HLSL has no call stack.
func (c *checker) checkRecursion() {
	const (
		white = iota
		grey
		black
	)
	color := map[*FuncDecl]int{}
	var stack []*FuncDecl
	reported := map[*FuncDecl]bool{}
	var visit func(f *FuncDecl)
	visit = func(f *FuncDecl) {
		color[f] = grey
		stack = append(stack, f)
		for _, call := range c.calls[f] {
			g := call.Func.Def
			if g == nil {
				continue
			}
			switch color[g] {
			case white:
				visit(g)
			case grey:
				// Cycle: from g's position in the stack to f, then back to g.
				i := len(stack) - 1
				for i >= 0 && stack[i] != g {
					i--
				}
				cyc := stack[i:]
				if reported[g] {
					continue
				}
				for _, h := range cyc {
					reported[h] = true
				}
				names := make([]string, 0, len(cyc)+1)
				for _, h := range cyc {
					names = append(names, "'"+h.Name+"'")
				}
				names = append(names, "'"+g.Name+"'")
				msg := fmt.Sprintf("recursive call to '%s' is not allowed (call cycle: %s)", g.Name, strings.Join(names, " -> "))
				var notes []Diagnostic
				if len(cyc) > 1 {
					for _, h := range cyc {
						notes = append(notes, note(h.NamePos, "'%s' is defined here", h.Name))
					}
				}
				c.rep.add(Diagnostic{Severity: Error, Pos: call.NamePos, End: call.NamePos.advance(len(call.Name)), Message: msg, Notes: notes})
			}
		}
		stack = stack[:len(stack)-1]
		color[f] = black
	}
	for _, f := range c.prog.Funcs {
		if color[f] == white {
			visit(f)
		}
	}
}

// suggest returns the candidate closest to name by edit distance, or "".
func suggest(name string, candidates []string) string {
	if len(name) < 3 {
		return ""
	}
	best, bestD := "", 1<<30
	limit := (len(name) + 2) / 3
	if limit < 1 {
		limit = 1
	}
	sort.Strings(candidates)
	for _, cand := range candidates {
		if cand == name {
			continue
		}
		d := editDistance(strings.ToLower(name), strings.ToLower(cand))
		if d < bestD && d <= limit {
			best, bestD = cand, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance (bounded inputs only).
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 1 << 20
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// visibleNames lists variable names in scope, for suggestions.
func (c *checker) visibleNames() []string {
	var names []string
	for _, s := range c.scopes {
		for n := range s.vars {
			names = append(names, n)
		}
	}
	return names
}
