package passes

import (
	"passlens/compiler/ir"
)

// Scalarize is the scalarize pass: split vector and aggregate values, loads,
// stores and intrinsics into scalars (DXIL).
//
// For DXIL (and SM3): every vector, matrix and small (≤ 256 scalars) struct
// or array value is represented by its scalar leaves — `%v.x`, `%m.1.z`,
// `%s.pos.y`, `%a.0` — and:
//
//   - arithmetic, comparisons, selects, casts and phis become per-leaf; a
//     bitcast stays a per-element bitcast (turning it into `sitofp` would change
//     values);
//   - construct/insert/extract/shuffle only move leaves, so nothing built and
//     then taken apart survives; dynamic `extractelement` is a select chain on
//     the index (out of range reads 0, as in the interpreter);
//   - elementwise intrinsics and per-component wave operations are called per
//     component; `dot`, `length`, `distance`, `any`, `all`, `cross`,
//     `normalize`, `reflect`, `refract`, `mul`, `transpose` and `determinant`
//     expand into scalar arithmetic in exactly the interpreter's order, so
//     results are bit-identical — on scalar operands too (`normalize(x)`,
//     `reflect(x, n)`, `determinant(x)`);
//   - the composite elementwise intrinsics DXIL has no operation for expand as
//     DXC expands them, scalar or per component, again bit-identical:
//     `smoothstep` → `t*t*(3 - 2t)` with `t = saturate((x-a)/(b-a))`, `step` →
//     `fcmp oge` + select, `sign` → `zext(x > 0) - zext(x < 0)`, `degrees`/
//     `radians` → a multiply by the f32 constant, `ldexp(x, e)` → `x * exp2(e)`
//     (scalarize_composite.go);
//   - defined functions other than entry points whose parameters or return
//     type hold vectors or matrices get scalar signatures, like DXC's
//     SROA_Parameter_HLSL: each such parameter becomes one scalar parameter
//     per leaf (`%a.x`, `%a.y`, …), such a return type the struct
//     `%<fn>.ret` of the leaves, and every call passes and reads leaves
//     (scalarize_signature.go); pointer (out/inout) parameters stay;
//   - loads and stores of splittable types (vectors, aggregates of vectors,
//     plain aggregates) become one access chain and one scalar memory operation
//     per leaf; memcpy and memset become per-leaf loads and stores;
//   - allocas and private/groupshared globals holding vectors are retyped to
//     scalar layout (`[2 x <3 x f32>]` → `[2 x [3 x f32]]`, a one-column
//     matrix `<2 x 1 x f32>` → `[2 x f32]` since its rows are scalars, structs get a
//     `<name>.flat` copy); uniform, storage, input and output globals keep their
//     interface types and are accessed per component.
//
// Vectors remain only at boundaries fixed by something else: calls of
// declarations (external functions; the DXIL back end flattens those), an
// entry point's return value (a stage output), intrinsics whose result is
// inherently a vector built from scalars (`WaveActiveBallot`), and the
// declared types of interface globals.
var Scalarize = &Pass{
	Name: "scalarize",
	Run:  runScalarize,
}

// maxValueLeaves bounds the scalar leaves of an array or struct value that
// scalarize splits; larger aggregates stay whole.
const maxValueLeaves = 256

// runScalarize implements Scalarize: it rewrites vector and aggregate computations into scalar ones, as
// DXIL requires ("HLSL vectors are scalarized", seed
// dxil-scalarization.md), doing in one pass what the seed assembles from
// LLVM's scalarizer (-scalarize-load-store, -scalarize-variable-insert-
// extract), DXC's SROA_Parameter_HLSL rewrites and SROA.
//
// Every value of a vector, matrix, or small array or struct type
// (splittable: at most maxValueLeaves scalars) is represented by its scalar
// leaves, in declaration order (vector components, matrix rows then
// columns, array elements, struct fields), named after the value with the
// component path appended: `%a.x`, `%a.y` for vector lanes, `%m.1.z` for a
// matrix element, `%s.pos.x`, `%arr.0` for struct fields and array
// elements. Then:
//   - arithmetic, comparisons, selects (scalar or per-lane condition),
//     conversions and bitcasts, and phis work per leaf. A conversion stays
//     the conversion it was (sitofp stays sitofp, a bitcast stays a
//     bitcast per element): a bitcast reinterprets bits, so turning it into
//     sitofp — the seed's remark about DXC — would change values; only the
//     vector shape is removed;
//   - construct, insertvalue, insertelement, extractvalue, extractelement
//     and shuffle only move leaves, so values built and then taken apart
//     are forwarded with no instruction left over; a dynamic extractelement
//     becomes a chain of selects on the index (zero when out of range, as
//     the interpreter defines it) and a dynamic insertelement one select
//     per lane;
//   - elementwise intrinsics (AttrElementwise) are called once per
//     component, scalar operands being broadcast; the per-component wave
//     operations (WaveActiveSum ..., WavePrefix..., WaveReadLaneFirst/At,
//     WaveActiveAllEqual) likewise — splitting a convergent operation in
//     place is legal, it neither moves nor merges it;
//   - reductions (dot, length, distance, any, all) and the other vector
//     intrinsics (cross, normalize, reflect, refract, mul, transpose,
//     determinant) are expanded into scalar operations in exactly the
//     order of their definitions in the interpreter (scalarize_math.go),
//     so results stay bit-identical, on scalar operands too;
//   - the composite intrinsics DXIL has no operation for (smoothstep,
//     step, sign, degrees, radians, ldexp) are expanded as DXC expands
//     them, bit-identically (scalarize_composite.go);
//   - defined functions other than entry points get scalar signatures:
//     parameters holding vectors become one parameter per leaf, such a
//     return type a struct of the leaves (scalarize_signature.go);
//   - loads and stores of splittable types — the seed's three cases,
//     vectors, aggregates of vectors and plain aggregates — become one
//     access chain and one scalar load or store per leaf; memcpy becomes
//     per-leaf loads and stores and memset per-leaf stores of its fill;
//   - memory objects that are not externally visible and hold vectors are
//     flattened to scalar layout first (scalarize_memory.go).
//
// Values whose type is not splittable (large arrays) are left as they are.
//
// Vectors remain only at boundaries whose type is fixed by something else:
// calls of declarations (external functions), an entry point's return
// value (a stage output), intrinsics that produce a vector from scalars
// (WaveActiveBallot's uint4), and the declared types of uniform, storage,
// input and output globals (accessed per component). A value needed whole
// there is rebuilt with construct right before its use.
func runScalarize(m *ir.Module, ctx *Context) (bool, error) {
	changed := flattenMemory(m)
	if flattenSignatures(m) {
		changed = true
	}
	for _, f := range m.Funcs {
		if f.IsDeclaration() {
			continue
		}
		s := newScalarizer(f)
		if s.run() {
			changed = true
		}
	}
	return changed, nil
}

// splittable reports whether values of type t are represented by leaves.
func splittable(t *ir.Type) bool {
	switch t.Kind {
	case ir.KVector, ir.KMatrix:
		return true
	case ir.KArray, ir.KStruct:
		n := t.ScalarCount()
		return n > 0 && n <= maxValueLeaves && !hasRuntimeArray(t) && !hasPointer(t)
	}
	return false
}

func hasRuntimeArray(t *ir.Type) bool {
	return t.Contains(func(u *ir.Type) bool { return u.Kind == ir.KArray && u.Len < 0 })
}

func hasPointer(t *ir.Type) bool {
	return t.Contains(func(u *ir.Type) bool { return u.Kind == ir.KPointer })
}

// leaf describes one scalar leaf of a type: its constant index path, its
// name suffix (".x", ".pos.y", ".1.z") and its scalar type.
type leaf struct {
	path   []int
	suffix string
	typ    *ir.Type
}

// layout returns the leaf layout of splittable type t.
func (s *scalarizer) layout(t *ir.Type) []leaf {
	if l, ok := s.layouts[t]; ok {
		return l
	}
	var out []leaf
	var walk func(t *ir.Type, path []int, suffix string)
	walk = func(t *ir.Type, path []int, suffix string) {
		if t.IsScalar() {
			out = append(out, leaf{append([]int(nil), path...), suffix, t})
			return
		}
		for i := 0; i < t.NumElems(); i++ {
			walk(t.ElemType(i), append(path, i), suffix+"."+componentSuffix(t, i))
		}
	}
	walk(t, nil, "")
	s.layouts[t] = out
	return out
}

// leafRange returns the first leaf and the leaf count of the component at
// path inside type t.
func (s *scalarizer) leafRange(t *ir.Type, path []int) (int, int, bool) {
	start := 0
	cur := t
	for _, i := range path {
		if i < 0 || i >= cur.NumElems() {
			return 0, 0, false
		}
		for j := 0; j < i; j++ {
			start += cur.ElemType(j).ScalarCount()
		}
		cur = cur.ElemType(i)
	}
	return start, cur.ScalarCount(), true
}

type scalarizer struct {
	f       *ir.Function
	layouts map[*ir.Type][]leaf
	leaves  map[ir.Value][]ir.Value
	done    map[*ir.Instr]bool // scalarized: to delete once unused
	dead    map[*ir.Instr]bool // replaced memory operations: delete
	repl    map[ir.Value]ir.Value
	phis    []*ir.Instr // scalarized phis, incoming filled at the end
	wholes  map[wholeKey]ir.Value
	named   map[*ir.Instr]bool // scalarized values whose name a rebuild took
	bypass  []*ir.Instr        // access chains folded into new chains

	cur     *ir.Block   // block being rebuilt
	out     []*ir.Instr // its new instruction list
	rebuilt map[*ir.Block]bool
	changed bool
}

type wholeKey struct {
	v ir.Value
	b *ir.Block
}

func newScalarizer(f *ir.Function) *scalarizer {
	return &scalarizer{
		f:       f,
		layouts: map[*ir.Type][]leaf{},
		leaves:  map[ir.Value][]ir.Value{},
		done:    map[*ir.Instr]bool{},
		dead:    map[*ir.Instr]bool{},
		repl:    map[ir.Value]ir.Value{},
		wholes:  map[wholeKey]ir.Value{},
		named:   map[*ir.Instr]bool{},
		rebuilt: map[*ir.Block]bool{},
	}
}

// emit appends a new instruction to the block being rebuilt.
func (s *scalarizer) emit(in *ir.Instr) *ir.Instr {
	in.Block = s.cur
	s.out = append(s.out, in)
	s.changed = true
	return in
}

func (s *scalarizer) run() bool {
	order := reversePostorder(s.f)
	seen := make(map[*ir.Block]bool, len(order))
	for _, b := range order {
		seen[b] = true
	}
	for _, b := range s.f.Blocks {
		if !seen[b] {
			order = append(order, b)
		}
	}
	for _, b := range order {
		s.rebuildBlock(b)
	}
	s.fillPhis()
	if len(s.repl) > 0 {
		s.f.ReplaceUses(s.repl)
	}
	s.cleanup()
	return s.changed
}

// rebuildBlock rewrites the instructions of b in order.
func (s *scalarizer) rebuildBlock(b *ir.Block) {
	old := b.Instrs
	s.cur, s.out = b, make([]*ir.Instr, 0, len(old))
	for _, in := range old {
		for i, a := range in.Args {
			if r, ok := s.repl[a]; ok {
				in.Args[i] = r
			}
		}
		if !s.visit(in) {
			s.keep(in)
			continue
		}
		// The original stays in place until cleanup, which deletes it once
		// nothing uses it.
		in.Block = b
		s.out = append(s.out, in)
	}
	b.Instrs = s.out
	s.rebuilt[b] = true
	s.cur, s.out = nil, nil
}

// keep re-emits an instruction unchanged except that operands represented
// by leaves are rebuilt whole in front of it.
func (s *scalarizer) keep(in *ir.Instr) {
	if in.Op != ir.OpPhi {
		for i, a := range in.Args {
			if ai, ok := a.(*ir.Instr); ok && s.done[ai] {
				in.Args[i] = s.whole(ai)
			}
		}
	}
	in.Block = s.cur
	s.out = append(s.out, in)
}

// whole returns scalarized value v rebuilt as one value at the current
// position (cached per block). The first rebuild takes v's name.
func (s *scalarizer) whole(v *ir.Instr) ir.Value {
	k := wholeKey{v, s.cur}
	if w, ok := s.wholes[k]; ok {
		return w
	}
	leaves := s.getLeaves(v)
	var w ir.Value
	if !s.named[v] {
		s.named[v] = true
		w = s.build(v.Type(), leaves, nil, v)
	} else {
		w = s.build(v.Type(), leaves, nil, nil)
	}
	s.wholes[k] = w
	return w
}

// build constructs a value of type t from its leaves (path is the prefix
// used for names). The outermost construct takes name from named if given.
func (s *scalarizer) build(t *ir.Type, leaves []ir.Value, path []int, named *ir.Instr) ir.Value {
	if t.IsScalar() {
		return leaves[0]
	}
	n := t.NumElems()
	elems := make([]ir.Value, n)
	off := 0
	for i := 0; i < n; i++ {
		et := t.ElemType(i)
		c := et.ScalarCount()
		elems[i] = s.build(et, leaves[off:off+c], append(path, i), nil)
		off += c
	}
	var in *ir.Instr
	if named != nil {
		in = newInstrTakingName(s.f, ir.OpConstruct, t, named)
	} else {
		in = newInstr(s.f, ir.OpConstruct, t, "")
	}
	in.Args = elems
	return s.emit(in)
}

// constLeaves returns the leaf constants of c (layout lay): undef where c
// has no element, zero spelled 0.0, 0 or false rather than "zero".
func constLeaves(c *ir.Const, lay []leaf) []ir.Value {
	out := make([]ir.Value, len(lay))
	for i, lf := range lay {
		e := c
		for _, idx := range lf.path {
			if e = e.Elem(idx); e == nil {
				break
			}
		}
		switch {
		case e == nil:
			e = ir.ConstUndef(lf.typ)
		case e.Zero:
			e = zeroOf(lf.typ)
		}
		out[i] = e
	}
	return out
}

// getLeaves returns the leaves of splittable value v, extracting them if v
// is not itself scalarized (a parameter, a call result, an intrinsic that
// stays whole): the extracts go right after v's definition.
func (s *scalarizer) getLeaves(v ir.Value) []ir.Value {
	if l, ok := s.leaves[v]; ok {
		return l
	}
	t := v.Type()
	lay := s.layout(t)
	if c, ok := v.(*ir.Const); ok {
		return constLeaves(c, lay) // not cached: constants are not shared by identity
	}
	out := make([]ir.Value, len(lay))
	exts := make([]*ir.Instr, len(lay))
	for i, lf := range lay {
		ev := newInstr(s.f, ir.OpExtractValue, lf.typ, baseName(v)+lf.suffix)
		ev.Args = []ir.Value{v}
		ev.Idx = lf.path
		exts[i] = ev
		out[i] = ev
	}
	s.placeAfterDef(v, exts)
	s.leaves[v] = out
	return out
}

// placeAfterDef inserts instructions right after v's definition: at the
// current position if v is defined in the block being rebuilt (or is a
// parameter while the entry is being rebuilt), else after v (or after the
// phis, or at the start of the entry for parameters) in its block.
func (s *scalarizer) placeAfterDef(v ir.Value, ins []*ir.Instr) {
	s.changed = true
	var b *ir.Block
	pos := 0
	switch x := v.(type) {
	case *ir.Instr:
		b = x.Block
		if b == nil {
			b = s.cur
		}
		if b == s.cur {
			for _, in := range ins {
				s.emit(in)
			}
			return
		}
		if x.Op == ir.OpPhi {
			pos = b.FirstNonPhi()
		} else {
			pos = indexInBlock(x) + 1
		}
	default:
		b = s.f.Blocks[0]
		if b == s.cur {
			for _, in := range ins {
				s.emit(in)
			}
			return
		}
		pos = b.FirstNonPhi()
	}
	for i, in := range ins {
		insertAt(b, pos+i, in)
	}
}

// leafName names leaf i of a value named after base.
func (s *scalarizer) leafName(base ir.Value, t *ir.Type, i int) string {
	return baseName(base) + s.layout(t)[i].suffix
}

// scalarOf returns leaf i of v if v is splittable, or v itself (a scalar
// operand broadcast over the leaves).
func (s *scalarizer) scalarOf(v ir.Value, i int) ir.Value {
	if splittable(v.Type()) {
		return s.getLeaves(v)[i]
	}
	return v
}

// setLeaves records that in is now represented by leaves.
func (s *scalarizer) setLeaves(in *ir.Instr, leaves []ir.Value) {
	s.leaves[in] = leaves
	s.done[in] = true
	s.changed = true
}

// visit rewrites in if a rule applies, reporting whether it did (the
// instruction is then not kept as is).
func (s *scalarizer) visit(in *ir.Instr) bool {
	t := in.Type()
	op := in.Op
	if op == ir.OpPhi {
		if !splittable(t) {
			return false
		}
		return s.visitPhi(in)
	}
	switch {
	case op == ir.OpStore:
		return s.visitStore(in)
	case op == ir.OpMemcpy:
		return s.visitMemcpy(in)
	case op == ir.OpMemset:
		return s.visitMemset(in)
	case op == ir.OpExtractValue && splittable(in.Args[0].Type()):
		return s.visitExtractValue(in)
	case op == ir.OpExtractElem && splittable(in.Args[0].Type()):
		return s.visitExtractElem(in)
	case op == ir.OpIntrinsic:
		return s.visitIntrinsic(in)
	}
	if !in.HasResult() || !splittable(t) {
		return false
	}
	switch {
	case op.IsElementwise():
		return s.visitPerLeaf(in)
	case op == ir.OpCopy:
		s.setLeaves(in, s.getLeaves(in.Args[0]))
		return true
	case op == ir.OpConstruct:
		return s.visitConstruct(in)
	case op == ir.OpInsertValue:
		return s.visitInsertValue(in)
	case op == ir.OpInsertElem:
		return s.visitInsertElem(in)
	case op == ir.OpShuffle:
		return s.visitShuffle(in)
	case op == ir.OpLoad:
		return s.visitLoad(in)
	}
	return false
}

// visitPerLeaf scalarizes an arithmetic, comparison, select or cast.
func (s *scalarizer) visitPerLeaf(in *ir.Instr) bool {
	t := in.Type()
	lay := s.layout(t)
	for j, a := range in.Args {
		at := a.Type()
		if splittable(at) && at.ScalarCount() != len(lay) {
			return false // shapes that do not line up: leave it alone
		}
		// Only a select's condition may be a scalar broadcast over lanes;
		// a scalar-to-vector bitcast reinterprets bits and stays whole.
		if !splittable(at) && !(in.Op == ir.OpSelect && j == 0) {
			return false
		}
	}
	if in.Op == ir.OpBitcast && in.Args[0].Type().Scalar().Bits != in.Type().Scalar().Bits {
		return false // <4 x u16> to <2 x u32>: lanes do not correspond
	}
	out := make([]ir.Value, len(lay))
	for i, lf := range lay {
		n := newInstr(s.f, in.Op, lf.typ, baseName(in)+lf.suffix)
		n.Pred = in.Pred
		n.Loc = in.Loc
		n.Args = make([]ir.Value, len(in.Args))
		for j, a := range in.Args {
			n.Args[j] = s.scalarOf(a, i)
		}
		out[i] = s.emit(n)
	}
	s.setLeaves(in, out)
	return true
}

func (s *scalarizer) visitPhi(in *ir.Instr) bool {
	lay := s.layout(in.Type())
	out := make([]ir.Value, len(lay))
	for i, lf := range lay {
		p := newInstr(s.f, ir.OpPhi, lf.typ, baseName(in)+lf.suffix)
		p.Loc = in.Loc
		out[i] = s.emit(p)
	}
	s.setLeaves(in, out)
	s.phis = append(s.phis, in)
	return true
}

// fillPhis gives the per-leaf phis their incoming values.
func (s *scalarizer) fillPhis() {
	for _, phi := range s.phis {
		lp := s.leaves[phi]
		for k, v := range phi.Args {
			if r, ok := s.repl[v]; ok {
				v = r
			}
			var ls []ir.Value
			if vi, ok := v.(*ir.Instr); ok && vi == phi {
				ls = lp
			} else {
				s.cur = nil
				ls = s.getLeaves(v)
			}
			for i, p := range lp {
				p.(*ir.Instr).AddIncoming(ls[i], phi.PhiBlocks[k])
			}
		}
	}
}

func (s *scalarizer) visitConstruct(in *ir.Instr) bool {
	var out []ir.Value
	for _, a := range in.Args {
		if splittable(a.Type()) {
			out = append(out, s.getLeaves(a)...)
		} else if a.Type().IsScalar() {
			out = append(out, a)
		} else {
			return false
		}
	}
	if len(out) != in.Type().ScalarCount() {
		return false
	}
	s.setLeaves(in, out)
	return true
}

func (s *scalarizer) visitExtractValue(in *ir.Instr) bool {
	src := in.Args[0]
	start, n, ok := s.leafRange(src.Type(), in.Idx)
	if !ok {
		return false
	}
	ls := s.getLeaves(src)[start : start+n]
	if in.Type().IsScalar() {
		s.repl[in] = ls[0]
		s.dead[in] = true
		s.changed = true
		return true
	}
	if !splittable(in.Type()) {
		return false
	}
	s.setLeaves(in, append([]ir.Value(nil), ls...))
	return true
}

func (s *scalarizer) visitInsertValue(in *ir.Instr) bool {
	agg, e := in.Args[0], in.Args[1]
	start, n, ok := s.leafRange(agg.Type(), in.Idx)
	if !ok {
		return false
	}
	out := append([]ir.Value(nil), s.getLeaves(agg)...)
	if e.Type().IsScalar() {
		out[start] = e
	} else if splittable(e.Type()) {
		copy(out[start:start+n], s.getLeaves(e))
	} else {
		return false
	}
	s.setLeaves(in, out)
	return true
}

// constIndex returns the value of a constant integer index.
func constIndex(v ir.Value) (int64, bool) {
	c, ok := v.(*ir.Const)
	if !ok || c.Undef || !c.Type().IsIntegral() {
		return 0, false
	}
	return c.Int(), true
}

func (s *scalarizer) visitExtractElem(in *ir.Instr) bool {
	vec, idx := in.Args[0], in.Args[1]
	if vec.Type().Kind != ir.KVector {
		return false
	}
	ls := s.getLeaves(vec)
	if k, ok := constIndex(idx); ok {
		if k < 0 || k >= int64(len(ls)) {
			s.repl[in] = zeroOf(in.Type()) // out of range reads zero
		} else {
			s.repl[in] = ls[k]
		}
		s.dead[in] = true
		s.changed = true
		return true
	}
	// r = 0; r = idx == k ? leaf_k : r, for k = 0..n-1.
	var r ir.Value = zeroOf(in.Type())
	for k, l := range ls {
		eq := newInstr(s.f, ir.OpICmp, ir.Bool, baseName(in)+".is"+itoa(k))
		eq.Pred = ir.PredEQ
		eq.Args = []ir.Value{idx, ir.ConstInt(idx.Type(), int64(k))}
		s.emit(eq)
		var sel *ir.Instr
		if k == len(ls)-1 {
			sel = newInstrTakingName(s.f, ir.OpSelect, in.Type(), in)
		} else {
			sel = newInstr(s.f, ir.OpSelect, in.Type(), baseName(in)+".upto"+itoa(k))
		}
		sel.Args = []ir.Value{eq, l, r}
		r = s.emit(sel)
	}
	s.repl[in] = r
	s.dead[in] = true
	return true
}

func (s *scalarizer) visitInsertElem(in *ir.Instr) bool {
	vec, e, idx := in.Args[0], in.Args[1], in.Args[2]
	if vec.Type().Kind != ir.KVector {
		return false
	}
	out := append([]ir.Value(nil), s.getLeaves(vec)...)
	if k, ok := constIndex(idx); ok {
		if k >= 0 && k < int64(len(out)) {
			out[k] = e
		}
		s.setLeaves(in, out)
		return true
	}
	for k := range out {
		eq := newInstr(s.f, ir.OpICmp, ir.Bool, baseName(in)+".is"+itoa(k))
		eq.Pred = ir.PredEQ
		eq.Args = []ir.Value{idx, ir.ConstInt(idx.Type(), int64(k))}
		s.emit(eq)
		sel := newInstr(s.f, ir.OpSelect, e.Type(), s.leafName(in, in.Type(), k))
		sel.Args = []ir.Value{eq, e, out[k]}
		out[k] = s.emit(sel)
	}
	s.setLeaves(in, out)
	return true
}

func (s *scalarizer) visitShuffle(in *ir.Instr) bool {
	a, b := in.Args[0], in.Args[1]
	if a.Type().Kind != ir.KVector || b.Type().Kind != ir.KVector {
		return false
	}
	src := append(append([]ir.Value(nil), s.getLeaves(a)...), s.getLeaves(b)...)
	out := make([]ir.Value, len(in.Idx))
	for i, m := range in.Idx {
		if m >= 0 && m < len(src) {
			out[i] = src[m]
		} else {
			out[i] = ir.ConstUndef(in.Type().Elem)
		}
	}
	s.setLeaves(in, out)
	return true
}

// accessInto returns a pointer to the component at path inside the
// pointee of p: one access chain from p's root when p is itself an access
// chain (so chains do not nest), named after p.
func (s *scalarizer) accessInto(p ir.Value, path []int, suffix string) ir.Value {
	if len(path) == 0 {
		return p
	}
	base := p
	var idx []ir.Value
	if pa, ok := p.(*ir.Instr); ok && pa.Op == ir.OpAccess {
		base = pa.Args[0]
		idx = append(idx, pa.Args[1:]...)
		s.bypass = append(s.bypass, pa)
	}
	for _, i := range path {
		idx = append(idx, i32c(i))
	}
	t := ir.AccessType(base.Type(), idx)
	if t == nil {
		return nil
	}
	acc := newInstr(s.f, ir.OpAccess, t, baseName(p)+suffix)
	acc.Args = append([]ir.Value{base}, idx...)
	return s.emit(acc)
}

func (s *scalarizer) visitLoad(in *ir.Instr) bool {
	p := in.Args[0]
	lay := s.layout(in.Type())
	ptrs := make([]ir.Value, len(lay))
	for i, lf := range lay {
		if ptrs[i] = s.accessInto(p, lf.path, lf.suffix); ptrs[i] == nil {
			return false
		}
	}
	out := make([]ir.Value, len(lay))
	for i, lf := range lay {
		ld := newInstr(s.f, ir.OpLoad, lf.typ, baseName(in)+lf.suffix)
		ld.Args = []ir.Value{ptrs[i]}
		ld.Loc = in.Loc
		out[i] = s.emit(ld)
	}
	s.setLeaves(in, out)
	return true
}

// storeLeaves stores the leaves of v through p, one scalar store each.
func (s *scalarizer) storeLeaves(v ir.Value, p ir.Value, loc ir.Loc) bool {
	lay := s.layout(v.Type())
	ls := s.getLeaves(v)
	for i, lf := range lay {
		ptr := s.accessInto(p, lf.path, lf.suffix)
		if ptr == nil {
			return false
		}
		st := ir.NewInstr(s.f, ir.OpStore, ir.Void, "")
		st.Args = []ir.Value{ls[i], ptr}
		st.Loc = loc
		s.emit(st)
	}
	return true
}

func (s *scalarizer) visitStore(in *ir.Instr) bool {
	v, p := in.Args[0], in.Args[1]
	if !splittable(v.Type()) {
		return false
	}
	if !s.storeLeaves(v, p, in.Loc) {
		return false
	}
	s.dead[in] = true
	return true
}

func (s *scalarizer) visitMemcpy(in *ir.Instr) bool {
	dst, src := in.Args[0], in.Args[1]
	st, dt := src.Type().Elem, dst.Type().Elem
	if !splittable(st) || st.ScalarCount() != dt.ScalarCount() {
		return false
	}
	lay := s.layout(st)
	for _, lf := range lay {
		sp := s.accessInto(src, lf.path, lf.suffix)
		dp := s.accessInto(dst, lf.path, lf.suffix)
		if sp == nil || dp == nil {
			return false
		}
		ld := newInstr(s.f, ir.OpLoad, lf.typ, baseName(src)+lf.suffix+".val")
		ld.Args = []ir.Value{sp}
		ld.Loc = in.Loc
		s.emit(ld)
		stI := ir.NewInstr(s.f, ir.OpStore, ir.Void, "")
		stI.Args = []ir.Value{ld, dp}
		stI.Loc = in.Loc
		s.emit(stI)
	}
	s.dead[in] = true
	return true
}

// visitMemset stores the fill value into every leaf: the byte repeated
// over each scalar's width, bools true for a non-zero byte (the
// interpreter's memset).
func (s *scalarizer) visitMemset(in *ir.Instr) bool {
	dst, by := in.Args[0], in.Args[1]
	t := dst.Type().Elem
	if !splittable(t) {
		return false
	}
	lay := s.layout(t)
	fills := map[*ir.Type]ir.Value{}
	for _, lf := range lay {
		fill, ok := fills[lf.typ]
		if !ok {
			fill = s.memsetFill(by, lf.typ, dst)
			if fill == nil {
				return false
			}
			fills[lf.typ] = fill
		}
		ptr := s.accessInto(dst, lf.path, lf.suffix)
		if ptr == nil {
			return false
		}
		st := ir.NewInstr(s.f, ir.OpStore, ir.Void, "")
		st.Args = []ir.Value{fill, ptr}
		st.Loc = in.Loc
		s.emit(st)
	}
	s.dead[in] = true
	return true
}

// memsetFill computes the value memset gives a scalar of type t from the
// fill byte operand: a constant when the byte is constant, else a few
// integer operations.
func (s *scalarizer) memsetFill(by ir.Value, t *ir.Type, dst ir.Value) ir.Value {
	if t.Bits != 32 && t.Kind != ir.KBool {
		return nil
	}
	if c, ok := constIndex(by); ok {
		b := uint64(c) & 0xFF
		switch t.Kind {
		case ir.KBool:
			return ir.ConstBool(ir.Bool, b != 0)
		case ir.KFloat:
			return ir.ConstF32Bits(uint32(b * 0x01010101))
		default:
			return foldedInt(t, b*0x01010101)
		}
	}
	if by.Type() != ir.U32 && by.Type() != ir.I32 {
		return nil
	}
	name := baseName(dst) + ".fill"
	bin := func(op ir.Op, x, y ir.Value) ir.Value {
		n := newInstr(s.f, op, x.Type(), name)
		n.Args = []ir.Value{x, y}
		return s.emit(n)
	}
	b := bin(ir.OpAnd, by, ir.ConstInt(by.Type(), 0xFF))
	if t.Kind == ir.KBool {
		ne := newInstr(s.f, ir.OpICmp, ir.Bool, name)
		ne.Pred = ir.PredNE
		ne.Args = []ir.Value{b, ir.ConstInt(by.Type(), 0)}
		return s.emit(ne)
	}
	v := bin(ir.OpMul, b, ir.ConstInt(by.Type(), 0x01010101))
	if v.Type() == t {
		return v
	}
	bc := newInstr(s.f, ir.OpBitcast, t, name)
	bc.Args = []ir.Value{v}
	return s.emit(bc)
}

// cleanup deletes the replaced instructions and the scalarized ones that
// no longer have users (all of them, unless a use could not be rewritten).
func (s *scalarizer) cleanup() {
	if len(s.done) == 0 && len(s.dead) == 0 && len(s.bypass) == 0 {
		return
	}
	kill := map[*ir.Instr]bool{}
	for in := range s.dead {
		kill[in] = true
	}
	for in := range s.done {
		kill[in] = true
	}
	for _, in := range s.bypass {
		kill[in] = true
	}
	// Keep anything still used by an instruction that stays.
	for {
		kept := false
		for _, b := range s.f.Blocks {
			for _, in := range b.Instrs {
				if kill[in] {
					continue
				}
				for _, a := range in.Args {
					if d, ok := a.(*ir.Instr); ok && kill[d] {
						delete(kill, d)
						kept = true
					}
				}
			}
		}
		if !kept {
			break
		}
	}
	if len(kill) > 0 {
		s.changed = true
	}
	removeInstrs(s.f, kill)
}
