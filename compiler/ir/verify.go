package ir

// This file checks that a module is well formed (docs/ir.md, "Verifier
// rules"). The pipeline runs it after every pass, so it must be fast on
// 100k-instruction modules and must never panic, whatever a buggy pass
// left behind: every field is checked for nil before it is followed.
//
// It reports every problem it finds, not just the first; each message
// names the function, the block and the instruction concerned.

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"passlens/compiler/graph"
)

// Problem is one verifier finding.
type Problem struct {
	Func  string // function name without '@' ("" for module-level problems)
	Block string // block name without '%' ("" if none)
	Where string // the instruction or global concerned, e.g. "%x = add" or "store (instruction 3)"
	Msg   string

	// Instr and Global point at the entity concerned when there is one, so
	// a caller holding the text's Positions can say where it is.
	Instr  *Instr
	Global *Global
}

func (p Problem) String() string {
	var parts []string
	if p.Func != "" {
		parts = append(parts, "function @"+quoteName(p.Func))
	}
	if p.Block != "" {
		parts = append(parts, "block %"+quoteName(p.Block))
	}
	if p.Where != "" {
		parts = append(parts, p.Where)
	}
	if len(parts) == 0 {
		return p.Msg
	}
	return strings.Join(parts, ", ") + ": " + p.Msg
}

// VerifyError lists every problem the verifier found.
type VerifyError struct {
	Problems []Problem
}

// maxListed bounds how many problems Error() spells out.
const maxListed = 100

func (e *VerifyError) Error() string {
	if len(e.Problems) == 1 {
		return "verify: " + e.Problems[0].String()
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "verify: %d problems:", len(e.Problems))
	for i, p := range e.Problems {
		if i == maxListed {
			fmt.Fprintf(&sb, "\n  ... and %d more", len(e.Problems)-maxListed)
			break
		}
		sb.WriteString("\n  ")
		sb.WriteString(p.String())
	}
	return sb.String()
}

// verifyGen numbers the verifier's function checks: a check marks each
// instruction of the function's layout with its own number (Instr.vmark),
// so a mark left by an earlier check never counts. Verify therefore writes
// those two fields of the instructions it checks: two verifiers must not
// check one module at the same time (readers of the IR are unaffected).
var verifyGen atomic.Uint64

// Verify checks m and returns nil or a *VerifyError.
func Verify(m *Module) error {
	v := newVerifier(m)
	if m == nil {
		v.report(Problem{Msg: "nil module"})
	} else {
		v.module()
	}
	return v.result()
}

// VerifyFunction checks one function. Its globals and callees are checked
// against f.Module when that is set.
func VerifyFunction(f *Function) error {
	var m *Module
	if f != nil {
		m = f.Module
	}
	v := newVerifier(m)
	if f == nil {
		v.report(Problem{Msg: "nil function"})
	} else {
		v.function(f)
	}
	return v.result()
}

type verifier struct {
	m         *Module
	probs     []Problem
	globalSet map[*Global]bool   // nil: do not check membership
	funcSet   map[*Function]bool // nil: do not check membership
	typeOK    map[*Type]string   // memo of typeProblem

	// The instruction being type-checked and the report function for it
	// (made once: the per-op checks are called through a table, so a
	// closure made per instruction would escape to the heap).
	cur struct {
		b  *Block
		j  int
		in *Instr
	}
	curBad badFunc

	// Per-function state.
	f        *Function
	blockIdx map[*Block]int32
	gen      uint64         // this function check's mark in Instr.vmark (see verifyGen)
	preds    graph.CSR      // per block index: predecessor indices, one per edge
	dom      *graph.DomTree // the function's dominator tree (CFG.Dom)
}

type ipos struct{ block, idx int32 }

func newVerifier(m *Module) *verifier {
	v := &verifier{m: m, typeOK: map[*Type]string{}}
	v.curBad = func(format string, args ...any) { v.instrErr(v.cur.b, v.cur.j, v.cur.in, format, args...) }
	if m != nil {
		v.globalSet = make(map[*Global]bool, len(m.Globals))
		for _, g := range m.Globals {
			v.globalSet[g] = true
		}
		v.funcSet = make(map[*Function]bool, len(m.Funcs))
		for _, f := range m.Funcs {
			v.funcSet[f] = true
		}
	}
	return v
}

func (v *verifier) result() error {
	if len(v.probs) == 0 {
		return nil
	}
	return &VerifyError{Problems: v.probs}
}

func (v *verifier) report(p Problem) { v.probs = append(v.probs, p) }

func (v *verifier) funcErr(format string, args ...any) {
	v.report(Problem{Func: v.f.name, Msg: fmt.Sprintf(format, args...)})
}

func (v *verifier) blockErr(b *Block, format string, args ...any) {
	v.report(Problem{Func: v.f.name, Block: b.name, Msg: fmt.Sprintf(format, args...)})
}

func (v *verifier) instrErr(b *Block, idx int, in *Instr, format string, args ...any) {
	v.report(Problem{Func: v.f.name, Block: b.name, Where: describeInstr(in, idx), Msg: fmt.Sprintf(format, args...), Instr: in})
}

// describeInstr names an instruction without printing its operands (which
// may be malformed): "%x = add" or "store (instruction 3)".
func describeInstr(in *Instr, idx int) string {
	if in.HasResult() {
		return "%" + quoteName(in.name) + " = " + in.Op.String()
	}
	return in.Op.String() + " (instruction " + strconv.Itoa(idx) + ")"
}

// tstr spells a possibly nil type.
func tstr(t *Type) string {
	if t == nil {
		return "<nil type>"
	}
	return t.String()
}

// vstr spells a value reference for messages.
func vstr(x Value) string {
	if x == nil {
		return "<nil>"
	}
	switch c := x.(type) {
	case *Const:
		if c.typ == nil {
			return "<constant of nil type>"
		}
		s := c.Literal()
		if len(s) > 40 {
			s = s[:40] + "…"
		}
		return tstr(c.typ) + " " + s
	case *Instr, *Param, *Global:
		return x.Ref()
	}
	return fmt.Sprintf("<%T>", x)
}

// ---- types and constants ----

// typeProblem returns "" if t is well formed, else what is wrong. Vectors
// have 2 to 4 scalar components; matrices 1 to 4 rows and columns of a
// scalar; void appears only as a function result; a runtime-sized array
// may only be the last field of a struct or stand alone (as a global's
// value or a pointee), never an array element.
func (v *verifier) typeProblem(t *Type) string {
	if t == nil {
		return "nil type"
	}
	if s, ok := v.typeOK[t]; ok {
		return s
	}
	v.typeOK[t] = "" // breaks cycles through malformed structs
	s := v.computeTypeProblem(t)
	v.typeOK[t] = s
	return s
}

func (v *verifier) computeTypeProblem(t *Type) string {
	switch t.Kind {
	case KVoid, KBool:
		return ""
	case KInt, KUint:
		if t.Bits != 8 && t.Bits != 16 && t.Bits != 32 && t.Bits != 64 {
			return fmt.Sprintf("unsupported integer width %d", t.Bits)
		}
	case KFloat:
		if t.Bits != 16 && t.Bits != 32 && t.Bits != 64 {
			return fmt.Sprintf("unsupported float width %d", t.Bits)
		}
	case KVector:
		if t.Elem == nil || !t.Elem.IsScalar() {
			return "vector element must be a scalar, not " + tstr(t.Elem)
		}
		if t.Len < 2 || t.Len > 4 {
			return fmt.Sprintf("vector length %d is not 2, 3 or 4", t.Len)
		}
	case KMatrix:
		if t.Elem == nil || !t.Elem.IsScalar() {
			return "matrix element must be a scalar, not " + tstr(t.Elem)
		}
		if t.Len < 1 || t.Len > 4 || t.Cols < 1 || t.Cols > 4 {
			return fmt.Sprintf("matrix shape %dx%d is outside 1..4 x 1..4", t.Len, t.Cols)
		}
	case KArray:
		if t.Elem == nil || t.Elem.Kind == KVoid {
			return "array element type must not be void"
		}
		if t.Len == 0 || t.Len < -1 {
			return fmt.Sprintf("array length %d (want at least 1, or ? for runtime-sized)", t.Len)
		}
		if t.Elem.Kind == KArray && t.Elem.Len < 0 {
			return "a runtime-sized array cannot be an array element"
		}
		if s := v.typeProblem(t.Elem); s != "" {
			return s
		}
	case KStruct:
		for i, f := range t.Fields {
			if f.Type == nil || f.Type.Kind == KVoid {
				return fmt.Sprintf("field %s of %s has no type or void type", f.Name, t)
			}
			if f.Type.Kind == KArray && f.Type.Len < 0 && i != len(t.Fields)-1 {
				return fmt.Sprintf("runtime-sized array field %s of %s is not the last field", f.Name, t)
			}
			if f.Placed && f.Offset < 0 {
				return fmt.Sprintf("field %s of %s has negative offset %d", f.Name, t, f.Offset)
			}
			if s := v.typeProblem(f.Type); s != "" {
				return s
			}
		}
	case KPointer:
		if t.Elem == nil || t.Elem.Kind == KVoid {
			return "pointer to void"
		}
		if int(t.Space) >= len(spaceNames) {
			return "unknown address space " + t.Space.String()
		}
		return v.typeProblem(t.Elem)
	default:
		return fmt.Sprintf("unknown type kind %d", t.Kind)
	}
	return ""
}

// holdsRuntimeArray reports whether a value of type t would contain a
// runtime-sized array (not looking through pointers): such types are only
// ever pointees, never SSA values.
func holdsRuntimeArray(t *Type) bool {
	for depth := 0; t != nil && depth < 64; depth++ {
		switch t.Kind {
		case KArray:
			if t.Len < 0 {
				return true
			}
			t = t.Elem
			continue
		case KStruct:
			if n := len(t.Fields); n > 0 {
				t = t.Fields[n-1].Type
				continue
			}
		}
		return false
	}
	return false
}

// constProblem returns "" if c is a well-formed constant of its type.
func (v *verifier) constProblem(c *Const, depth int) string {
	if c.typ == nil {
		return "constant has no type"
	}
	if depth > 64 {
		return "constant nested too deeply"
	}
	if s := v.typeProblem(c.typ); s != "" {
		return s
	}
	if c.typ.Kind == KVoid {
		return "constant of type void"
	}
	if c.Zero || c.Undef {
		if c.Zero && c.Undef {
			return "constant is both zero and undef"
		}
		return ""
	}
	t := c.typ
	switch t.Kind {
	case KBool:
		if c.Bits > 1 {
			return fmt.Sprintf("bool constant with bits %d", c.Bits)
		}
	case KInt, KUint, KFloat:
		if len(c.Elems) > 0 {
			return "scalar constant with elements"
		}
	case KPointer:
		return "pointer constants must be zero or undef"
	default:
		if t.Kind == KArray && t.Len < 0 {
			return "runtime-sized array constants must be zero or undef"
		}
		if len(c.Elems) != t.NumElems() {
			return fmt.Sprintf("%s constant has %d elements, want %d", t, len(c.Elems), t.NumElems())
		}
		for i, e := range c.Elems {
			if e == nil {
				return fmt.Sprintf("element %d is nil", i)
			}
			if want := t.ElemType(i); e.typ != want {
				return fmt.Sprintf("element %d has type %s, want %s", i, tstr(e.typ), tstr(want))
			}
			if s := v.constProblem(e, depth+1); s != "" {
				return s
			}
		}
	}
	return ""
}

// ---- module ----

func (v *verifier) module() {
	m := v.m
	structNames := map[string]bool{}
	for _, t := range m.Structs {
		if t == nil || t.Kind != KStruct {
			v.report(Problem{Msg: "module struct list holds a non-struct type " + tstr(t)})
			continue
		}
		if structNames[t.Name] {
			v.report(Problem{Where: "type %" + quoteName(t.Name), Msg: "more than one struct type has this name"})
		}
		structNames[t.Name] = true
		if s := v.typeProblem(t); s != "" {
			v.report(Problem{Where: "type %" + quoteName(t.Name), Msg: s})
		}
	}
	globalNames := map[string]bool{}
	for i, g := range m.Globals {
		if g == nil {
			v.report(Problem{Msg: fmt.Sprintf("global %d is nil", i)})
			continue
		}
		where := "global @" + quoteName(g.name)
		bad := func(format string, args ...any) {
			v.report(Problem{Where: where, Msg: fmt.Sprintf(format, args...), Global: g})
		}
		if globalNames[g.name] {
			bad("more than one global has this name")
		}
		globalNames[g.name] = true
		if s := v.typeProblem(g.ValType); s != "" {
			bad("value type: %s", s)
			continue
		}
		if g.ValType.Kind == KVoid {
			bad("value type is void")
			continue
		}
		if g.typ == nil || g.typ.Kind != KPointer || g.typ.Elem != g.ValType || g.typ.Space != g.Space {
			bad("type %s is not ptr<%s, %s>", tstr(g.typ), g.Space, g.ValType)
		}
		if int(g.Space) >= len(spaceNames) {
			bad("unknown address space %s", g.Space)
		} else if g.Space == SpaceFunction {
			bad("globals cannot be in the function address space")
		}
		if holdsRuntimeArray(g.ValType) && g.Space != SpaceStorage {
			bad("a runtime-sized array must be in the storage address space, not %s", g.Space)
		}
		if g.SpecID >= 0 && (g.Space != SpacePrivate || !g.ValType.IsScalar() || g.Init == nil) {
			bad("a specialization constant (spec_id) must be a private scalar with an initializer")
		}
		if g.Location >= 0 && g.Space != SpaceInput && g.Space != SpaceOutput {
			bad("a location needs the input or output address space, not %s", g.Space)
		}
		if g.ArrayLen > 0 && (g.ArrayIndex >= g.ArrayLen || (g.Space != SpaceStorage && g.Space != SpaceUniform)) {
			bad("a resource array element needs an index below its array's length (%d of %d) and the storage or uniform address space", g.ArrayIndex, g.ArrayLen)
		}
		if g.ArrayLen == UnboundedArray && (g.ArrayIndex != 0 || g.Space != SpaceStorage || IsImageGlobal(g)) {
			bad("an unbounded resource array (of ?) must be element 0 and a storage buffer")
		}
		if g.ArrayLen < 0 && g.ArrayLen != UnboundedArray {
			bad("negative resource array length %d", g.ArrayLen)
		}
		if g.PushConstant && g.Space != SpaceUniform {
			bad("push_constant needs the uniform address space, not %s", g.Space)
		}
		if g.Init != nil {
			if g.Space == SpaceInput {
				bad("an input global cannot have an initializer")
			}
			if g.Init.typ != g.ValType {
				bad("initializer has type %s, want %s", tstr(g.Init.typ), g.ValType)
			} else if s := v.constProblem(g.Init, 0); s != "" {
				bad("initializer: %s", s)
			}
		}
	}
	funcNames := map[string]bool{}
	for i, f := range m.Funcs {
		if f == nil {
			v.report(Problem{Msg: fmt.Sprintf("function %d is nil", i)})
			continue
		}
		if funcNames[f.name] {
			v.report(Problem{Func: f.name, Msg: "more than one function has this name"})
		}
		funcNames[f.name] = true
		if f.Module != m {
			v.report(Problem{Func: f.name, Msg: "function's Module field does not point at the module that lists it"})
		}
		v.function(f)
	}
}

// ---- functions ----

func (v *verifier) function(f *Function) {
	v.f = f
	defer func() { v.f = nil }()
	if s := v.typeProblem(f.Ret); s != "" {
		v.funcErr("return type: %s", s)
	} else if f.Ret.Kind != KVoid && holdsRuntimeArray(f.Ret) {
		v.funcErr("return type %s holds a runtime-sized array", f.Ret)
	}
	// Sized for every name up front: a function of 10^5-10^6 instructions
	// (a 4 MiB module of statements) otherwise rehashes the map ~20 times.
	size := len(f.Params)
	for _, b := range f.Blocks {
		if b != nil {
			size += 1 + len(b.Instrs)
		}
	}
	names := make(map[string]bool, size)
	for i, p := range f.Params {
		if p == nil {
			v.funcErr("parameter %d is nil", i)
			continue
		}
		if s := v.typeProblem(p.typ); s != "" {
			v.funcErr("parameter %%%s: %s", quoteName(p.name), s)
		} else if p.typ.Kind == KVoid || holdsRuntimeArray(p.typ) {
			v.funcErr("parameter %%%s has type %s", quoteName(p.name), p.typ)
		}
		if p.Func != f || p.Index != i {
			v.funcErr("parameter %%%s has Func/Index fields that do not match its position %d", quoteName(p.name), i)
		}
		if names[p.name] {
			v.funcErr("name %%%s is used more than once", quoteName(p.name))
		}
		names[p.name] = true
	}
	if e := f.Entry; e != nil {
		switch e.Stage {
		case StageCompute:
			for _, n := range e.NumThreads {
				if n < 1 {
					v.funcErr("compute entry point needs numthreads of at least 1 in each dimension, got %v", e.NumThreads)
					break
				}
			}
		case StagePixel, StageVertex:
			if e.NumThreads != ([3]int{}) {
				v.funcErr("numthreads is only for compute entry points")
			}
		default:
			v.funcErr("entry point has no valid stage")
		}
	}
	if f.IsDeclaration() {
		return
	}

	// Layout: block and instruction positions.
	nb := len(f.Blocks)
	v.blockIdx = make(map[*Block]int32, nb)
	total := 0
	for i, b := range f.Blocks {
		if b == nil {
			v.funcErr("block %d is nil", i)
			continue
		}
		if _, dup := v.blockIdx[b]; dup {
			v.blockErr(b, "block appears more than once in the function's layout")
			continue
		}
		v.blockIdx[b] = int32(i)
		total += len(b.Instrs)
		if b.Func != f {
			v.blockErr(b, "block's Func field does not point at this function")
		}
		if names[b.name] {
			v.blockErr(b, "name %%%s is used more than once", quoteName(b.name))
		}
		names[b.name] = true
	}
	// Positions live in the instructions (vmark/vpos), not in a map keyed
	// by pointer: with 10^6 instructions the map's cache misses were most
	// of the verifier's time, and it runs after every pass.
	v.gen = verifyGen.Add(1)
	for i, b := range f.Blocks {
		if b == nil || v.blockIdx[b] != int32(i) {
			continue
		}
		for j, in := range b.Instrs {
			if in == nil {
				v.blockErr(b, "instruction %d is nil", j)
				continue
			}
			if in.vmark == v.gen {
				v.instrErr(b, j, in, "instruction appears more than once")
				continue
			}
			in.vmark, in.vpos = v.gen, ipos{int32(i), int32(j)}
			if in.Block != b {
				v.instrErr(b, j, in, "instruction's Block field does not point at its block")
			}
			if in.HasResult() {
				if names[in.name] {
					v.instrErr(b, j, in, "name %%%s is used more than once", quoteName(in.name))
				}
				names[in.name] = true
			}
		}
	}

	v.cfg()
	for i, b := range f.Blocks {
		if b == nil || v.blockIdx[b] != int32(i) {
			continue
		}
		v.block(i, b)
	}
	v.structured()
	v.blockIdx, v.gen, v.preds, v.dom = nil, 0, graph.CSR{}, nil
}

// inFunc reports whether b is one of the function's blocks.
func (v *verifier) inFunc(b *Block) bool {
	if b == nil {
		return false
	}
	_, ok := v.blockIdx[b]
	return ok
}

// cfg takes the function's control-flow graph and dominator tree from the
// shared CFG layer (Function.CFG, compiler/graph), so the tree the verifier
// builds after a pass is the one the next pass and the analyses reuse.
func (v *verifier) cfg() {
	c := v.f.CFG()
	v.preds = c.predIdx
	v.dom = c.Dom()
}

// reachable reports whether block b is reachable from the entry.
func (v *verifier) reachable(b int32) bool { return v.dom != nil && v.dom.Contains(int(b)) }

// dominates reports whether block a dominates block b (both reachable).
func (v *verifier) dominates(a, b int32) bool { return v.dom.Dominates(int(a), int(b)) }

// ---- blocks and instructions ----

func (v *verifier) block(bi int, b *Block) {
	if len(b.Instrs) == 0 {
		v.blockErr(b, "block is empty (it needs a terminator)")
		return
	}
	if bi == 0 {
		if len(v.preds.Of(0)) > 0 {
			v.blockErr(b, "the entry block must not be a branch target")
		}
	}
	phisDone := false
	for j, in := range b.Instrs {
		if in == nil {
			continue
		}
		if in.Op == OpPhi {
			if phisDone {
				v.instrErr(b, j, in, "phi must be at the start of its block, before other instructions")
			}
			if bi == 0 {
				v.instrErr(b, j, in, "the entry block cannot have phis")
			}
		} else {
			phisDone = true
		}
		last := j == len(b.Instrs)-1
		if in.IsTerminator() && !last {
			v.instrErr(b, j, in, "terminator is not the last instruction of its block")
		}
		if last && !in.IsTerminator() {
			v.instrErr(b, j, in, "block does not end with a terminator")
		}
		v.instr(bi, b, j, in)
	}
}

// instr checks operands (definition, function, dominance) and types.
func (v *verifier) instr(bi int, b *Block, j int, in *Instr) {
	v.cur.b, v.cur.j, v.cur.in = b, j, in
	bad := v.curBad
	if in.Op == OpInvalid || in.Op >= numOps {
		bad("invalid opcode %d", in.Op)
		return
	}
	// The block-valued fields must be empty where the op does not use them.
	aux := opTable[in.Op].Aux
	if aux != AuxPhiBlocks && len(in.PhiBlocks) > 0 {
		bad("only phis have incoming blocks")
	}
	if aux != AuxSuccs && len(in.Succs) > 0 {
		bad("only br and condbr have Succs")
	}
	if aux != AuxCases && len(in.Cases) > 0 {
		bad("only switch has cases")
	}
	if in.MergeKind != MergeNone && !in.IsTerminator() {
		bad("only terminators carry merge annotations")
	}

	argsOK := true
	for i, a := range in.Args {
		if !v.operand(bi, b, j, in, i, a) {
			argsOK = false
		}
	}
	if in.typ == nil {
		bad("instruction has no type (use Void)")
		return
	}
	if s := v.typeProblem(in.typ); s != "" {
		bad("result type: %s", s)
		return
	}
	if in.HasResult() && holdsRuntimeArray(in.typ) {
		bad("result type %s holds a runtime-sized array", in.typ)
	}
	if !argsOK {
		return
	}
	v.types(bi, b, j, in, bad)
}

// operand checks argument i of in. It returns false if the operand is
// unusable for type checks (nil, or nil type).
func (v *verifier) operand(bi int, b *Block, j int, in *Instr, i int, a Value) bool {
	bad := func(format string, args ...any) { v.instrErr(b, j, in, format, args...) }
	if a == nil {
		bad("operand %d is nil", i)
		return false
	}
	switch x := a.(type) {
	case *Instr:
		if x == nil {
			bad("operand %d is nil", i)
			return false
		}
		if !x.HasResult() {
			bad("operand %d uses %s, which produces no value", i, x.Op)
			return false
		}
		dp, ok := x.vpos, x.vmark == v.gen
		if !ok {
			if x.Block != nil && x.Block.Func != nil && x.Block.Func != v.f {
				bad("operand %d uses %s from another function (@%s)", i, x.Ref(), quoteName(x.Block.Func.name))
			} else {
				bad("operand %d uses %s, which is not in this function (removed?)", i, x.Ref())
			}
			return x.typ != nil
		}
		v.dominance(bi, b, j, in, i, x, dp)
	case *Param:
		if x == nil {
			bad("operand %d is nil", i)
			return false
		}
		if x.Func != v.f || x.Index < 0 || x.Index >= len(v.f.Params) || v.f.Params[x.Index] != x {
			bad("operand %d uses parameter %s of another function", i, x.Ref())
		}
	case *Global:
		if x == nil {
			bad("operand %d is nil", i)
			return false
		}
		if v.globalSet != nil && !v.globalSet[x] {
			bad("operand %d uses global %s, which is not in the module", i, x.Ref())
		}
	case *Const:
		if x == nil {
			bad("operand %d is nil", i)
			return false
		}
		if s := v.constProblem(x, 0); s != "" {
			bad("operand %d: %s", i, s)
			return false
		}
		return true
	default:
		bad("operand %d is a %T, not an instruction, parameter, global or constant", i, a)
		return false
	}
	// Definitions' types are checked where they are defined; this catches
	// values from elsewhere (removed instructions, hand-made types).
	if s := v.typeProblem(a.Type()); s != "" {
		bad("operand %d: %s", i, s)
		return false
	}
	return true
}

// dominance checks that the definition d (at dp) of operand i dominates
// its use. Uses in unreachable blocks are not checked (as LLVM does); a
// phi's use is at the end of the corresponding incoming block.
func (v *verifier) dominance(bi int, b *Block, j int, in *Instr, i int, d *Instr, dp ipos) {
	useBlock := int32(bi)
	if in.Op == OpPhi {
		if i >= len(in.PhiBlocks) {
			return // reported by the phi checks
		}
		pb, ok := v.blockIdx[in.PhiBlocks[i]]
		if !ok || in.PhiBlocks[i] == nil {
			return
		}
		if !v.reachable(pb) {
			return
		}
		if !v.reachable(dp.block) || !v.dominates(dp.block, pb) {
			v.instrErr(b, j, in, "incoming value %s from %s is not dominated by its definition (in block %s)",
				d.Ref(), in.PhiBlocks[i].Ref(), v.f.Blocks[dp.block].Ref())
		}
		return
	}
	if !v.reachable(useBlock) {
		return
	}
	switch {
	case !v.reachable(dp.block):
		v.instrErr(b, j, in, "operand %s is defined in unreachable block %s and does not dominate this use", d.Ref(), v.f.Blocks[dp.block].Ref())
	case dp.block == useBlock:
		if int(dp.idx) >= j {
			v.instrErr(b, j, in, "operand %s is used before its definition in the same block", d.Ref())
		}
	case !v.dominates(dp.block, useBlock):
		v.instrErr(b, j, in, "operand %s (defined in block %s) does not dominate this use", d.Ref(), v.f.Blocks[dp.block].Ref())
	}
}

// ---- per-op type rules ----

func isClass(t *Type, kinds ...Kind) bool {
	if t == nil {
		return false
	}
	s := t
	if t.Kind == KVector {
		s = t.Elem
	}
	if s == nil {
		return false
	}
	for _, k := range kinds {
		if s.Kind == k {
			return true
		}
	}
	return false
}

// isBoolOf reports whether r is bool with t's vector shape.
func isBoolOf(r, t *Type) bool {
	if t.Kind == KVector {
		return r.Kind == KVector && r.Elem == Bool && r.Len == t.Len
	}
	return r == Bool
}

func isIntegralScalar(t *Type) bool { return t != nil && (t.Kind == KInt || t.Kind == KUint) }

// fitsInt reports whether v is a value of integer type t. Switch case
// values are int64s; a u64 case value above MaxInt64 is stored as its
// two's-complement int64, so every int64 fits u64.
func fitsInt(t *Type, v int64) bool {
	w := uint(t.Bits)
	if w >= 64 {
		return true
	}
	if t.Kind == KUint {
		return v >= 0 && v < int64(1)<<w
	}
	return v >= -(int64(1)<<(w-1)) && v < int64(1)<<(w-1)
}

// readOnlyPointer says why stores through p are not allowed ("" if they are).
func readOnlyPointer(p Value) string {
	t := p.Type()
	if t.Kind == KPointer && (t.Space == SpaceUniform || t.Space == SpaceInput) {
		return "the " + t.Space.String() + " address space is read-only"
	}
	for steps := 0; steps < 1000; steps++ {
		switch x := p.(type) {
		case *Global:
			if x.ReadOnly {
				return "global " + x.Ref() + " is read-only"
			}
			return ""
		case *Instr:
			if x.Op != OpAccess || len(x.Args) == 0 || x.Args[0] == nil {
				return ""
			}
			p = x.Args[0]
		default:
			return ""
		}
	}
	return ""
}

// accessPointee returns the type an access chain from base through idx
// points to, or a problem.
func accessPointee(base *Type, idx []Value) (*Type, string) {
	cur := base.Elem
	for k, ix := range idx {
		it := ix.Type()
		if !isIntegralScalar(it) {
			return nil, fmt.Sprintf("index %d has type %s, want i32 or u32", k, it)
		}
		switch cur.Kind {
		case KStruct:
			c, ok := ix.(*Const)
			if !ok {
				return nil, fmt.Sprintf("index %d into struct %s must be an integer constant", k, cur)
			}
			if c.Undef {
				return nil, fmt.Sprintf("index %d into struct %s must not be undef", k, cur)
			}
			n := int64(0)
			if !c.Zero {
				n = c.Int()
			}
			if n < 0 || n >= int64(len(cur.Fields)) {
				return nil, fmt.Sprintf("index %d (%d) is out of range for %s", k, n, cur)
			}
			cur = cur.Fields[n].Type
		case KArray, KVector:
			cur = cur.Elem
		case KMatrix:
			cur = cur.ElemType(0)
		default:
			return nil, fmt.Sprintf("index %d steps into non-aggregate type %s", k, cur)
		}
	}
	return cur, ""
}

// target checks a branch target.
func (v *verifier) target(t *Block, bad func(string, ...any)) {
	if t == nil {
		bad("branch target is nil")
		return
	}
	if !v.inFunc(t) {
		if t.Func != nil && t.Func != v.f {
			bad("branch target %s is a block of another function (@%s)", t.Ref(), quoteName(t.Func.name))
		} else {
			bad("branch target %s is not a block of this function", t.Ref())
		}
	}
}

// phi checks incoming values against the block's predecessors: every
// predecessor has an entry and every entry comes from a predecessor. Both
// conventions for a predecessor with several edges (a switch with two
// cases to one block, a condbr with both targets equal) are accepted: one
// entry per distinct predecessor block, or one entry per edge (LLVM); all
// entries from one block must carry the same value.
func (v *verifier) phi(bi int, b *Block, j int, in *Instr, bad func(string, ...any)) {
	if in.typ == Void {
		bad("phi must have a value type")
	}
	if len(in.Args) != len(in.PhiBlocks) {
		bad("phi has %d values but %d incoming blocks", len(in.Args), len(in.PhiBlocks))
		return
	}
	for i, a := range in.Args {
		if a.Type() != in.typ {
			bad("incoming value %d has type %s, want %s", i, a.Type(), in.typ)
		}
	}
	edges := map[int32]int{}
	for _, p := range v.preds.Of(bi) {
		edges[p]++
	}
	entries := map[int32]int{}
	values := map[int32]Value{}
	for i, pb := range in.PhiBlocks {
		if pb == nil {
			bad("incoming block %d is nil", i)
			continue
		}
		pi, ok := v.blockIdx[pb]
		if !ok {
			bad("incoming block %s is not a block of this function", pb.Ref())
			continue
		}
		if edges[pi] == 0 {
			bad("incoming block %s is not a predecessor of %s", pb.Ref(), b.Ref())
			continue
		}
		if prev, seen := values[pi]; seen && prev != in.Args[i] && !sameConst(prev, in.Args[i]) {
			bad("incoming values from %s differ: %s and %s", pb.Ref(), vstr(prev), vstr(in.Args[i]))
		}
		values[pi] = in.Args[i]
		entries[pi]++
	}
	for _, p := range v.preds.Of(bi) {
		n, e := entries[p], edges[p]
		if e < 0 {
			continue // reported already
		}
		switch {
		case n == 0:
			bad("no incoming value for predecessor %s", v.f.Blocks[p].Ref())
		case n != 1 && n != e:
			bad("%d incoming entries for predecessor %s, which has %d edges to %s (want 1 or %d)", n, v.f.Blocks[p].Ref(), e, b.Ref(), e)
		}
		edges[p] = -1
	}
}

// sameConst reports whether two operands are equal constants (so a phi's
// duplicate entries may use distinct *Const objects for one value).
func sameConst(a, b Value) bool {
	ca, ok1 := a.(*Const)
	cb, ok2 := b.(*Const)
	if !ok1 || !ok2 || ca == nil || cb == nil || ca.typ != cb.typ || ca.typ == nil {
		return false
	}
	return ca.Literal() == cb.Literal()
}

// ---- structured control flow ----

// structured checks SPIR-V's structured-control-flow rules that concern
// annotated headers (SPIR-V spec §2.11, as spirv-val checks them):
//   - selection_merge sits on a condbr or switch, loop_merge on a br or
//     condbr; the merge block and continue target are blocks of the
//     function; the merge block is not the header itself; a loop's merge
//     block is not its continue target;
//   - a block is the merge block of at most one header;
//   - if the header and merge block are reachable, the header dominates
//     the merge block (strictly, as they differ);
//   - a reachable loop header dominates its reachable continue target and
//     is the target of exactly one back edge (an edge from a block it
//     dominates), whose source is dominated by the continue target.
//
// Rules about functions as a whole (every back edge targets an annotated
// loop header, constructs nest properly) are not checked: passes run on
// partly structured functions, and such rules are the SPIR-V back end's to
// enforce (spirv-val checks its output).
func (v *verifier) structured() {
	mergeOf := map[*Block]*Block{} // merge block -> header
	for hi, h := range v.f.Blocks {
		if h == nil || v.blockIdx[h] != int32(hi) {
			continue
		}
		t := terminator(h)
		if t == nil || t.MergeKind == MergeNone {
			continue
		}
		j := len(h.Instrs) - 1
		bad := func(format string, args ...any) { v.instrErr(h, j, t, format, args...) }
		switch t.MergeKind {
		case MergeSelection:
			if t.Op != OpCondBr && t.Op != OpSwitch {
				bad("selection_merge must annotate a condbr or switch, not %s", t.Op)
			}
		case MergeLoop:
			if t.Op != OpBr && t.Op != OpCondBr {
				bad("loop_merge must annotate a br or condbr, not %s", t.Op)
			}
		default:
			bad("unknown merge kind %d", t.MergeKind)
			continue
		}
		m := t.Merge
		if m == nil || !v.inFunc(m) {
			bad("merge block %s is not a block of this function", blockStr(m))
			continue
		}
		if m == h {
			bad("merge block %s is the header itself", m.Ref())
		}
		if prev, dup := mergeOf[m]; dup {
			bad("block %s is already the merge block of header %s", m.Ref(), prev.Ref())
		} else {
			mergeOf[m] = h
		}
		hIdx, mIdx := int32(hi), v.blockIdx[m]
		if v.reachable(hIdx) && v.reachable(mIdx) && m != h && !v.dominates(hIdx, mIdx) {
			bad("header %s does not dominate its merge block %s", h.Ref(), m.Ref())
		}
		if t.MergeKind != MergeLoop {
			continue
		}
		c := t.Continue
		if c == nil || !v.inFunc(c) {
			bad("continue target %s is not a block of this function", blockStr(c))
			continue
		}
		if c == m {
			bad("continue target %s is also the merge block", c.Ref())
		}
		cIdx := v.blockIdx[c]
		if !v.reachable(hIdx) {
			continue
		}
		if v.reachable(cIdx) && !v.dominates(hIdx, cIdx) {
			bad("loop header %s does not dominate its continue target %s", h.Ref(), c.Ref())
		}
		var backs []int32
		for _, p := range v.preds.Of(int(hIdx)) {
			if v.reachable(p) && v.dominates(hIdx, p) && !containsIdx(backs, p) {
				backs = append(backs, p)
			}
		}
		if len(backs) != 1 {
			bad("loop header %s is the target of %d back-edge blocks, want exactly 1", h.Ref(), len(backs))
			continue
		}
		if v.reachable(cIdx) && !v.dominates(cIdx, backs[0]) {
			bad("back-edge block %s is not dominated by the continue target %s", v.f.Blocks[backs[0]].Ref(), c.Ref())
		}
	}
}

// terminator is Block.Terminator made safe for a nil last instruction.
func terminator(b *Block) *Instr {
	if n := len(b.Instrs); n > 0 && b.Instrs[n-1] != nil && b.Instrs[n-1].IsTerminator() {
		return b.Instrs[n-1]
	}
	return nil
}

func containsIdx(xs []int32, x int32) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func blockStr(b *Block) string {
	if b == nil {
		return "<nil>"
	}
	return b.Ref()
}
