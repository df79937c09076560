package llvm

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unsafe"

	"passlens/compiler/ir"
	"passlens/internal/guard"
)

// Import reads textual LLVM IR into a passlens module (docs/llvm-bridge.md).
// What passlens IR cannot represent is imported as opaque operations and
// types (opaque.go) that keep LLVM's CFG and def-use edges. Errors have the
// form "file:line:col: message"; messages about valid LLVM that is still
// refused (funclet exception handling, scalable vectors) start with
// "unsupported".
//
// Names are kept: %x becomes %x, numbered values and blocks (%0, the
// implicit entry block) keep their number as their name. Argument
// uniformity follows AMDGPU (ArgIsUniform) and is stored in
// ir.Param.Uniform; the calling convention itself is not kept, except that
// amdgpu_kernel, spir_kernel and amdgpu_cs definitions become compute entry
// points (numthreads from !reqd_work_group_size, else
// DefaultWorkGroupSize).
//
// The module's names share memory with src (no copy of a large file is
// made): the caller must not modify src while the module is in use.
func Import(filename string, src []byte) (*ir.Module, error) {
	return importModule(filename, src, nil, ImportOptions{})
}

// importModule is Import, filling lst (when not nil) with the listing.
func importModule(filename string, src []byte, lst *Listing, opts ImportOptions) (m *ir.Module, err error) {
	// A bug in the importer must not take the caller down; report it as an
	// error naming the file instead.
	defer guard.Handle("llvm.Import", func(e *guard.Error) {
		e.File = filename
		m, err = nil, e
	})
	if len(src) > math.MaxInt32 {
		return nil, &Error{File: filename, Line: 1, Col: 1, Msg: "file too large for the LLVM IR reader (over 2 GiB)"}
	}
	// The file as a string without a copy: token texts, and the names the
	// module keeps, are substrings of it (so src must not change while the
	// module is in use; see Import).
	s := unsafe.String(unsafe.SliceData(src), len(src))
	ast, err := parseModule(filename, src, s)
	if err != nil {
		return nil, err
	}
	lw := &lowerer{
		file:    filename,
		ast:     ast,
		m:       ir.NewModule(filename),
		named:   map[string]*ir.Type{},
		funcs:   map[string]*ir.Function{},
		decls:   map[string]*funcAST{},
		globals: map[string]*ir.Global{},

		opaqueGlobals: map[string]bool{},
		registered:    map[*ir.Type]bool{},
		listing:       lst,
		rp:            newReparser(filename, src, s),
		cfgOnly:       opts.CFGOnly,
	}
	if lst != nil {
		lst.slots = slotMaps(src, s)
	}
	if err := lw.lower(); err != nil {
		return nil, err
	}
	return lw.m, nil
}

// computeCCs are the calling conventions of compute entry points: their
// functions become ir.StageCompute entry points, so `passlens run` and the
// explorer's lanes pane execute them (docs/run.md, "LLVM kernels").
var computeCCs = map[string]bool{"amdgpu_kernel": true, "spir_kernel": true, "amdgpu_cs": true}

// DefaultWorkGroupSize is the numthreads of an imported kernel without
// !reqd_work_group_size metadata; the run input's workgroup_size overrides
// it.
var DefaultWorkGroupSize = [3]int{64, 1, 1}

// importedDoc starts the Doc of intrinsics the importer registers for LLVM
// functions, so the exporter can tell them from passlens's own.
const importedDoc = "imported LLVM function "

type lowerer struct {
	file    string
	ast     *modAST
	m       *ir.Module
	named   map[string]*ir.Type
	naming  map[string]bool // named structs being resolved (cycle check)
	funcs   map[string]*ir.Function
	decls   map[string]*funcAST
	globals map[string]*ir.Global
	// opaqueGlobals are globals passlens cannot represent (aliases,
	// unknown address spaces): their uses become opaque addresses.
	opaqueGlobals map[string]bool
	registered    map[*ir.Type]bool // types whose structs are in the module
	listing       *Listing          // nil unless ImportListing
	rp            *reparser         // parses body instructions again (stubs.go)
	cfgOnly       bool              // ImportOptions.CFGOnly (cfgonly.go)
}

func (lw *lowerer) errAt(t token, format string, args ...any) error {
	return &Error{File: lw.file, Line: int(t.line), Col: int(t.col), Msg: fmt.Sprintf(format, args...)}
}

// fatalAt reports an error in the input itself (an undefined name, a
// malformed body), which no opaque fallback can absorb.
func (lw *lowerer) fatalAt(t token, format string, args ...any) error {
	return &Error{File: lw.file, Line: int(t.line), Col: int(t.col), Msg: fmt.Sprintf(format, args...), fatal: true}
}

func isFatal(err error) bool {
	e, ok := err.(*Error)
	return !ok || e.fatal
}

// typeAt maps an LLVM type, reporting problems at t. Types passlens lacks
// map to opaque stand-ins (opaque.go), so the only errors are in the input
// (an undefined named type); every struct used is added to the module.
func (lw *lowerer) typeAt(t token, ty *llType, pointee *ir.Type) (*ir.Type, error) {
	it, err := irTypeOf(ty, pointee, lw.namedStruct)
	if err != nil {
		if e, ok := err.(*Error); ok {
			e.fatal = true
			return nil, e
		}
		return nil, lw.fatalAt(t, "%v", err)
	}
	if !lw.registered[it] {
		lw.registered[it] = true
		registerStructs(lw.m, it)
	}
	return it, nil
}

// namedStruct resolves %T to a passlens struct named T.
func (lw *lowerer) namedStruct(name string) (*ir.Type, error) {
	if t, ok := lw.named[name]; ok {
		return t, nil
	}
	def, ok := lw.ast.structs[name]
	if !ok {
		return nil, fmt.Errorf("undefined type %%%s", name)
	}
	if lw.naming == nil {
		lw.naming = map[string]bool{}
	}
	if lw.naming[name] {
		return nil, fmt.Errorf("unsupported recursive type %%%s", name)
	}
	lw.naming[name] = true
	defer delete(lw.naming, name)
	if def.packed {
		t := ir.Struct(opaqueTypePrefix+"%"+name, nil)
		lw.named[name] = t
		return t, nil
	}
	fields := make([]ir.Field, len(def.fields))
	for i, f := range def.fields {
		ft, err := irTypeOf(f, nil, lw.namedStruct)
		if err != nil {
			return nil, err
		}
		fields[i] = ir.Field{Name: "f" + strconv.Itoa(i), Type: ft}
	}
	t := ir.Struct(name, fields)
	lw.named[name] = t
	return t, nil
}

func (lw *lowerer) fnAttrs(f *funcAST) map[string]bool {
	set := map[string]bool{}
	for k := range f.attrs {
		set[k] = true
	}
	for _, r := range f.refs {
		for k := range lw.ast.attrGroups[r.text] {
			set[k] = true
		}
	}
	return set
}

// isIntrinsicCallee reports callees that become ir.OpIntrinsic: LLVM
// intrinsics and functions whose attributes change their divergence.
func (lw *lowerer) isIntrinsicCallee(name string) bool {
	if strings.HasPrefix(name, "llvm.") {
		return true
	}
	if d, ok := lw.decls[name]; ok && d.isDecl {
		a := lw.fnAttrs(d)
		return a["nodivergencesource"] || a["alwaysuniform"]
	}
	return false
}

func (lw *lowerer) lower() error {
	for _, name := range lw.ast.structList {
		t, err := lw.namedStruct(name)
		if err != nil {
			return lw.errAt(lw.ast.structTok[name], "%v", err)
		}
		registerStructs(lw.m, t)
	}
	for _, f := range lw.ast.funcs {
		if prev, dup := lw.decls[f.name]; dup && !(prev.isDecl && f.isDecl) {
			return lw.errAt(f.tok, "redefinition of function @%s", f.name)
		}
		lw.decls[f.name] = f
	}
	for _, g := range lw.ast.globals {
		if err := lw.lowerGlobal(g); err != nil {
			return err
		}
	}
	// Signatures first: bodies may call functions defined later.
	var bodies []*funcAST
	var infos []*funcInfo
	seen := map[string]bool{}
	for _, f := range lw.ast.funcs {
		if seen[f.name] {
			continue
		}
		seen[f.name] = true
		if f.isDecl && lw.isIntrinsicCallee(f.name) {
			continue
		}
		fi, err := lw.declareFunc(f)
		if err != nil {
			return err
		}
		if !f.isDecl {
			bodies = append(bodies, f)
			infos = append(infos, fi)
		}
	}
	for i, f := range bodies {
		if err := lw.lowerBody(f, infos[i]); err != nil {
			return err
		}
	}
	return nil
}

func (lw *lowerer) lowerGlobal(g *globalAST) error {
	if _, dup := lw.globals[g.name]; dup {
		return lw.errAt(g.tok, "redefinition of global @%s", g.name)
	}
	if lw.opaqueGlobals[g.name] {
		return lw.errAt(g.tok, "redefinition of global @%s", g.name)
	}
	sp, ok := SpaceForLLVM(g.as)
	if !ok || g.alias {
		lw.opaqueGlobals[g.name] = true
		return nil
	}
	if sp == ir.SpaceFunction {
		// Globals in scratch memory (addrspace(5)): passlens keeps the
		// function space for allocas; private memory is per lane too, so
		// loads stay divergent.
		sp = ir.SpacePrivate
	}
	vt, err := lw.typeAt(g.tok, g.ty, nil)
	if err != nil {
		return err
	}
	gl := ir.NewGlobal(g.name, sp, vt)
	gl.ReadOnly = g.constant
	gl.Loc = ir.Loc{Line: int32(g.tok.line), Col: int32(g.tok.col)}
	if g.init != nil && g.init.kind != vUndef && g.init.kind != vPoison && !IsOpaqueType(vt) && !needsMaterialize(*g.init, false) {
		// An initializer passlens cannot write (a constant expression,
		// a string) is dropped: analyses do not read it.
		if c, err := lw.constant(*g.init, g.ty, vt); err == nil {
			gl.Init = c
		}
	}
	lw.globals[g.name] = gl
	lw.m.AddGlobal(gl)
	return nil
}

// funcInfo is what lowering a body needs beyond the AST: local names
// (numbered ones assigned) and the inferred pointee of every pointer.
type funcInfo struct {
	f       *ir.Function
	nvals   int // instructions that define a value (their names are in the stubs)
	blocks  []string
	pointee map[string]*ir.Type
}

func (lw *lowerer) declareFunc(fa *funcAST) (*funcInfo, error) {
	// Maps sized up front: a large function would otherwise spend much of
	// its import growing them.
	n := len(fa.params) + len(fa.blocks) + fa.insts.len()
	fi := &funcInfo{pointee: map[string]*ir.Type{}}
	// Number unnamed arguments, blocks and values as LLVM does.
	next := 0
	used := make(map[string]struct{}, n)
	claim := func(t token, name string, numeric bool) (string, error) {
		if numeric || name == "" {
			if name != "" && name != strconv.Itoa(next) {
				return "", lw.errAt(t, "value or block numbered '%s' should be numbered '%d' (LLVM numbers unnamed values in order)", name, next)
			}
			name = strconv.Itoa(next)
			next++
		}
		if _, dup := used[name]; dup {
			return "", lw.errAt(t, "redefinition of '%%%s'", name)
		}
		used[name] = struct{}{}
		return name, nil
	}
	paramNames := make([]string, len(fa.params))
	for i, p := range fa.params {
		n, err := claim(p.tok, p.name, p.numeric)
		if err != nil {
			return nil, err
		}
		paramNames[i] = n
	}
	if !fa.isDecl {
		start := int32(0)
		for _, b := range fa.blocks {
			n, err := claim(b.tok(), b.name, b.numeric)
			if err != nil {
				return nil, err
			}
			fi.blocks = append(fi.blocks, n)
			for i := start; i < b.end; i++ {
				st := fa.insts.at(i)
				named := st.has(sNamed)
				if !st.has(sHasResult) {
					if named {
						return nil, lw.errAt(st.firstTok(), "instruction '%s' does not produce a value and cannot be named", lw.rp.opOf(st))
					}
					continue
				}
				n, err := claim(st.firstTok(), st.name, st.has(sNumeric) || !named)
				if err != nil {
					if !named {
						return nil, lw.errAt(st.opTok(), "%v", err.(*Error).Msg)
					}
					return nil, err
				}
				st.name = n
				fi.nvals++
			}
			start = b.end
		}
		lw.inferPointees(fa, fi)
	}
	ret, err := lw.typeAt(fa.tok, fa.ret, nil)
	if err != nil {
		return nil, err
	}
	types := make([]*ir.Type, len(fa.params))
	for i, p := range fa.params {
		t, err := lw.typeAt(p.typeTok, p.ty, fi.pointee[paramNames[i]])
		if err != nil {
			return nil, err
		}
		if t == ir.Void {
			return nil, lw.errAt(p.tok, "invalid parameter type void")
		}
		types[i] = t
	}
	f := lw.m.NewFunction(fa.name, ret, paramNames, types)
	for i, p := range fa.params {
		f.Params[i].Uniform = ArgIsUniform(fa.cc, p.attrs["inreg"])
	}
	if !fa.isDecl && computeCCs[fa.cc] {
		f.Entry = &ir.EntryPoint{Stage: ir.StageCompute, NumThreads: DefaultWorkGroupSize}
		if fa.workGroupSize != ([3]int{}) {
			f.Entry.NumThreads = fa.workGroupSize
		}
	}
	lw.funcs[fa.name] = f
	fi.f = f
	return fi, nil
}

// instHasResult reports whether an instruction defines a value.
func instHasResult(in *instAST) bool {
	switch in.op {
	case "ret", "br", "switch", "unreachable", "store", "fence", "resume", "indirectbr":
		return false
	case "call", "invoke", "callbr":
		return in.ty.kind != lkVoid
	}
	return true
}

// resultLLType returns the LLVM type of an instruction's result.
func resultLLType(in *instAST) *llType {
	switch in.op {
	case "getelementptr":
		if len(in.args) == 0 {
			return nil
		}
		for _, a := range in.args {
			if a.ty.kind == lkVector {
				return &llType{kind: lkVector, n: a.ty.n, elem: in.args[0].ty.scalar()}
			}
		}
		return in.args[0].ty
	case "icmp", "fcmp":
		if t := in.args[0].ty; t.kind == lkVector {
			return &llType{kind: lkVector, n: t.n, elem: &llType{kind: lkInt, bits: 1}}
		}
		return &llType{kind: lkInt, bits: 1}
	case "select":
		return in.args[1].ty
	case "fneg", "freeze":
		return in.args[0].ty
	case "alloca":
		as, _ := strconv.Atoi(in.args[0].v.text)
		return &llType{kind: lkPtr, as: as}
	case "extractelement":
		if in.args[0].ty.elem == nil {
			return nil
		}
		return in.args[0].ty.elem
	case "insertelement":
		return in.args[0].ty
	case "shufflevector":
		return &llType{kind: lkVector, n: in.args[2].ty.n, elem: in.args[0].ty.elem}
	case "extractvalue":
		t := in.args[0].ty
		for _, i := range in.idx {
			switch {
			case t == nil:
				return nil
			case t.kind == lkStruct && t.name == "" && i < len(t.fields):
				t = t.fields[i]
			case t.kind == lkArray || t.kind == lkVector:
				t = t.elem
			default:
				return nil
			}
		}
		return t
	case "insertvalue":
		return in.args[0].ty
	case "cmpxchg":
		return &llType{kind: lkStruct, fields: []*llType{in.args[1].ty, {kind: lkInt, bits: 1}}}
	}
	return in.ty
}

// inferPointees picks a passlens pointee type for every pointer value of a
// function: opaque LLVM pointers carry none. Definitions decide first
// (alloca, getelementptr), then the first use in layout order (load, store,
// getelementptr base, atomics), then phi/select/cast operands; anything
// left points to i8. Uses that need another pointee get a pointer bitcast.
func (lw *lowerer) inferPointees(fa *funcAST, fi *funcInfo) {
	pt := fi.pointee
	mapT := func(t *llType) *ir.Type {
		it, err := irTypeOf(t, nil, lw.namedStruct)
		if err != nil {
			return nil
		}
		return it
	}
	setUse := func(name string, t *ir.Type) {
		if t != nil {
			if _, ok := pt[name]; !ok {
				pt[name] = t
			}
		}
	}
	nameOf := func(x ptrFact) string { return fa.insts.at(x.inst).name }
	for _, d := range fa.ptrDefs {
		if d.gep == nil {
			if t := mapT(d.ty); t != nil {
				pt[nameOf(d)] = t
			}
		} else if t := gepPointee(d.gep, mapT); t != nil {
			pt[nameOf(d)] = t
		}
	}
	for _, u := range fa.ptrUses {
		t := mapT(u.ty)
		if u.gep != nil && t != nil && !(t.Kind == ir.KArray && t.Len < 0) {
			t = ir.Array(t, -1) // [0 x T] stays: see bodyLowerer.gep
		}
		setUse(u.name, t)
	}
	// Values flowing through phis, selects and address-space casts (up to
	// four rounds; a round that changes nothing ends the search).
	changed := true
	flow := func(name string, s string) {
		if _, ok := pt[name]; !ok {
			if t, ok := pt[s]; ok {
				pt[name] = t
				changed = true
			}
		} else if _, ok := pt[s]; !ok {
			pt[s] = pt[name]
			changed = true
		}
	}
	for round := 0; round < 4 && changed; round++ {
		changed = false
		for _, x := range fa.ptrFlows {
			name := nameOf(x)
			for _, s := range x.srcs {
				flow(name, s)
			}
		}
	}
	fa.ptrDefs, fa.ptrUses, fa.ptrFlows = nil, nil, nil
}

// gepPointee computes the pointee of a getelementptr result: the source
// element type indexed by every index after the first.
func gepPointee(in *instAST, mapT func(*llType) *ir.Type) *ir.Type {
	t := mapT(in.ty)
	if t == nil {
		return nil
	}
	if len(in.args) == 1 {
		return ir.Array(t, -1)
	}
	for _, ix := range in.args[2:] {
		switch t.Kind {
		case ir.KStruct:
			if ix.v.kind != vInt {
				return nil
			}
			i, err := strconv.Atoi(ix.v.text)
			if err != nil {
				return nil
			}
			t = t.ElemType(i)
		case ir.KArray, ir.KVector:
			t = t.Elem
		case ir.KMatrix:
			t = ir.Vec(t.Elem, t.Cols)
		default:
			return nil
		}
		if t == nil {
			return nil
		}
	}
	return t
}

// parseIntLiteral reads an LLVM integer literal (which may exceed int64 for
// unsigned 64-bit values).
func parseIntLiteral(s string) (int64, bool) {
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return v, true
	}
	if v, err := strconv.ParseUint(s, 10, 64); err == nil {
		return int64(v), true
	}
	return 0, false
}

// constant lowers a constant of LLVM type lt to passlens type t.
func (lw *lowerer) constant(v valRef, lt *llType, t *ir.Type) (*ir.Const, error) {
	switch v.kind {
	case vUndef, vPoison:
		return ir.ConstUndef(t), nil
	case vZero:
		return ir.ConstZero(t), nil
	case vNull:
		if t.Kind != ir.KPointer {
			return nil, lw.errAt(v.tok, "null is only a pointer constant, not %s", lt)
		}
		return ir.ConstZero(t), nil
	case vTrue, vFalse:
		if t != ir.Bool {
			return nil, lw.errAt(v.tok, "%s is only an i1 constant, not %s", v.text, lt)
		}
		return ir.ConstBool(t, v.kind == vTrue), nil
	case vInt:
		n, ok := parseIntLiteral(v.text)
		if !ok {
			return nil, lw.errAt(v.tok, "integer constant %s is out of range", v.text)
		}
		switch {
		case t == ir.Bool:
			if n != 0 && n != 1 && n != -1 {
				return nil, lw.errAt(v.tok, "integer constant %s does not fit i1", v.text)
			}
			return ir.ConstBool(t, n != 0), nil
		case t.IsIntegral():
			return ir.ConstInt(t, n), nil
		}
		return nil, lw.errAt(v.tok, "integer constant %s used as %s", v.text, lt)
	case vFloat:
		if t.Kind != ir.KFloat {
			return nil, lw.errAt(v.tok, "floating-point constant %s used as %s", v.text, lt)
		}
		return lw.floatConst(v, t)
	case vAgg:
		if !t.IsAggregate() {
			return nil, lw.errAt(v.tok, "aggregate constant used as %s", lt)
		}
		n := t.NumElems()
		if t.Kind == ir.KArray && t.Len < 0 || len(v.elems) != n {
			return nil, lw.errAt(v.tok, "constant has %d elements, type %s has %d", len(v.elems), lt, n)
		}
		elems := make([]*ir.Const, n)
		for i, e := range v.elems {
			et, err := lw.typeAt(e.v.tok, e.ty, nil)
			if err != nil {
				return nil, err
			}
			if want := t.ElemType(i); want.Kind == ir.KPointer && et.Kind == ir.KPointer {
				et = want
			}
			if et != t.ElemType(i) {
				return nil, lw.errAt(e.v.tok, "element %d has type %s, want %s", i, e.ty, t.ElemType(i))
			}
			c, err := lw.constant(e.v, e.ty, et)
			if err != nil {
				return nil, err
			}
			elems[i] = c
		}
		return ir.ConstAggregate(t, elems), nil
	case vSplat:
		if t.Kind != ir.KVector {
			return nil, lw.errAt(v.tok, "splat used as %s", lt)
		}
		c, err := lw.constant(v.elems[0].v, v.elems[0].ty, t.Elem)
		if err != nil {
			return nil, err
		}
		elems := make([]*ir.Const, t.Len)
		for i := range elems {
			elems[i] = c
		}
		return ir.ConstAggregate(t, elems), nil
	}
	return nil, lw.errAt(v.tok, "expected a constant, found %s", v.tok)
}

func (lw *lowerer) floatConst(v valRef, t *ir.Type) (*ir.Const, error) {
	s := v.text
	neg := false
	if strings.HasPrefix(s, "-") {
		neg, s = true, s[1:]
	} else if strings.HasPrefix(s, "+") {
		s = s[1:]
	}
	if hex, ok := strings.CutPrefix(s, "0x"); ok {
		kind := byte(0)
		if hex != "" && (hex[0] == 'H' || hex[0] == 'R' || hex[0] == 'K' || hex[0] == 'L' || hex[0] == 'M') {
			kind, hex = hex[0], hex[1:]
		}
		bits, err := strconv.ParseUint(hex, 16, 64)
		if err != nil || neg {
			return nil, lw.errAt(v.tok, "invalid hexadecimal constant %s", v.text)
		}
		switch {
		case kind == 'H' && t == ir.F16, kind == 'R' && t == ir.BF16:
			if bits > 0xFFFF {
				return nil, lw.errAt(v.tok, "invalid 16-bit constant %s", v.text)
			}
			return ir.ConstFloatBits(t, bits), nil
		case kind == 0 && t == ir.F64:
			return ir.ConstFloatBits(t, bits), nil
		case kind == 0 && t == ir.F32:
			f := math.Float64frombits(bits)
			f32 := float32(f)
			if float64(f32) != f && !math.IsNaN(f) {
				return nil, lw.errAt(v.tok, "floating point constant %s is invalid for type float", v.text)
			}
			if math.IsNaN(f) {
				// Keep the payload: LLVM writes float NaNs as doubles with
				// the float's mantissa in the top bits.
				sign := uint32(bits>>63) << 31
				mant := uint32(bits>>29) & 0x7FFFFF
				return ir.ConstF32Bits(sign | 0x7F800000 | mant), nil
			}
			return ir.ConstF32Bits(math.Float32bits(f32)), nil
		case kind == 'K' || kind == 'L' || kind == 'M':
			return nil, lw.errAt(v.tok, "unsupported extended-precision constant %s", v.text)
		}
		return nil, lw.errAt(v.tok, "hexadecimal constant %s does not match type %s", v.text, t)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, lw.errAt(v.tok, "invalid floating-point constant %s", v.text)
	}
	if neg {
		f = -f
	}
	switch t {
	case ir.F32:
		if float64(float32(f)) != f {
			return nil, lw.errAt(v.tok, "floating point constant %s is invalid for type float", v.text)
		}
		return ir.ConstF32Bits(math.Float32bits(float32(f))), nil
	case ir.F64:
		return ir.ConstFloatBits(t, math.Float64bits(f)), nil
	}
	return nil, lw.errAt(v.tok, "unsupported decimal %s constant %s (write it as 0xH/0xR hex)", t, v.text)
}
