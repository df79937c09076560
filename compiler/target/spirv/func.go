package spirv

import (
	"fmt"

	"passlens/compiler/analysis/uniformity"
	"passlens/compiler/ir"
)

// This file emits one function: its signature, blocks in the order
// cfg.go chose, phis, merges, terminators and the memory instructions.
// Arithmetic is in ops.go and intrinsics in intrinsics.go.

// ptrInfo is what the emitter knows about a pointer value.
type ptrInfo struct {
	sc      uint32
	rule    layoutRule
	wrapped bool   // points at a buffer's wrapper struct: dereference member 0
	root    uint32 // points at a buffer's Block struct (pointee is this type, not the cached one)
	decl    bool   // a memory object declaration (an alloca or a parameter)
	ro      bool   // the memory is read-only (uniform, input, readonly buffer)
	ptype   uint32 // the SPIR-V pointer type of the value
	// nonUniform: the pointer may address a different buffer in each
	// lane (selected between buffers); it and the chains from it are
	// decorated NonUniform.
	nonUniform bool
}

type fn struct {
	e      *enc
	f      *ir.Function
	cfg    *cfgInfo
	use    *funcUse
	vals   map[ir.Value]uint32
	ptrs   map[ir.Value]*ptrInfo
	blocks map[*ir.Block]uint32
	vars   section // OpVariable instructions of the first block
	body   section
	cur    *ir.Block
	curIn  *ir.Instr
	// chains holds the access instructions that are only bases of other
	// accesses: not emitted, their base and indices are prepended to their
	// users' (one OpAccessChain, as glslang and DXC emit).
	chains map[*ir.Instr]*chain
	fold   map[*ir.Instr]bool // foldableAccesses
	// elems are the access chains to resource array elements used here,
	// emitted in elemSec at the top of the first block; arraySels the
	// dynamic indices into resource arrays and skipSels their chains'
	// inner selects (resarray.go).
	elems     map[*ir.Global]uint32
	elemSec   section
	arraySels map[ir.Value]arraySelect
	skipSels  map[*ir.Instr]bool
	unif      *uniformity.UniformityInfo // computed on demand (isDivergent)
}

// chain is a folded access: its base pointer, indices and pointer info.
type chain struct {
	base uint32
	idx  []uint32
	pi   *ptrInfo
}

// foldableAccesses returns the access instructions of f whose every use
// is as the base of another access.
func foldableAccesses(f *ir.Function) map[*ir.Instr]bool {
	ok := map[*ir.Instr]bool{}
	bad := map[*ir.Instr]bool{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op == ir.OpAccess {
				ok[in] = true
			}
			for i, a := range in.Args {
				if x, isInstr := a.(*ir.Instr); isInstr && x.Op == ir.OpAccess && (in.Op != ir.OpAccess || i != 0) {
					bad[x] = true
				}
			}
		}
	}
	for x := range bad {
		delete(ok, x)
	}
	return ok
}

// fail returns an *Error located at the current block and instruction.
func (fe *fn) fail(format string, args ...any) *Error {
	e := &Error{Func: fe.f.Name(), Msg: fmt.Sprintf(format, args...)}
	if fe.cur != nil {
		e.Block = fe.cur.Name()
	}
	if fe.curIn != nil {
		e.Instr = ir.InstrString(fe.curIn)
		e.at(fe.e.m.Name, fe.curIn.Loc)
	}
	return e
}

// typ returns the plain type id of an IR type or fails.
func (fe *fn) typ(t *ir.Type) (uint32, error) {
	id, err := fe.e.typeID(t, rulePlain)
	if err != nil {
		return 0, fe.fail("%v", err)
	}
	return id, nil
}

// op appends an instruction with a result: op type result args...
func (fe *fn) op(op uint16, tid, res uint32, args ...uint32) uint32 {
	if res == 0 {
		res = fe.e.id()
	}
	fe.body.inst(op, append([]uint32{tid, res}, args...)...)
	return res
}

// resultID returns (allocating) the id of an instruction's result.
func (fe *fn) resultID(in *ir.Instr) uint32 {
	if id, ok := fe.vals[in]; ok {
		return id
	}
	id := fe.e.id()
	fe.vals[in] = id
	return id
}

func (fe *fn) blockID(b *ir.Block) uint32 {
	if id, ok := fe.blocks[b]; ok {
		return id
	}
	id := fe.e.id()
	fe.blocks[b] = id
	return id
}

// value returns the id of an operand.
func (fe *fn) value(v ir.Value) (uint32, error) {
	switch x := v.(type) {
	case *ir.Const:
		if err := checkConst(x); err != nil {
			return 0, fe.fail("%v", err)
		}
		if _, err := fe.typ(x.Type()); err != nil {
			return 0, err
		}
		return fe.e.constOf(x), nil
	case *ir.Global:
		gv := fe.e.gvars[x]
		if gv == nil {
			return 0, fe.fail("global @%s was not declared", x.Name())
		}
		if gv.iface != 0 {
			fe.use.iface[gv.iface] = true
		}
		return fe.globalPtr(gv), nil
	case *ir.Param:
		if id, ok := fe.vals[x]; ok {
			return id, nil
		}
		return 0, fe.fail("parameter %s of another function", x.Ref())
	case *ir.Instr:
		if x.Block == nil || x.Block.Func != fe.f {
			return 0, fe.fail("operand %s is not an instruction of this function", x.Ref())
		}
		return fe.resultID(x), nil
	case nil:
		return 0, fe.fail("missing operand")
	}
	return 0, fe.fail("unsupported operand %s", v.Ref())
}

// pointer returns a pointer operand's id and what is known about it.
func (fe *fn) pointer(v ir.Value) (uint32, *ptrInfo, error) {
	if v == nil || v.Type().Kind != ir.KPointer {
		return 0, nil, fe.fail("operand is not a pointer")
	}
	id, err := fe.value(v)
	if err != nil {
		return 0, nil, err
	}
	if g, ok := v.(*ir.Global); ok {
		gv := fe.e.gvars[g]
		pi := &ptrInfo{sc: gv.sc, rule: gv.rule, wrapped: gv.wrapped,
			ro: g.Space == ir.SpaceUniform || g.Space == ir.SpaceInput || g.ReadOnly}
		if gv.root != 0 {
			pi.ptype = fe.e.pointerType(gv.sc, gv.root)
			if !gv.wrapped {
				pi.root = gv.root
			}
		} else {
			pi.ptype = fe.e.pointerType(gv.sc, fe.e.mustType(g.ValType, gv.rule))
		}
		return id, pi, nil
	}
	if c, ok := v.(*ir.Const); ok {
		return 0, nil, fe.fail("pointer constant %s cannot be dereferenced", c.Literal())
	}
	pi := fe.ptrs[v]
	if pi == nil {
		return 0, nil, fe.fail("pointer %s of unknown origin (SPIR-V logical addressing needs pointers from variables and access chains)", v.Ref())
	}
	return id, pi, nil
}

// deref returns a pointer to the IR pointee's value itself: for a wrapped
// buffer it is the access chain to member 0. root is the Block struct when
// the pointee is one.
func (fe *fn) deref(v ir.Value) (id uint32, pi *ptrInfo, root uint32, err error) {
	id, pi, err = fe.pointer(v)
	if err != nil {
		return 0, nil, 0, err
	}
	t := v.Type().Elem
	if pi.wrapped {
		et, err := fe.e.typeID(t, pi.rule)
		if err != nil {
			return 0, nil, 0, fe.fail("%v", err)
		}
		id = fe.op(OpAccessChain, fe.e.pointerType(pi.sc, et), 0, id, fe.e.uintConst(0))
		npi := *pi
		npi.wrapped = false
		return id, &npi, 0, nil
	}
	return id, pi, pi.root, nil
}

// function emits f.
func (e *enc) function(f *ir.Function) error {
	fe := &fn{e: e, f: f, use: &funcUse{iface: map[uint32]bool{}}, vals: map[ir.Value]uint32{},
		ptrs: map[ir.Value]*ptrInfo{}, blocks: map[*ir.Block]uint32{}, chains: map[*ir.Instr]*chain{}, fold: foldableAccesses(f)}
	e.fnInfo[f] = fe.use
	if f.Entry != nil && (len(f.Params) > 0 || f.Ret != ir.Void) {
		return fe.fail("entry point with parameters or a return value: stage inputs and outputs must be globals with semantics")
	}
	c, err := analyzeCFG(f)
	if err != nil {
		return err
	}
	fe.cfg = c
	fe.findArraySelects()
	ret, err := fe.typ(f.Ret)
	if err != nil {
		return err
	}
	var ptypes []uint32
	var head section
	for _, p := range f.Params {
		var pt uint32
		if p.Type().Kind == ir.KPointer {
			el, err := fe.typ(p.Type().Elem)
			if err != nil {
				return err
			}
			pt = e.pointerType(SCFunction, el)
			fe.ptrs[p] = &ptrInfo{sc: SCFunction, decl: true, ptype: pt}
		} else {
			if pt, err = fe.typ(p.Type()); err != nil {
				return err
			}
		}
		ptypes = append(ptypes, pt)
		id := e.id()
		fe.vals[p] = id
		e.name(id, p.Name())
		head.inst(OpFunctionParameter, pt, id)
	}
	fid := e.funcIDs[f]
	e.name(fid, f.Name())
	e.functions.inst(OpFunction, ret, fid, 0, e.fnType(ret, ptypes))
	e.functions = append(e.functions, head...)

	// Allocas become Function variables of the first block.
	for _, b := range c.order {
		if !c.reach[b] {
			continue
		}
		for _, in := range b.Instrs {
			if in.Op == ir.OpAlloca {
				fe.cur, fe.curIn = b, in
				el, err := fe.typ(in.Type().Elem)
				if err != nil {
					return err
				}
				id := fe.resultID(in)
				pt := e.pointerType(SCFunction, el)
				fe.vars.inst(OpVariable, pt, id, SCFunction)
				fe.ptrs[in] = &ptrInfo{sc: SCFunction, decl: true, ptype: pt}
			}
		}
	}
	if f.Entry != nil {
		if err := fe.prologue(); err != nil {
			return err
		}
	}
	for i, b := range c.order {
		fe.cur, fe.curIn = b, nil
		bid := fe.blockID(b)
		e.name(bid, b.Name())
		if i > 0 {
			fe.body.inst(OpLabel, bid)
		}
		if err := fe.block(b); err != nil {
			return err
		}
	}
	e.functions.inst(OpLabel, fe.blockID(c.order[0]))
	e.functions = append(e.functions, fe.vars...)
	e.functions = append(e.functions, fe.elemSec...)
	e.functions = append(e.functions, fe.body...)
	e.functions.inst(OpFunctionEnd)
	return nil
}

// prologue fills the Private shadows of built-ins the entry point uses.
func (fe *fn) prologue() error {
	per, _ := globalsUsed([]*ir.Function{fe.f}, fe.reachable())
	for _, g := range fe.e.sortedGlobals(per[fe.f]) {
		gv := fe.e.gvars[g]
		if gv == nil || gv.shadow == nil {
			continue
		}
		fe.use.iface[gv.shadow.builtin] = true
		bt := fe.e.mustType(gv.shadow.bt, rulePlain)
		v := fe.op(OpLoad, bt, 0, gv.shadow.builtin)
		conv, err := fe.shadowValue(v, gv.shadow.bt, g.ValType)
		if err != nil {
			return err
		}
		fe.body.inst(OpStore, gv.id, conv)
	}
	return nil
}

// epilogue copies the Private shadows of built-in outputs the entry point
// uses into their built-in arrays (before each return).
func (fe *fn) epilogue() {
	e := fe.e
	per, _ := globalsUsed([]*ir.Function{fe.f}, fe.reachable())
	for _, g := range e.sortedGlobals(per[fe.f]) {
		gv := e.gvars[g]
		if gv == nil || gv.out == nil {
			continue
		}
		fe.use.iface[gv.out.builtin] = true
		et := e.mustType(gv.out.elem, rulePlain)
		v := fe.op(OpLoad, e.mustType(g.ValType, rulePlain), 0, gv.id)
		pt := e.pointerType(SCOutput, et)
		n := 1
		if gv.out.elem == ir.F32 {
			n = distComponents(g.ValType)
		}
		for i := 0; i < n; i++ {
			x := v
			if !g.ValType.IsScalar() {
				x = fe.op(OpCompositeExtract, et, 0, v, uint32(i))
			} else if g.ValType != gv.out.elem {
				x = fe.op(OpBitcast, et, 0, v) // u32 coverage into int SampleMask
			}
			p := fe.op(OpAccessChain, pt, 0, gv.out.builtin, e.intConst(int32(gv.out.offset+i)))
			fe.body.inst(OpStore, p, x)
		}
	}
}

// reachable lists the functions f calls, transitively (f included).
func (fe *fn) reachable() []*ir.Function {
	var out []*ir.Function
	seen := map[*ir.Function]bool{}
	var walk func(g *ir.Function)
	walk = func(g *ir.Function) {
		if seen[g] || g.IsDeclaration() {
			return
		}
		seen[g] = true
		out = append(out, g)
		for _, b := range g.Blocks {
			for _, in := range b.Instrs {
				if in.Op == ir.OpCall && in.Callee != nil {
					walk(in.Callee)
				}
			}
		}
	}
	walk(fe.f)
	return out
}

// shadowValue converts a built-in value of type bt to the IR type vt
// (first components, integer signedness).
func (fe *fn) shadowValue(v uint32, bt, vt *ir.Type) (uint32, error) {
	e := fe.e
	st := ir.Vec(bt.Scalar(), vt.Lanes())
	switch {
	case vt.Lanes() == bt.Lanes():
	case vt.Lanes() == 1:
		v = fe.op(OpCompositeExtract, e.mustType(st, rulePlain), 0, v, 0)
	default:
		idx := make([]uint32, vt.Lanes())
		for i := range idx {
			idx[i] = uint32(i)
		}
		v = fe.op(OpVectorShuffle, e.mustType(st, rulePlain), 0, append([]uint32{v, v}, idx...)...)
	}
	if st != vt {
		v = fe.op(OpBitcast, e.mustType(vt, rulePlain), 0, v)
	}
	return v, nil
}

// block emits the phis, instructions and terminator of b.
func (fe *fn) block(b *ir.Block) error {
	switch fe.cfg.dead[b] {
	case deadMerge:
		if !fe.cfg.reach[b] {
			fe.body.inst(OpUnreachable)
			return nil
		}
	case deadContinue:
		if !fe.cfg.reach[b] {
			fe.body.inst(OpBranch, fe.blockID(fe.cfg.contOf[b]))
			return nil
		}
	}
	for _, in := range b.Instrs {
		fe.curIn = in
		if err := fe.instr(in); err != nil {
			return err
		}
	}
	fe.curIn = nil
	if b.Terminator() == nil {
		return fe.fail("block has no terminator")
	}
	return nil
}

// instr emits one instruction.
func (fe *fn) instr(in *ir.Instr) error {
	if in.Op == ir.OpAccess && fe.fold[in] {
		// Named by its users' chain if it folds (no id of its own).
		return fe.access(in)
	}
	if as, ok := fe.arraySels[in]; ok {
		return fe.arrayIndexPtr(in, as) // resarray.go
	}
	if fe.skipSels[in] {
		return nil // an inner select of a dynamic index into a resource array
	}
	if isImageSelect(in) {
		return nil // no id: emitted by the tex.* calls using it (texture_select.go)
	}
	if in.HasResult() && in.Name() != "" && in.Op != ir.OpAlloca {
		fe.e.name(fe.resultID(in), in.Name())
	} else if in.Op == ir.OpAlloca && in.Name() != "" {
		fe.e.name(fe.resultID(in), in.Name())
	}
	switch op := in.Op; {
	case op == ir.OpPhi:
		return fe.phi(in)
	case op.IsTerminator():
		return fe.terminator(in)
	case op == ir.OpAlloca:
		return nil // hoisted to the first block
	case op == ir.OpLoad:
		return fe.load(in)
	case op == ir.OpStore:
		return fe.store(in)
	case op == ir.OpAccess:
		return fe.access(in)
	case op == ir.OpMemcpy:
		return fe.memcpy(in)
	case op == ir.OpMemset:
		return fe.memset(in)
	case op == ir.OpAtomic:
		return fe.atomic(in)
	case op == ir.OpCall:
		return fe.call(in)
	case op == ir.OpIntrinsic:
		return fe.intrinsic(in)
	}
	if in.Op == ir.OpSelect && in.Type().Kind == ir.KPointer && in.Type().Space == ir.SpaceStorage {
		return fe.selectBuffer(in)
	}
	if in.HasResult() && in.Type().Kind == ir.KPointer {
		return fe.fail("%s producing a pointer: SPIR-V logical addressing only has pointers from variables and access chains", in.Op)
	}
	return fe.arith(in)
}

func (fe *fn) phi(in *ir.Instr) error {
	if in.Type().Kind == ir.KPointer {
		return fe.fail("pointer phi: SPIR-V logical addressing cannot merge pointers")
	}
	tid, err := fe.typ(in.Type())
	if err != nil {
		return err
	}
	ops := []uint32{}
	for _, p := range fe.cfg.preds[in.Block] {
		var vid uint32
		v := in.Incoming(p)
		if v == nil || !fe.cfg.reach[p] {
			vid = fe.e.undef(tid)
		} else if vid, err = fe.value(v); err != nil {
			return err
		}
		ops = append(ops, vid, fe.blockID(p))
	}
	fe.op(OpPhi, tid, fe.resultID(in), ops...)
	return nil
}

func (fe *fn) terminator(in *ir.Instr) error {
	c := fe.cfg
	b := in.Block
	switch in.Op {
	case ir.OpRet:
		if fe.f.Entry != nil {
			fe.epilogue()
		}
		if len(in.Args) == 0 {
			fe.body.inst(OpReturn)
			return nil
		}
		if in.Args[0].Type().Kind == ir.KPointer {
			return fe.fail("returning a pointer: SPIR-V logical addressing forbids it")
		}
		v, err := fe.value(in.Args[0])
		if err != nil {
			return err
		}
		fe.body.inst(OpReturnValue, v)
		return nil
	case ir.OpDiscard:
		for st := range fe.e.stagesOf(fe.f) {
			if st != ir.StagePixel {
				return fe.fail("discard in a function a %s entry point calls: only pixel shaders can discard", st)
			}
		}
		fe.body.inst(OpKill)
		return nil
	case ir.OpUnreachable:
		fe.body.inst(OpUnreachable)
		return nil
	}
	if in.MergeKind == ir.MergeLoop {
		fe.body.inst(OpLoopMerge, fe.blockID(in.Merge), fe.blockID(in.Continue), 0)
	} else if m := c.selMerge[b]; m != nil {
		fe.body.inst(OpSelectionMerge, fe.blockID(m), 0)
	}
	switch in.Op {
	case ir.OpBr:
		fe.body.inst(OpBranch, fe.blockID(in.Succs[0]))
	case ir.OpCondBr:
		if in.Succs[0] == in.Succs[1] {
			fe.body.inst(OpBranch, fe.blockID(in.Succs[0]))
			return nil
		}
		cond, err := fe.value(in.Args[0])
		if err != nil {
			return err
		}
		fe.body.inst(OpBranchConditional, cond, fe.blockID(in.Succs[0]), fe.blockID(in.Succs[1]))
	case ir.OpSwitch:
		return fe.switchInstr(in)
	default:
		return fe.fail("unknown terminator %s", in.Op)
	}
	return nil
}

func (fe *fn) switchInstr(in *ir.Instr) error {
	st := in.Args[0].Type()
	if !st.IsIntegral() {
		return fe.fail("switch on %s: SPIR-V switches on integer scalars", st)
	}
	sel, err := fe.value(in.Args[0])
	if err != nil {
		return err
	}
	var def *ir.Block
	for _, c := range in.Cases {
		if c.Default {
			def = c.Target
		}
	}
	if def == nil {
		return fe.fail("switch without default")
	}
	ops := []uint32{sel, fe.blockID(def)}
	for _, c := range in.Cases {
		for _, v := range c.Values {
			if st.Bits == 64 {
				ops = append(ops, uint32(v), uint32(uint64(v)>>32))
			} else {
				w := uint32(v)
				if st.Bits < 32 {
					w &= 1<<uint(st.Bits) - 1
					if st.Kind == ir.KInt && w>>(uint(st.Bits)-1)&1 != 0 {
						w |= ^uint32(0) << uint(st.Bits)
					}
				}
				ops = append(ops, w)
			}
			ops = append(ops, fe.blockID(c.Target))
		}
	}
	fe.body.inst(OpSwitch, ops...)
	return nil
}

// stagesOf returns the stages of the emitted entry points that reach f.
func (e *enc) stagesOf(f *ir.Function) map[ir.Stage]bool {
	out := map[ir.Stage]bool{}
	for _, ep := range e.m.EntryPoints() {
		if _, ok := e.funcIDs[ep]; !ok {
			continue
		}
		if e.opts.Entry != "" && ep.Name() != e.opts.Entry {
			continue
		}
		seen := map[*ir.Function]bool{}
		var walk func(g *ir.Function) bool
		walk = func(g *ir.Function) bool {
			if g == f {
				return true
			}
			if seen[g] {
				return false
			}
			seen[g] = true
			for _, b := range g.Blocks {
				for _, in := range b.Instrs {
					if in.Op == ir.OpCall && in.Callee != nil && walk(in.Callee) {
						return true
					}
				}
			}
			return false
		}
		if walk(ep) {
			out[ep.Entry.Stage] = true
		}
	}
	return out
}

// ---- memory ----

func (fe *fn) load(in *ir.Instr) error {
	t := in.Type()
	p, pi, root, err := fe.deref(in.Args[0])
	if err != nil {
		return err
	}
	res := fe.resultID(in)
	src, err := fe.e.typeID(t, pi.rule)
	if err != nil {
		return fe.fail("%v", err)
	}
	if root != 0 {
		src = root
	}
	dst, err := fe.typ(t)
	if err != nil {
		return err
	}
	if src == dst {
		fe.op(OpLoad, dst, res, p)
		return nil
	}
	v := fe.op(OpLoad, src, 0, p)
	fe.convert(v, t, pi.rule, rulePlain, root, 0, res)
	return nil
}

func (fe *fn) store(in *ir.Instr) error {
	t := in.Args[0].Type()
	if t.Kind == ir.KPointer {
		return fe.fail("storing a pointer: SPIR-V logical addressing forbids it")
	}
	v, err := fe.value(in.Args[0])
	if err != nil {
		return err
	}
	p, pi, root, err := fe.deref(in.Args[1])
	if err != nil {
		return err
	}
	if pi.ro {
		return fe.fail("store to read-only memory")
	}
	if _, err := fe.e.typeID(t, pi.rule); err != nil {
		return fe.fail("%v", err)
	}
	v = fe.convert(v, t, rulePlain, pi.rule, 0, root, 0)
	fe.body.inst(OpStore, p, v)
	return nil
}

// convert turns value v of IR type t from one layout's type to another's
// (bools to and from uints, aggregates member by member). srcRoot/dstRoot
// override the type ids at the top level (Block structs). res is the
// result id to use (0: new, or v itself when nothing changes).
func (fe *fn) convert(v uint32, t *ir.Type, from, to layoutRule, srcRoot, dstRoot, res uint32) uint32 {
	e := fe.e
	src := e.mustType(t, from)
	if srcRoot != 0 {
		src = srcRoot
	}
	dst := e.mustType(t, to)
	if dstRoot != 0 {
		dst = dstRoot
	}
	if src == dst {
		if res != 0 {
			return fe.op(OpCopyObject, dst, res, v)
		}
		return v
	}
	switch {
	case t.Kind == ir.KBool || (t.Kind == ir.KVector && t.Elem.Kind == ir.KBool):
		ut := ir.Vec(ir.U32, t.Lanes())
		zero := e.constOf(ir.ConstInt(ut, 0))
		if from == rulePlain {
			return fe.op(OpSelect, dst, res, v, e.constOf(ir.ConstInt(ut, 1)), zero)
		}
		return fe.op(OpINotEqual, dst, res, v, zero)
	}
	n := t.NumElems()
	elems := make([]uint32, n)
	for i := 0; i < n; i++ {
		et := t.ElemType(i)
		x := fe.op(OpCompositeExtract, e.mustType(et, from), 0, v, uint32(i))
		elems[i] = fe.convert(x, et, from, to, 0, 0, 0)
	}
	return fe.op(OpCompositeConstruct, dst, res, elems...)
}

func (fe *fn) access(in *ir.Instr) error {
	var base uint32
	var pi *ptrInfo
	var idx []uint32
	if x, ok := in.Args[0].(*ir.Instr); ok && fe.chains[x] != nil {
		c := fe.chains[x]
		base, pi, idx = c.base, c.pi, append([]uint32(nil), c.idx...)
	} else {
		var err error
		if base, pi, err = fe.pointer(in.Args[0]); err != nil {
			return err
		}
		if pi.wrapped {
			idx = append(idx, fe.e.uintConst(0))
		}
	}
	cur := in.Args[0].Type().Elem
	for _, a := range in.Args[1:] {
		if !a.Type().IsIntegral() {
			return fe.fail("index of type %s", a.Type())
		}
		if cur.Kind == ir.KStruct {
			c, ok := a.(*ir.Const)
			if !ok {
				return fe.fail("struct index must be a constant")
			}
			k := c.Int()
			idx = append(idx, fe.e.intConst(int32(k)))
			cur = cur.ElemType(int(k))
		} else {
			id, err := fe.value(a)
			if err != nil {
				return err
			}
			idx = append(idx, id)
			cur = cur.ElemType(0)
		}
		if cur == nil {
			return fe.fail("index path leaves the type")
		}
	}
	et, err := fe.e.typeID(in.Type().Elem, pi.rule)
	if err != nil {
		return fe.fail("%v", err)
	}
	if fe.fold[in] && len(idx) > 0 {
		// No pointer type: only the users' chains exist.
		fe.chains[in] = &chain{base: base, idx: idx, pi: &ptrInfo{sc: pi.sc, rule: pi.rule, ro: pi.ro, nonUniform: pi.nonUniform}}
		return nil
	}
	if fe.fold[in] && in.Name() != "" {
		fe.e.name(fe.resultID(in), in.Name())
	}
	res := fe.resultID(in)
	if len(idx) == 0 {
		fe.op(OpCopyObject, pi.ptype, res, base)
		npi := *pi
		npi.decl = false
		fe.ptrs[in] = &npi
		return nil
	}
	fe.op(OpAccessChain, fe.e.pointerType(pi.sc, et), res, append([]uint32{base}, idx...)...)
	fe.ptrs[in] = &ptrInfo{sc: pi.sc, rule: pi.rule, ro: pi.ro, ptype: fe.e.pointerType(pi.sc, et), nonUniform: pi.nonUniform}
	if pi.nonUniform {
		fe.e.annots.inst(OpDecorate, res, DecNonUniform)
	}
	return nil
}

// loadPlain reads the pointee of p as a plain value.
func (fe *fn) loadPlain(p ir.Value) (uint32, error) {
	t := p.Type().Elem
	id, pi, root, err := fe.deref(p)
	if err != nil {
		return 0, err
	}
	src, err := fe.e.typeID(t, pi.rule)
	if err != nil {
		return 0, fe.fail("%v", err)
	}
	if root != 0 {
		src = root
	}
	v := fe.op(OpLoad, src, 0, id)
	return fe.convert(v, t, pi.rule, rulePlain, root, 0, 0), nil
}

// storePlain writes a plain value to the pointee of p.
func (fe *fn) storePlain(p ir.Value, v uint32) error {
	t := p.Type().Elem
	id, pi, root, err := fe.deref(p)
	if err != nil {
		return err
	}
	if pi.ro {
		return fe.fail("write to read-only memory")
	}
	if _, err := fe.e.typeID(t, pi.rule); err != nil {
		return fe.fail("%v", err)
	}
	v = fe.convert(v, t, rulePlain, pi.rule, 0, root, 0)
	fe.body.inst(OpStore, id, v)
	return nil
}

func (fe *fn) memcpy(in *ir.Instr) error {
	v, err := fe.loadPlain(in.Args[1])
	if err != nil {
		return err
	}
	return fe.storePlain(in.Args[0], v)
}

func (fe *fn) memset(in *ir.Instr) error {
	t := in.Args[0].Type().Elem
	var v uint32
	if c, ok := in.Args[1].(*ir.Const); ok && !c.Undef {
		cv, err := byteFillConst(t, c.Bits&0xFF)
		if err != nil {
			return fe.fail("%v", err)
		}
		if _, err := fe.typ(t); err != nil {
			return err
		}
		v = fe.e.constOf(cv)
	} else {
		b, err := fe.value(in.Args[1])
		if err != nil {
			return err
		}
		bt := in.Args[1].Type()
		if bt.Kind != ir.KInt && bt.Kind != ir.KUint || bt.Bits != 32 {
			return fe.fail("memset byte of type %s", bt)
		}
		u32 := fe.e.mustType(ir.U32, rulePlain)
		if bt.Kind == ir.KInt {
			b = fe.op(OpBitcast, u32, 0, b)
		}
		b = fe.op(OpBitwiseAnd, u32, 0, b, fe.e.uintConst(0xFF))
		word := fe.op(OpIMul, u32, 0, b, fe.e.uintConst(0x01010101))
		if v, err = fe.fillValue(t, word); err != nil {
			return err
		}
	}
	return fe.storePlain(in.Args[0], v)
}

// byteFillConst is the constant of type t whose every byte is by (bools
// are true for a non-zero byte).
func byteFillConst(t *ir.Type, by uint64) (*ir.Const, error) {
	switch t.Kind {
	case ir.KBool:
		return ir.ConstBool(ir.Bool, by != 0), nil
	case ir.KInt, ir.KUint, ir.KFloat:
		var v uint64
		for i := 0; i < t.Bits; i += 8 {
			v |= by << uint(i)
		}
		if t.Kind == ir.KFloat {
			if t.Bits == 32 {
				return ir.ConstF32Bits(uint32(v)), nil
			}
			return nil, fmt.Errorf("memset of %s", t)
		}
		return ir.ConstInt(t, int64(v)), nil
	case ir.KVector, ir.KMatrix, ir.KArray, ir.KStruct:
		if t.Kind == ir.KArray && t.Len < 0 {
			return nil, fmt.Errorf("memset of a runtime-sized array")
		}
		n := t.NumElems()
		el := make([]*ir.Const, n)
		for i := range el {
			c, err := byteFillConst(t.ElemType(i), by)
			if err != nil {
				return nil, err
			}
			el[i] = c
		}
		return ir.ConstAggregate(t, el), nil
	}
	return nil, fmt.Errorf("memset of %s", t)
}

// fillValue builds a value of type t from a 32-bit word of repeated bytes.
func (fe *fn) fillValue(t *ir.Type, word uint32) (uint32, error) {
	e := fe.e
	switch t.Kind {
	case ir.KBool:
		return fe.op(OpINotEqual, e.mustType(ir.Bool, rulePlain), 0, word, e.uintConst(0)), nil
	case ir.KInt, ir.KUint, ir.KFloat:
		if t.Bits != 32 {
			return 0, fe.fail("memset with a variable byte of %s", t)
		}
		if t == ir.U32 {
			return word, nil
		}
		return fe.op(OpBitcast, e.mustType(t, rulePlain), 0, word), nil
	case ir.KVector, ir.KMatrix, ir.KArray, ir.KStruct:
		n := t.NumElems()
		el := make([]uint32, n)
		for i := range el {
			v, err := fe.fillValue(t.ElemType(i), word)
			if err != nil {
				return 0, err
			}
			el[i] = v
		}
		tid, err := fe.typ(t)
		if err != nil {
			return 0, err
		}
		return fe.op(OpCompositeConstruct, tid, 0, el...), nil
	}
	return 0, fe.fail("memset of %s", t)
}

var atomicOps = map[ir.AtomicKind]uint16{
	ir.AtomicAdd: OpAtomicIAdd, ir.AtomicMin: OpAtomicSMin, ir.AtomicMax: OpAtomicSMax,
	ir.AtomicUMin: OpAtomicUMin, ir.AtomicUMax: OpAtomicUMax, ir.AtomicAnd: OpAtomicAnd,
	ir.AtomicOr: OpAtomicOr, ir.AtomicXor: OpAtomicXor, ir.AtomicXchg: OpAtomicExchange,
}

func (fe *fn) atomic(in *ir.Instr) error {
	t := in.Type()
	if !t.IsIntegral() {
		return fe.fail("atomic on %s: SPIR-V atomics here are integer only", t)
	}
	tid, err := fe.typ(t)
	if err != nil {
		return err
	}
	p, pi, _, err := fe.deref(in.Args[0])
	if err != nil {
		return err
	}
	if pi.ro {
		return fe.fail("atomic on read-only memory")
	}
	v, err := fe.value(in.Args[1])
	if err != nil {
		return err
	}
	res := fe.resultID(in)
	if pi.sc == SCFunction || pi.sc == SCPrivate {
		// Invocation-private memory: a plain read-modify-write is atomic.
		old := fe.op(OpLoad, tid, res, p)
		var nv uint32
		switch in.Atomic {
		case ir.AtomicCmpXchg:
			cmp, err := fe.value(in.Args[2])
			if err != nil {
				return err
			}
			eq := fe.op(OpIEqual, fe.e.mustType(ir.Bool, rulePlain), 0, old, cmp)
			nv = fe.op(OpSelect, tid, 0, eq, v, old)
		case ir.AtomicXchg:
			nv = v
		default:
			nv, err = fe.atomicCombine(in.Atomic, t, tid, old, v)
			if err != nil {
				return err
			}
		}
		fe.body.inst(OpStore, p, nv)
		return nil
	}
	scope := uint32(ScopeDevice)
	if pi.sc == SCWorkgroup {
		scope = ScopeWorkgroup
	}
	if t.Bits == 64 {
		fe.e.capability(CapInt64Atomics)
	}
	sc, sem := fe.e.uintConst(scope), fe.e.uintConst(0)
	if in.Atomic == ir.AtomicCmpXchg {
		cmp, err := fe.value(in.Args[2])
		if err != nil {
			return err
		}
		fe.op(OpAtomicCompareExchange, tid, res, p, sc, sem, sem, v, cmp)
		return nil
	}
	op, ok := atomicOps[in.Atomic]
	if !ok {
		return fe.fail("unknown atomic kind %s", in.Atomic)
	}
	fe.op(op, tid, res, p, sc, sem, v)
	return nil
}

// atomicCombine computes the new value of a non-atomic read-modify-write.
func (fe *fn) atomicCombine(k ir.AtomicKind, t *ir.Type, tid, old, v uint32) (uint32, error) {
	switch k {
	case ir.AtomicAdd:
		return fe.op(OpIAdd, tid, 0, old, v), nil
	case ir.AtomicAnd:
		return fe.op(OpBitwiseAnd, tid, 0, old, v), nil
	case ir.AtomicOr:
		return fe.op(OpBitwiseOr, tid, 0, old, v), nil
	case ir.AtomicXor:
		return fe.op(OpBitwiseXor, tid, 0, old, v), nil
	case ir.AtomicMin, ir.AtomicMax, ir.AtomicUMin, ir.AtomicUMax:
		cmp := map[ir.AtomicKind]uint16{ir.AtomicMin: OpSLessThan, ir.AtomicMax: OpSGreaterThan,
			ir.AtomicUMin: OpULessThan, ir.AtomicUMax: OpUGreaterThan}[k]
		c := fe.op(cmp, fe.e.mustType(ir.Bool, rulePlain), 0, v, old)
		return fe.op(OpSelect, tid, 0, c, v, old), nil
	}
	return 0, fe.fail("unknown atomic kind %s", k)
}

// call emits a function call. Pointer arguments that are not Function
// variables are passed through a temporary (copy in, call, copy out),
// since SPIR-V for Vulkan passes only memory object declarations of
// Function/Private/Workgroup storage.
func (fe *fn) call(in *ir.Instr) error {
	callee := in.Callee
	fid, ok := fe.e.funcIDs[callee]
	if !ok {
		return fe.fail("call of @%s, which is not emitted", callee.Name())
	}
	fe.use.callees = append(fe.use.callees, callee)
	ret, err := fe.typ(in.Type())
	if err != nil {
		return err
	}
	type copyBack struct {
		arg ir.Value
		tmp uint32
	}
	var backs []copyBack
	args := make([]uint32, len(in.Args))
	for i, a := range in.Args {
		if a.Type().Kind != ir.KPointer {
			if args[i], err = fe.value(a); err != nil {
				return err
			}
			continue
		}
		id, pi, err := fe.pointer(a)
		if err != nil {
			return err
		}
		if pi.sc == SCFunction && pi.decl && !pi.wrapped && pi.root == 0 {
			args[i] = id
			continue
		}
		et, err := fe.typ(a.Type().Elem)
		if err != nil {
			return err
		}
		tmp := fe.e.id()
		fe.vars.inst(OpVariable, fe.e.pointerType(SCFunction, et), tmp, SCFunction)
		v, err := fe.loadPlain(a)
		if err != nil {
			return err
		}
		fe.body.inst(OpStore, tmp, v)
		args[i] = tmp
		if !pi.ro {
			backs = append(backs, copyBack{a, tmp})
		}
	}
	res := fe.e.id()
	if in.HasResult() {
		res = fe.resultID(in)
	}
	fe.op(OpFunctionCall, ret, res, append([]uint32{fid}, args...)...)
	for _, cb := range backs {
		et, _ := fe.typ(cb.arg.Type().Elem)
		v := fe.op(OpLoad, et, 0, cb.tmp)
		if err := fe.storePlain(cb.arg, v); err != nil {
			return err
		}
	}
	return nil
}

// selectBuffer emits a select between two storage buffer pointers (a
// dynamic index into a resource array, lower_resarray.go): OpSelect on
// pointers to the buffers' Block structs, which SPIR-V 1.3 allows with
// the VariablePointersStorageBuffer capability (a Vulkan 1.1 feature
// that lavapipe has), decorated NonUniform (SPV_EXT_descriptor_indexing)
// with the access chains through it. Both buffers must have the same
// Block type.
func (fe *fn) selectBuffer(in *ir.Instr) error {
	c, err := fe.value(in.Args[0])
	if err != nil {
		return err
	}
	a, api, err := fe.pointer(in.Args[1])
	if err != nil {
		return err
	}
	b, bpi, err := fe.pointer(in.Args[2])
	if err != nil {
		return err
	}
	if api.sc != SCStorageBuffer || api.ptype != bpi.ptype || api.wrapped != bpi.wrapped || api.root != bpi.root {
		return fe.fail("select between buffers of different types: SPIR-V variable pointers need one pointer type")
	}
	fe.e.capability(CapVariablePointersStorageBuffer)
	fe.e.capability(CapShaderNonUniform)
	res := fe.resultID(in)
	fe.op(OpSelect, api.ptype, res, c, a, b)
	// The selected buffer may differ between lanes (Vulkan requires
	// NonUniform on a resource pointer that is not dynamically uniform;
	// on a uniform one it is harmless, so every such select has it).
	fe.e.annots.inst(OpDecorate, res, DecNonUniform)
	npi := *api
	npi.decl = false
	npi.nonUniform = true
	npi.ro = api.ro || bpi.ro
	fe.ptrs[in] = &npi
	return nil
}
