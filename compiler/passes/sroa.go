package passes

import (
	"sort"

	"passlens/compiler/ir"
)

// SROA is the sroa pass: split local aggregates per leaf and promote locals
// to SSA (mem2reg).
//
// Splits allocas whose uses are loads, stores, memcpys and access chains into
// one alloca per leaf, then promotes to SSA:
//
//   - structs are always split into fields; arrays into elements unless indexed
//     dynamically (they stay in memory) or larger than 128 scalars; vectors and
//     matrices only when every access names a constant component;
//   - a whole load of a split aggregate becomes per-leaf loads and a `construct`
//     (keeping the load's name); a whole store, per-leaf stores of extracted
//     components (forwarded from constructs and constants);
//   - scalar, vector and matrix variables are promoted: phis at the iterated
//     dominance frontier of the stores, pruned by liveness, filled by a renaming
//     walk of the dominator tree; component writes become `insertvalue`
//     (`insertelement` for a dynamic vector index); uninitialized reads are
//     `undef`.
//
// Allocas used any other way (passed to a call, atomics) are left alone.
var SROA = &Pass{
	Name: "sroa",
	Run:  runSROA,
}

// maxSplitLeaves bounds the scalar leaves of an array SROA will split into
// separate variables; larger arrays stay in memory.
const maxSplitLeaves = 128

// runSROA implements SROA: it splits function-local aggregates into per-leaf variables and
// promotes variables to SSA values (mem2reg included).
//
// Why: the HLSL front end gives every local variable, parameter copy and
// temporary an alloca. Shader targets want registers, not stack memory
// (SPIR-V function variables and DXIL allocas are expensive and block every
// later optimization), so — as the DXIL scalarization seed describes for
// DXC's SROA — allocas whose uses are loads, stores and constant-index
// access chains are split per leaf and promoted.
//
// Splitting. Each alloca's uses are followed through access chains to the
// loads, stores and memcpys that read or write it; a use anywhere else (a
// call argument, an atomic, the pointer stored as a value) makes the alloca
// escape and it is left alone. The alloca's type is then cut into slices:
//   - structs are always split into their fields;
//   - fixed-size arrays are split into elements unless some access indexes
//     them dynamically (that array stays one slice, in memory) or they have
//     more than maxSplitLeaves scalar leaves;
//   - vectors and matrices are split into components (rows) only if every
//     access names a constant component; a vector also used whole stays one
//     slice and its component accesses become extract/insert on SSA values.
//
// Slices are new allocas named after the original with the component path
// appended (`%a.x`, `%s.pos.y`, `%arr.1`; struct fields by name). A load or
// store of a split aggregate becomes per-slice loads (combined with
// `construct`, keeping the original load's name) or per-slice stores of
// extracted components.
//
// Promotion. A slice of scalar, vector or matrix type whose remaining uses
// are whole loads and stores (after rewriting constant component accesses,
// and a dynamic index into a vector, into extract/insert) is promoted with
// the classic SSA construction: phis at the iterated dominance frontier of
// the stores, pruned to blocks where the variable is live, then a renaming
// walk over the dominator tree. Phis are named after the variable (the
// first takes the alloca's own name); loads read before any store yield
// `undef`. Arrays that stay in memory are not promoted.
func runSROA(m *ir.Module, ctx *Context) (bool, error) {
	changed := false
	for _, f := range m.Funcs {
		if f.IsDeclaration() {
			continue
		}
		if sroaFunction(f) {
			changed = true
		}
	}
	return changed, nil
}

func sroaFunction(f *ir.Function) bool {
	var allocas []*ir.Instr
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op == ir.OpAlloca {
				allocas = append(allocas, in)
			}
		}
	}
	if len(allocas) == 0 {
		return false
	}
	changed := expandMemIntrinsics(f, allocas)
	// Rewrites are batched: every alloca's replacements and deletions are
	// applied in one walk of the function, so the pass stays linear in the
	// function's size however many allocas it has.
	users := computeUsers(f)
	rw := &rewrites{repl: map[ir.Value]ir.Value{}, dead: map[*ir.Instr]bool{}}
	var leaves []*ir.Instr
	for _, a := range allocas {
		ls, c := splitAlloca(f, a, users, rw)
		changed = changed || c
		leaves = append(leaves, ls...)
	}
	rw.apply(f)
	if len(leaves) == 0 {
		return changed
	}
	users = computeUsers(f)
	var promotable []*ir.Instr
	for _, a := range leaves {
		if lowerComponentAccesses(f, a, users, rw) {
			promotable = append(promotable, a)
		}
	}
	rw.apply(f)
	if len(promotable) > 0 && promoteAllocas(f, promotable) {
		changed = true
	}
	return changed
}

// rewrites collects value replacements and instruction deletions to apply
// to a function in one walk.
type rewrites struct {
	repl map[ir.Value]ir.Value
	dead map[*ir.Instr]bool
}

// resolve follows pending replacements of v.
func (rw *rewrites) resolve(v ir.Value) ir.Value { return ir.Resolve(rw.repl, v) }

func (rw *rewrites) apply(f *ir.Function) {
	if len(rw.repl) > 0 {
		f.ReplaceUses(rw.repl)
		clear(rw.repl)
	}
	if len(rw.dead) > 0 {
		removeInstrs(f, rw.dead)
		clear(rw.dead)
	}
}

// rootAlloca returns the alloca a pointer value is derived from through
// access chains (nil if none).
func rootAlloca(v ir.Value) *ir.Instr {
	for {
		in, ok := v.(*ir.Instr)
		if !ok {
			return nil
		}
		switch in.Op {
		case ir.OpAlloca:
			return in
		case ir.OpAccess:
			v = in.Args[0]
		default:
			return nil
		}
	}
}

// expandMemIntrinsics rewrites every memcpy that touches an alloca into a
// load of the source and a store to the destination (memcpy copies exactly
// one pointee value), and every memset of an alloca with a constant byte
// into a store of the constant it produces, so that both are split along
// with the allocas.
func expandMemIntrinsics(f *ir.Function, allocas []*ir.Instr) bool {
	changed := false
	for _, b := range f.Blocks {
		for i := 0; i < len(b.Instrs); i++ {
			in := b.Instrs[i]
			switch {
			case in.Op == ir.OpMemcpy && len(in.Args) == 2:
				dst, src := in.Args[0], in.Args[1]
				if rootAlloca(dst) == nil && rootAlloca(src) == nil {
					continue
				}
				t := src.Type().Elem
				ld := newInstr(f, ir.OpLoad, t, baseName(src)+".copy")
				ld.Args = []ir.Value{src}
				ld.Loc = in.Loc
				st := ir.NewInstr(f, ir.OpStore, ir.Void, "")
				st.Args = []ir.Value{ld, dst}
				st.Loc = in.Loc
				ld.Block, st.Block = b, b
				b.Instrs[i] = ld
				insertAt(b, i+1, st)
				in.Block = nil
				i++
				changed = true
			case in.Op == ir.OpMemset && len(in.Args) == 2:
				by, ok := constIndex(in.Args[1])
				if !ok || rootAlloca(in.Args[0]) == nil {
					continue
				}
				c := memsetConst(in.Args[0].Type().Elem, uint64(by)&0xFF)
				if c == nil {
					continue
				}
				st := ir.NewInstr(f, ir.OpStore, ir.Void, "")
				st.Args = []ir.Value{c, in.Args[0]}
				st.Loc = in.Loc
				st.Block = b
				b.Instrs[i] = st
				in.Block = nil
				changed = true
			}
		}
	}
	return changed
}

// memsetConst is the value memset with byte by gives a value of type t:
// the byte repeated over each scalar's width, bools true for a non-zero
// byte (the interpreter's definition). It returns nil for types it cannot
// build (runtime arrays, pointers).
func memsetConst(t *ir.Type, by uint64) *ir.Const {
	switch {
	case t.Kind == ir.KBool:
		return ir.ConstBool(t, by != 0)
	case t.IsScalar():
		var v uint64
		for i := 0; i < 64; i += 8 {
			v |= by << uint(i)
		}
		if t.Bits < 64 {
			v &= uint64(1)<<uint(t.Bits) - 1
		}
		if t.Kind == ir.KFloat {
			if t.Bits != 32 {
				return nil
			}
			return ir.ConstF32Bits(uint32(v))
		}
		if t.Bits == 32 {
			return foldedInt(t, v)
		}
		return nil
	case t.Kind == ir.KArray && t.Len < 0, t.Kind == ir.KPointer:
		return nil
	case t.IsAggregate():
		n := t.NumElems()
		elems := make([]*ir.Const, n)
		for i := 0; i < n; i++ {
			if elems[i] = memsetConst(t.ElemType(i), by); elems[i] == nil {
				return nil
			}
		}
		if by == 0 {
			return ir.ConstZero(t)
		}
		return ir.ConstAggregate(t, elems)
	}
	return nil
}

// pathElem is one index of an access path: a constant or a dynamic value.
type pathElem struct {
	c   int
	dyn ir.Value // non-nil for a dynamic index
}

// memUse is a load or store reaching an alloca through access chains.
type memUse struct {
	in   *ir.Instr
	path []pathElem
}

// collectMemUses walks the pointer uses of alloca a. It returns the loads
// and stores with their paths, the access chains seen (to delete after
// rewriting), and ok=false if the alloca escapes.
func collectMemUses(a *ir.Instr, users userMap) (uses []memUse, accesses []*ir.Instr, ok bool) {
	type item struct {
		ptr  ir.Value
		path []pathElem
	}
	work := []item{{a, nil}}
	for len(work) > 0 {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		for _, u := range uniqueUsers(users[it.ptr]) {
			switch u.Op {
			case ir.OpLoad:
				uses = append(uses, memUse{u, it.path})
			case ir.OpStore:
				if u.Args[0] == it.ptr || u.Args[1] != it.ptr {
					return nil, nil, false
				}
				uses = append(uses, memUse{u, it.path})
			case ir.OpAccess:
				if u.Args[0] != it.ptr {
					return nil, nil, false
				}
				for _, ix := range u.Args[1:] {
					if ix == it.ptr {
						return nil, nil, false
					}
				}
				p := make([]pathElem, len(it.path), len(it.path)+len(u.Args)-1)
				copy(p, it.path)
				for _, ix := range u.Args[1:] {
					if c, isConst := ix.(*ir.Const); isConst && c.Type().IsIntegral() && !c.Undef {
						p = append(p, pathElem{c: int(c.Int())})
					} else {
						p = append(p, pathElem{c: -1, dyn: ix})
					}
				}
				accesses = append(accesses, u)
				work = append(work, item{u, p})
			default:
				return nil, nil, false
			}
		}
	}
	return uses, accesses, true
}

// sliceNode is a node of an alloca's type tree during splitting.
type sliceNode struct {
	typ      *ir.Type
	name     string
	split    bool
	children []*sliceNode // by component index (nil entries: never used)
	alloca   *ir.Instr    // the slice's alloca (leaves only)

	whole   bool // loaded/stored as a whole
	dynamic bool // indexed with a dynamic index here
	sub     bool // accessed at a constant sub-path
}

func (n *sliceNode) child(i int) *sliceNode {
	if n.children == nil {
		n.children = make([]*sliceNode, n.typ.NumElems())
	}
	if n.children[i] == nil {
		n.children[i] = &sliceNode{typ: n.typ.ElemType(i)}
	}
	return n.children[i]
}

// mark records one access path in the tree. It reports false if a constant
// index is out of range (the alloca is then left alone).
func (n *sliceNode) mark(path []pathElem) bool {
	for _, p := range path {
		if p.dyn != nil {
			n.dynamic = true
			return true
		}
		if n.typ.ElemType(p.c) == nil || n.typ.Kind == ir.KArray && n.typ.Len < 0 {
			return false
		}
		n.sub = true
		n = n.child(p.c)
	}
	n.whole = true
	return true
}

// decide chooses which nodes are split (top-down, so that a whole access of
// a split node counts as a whole access of each child) and names them.
func (n *sliceNode) decide(name string) {
	n.name = name
	switch n.typ.Kind {
	case ir.KStruct:
		n.split = !n.dynamic
	case ir.KArray:
		n.split = !n.dynamic && n.typ.Len > 0 && n.typ.ScalarCount() <= maxSplitLeaves && n.typ.ScalarCount() > 0
	case ir.KVector, ir.KMatrix:
		n.split = !n.dynamic && !n.whole && n.sub
	}
	if !n.split {
		return
	}
	if n.whole {
		for i := 0; i < n.typ.NumElems(); i++ {
			n.child(i).whole = true
		}
	}
	for i, c := range n.children {
		if c != nil {
			c.decide(name + "." + componentSuffix(n.typ, i))
		}
	}
}

// leaves appends the leaf slices under n in component order.
func (n *sliceNode) leaves(out []*sliceNode) []*sliceNode {
	if !n.split {
		return append(out, n)
	}
	for _, c := range n.children {
		if c != nil {
			out = c.leaves(out)
		}
	}
	return out
}

// splitAlloca splits alloca a per the slicing rules. It returns the allocas
// that remain for promotion (the slices, or a itself when it is not split)
// and whether anything changed. Escaping allocas return nothing.
func splitAlloca(f *ir.Function, a *ir.Instr, users userMap, rw *rewrites) ([]*ir.Instr, bool) {
	uses, accesses, ok := collectMemUses(a, users)
	if !ok {
		return nil, false
	}
	root := &sliceNode{typ: a.Type().Elem}
	for _, u := range uses {
		if !root.mark(u.path) {
			return nil, false
		}
	}
	root.decide(a.Name())
	if !root.split {
		return []*ir.Instr{a}, false
	}
	// Create the slice allocas where a was.
	pos := indexInBlock(a)
	leaves := root.leaves(nil)
	out := make([]*ir.Instr, 0, len(leaves))
	for _, l := range leaves {
		na := newInstr(f, ir.OpAlloca, ir.Ptr(ir.SpaceFunction, l.typ), l.name)
		na.Loc = a.Loc
		insertAt(a.Block, pos, na)
		pos++
		l.alloca = na
		out = append(out, na)
	}
	rw.dead[a] = true
	for _, acc := range accesses {
		rw.dead[acc] = true
	}
	for _, u := range uses {
		rewriteSplitUse(f, root, u, rw)
	}
	return out, true
}

func indexInBlock(in *ir.Instr) int {
	for i, x := range in.Block.Instrs {
		if x == in {
			return i
		}
	}
	return -1
}

// rewriteSplitUse rewrites one load or store of a split alloca.
func rewriteSplitUse(f *ir.Function, root *sliceNode, u memUse, rw *rewrites) {
	n := root
	k := 0
	for n.split && k < len(u.path) {
		n = n.children[u.path[k].c]
		k++
	}
	bd := ir.NewBuilder(f)
	bd.SetBefore(u.in)
	bd.Loc = u.in.Loc
	if !n.split {
		// The access lands in leaf slice n, at the remaining sub-path.
		var ptr ir.Value = n.alloca
		if rest := u.path[k:]; len(rest) > 0 {
			idx := make([]ir.Value, len(rest))
			for i, p := range rest {
				if p.dyn != nil {
					idx[i] = p.dyn
				} else {
					idx[i] = i32c(p.c)
				}
			}
			acc := newInstr(f, ir.OpAccess, ir.AccessType(n.alloca.Type(), idx), n.name+".ptr")
			acc.Args = append([]ir.Value{n.alloca}, idx...)
			bd.Insert(acc)
			ptr = acc
		}
		if u.in.Op == ir.OpLoad {
			u.in.Args[0] = ptr
		} else {
			u.in.Args[1] = ptr
		}
		return
	}
	// A whole access of split node n.
	rw.dead[u.in] = true
	if u.in.Op == ir.OpLoad {
		v := loadSplit(f, bd, n, u.in)
		rw.repl[u.in] = v
		return
	}
	storeSplit(f, bd, n, rw.resolve(u.in.Args[0]), rw)
}

// loadSplit loads every leaf under split node n and rebuilds the value;
// the outermost construct takes over the name of the load it replaces
// (orig, nil for inner levels).
func loadSplit(f *ir.Function, bd *ir.Builder, n *sliceNode, orig *ir.Instr) ir.Value {
	if !n.split {
		ld := newInstr(f, ir.OpLoad, n.typ, n.name)
		ld.Args = []ir.Value{n.alloca}
		return bd.Insert(ld)
	}
	elems := make([]ir.Value, len(n.children))
	for i, c := range n.children {
		elems[i] = loadSplit(f, bd, c, nil)
	}
	var in *ir.Instr
	if orig != nil {
		in = newInstrTakingName(f, ir.OpConstruct, n.typ, orig)
	} else {
		in = newInstr(f, ir.OpConstruct, n.typ, n.name)
	}
	in.Args = elems
	return bd.Insert(in)
}

// storeSplit stores v (of n's type) into the leaves under n.
func storeSplit(f *ir.Function, bd *ir.Builder, n *sliceNode, v ir.Value, rw *rewrites) {
	if !n.split {
		st := ir.NewInstr(f, ir.OpStore, ir.Void, "")
		st.Args = []ir.Value{v, n.alloca}
		bd.Insert(st)
		return
	}
	for i, c := range n.children {
		storeSplit(f, bd, c, extractComponent(f, bd, v, i, c.name, rw), rw)
	}
}

// extractComponent returns component i of aggregate v, forwarding from
// constants, constructs and matching insertvalues instead of emitting an
// extractvalue when it can (following rw's pending replacements).
func extractComponent(f *ir.Function, bd *ir.Builder, v ir.Value, i int, name string, rw *rewrites) ir.Value {
	for {
		v = rw.resolve(v)
		switch x := v.(type) {
		case *ir.Const:
			if e := x.Elem(i); e != nil {
				return e
			}
		case *ir.Instr:
			if x.Op == ir.OpConstruct && len(x.Args) == x.Type().NumElems() {
				return x.Args[i]
			}
			if x.Op == ir.OpInsertValue && len(x.Idx) == 1 {
				if x.Idx[0] == i {
					return x.Args[1]
				}
				v = x.Args[0]
				continue
			}
		}
		break
	}
	ev := newInstr(f, ir.OpExtractValue, v.Type().ElemType(i), name)
	ev.Args = []ir.Value{v}
	ev.Idx = []int{i}
	return bd.Insert(ev)
}

// lowerComponentAccesses prepares alloca a (a leaf slice or an unsplit
// alloca) for promotion: it must be of scalar, vector or matrix type and
// every use must be a whole load or store, or a load or store through an
// access chain with constant indices (or a dynamic last index into a
// vector), which is rewritten into a whole load plus extract (or a whole
// load, insert and whole store). It reports whether a is now promotable.
func lowerComponentAccesses(f *ir.Function, a *ir.Instr, users userMap, rw *rewrites) bool {
	t := a.Type().Elem
	if !(t.IsScalar() || t.Kind == ir.KVector || t.Kind == ir.KMatrix) {
		return false
	}
	uses, accesses, ok := collectMemUses(a, users)
	if !ok {
		return false
	}
	for _, u := range uses {
		consts, last := splitDynamic(u.path)
		for _, p := range u.path[:len(consts)] {
			if p.dyn != nil {
				return false // a dynamic index that is not the last one
			}
		}
		pt := t.IndexPath(consts)
		if pt == nil || last != nil && pt.Kind != ir.KVector {
			return false
		}
	}
	if len(accesses) == 0 {
		return true
	}
	for _, acc := range accesses {
		rw.dead[acc] = true
	}
	for _, u := range uses {
		if len(u.path) == 0 {
			continue
		}
		bd := ir.NewBuilder(f)
		bd.SetBefore(u.in)
		bd.Loc = u.in.Loc
		whole := newInstr(f, ir.OpLoad, t, baseName(a)+".ld") // promoted away
		whole.Args = []ir.Value{a}
		bd.Insert(whole)
		rw.dead[u.in] = true
		if u.in.Op == ir.OpLoad {
			rw.repl[u.in] = extractPath(f, bd, whole, u.path, u.in)
		} else {
			nv := insertPath(f, bd, whole, u.in.Args[0], u.path, baseName(a))
			st := ir.NewInstr(f, ir.OpStore, ir.Void, "")
			st.Args = []ir.Value{nv, a}
			bd.Insert(st)
		}
	}
	return true
}

func constPrefix(p []pathElem) []int {
	out := make([]int, len(p))
	for i, e := range p {
		out[i] = e.c
	}
	return out
}

// extractPath reads the component at path from v: extractvalue for the
// constant prefix, extractelement for a dynamic last index. The final
// instruction takes over orig's name (orig is the load being replaced).
func extractPath(f *ir.Function, bd *ir.Builder, v ir.Value, path []pathElem, orig *ir.Instr) ir.Value {
	consts, last := splitDynamic(path)
	cur := v
	if len(consts) > 0 {
		var ev *ir.Instr
		if last != nil {
			ev = newInstr(f, ir.OpExtractValue, v.Type().IndexPath(consts), baseName(v)+".row")
		} else {
			ev = newInstrTakingName(f, ir.OpExtractValue, v.Type().IndexPath(consts), orig)
		}
		ev.Args = []ir.Value{v}
		ev.Idx = consts
		cur = bd.Insert(ev)
	}
	if last != nil {
		ee := newInstrTakingName(f, ir.OpExtractElem, cur.Type().Elem, orig)
		ee.Args = []ir.Value{cur, last}
		cur = bd.Insert(ee)
	}
	return cur
}

// insertPath returns v with the component at path replaced by e.
func insertPath(f *ir.Function, bd *ir.Builder, v, e ir.Value, path []pathElem, name string) ir.Value {
	consts, last := splitDynamic(path)
	if last == nil {
		iv := newVersion(f, ir.OpInsertValue, v.Type(), name)
		iv.Args = []ir.Value{v, e}
		iv.Idx = consts
		return bd.Insert(iv)
	}
	vec := v
	if len(consts) > 0 {
		ev := newInstr(f, ir.OpExtractValue, v.Type().IndexPath(consts), baseName(v)+".row")
		ev.Args = []ir.Value{v}
		ev.Idx = consts
		vec = bd.Insert(ev)
	}
	ie := newVersion(f, ir.OpInsertElem, vec.Type(), name)
	ie.Args = []ir.Value{vec, e, last}
	bd.Insert(ie)
	if len(consts) == 0 {
		return ie
	}
	iv := newVersion(f, ir.OpInsertValue, v.Type(), name)
	iv.Args = []ir.Value{v, ie}
	iv.Idx = consts
	return bd.Insert(iv)
}

// splitDynamic separates a path into its constant prefix and an optional
// dynamic last index.
func splitDynamic(path []pathElem) ([]int, ir.Value) {
	var last ir.Value
	if n := len(path); n > 0 && path[n-1].dyn != nil {
		last = path[n-1].dyn
		path = path[:n-1]
	}
	return constPrefix(path), last
}

// promoteAllocas turns the given allocas (whose only uses are whole loads
// and stores) into SSA values.
func promoteAllocas(f *ir.Function, allocas []*ir.Instr) bool {
	dt := newDomTree(f)
	if len(dt.rpo) == 0 {
		return false
	}
	if len(dt.preds[0]) > 0 {
		// The entry has predecessors: there is no edge on which to enter
		// the initial value. (The verifier rejects such functions anyway.)
		return false
	}
	varOf := make(map[*ir.Instr]int, len(allocas))
	for i, a := range allocas {
		varOf[a] = i
	}
	type varInfo struct {
		defBlocks []int // rpo indices with stores
		useBlocks []int // rpo indices whose first access is a load
	}
	info := make([]varInfo, len(allocas))
	for bi, b := range dt.rpo {
		// first[v]: 1 = first access in b is a load, 2 = a store.
		var first map[int]int
		for _, in := range b.Instrs {
			var v int
			var isVar bool
			switch in.Op {
			case ir.OpLoad:
				if a, ok := in.Args[0].(*ir.Instr); ok {
					v, isVar = varOf[a]
				}
			case ir.OpStore:
				if a, ok := in.Args[1].(*ir.Instr); ok {
					v, isVar = varOf[a]
				}
			}
			if !isVar {
				continue
			}
			if first == nil {
				first = map[int]int{}
			}
			if _, seen := first[v]; !seen {
				if in.Op == ir.OpLoad {
					first[v] = 1
					info[v].useBlocks = append(info[v].useBlocks, bi)
				} else {
					first[v] = 2
				}
			}
			if in.Op == ir.OpStore {
				if l := info[v].defBlocks; len(l) == 0 || l[len(l)-1] != bi {
					info[v].defBlocks = append(info[v].defBlocks, bi)
				}
			}
		}
	}
	df := dt.frontiers()
	n := len(dt.rpo)
	// phiAt[block] lists (var, phi) pairs placed at that block.
	type varPhi struct {
		v   int
		phi *ir.Instr
	}
	phiAt := make([][]varPhi, n)
	isDef := make([]bool, n)
	live := make([]bool, n)
	inIDF := make([]bool, n)
	for v := range allocas {
		vi := info[v]
		if len(vi.useBlocks) == 0 {
			continue // never read: no phis needed
		}
		for _, d := range vi.defBlocks {
			isDef[d] = true
		}
		// Live-in blocks: upward-exposed uses, propagated to predecessors
		// until a defining block.
		var liveList []int
		work := append([]int(nil), vi.useBlocks...)
		for _, u := range work {
			live[u] = true
			liveList = append(liveList, u)
		}
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			for _, p := range dt.preds[b] {
				if !live[p] && !isDef[p] {
					live[p] = true
					liveList = append(liveList, p)
					work = append(work, p)
				}
			}
		}
		// Iterated dominance frontier of the defining blocks, pruned to
		// live-in blocks.
		var placed []int
		work = append(work[:0], vi.defBlocks...)
		var idfList []int
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			for _, y := range df[b] {
				if inIDF[y] {
					continue
				}
				inIDF[y] = true
				idfList = append(idfList, y)
				if live[y] {
					placed = append(placed, y)
				}
				if !isDef[y] {
					work = append(work, y)
				}
			}
		}
		sort.Ints(placed)
		for _, y := range placed {
			phiAt[y] = append(phiAt[y], varPhi{v: v})
		}
		for _, d := range vi.defBlocks {
			isDef[d] = false
		}
		for _, l := range liveList {
			live[l] = false
		}
		for _, y := range idfList {
			inIDF[y] = false
		}
	}
	// Create the phis, named after their variable: the first phi of a
	// variable takes the alloca's name (the alloca is deleted).
	nameTaken := make([]bool, len(allocas))
	for bi := 0; bi < n; bi++ {
		b := dt.rpo[bi]
		for k := range phiAt[bi] {
			vp := &phiAt[bi][k]
			a := allocas[vp.v]
			phi := ir.NewInstr(f, ir.OpPhi, ir.Void, "")
			phi.SetType(a.Type().Elem)
			if !nameTaken[vp.v] && a.Name() != "" {
				phi.SetRawName(a.Name())
				nameTaken[vp.v] = true
			} else {
				phi.SetRawName(f.UniqueName(baseName(a)))
			}
			phi.Loc = a.Loc
			insertAt(b, k, phi)
			vp.phi = phi
		}
	}
	// Rename along the dominator tree.
	cur := make([]ir.Value, len(allocas))
	for v, a := range allocas {
		cur[v] = ir.ConstUndef(a.Type().Elem)
	}
	repl := map[ir.Value]ir.Value{}
	dead := map[*ir.Instr]bool{}
	type saved struct {
		v   int
		val ir.Value
	}
	type frame struct {
		b     int
		next  int
		saves []saved
	}
	var stack []frame
	enter := func(bi int) frame {
		fr := frame{b: bi}
		b := dt.rpo[bi]
		set := func(v int, val ir.Value) {
			fr.saves = append(fr.saves, saved{v, cur[v]})
			cur[v] = val
		}
		for _, vp := range phiAt[bi] {
			set(vp.v, vp.phi)
		}
		for _, in := range b.Instrs {
			switch in.Op {
			case ir.OpLoad:
				if a, ok := in.Args[0].(*ir.Instr); ok {
					if v, isVar := varOf[a]; isVar {
						repl[in] = cur[v]
						dead[in] = true
					}
				}
			case ir.OpStore:
				if a, ok := in.Args[1].(*ir.Instr); ok {
					if v, isVar := varOf[a]; isVar {
						set(v, in.Args[0])
						dead[in] = true
					}
				}
			}
		}
		for _, s := range b.Successors() {
			si, ok := dt.number(s)
			if !ok {
				continue
			}
			for _, vp := range phiAt[si] {
				if vp.phi.Incoming(b) == nil {
					vp.phi.AddIncoming(cur[vp.v], b)
				}
			}
		}
		return fr
	}
	stack = append(stack, enter(0))
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(dt.children[top.b]) {
			c := dt.children[top.b][top.next]
			top.next++
			stack = append(stack, enter(c))
			continue
		}
		for i := len(top.saves) - 1; i >= 0; i-- {
			cur[top.saves[i].v] = top.saves[i].val
		}
		stack = stack[:len(stack)-1]
	}
	// Unreachable code: loads read undef, stores vanish. Phis get undef
	// from unreachable predecessors.
	for _, b := range f.Blocks {
		if dt.reachable(b) {
			continue
		}
		for _, in := range b.Instrs {
			switch in.Op {
			case ir.OpLoad:
				if a, ok := in.Args[0].(*ir.Instr); ok {
					if _, isVar := varOf[a]; isVar {
						repl[in] = ir.ConstUndef(in.Type())
						dead[in] = true
					}
				}
			case ir.OpStore:
				if a, ok := in.Args[1].(*ir.Instr); ok {
					if _, isVar := varOf[a]; isVar {
						dead[in] = true
					}
				}
			}
		}
		for _, s := range b.Successors() {
			if si, ok := dt.number(s); ok {
				for _, vp := range phiAt[si] {
					if vp.phi.Incoming(b) == nil {
						vp.phi.AddIncoming(ir.ConstUndef(vp.phi.Type()), b)
					}
				}
			}
		}
	}
	for _, a := range allocas {
		dead[a] = true
	}
	// List phi entries in block layout order, as a reader expects.
	layout := make(map[*ir.Block]int, len(f.Blocks))
	for i, b := range f.Blocks {
		layout[b] = i
	}
	for _, l := range phiAt {
		for _, vp := range l {
			sortPhiEntries(vp.phi, layout)
		}
	}
	f.ReplaceUses(repl)
	removeInstrs(f, dead)
	return true
}

// sortPhiEntries orders a phi's incoming entries by block layout.
func sortPhiEntries(phi *ir.Instr, layout map[*ir.Block]int) {
	idx := make([]int, len(phi.Args))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return layout[phi.PhiBlocks[idx[a]]] < layout[phi.PhiBlocks[idx[b]]] })
	args := make([]ir.Value, len(idx))
	blocks := make([]*ir.Block, len(idx))
	for i, j := range idx {
		args[i], blocks[i] = phi.Args[j], phi.PhiBlocks[j]
	}
	phi.Args, phi.PhiBlocks = args, blocks
}
