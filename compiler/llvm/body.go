package llvm

import (
	"strconv"
	"strings"

	"passlens/compiler/ir"
)

// bodyLowerer turns one function body's syntax tree into passlens IR.
type bodyLowerer struct {
	lw     *lowerer
	fa     *funcAST
	fi     *funcInfo
	f      *ir.Function
	blocks map[string]*ir.Block
	vals   *valTable // parameters and instruction results by name
	bd     *ir.Builder
	cur    *ir.Block
	casts  map[castKey]ir.Value // pointer casts already made in a block
	phiFix []phiFixup
	// consts are the materialised constants (opaque.go) by canonical
	// spelling; entryPre holds them in creation order until they are put
	// at the top of the entry block.
	consts   map[string]ir.Value
	entryPre []*ir.Instr
	// asmOuts are the outputs of opaque inline asm calls, true for SGPRs,
	// by the call's value as uses find it (its entry in vals).
	asmOuts map[ir.Value][]bool
	// self is the vals entry of the instruction being lowered (nil if it
	// defines no value): in.pre, or its cfgValue in a CFG-only import.
	self ir.Value
}

type castKey struct {
	b  *ir.Block
	v  ir.Value
	to *ir.Type
}

// phiFixup is a phi operand that needs a pointer cast in its predecessor.
type phiFixup struct {
	phi  *ir.Instr
	idx  int
	pred *ir.Block
	to   *ir.Type
}

func (lw *lowerer) lowerBody(fa *funcAST, fi *funcInfo) error {
	bl := &bodyLowerer{lw: lw, fa: fa, fi: fi, f: fi.f, blocks: make(map[string]*ir.Block, len(fi.blocks)),
		vals: newValTable(fi.nvals + len(fi.f.Params)), casts: map[castKey]ir.Value{},
		consts: map[string]ir.Value{}, asmOuts: map[ir.Value][]bool{}}
	bl.bd = ir.NewBuilder(bl.f)
	for _, p := range bl.f.Params {
		bl.vals.put(p)
	}
	for i, name := range fi.blocks {
		b := bl.f.NewBlock(name)
		if b.Name() != name {
			return lw.errAt(fa.blocks[i].tok(), "redefinition of '%%%s'", name)
		}
		bl.blocks[name] = b
	}
	// Create every value-producing instruction first: LLVM allows uses
	// before definitions in layout order (phis, unstructured control flow).
	// Most result types follow from the stub; the others need the
	// instruction parsed again (stubs.go).
	for i := int32(0); i < int32(fa.insts.len()); i++ {
		st := fa.insts.at(i)
		if !st.has(sHasResult) {
			continue
		}
		name := st.name
		var t *ir.Type
		var err error
		if st.has(sNeedAST) {
			var in *instAST
			if in, err = lw.rp.load(st); err != nil {
				return err
			}
			t, err = bl.resultType(in, name)
		} else {
			lt := st.rt
			if lt == nil {
				// Invalid operands: an opaque result keeps the import going.
				lt = &llType{kind: lkOther, name: "invalid"}
			}
			if t, err = lw.typeAt(st.opTok(), lt, fi.pointee[name]); err == nil {
				t = bl.register(t)
			}
		}
		if err != nil {
			return err
		}
		if t == ir.Void {
			return lw.fatalAt(st.opTok(), "'%s' cannot produce a void value", lw.rp.opOf(st))
		}
		if lw.cfgOnly {
			// A stand-in instead of an ir.Instr (cfgonly.go). The
			// redefinition check below cannot fail here: declareFunc
			// has already refused a name used twice among the
			// parameters, blocks and values, the only names the
			// function holds at this point.
			bl.vals.put(&cfgValue{name: name, typ: t})
			continue
		}
		it := ir.NewInstr(bl.f, ir.OpInvalid, t, name)
		if it.Name() != name {
			at := st.firstTok()
			if !st.has(sNamed) {
				at = st.opTok()
			}
			return lw.errAt(at, "redefinition of '%%%s'", name)
		}
		it.Loc = ir.Loc{Line: st.opLine, Col: st.opCol}
		bl.vals.put(it)
	}
	fl := lw.listFunc(fa, bl.f)
	start := int32(0)
	for i, b := range fa.blocks {
		bl.cur = bl.blocks[fi.blocks[i]]
		bl.bd.SetBlock(bl.cur)
		var bk BlockListing
		if fl != nil && b.end-start > 1 {
			bk.Defs = make([]ListedInstr, 0, b.end-start-1) // all but the terminator
		}
		last := b.tok()
		for k := start; k < b.end; k++ {
			st := fa.insts.at(k)
			// The instruction's tree lives only while it is lowered.
			in, err := lw.rp.load(st)
			if err != nil {
				return err
			}
			bl.self = nil
			var cv *cfgValue
			if st.has(sHasResult) {
				x, _ := bl.vals.get(st.name)
				bl.self = x
				if lw.cfgOnly {
					cv = x.(*cfgValue)
					in.pre = scratchInstr(bl.f, cv, ir.Loc{Line: st.opLine, Col: st.opCol})
				} else {
					in.pre = x.(*ir.Instr)
				}
			}
			n := len(bl.cur.Instrs)
			if err := bl.instr(in); err != nil {
				return err
			}
			if cv != nil {
				cv.typ = in.pre.Type() // later uses see the type lowering gave it
			}
			if fl != nil {
				bk.add(in, in.pre, bl.cur.Instrs[n:])
			}
			last = in.tok
		}
		start = b.end
		fa.insts.freeBefore(start)
		if fl != nil {
			bk.Block = bl.cur
			fl.Blocks = append(fl.Blocks, bk)
		}
		if bl.cur.Terminator() == nil {
			t := last
			return lw.errAt(t, "block '%%%s' does not end with a terminator", bl.cur.Name())
		}
		if lw.cfgOnly {
			keepTerminator(bl.cur)
			clear(bl.casts) // keyed by block: never looked up again
		}
	}
	fa.insts = stubList{}
	if lw.cfgOnly {
		return nil // phi casts and materialised constants were dropped with their blocks
	}
	for _, fx := range bl.phiFix {
		bd := ir.NewBuilder(bl.f)
		bd.SetBeforeTerminator(fx.pred)
		v := fx.phi.Args[fx.idx]
		fx.phi.Args[fx.idx] = bd.Cast(ir.OpBitcast, v, fx.to, castName(v))
	}
	if len(bl.entryPre) > 0 {
		entry := bl.f.Blocks[0]
		for _, it := range bl.entryPre {
			it.Block = entry
		}
		entry.Instrs = append(bl.entryPre, entry.Instrs...)
	}
	return nil
}

func castName(v ir.Value) string {
	if n := v.Name(); n != "" {
		return n + ".cast"
	}
	return "cast"
}

// resultType computes the passlens type of an instruction's result.
func (bl *bodyLowerer) resultType(in *instAST, name string) (*ir.Type, error) {
	lw := bl.lw
	switch in.op {
	case "alloca":
		t, err := lw.typeAt(in.tok, in.ty, nil)
		if err != nil {
			return nil, err
		}
		return bl.register(ir.Ptr(ir.SpaceFunction, t)), nil
	case "call":
		if f, ok := lw.funcs[in.c().callee.text]; ok && in.c().callee.kind == vGlobal && !lw.isIntrinsicCallee(in.c().callee.text) {
			if rt, err := lw.typeAt(in.tok, in.ty, f.Ret.Elem); err == nil && (rt == f.Ret || f.Ret.Kind == ir.KPointer && rt.Kind == ir.KPointer) {
				return f.Ret, nil
			}
		}
	case "cmpxchg":
		vt, err := lw.typeAt(in.tok, in.args[1].ty, bl.fi.pointee[in.args[1].v.text])
		if err != nil {
			return nil, err
		}
		if vt.IsIntegral() {
			return bl.register(pairType(vt)), nil
		}
	}
	if in.op == "extractvalue" && len(in.args) > 0 {
		// Named structs are resolved in passlens types.
		if at, err := lw.typeAt(in.tok, in.args[0].ty, nil); err == nil {
			if et := at.IndexPath(in.idx); et != nil && len(in.idx) > 0 {
				return bl.register(et), nil
			}
		}
	}
	lt := resultLLType(in)
	if lt == nil {
		// Invalid operands: an opaque result keeps the import going.
		lt = &llType{kind: lkOther, name: "invalid"}
	}
	t, err := lw.typeAt(in.tok, lt, bl.fi.pointee[name])
	if err != nil {
		return nil, err
	}
	return bl.register(t), nil
}

// pairType is the { T, i1 } result of cmpxchg.
func pairType(t *ir.Type) *ir.Type {
	fields := []ir.Field{{Name: "f0", Type: t}, {Name: "f1", Type: ir.Bool}}
	return ir.Struct(literalStructName(fields), fields)
}

// register adds the structs used by t to the module.
func (bl *bodyLowerer) register(t *ir.Type) *ir.Type {
	if !bl.lw.registered[t] {
		bl.lw.registered[t] = true
		registerStructs(bl.lw.m, t)
	}
	return t
}

func registerStructs(m *ir.Module, t *ir.Type) {
	registerStructsOnce(m, t, map[*ir.Type]bool{})
}

// registerStructsOnce visits each type once: structs may share fields, and
// a walk without memory is exponential in the nesting depth.
func registerStructsOnce(m *ir.Module, t *ir.Type, seen map[*ir.Type]bool) {
	if seen[t] {
		return
	}
	seen[t] = true
	switch t.Kind {
	case ir.KStruct:
		for _, f := range t.Fields {
			registerStructsOnce(m, f.Type, seen)
		}
		m.AddStruct(t)
	case ir.KVector, ir.KArray, ir.KMatrix, ir.KPointer:
		registerStructsOnce(m, t.Elem, seen)
	}
}

// val lowers an operand. want is the passlens type the use needs (nil:
// the operand's own type); pointers are cast to want's pointee.
func (bl *bodyLowerer) val(tv typedVal, want *ir.Type) (ir.Value, error) {
	lw := bl.lw
	switch tv.v.kind {
	case vLocal, vGlobal:
		var v ir.Value
		if tv.v.kind == vLocal {
			x, ok := bl.vals.get(tv.v.text)
			if !ok {
				if _, isBlock := bl.blocks[tv.v.text]; isBlock {
					return nil, lw.fatalAt(tv.v.tok, "block '%%%s' used as a value", tv.v.text)
				}
				return nil, lw.fatalAt(tv.v.tok, "use of undefined value '%%%s'", tv.v.text)
			}
			v = x
		} else {
			g, ok := lw.globals[tv.v.text]
			if !ok {
				_, isFn := lw.decls[tv.v.text]
				// LLVM declares intrinsics that are used undeclared.
				isFn = isFn || strings.HasPrefix(tv.v.text, "llvm.")
				if isFn || lw.opaqueGlobals[tv.v.text] {
					// A function address or a global passlens cannot
					// represent: an opaque, uniform address.
					t, err := lw.typeAt(tv.v.tok, tv.ty, nil)
					if err != nil {
						return nil, err
					}
					if want != nil {
						t = want
					}
					return bl.materialize(typedVal{tv.ty, tv.v}, t)
				}
				return nil, lw.fatalAt(tv.v.tok, "use of undefined value '@%s'", tv.v.text)
			}
			v = g
		}
		if want == nil || v.Type() == want {
			return v, nil
		}
		return bl.coerce(tv.v.tok, v, want)
	}
	t := want
	if t == nil {
		var err error
		if t, err = lw.typeAt(tv.v.tok, tv.ty, nil); err != nil {
			return nil, err
		}
	}
	bl.register(t)
	if tv.v.kind == vUndef || tv.v.kind == vPoison {
		return ir.ConstUndef(t), nil
	}
	if tv.v.kind == vMeta {
		return nil, lw.errAt(tv.v.tok, "unsupported metadata operand")
	}
	if IsOpaqueType(t) || needsMaterialize(tv.v, false) {
		return bl.materialize(tv, t)
	}
	c, err := lw.constant(tv.v, tv.ty, t)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// coerce casts a pointer to another pointee in its own address space.
func (bl *bodyLowerer) coerce(t token, v ir.Value, want *ir.Type) (ir.Value, error) {
	vt := v.Type()
	if vt.Kind != ir.KPointer || want.Kind != ir.KPointer {
		return nil, bl.lw.errAt(t, "type mismatch: %s has type %s, used as %s", v.Ref(), vt, want)
	}
	to := bl.register(ir.Ptr(vt.Space, want.Elem))
	if to == vt {
		return v, nil
	}
	key := castKey{bl.cur, v, to}
	if c, ok := bl.casts[key]; ok {
		return c, nil
	}
	c := bl.bd.Cast(ir.OpBitcast, v, to, castName(v))
	bl.casts[key] = c
	return c, nil
}

// spaceOf returns the passlens space of an LLVM pointer type.
func (bl *bodyLowerer) spaceOf(tok token, lt *llType) (ir.AddrSpace, error) {
	if lt.kind != lkPtr {
		return 0, bl.lw.errAt(tok, "expected a pointer operand, found %s", lt)
	}
	sp, ok := SpaceForLLVM(lt.as)
	if !ok {
		return 0, bl.lw.errAt(tok, "unsupported address space %d (supported: %s)", lt.as, supportedSpaces())
	}
	return sp, nil
}

var (
	binOps = map[string]ir.Op{"add": ir.OpAdd, "sub": ir.OpSub, "mul": ir.OpMul, "udiv": ir.OpUDiv,
		"sdiv": ir.OpSDiv, "urem": ir.OpURem, "srem": ir.OpSRem, "shl": ir.OpShl, "lshr": ir.OpLShr,
		"ashr": ir.OpAShr, "and": ir.OpAnd, "or": ir.OpOr, "xor": ir.OpXor, "fadd": ir.OpFAdd,
		"fsub": ir.OpFSub, "fmul": ir.OpFMul, "fdiv": ir.OpFDiv, "frem": ir.OpFRem}
	castIROps = map[string]ir.Op{"trunc": ir.OpTrunc, "zext": ir.OpZExt, "sext": ir.OpSExt,
		"fptrunc": ir.OpFPTrunc, "fpext": ir.OpFPExt, "fptoui": ir.OpFPToUI, "fptosi": ir.OpFPToSI,
		"uitofp": ir.OpUIToFP, "sitofp": ir.OpSIToFP, "bitcast": ir.OpBitcast, "addrspacecast": ir.OpBitcast}
	icmpPreds = map[string]ir.CmpPred{"eq": ir.PredEQ, "ne": ir.PredNE, "slt": ir.PredSLT, "sle": ir.PredSLE,
		"sgt": ir.PredSGT, "sge": ir.PredSGE, "ult": ir.PredULT, "ule": ir.PredULE, "ugt": ir.PredUGT, "uge": ir.PredUGE}
	fcmpPreds = map[string]ir.CmpPred{"oeq": ir.PredOEQ, "one": ir.PredONE, "olt": ir.PredOLT, "ole": ir.PredOLE,
		"ogt": ir.PredOGT, "oge": ir.PredOGE, "ord": ir.PredORD, "uno": ir.PredUNO, "ueq": ir.PredUEQ,
		"une": ir.PredUNE, "ult": ir.PredFULT, "ule": ir.PredFULE, "ugt": ir.PredFUGT, "uge": ir.PredFUGE}
	atomicOps = map[string]ir.AtomicKind{"xchg": ir.AtomicXchg, "add": ir.AtomicAdd, "and": ir.AtomicAnd,
		"or": ir.AtomicOr, "xor": ir.AtomicXor, "max": ir.AtomicMax, "min": ir.AtomicMin,
		"umax": ir.AtomicUMax, "umin": ir.AtomicUMin}
)

// emit finishes an instruction: the pre-created result or a new void one.
func (bl *bodyLowerer) emit(in *instAST, op ir.Op) *ir.Instr {
	it := in.pre
	if it == nil {
		it = ir.NewInstr(bl.f, op, ir.Void, "")
		it.Loc = ir.Loc{Line: int32(in.tok.line), Col: int32(in.tok.col)}
	}
	it.Op = op
	return it
}

func (bl *bodyLowerer) insert(it *ir.Instr) {
	if bl.cur.Terminator() != nil {
		// Code after a terminator: reported by the caller's check below.
		bl.cur.Instrs = append(bl.cur.Instrs, it)
		it.Block = bl.cur
		return
	}
	bl.bd.Insert(it)
}

func (bl *bodyLowerer) block(t token) (*ir.Block, error) {
	b, ok := bl.blocks[t.text]
	if !ok {
		return nil, bl.lw.fatalAt(t, "use of undefined block '%%%s'", t.text)
	}
	return b, nil
}

func (bl *bodyLowerer) instr(in *instAST) error {
	lw := bl.lw
	if bl.cur.Terminator() != nil {
		return lw.fatalAt(in.tok, "instruction after the terminator of block '%%%s'", bl.cur.Name())
	}
	if in.op == "phi" {
		for _, x := range bl.cur.Instrs {
			if x.Op != ir.OpPhi {
				return lw.fatalAt(in.tok, "phi after a non-phi instruction in block '%%%s'", bl.cur.Name())
			}
		}
		return bl.phi(in)
	}
	switch in.op {
	case "invoke", "callbr", "indirectbr":
		return bl.opaqueTerminator(in, in.targets)
	case "resume":
		return bl.opaqueTerminator(in, nil)
	}
	// Lower natively; whatever passlens IR cannot represent becomes an
	// opaque operation (opaque.go). Only errors in the input itself
	// (undefined names) stop the import.
	it := in.pre
	var saved ir.Instr
	if it != nil {
		saved = *it
	}
	n, nFix := len(bl.cur.Instrs), len(bl.phiFix)
	err := bl.native(in)
	if err == nil || isFatal(err) {
		return err
	}
	if len(bl.cur.Instrs) > n {
		// Forget the casts the failed attempt made (they are removed).
		removed := map[ir.Value]bool{}
		for _, x := range bl.cur.Instrs[n:] {
			removed[x] = true
		}
		for k, v := range bl.casts {
			if removed[v] {
				delete(bl.casts, k)
			}
		}
		bl.cur.Instrs = bl.cur.Instrs[:n]
	}
	bl.phiFix = bl.phiFix[:nFix]
	if it != nil {
		*it = saved
	}
	switch in.op {
	case "ret", "unreachable":
		return bl.opaqueTerminator(in, nil)
	case "br":
		return bl.opaqueTerminator(in, in.targets)
	case "switch":
		succs := []token{in.targets[0]}
		for _, c := range in.cases {
			succs = append(succs, c.target)
		}
		return bl.opaqueTerminator(in, succs)
	}
	return bl.opaque(in)
}

// native lowers an instruction to passlens IR proper; errors that are not
// fatal make the caller fall back to an opaque operation.
func (bl *bodyLowerer) native(in *instAST) error {
	lw := bl.lw
	switch op := in.op; {
	case op == "ret":
		it := bl.emit(in, ir.OpRet)
		if len(in.args) == 1 {
			if bl.f.Ret == ir.Void {
				return lw.errAt(in.tok, "value returned from a void function")
			}
			v, err := bl.val(in.args[0], bl.f.Ret)
			if err != nil {
				return err
			}
			it.Args = []ir.Value{v}
		} else if bl.f.Ret != ir.Void {
			return lw.errAt(in.tok, "'ret void' in a function returning %s", bl.fa.ret)
		}
		bl.insert(it)
	case op == "br":
		it := bl.emit(in, ir.OpBr)
		if len(in.args) == 1 {
			it.Op = ir.OpCondBr
			c, err := bl.val(in.args[0], ir.Bool)
			if err != nil {
				return err
			}
			it.Args = []ir.Value{c}
		}
		for _, t := range in.targets {
			b, err := bl.block(t)
			if err != nil {
				return err
			}
			it.Succs = append(it.Succs, b)
		}
		bl.insert(it)
	case op == "switch":
		it := bl.emit(in, ir.OpSwitch)
		sel, err := bl.val(in.args[0], nil)
		if err != nil {
			return err
		}
		if !sel.Type().IsIntegral() {
			return lw.errAt(in.args[0].v.tok, "switch selector must be an integer, not %s", in.args[0].ty)
		}
		it.Args = []ir.Value{sel}
		def, err := bl.block(in.targets[0])
		if err != nil {
			return err
		}
		it.Cases = []ir.SwitchCase{{Default: true, Target: def}}
		seen := map[int64]bool{}
		for _, c := range in.cases {
			cv, err := lw.constant(c.val, in.args[0].ty, sel.Type())
			if err != nil {
				return err
			}
			n := cv.Int()
			if seen[n] {
				return lw.errAt(c.val.tok, "duplicate case value %d", n)
			}
			seen[n] = true
			b, err := bl.block(c.target)
			if err != nil {
				return err
			}
			it.Cases = append(it.Cases, ir.SwitchCase{Values: []int64{n}, Target: b})
		}
		bl.insert(it)
	case op == "unreachable":
		bl.insert(bl.emit(in, ir.OpUnreachable))
	case binOps[op] != 0:
		return bl.binary(in)
	case op == "fneg" || op == "freeze":
		irop := ir.OpFNeg
		if op == "freeze" {
			irop = ir.OpCopy
		}
		it := bl.emit(in, irop)
		v, err := bl.val(in.args[0], it.Type())
		if err != nil {
			return err
		}
		if irop == ir.OpFNeg && v.Type().Scalar().Kind != ir.KFloat {
			return lw.errAt(in.tok, "fneg needs a floating-point operand")
		}
		it.Args = []ir.Value{v}
		bl.insert(it)
	case op == "icmp" || op == "fcmp":
		return bl.compare(in)
	case op == "select":
		it := bl.emit(in, ir.OpSelect)
		c, err := bl.val(in.args[0], nil)
		if err != nil {
			return err
		}
		if c.Type().Scalar() != ir.Bool {
			return lw.errAt(in.args[0].v.tok, "select condition must be i1, not %s", in.args[0].ty)
		}
		a, err := bl.val(in.args[1], it.Type())
		if err != nil {
			return err
		}
		b, err := bl.val(in.args[2], it.Type())
		if err != nil {
			return err
		}
		it.Args = []ir.Value{c, a, b}
		bl.insert(it)
	case castOps[op]:
		irop, ok := castIROps[op]
		if !ok {
			return lw.errAt(in.tok, "unsupported cast '%s'", op)
		}
		it := bl.emit(in, irop)
		v, err := bl.val(in.args[0], nil)
		if err != nil {
			return err
		}
		if containsOpaque(v.Type()) || containsOpaque(it.Type()) {
			return lw.errAt(in.tok, "unsupported %s from %s to %s", op, in.args[0].ty, in.ty)
		}
		switch irop {
		case ir.OpSIToFP, ir.OpUIToFP:
			if !v.Type().Scalar().IsIntegral() {
				return lw.errAt(in.tok, "unsupported %s from %s (passlens converts integers, not bool)", op, in.args[0].ty)
			}
		case ir.OpFPToSI, ir.OpFPToUI:
			if !it.Type().Scalar().IsIntegral() {
				return lw.errAt(in.tok, "unsupported %s to %s (passlens converts to integers, not bool)", op, in.ty)
			}
		case ir.OpBitcast:
			if v.Type().Scalar() == ir.Bool || it.Type().Scalar() == ir.Bool {
				return lw.errAt(in.tok, "unsupported bitcast of bool vectors %s to %s", in.args[0].ty, in.ty)
			}
		}
		if op == "addrspacecast" && (v.Type().Kind != ir.KPointer || it.Type().Kind != ir.KPointer) {
			return lw.errAt(in.tok, "addrspacecast needs pointer operands")
		}
		it.Args = []ir.Value{v}
		bl.insert(it)
	case op == "call":
		return bl.call(in)
	case op == "load":
		it := bl.emit(in, ir.OpLoad)
		sp, err := bl.spaceOf(in.args[0].v.tok, in.args[0].ty)
		if err != nil {
			return err
		}
		p, err := bl.val(in.args[0], bl.register(ir.Ptr(sp, it.Type())))
		if err != nil {
			return err
		}
		it.Args = []ir.Value{p}
		bl.insert(it)
	case op == "store":
		it := bl.emit(in, ir.OpStore)
		v, err := bl.val(in.args[0], nil)
		if err != nil {
			return err
		}
		sp, err := bl.spaceOf(in.args[1].v.tok, in.args[1].ty)
		if err != nil {
			return err
		}
		p, err := bl.val(in.args[1], bl.register(ir.Ptr(sp, v.Type())))
		if err != nil {
			return err
		}
		it.Args = []ir.Value{v, p}
		bl.insert(it)
	case op == "alloca":
		if in.count != nil {
			return lw.errAt(in.tok, "unsupported array alloca")
		}
		it := bl.emit(in, ir.OpAlloca)
		bl.insert(it)
	case op == "getelementptr":
		return bl.gep(in)
	case op == "extractvalue" || op == "insertvalue":
		return bl.aggregate(in)
	case op == "extractelement" || op == "insertelement":
		return bl.element(in)
	case op == "shufflevector":
		return bl.shuffle(in)
	case op == "atomicrmw":
		kind, ok := atomicOps[in.atomicOp]
		if !ok {
			return lw.errAt(in.tok, "unsupported atomicrmw operation '%s'", in.atomicOp)
		}
		it := bl.emit(in, ir.OpAtomic)
		it.Atomic = kind
		if !it.Type().IsIntegral() {
			return lw.errAt(in.tok, "unsupported atomicrmw on %s (integers only)", in.ty)
		}
		sp, err := bl.spaceOf(in.args[0].v.tok, in.args[0].ty)
		if err != nil {
			return err
		}
		p, err := bl.val(in.args[0], bl.register(ir.Ptr(sp, it.Type())))
		if err != nil {
			return err
		}
		v, err := bl.val(in.args[1], it.Type())
		if err != nil {
			return err
		}
		it.Args = []ir.Value{p, v}
		bl.insert(it)
	case op == "cmpxchg":
		return bl.cmpxchg(in)
	default:
		return lw.errAt(in.tok, "unsupported instruction '%s'", op)
	}
	return nil
}

func (bl *bodyLowerer) binary(in *instAST) error {
	lw := bl.lw
	irop := binOps[in.op]
	it := bl.emit(in, irop)
	t := it.Type()
	s := t.Scalar()
	isFloatOp := irop.IsFloatArith()
	switch {
	case containsOpaque(t):
		return lw.errAt(in.tok, "unsupported '%s' on %s", in.op, in.ty)
	case isFloatOp && s.Kind != ir.KFloat:
		return lw.errAt(in.tok, "'%s' needs floating-point operands, not %s", in.op, in.ty)
	case !isFloatOp && s.Kind == ir.KFloat:
		return lw.errAt(in.tok, "'%s' needs integer operands, not %s", in.op, in.ty)
	case !isFloatOp && !s.IsIntegral() && s != ir.Bool:
		return lw.errAt(in.tok, "'%s' needs integer operands, not %s", in.op, in.ty)
	case s == ir.Bool:
		// passlens has only logical ops on bool; i1 arithmetic is modular.
		switch irop {
		case ir.OpAdd, ir.OpSub:
			it.Op = ir.OpXor
		case ir.OpMul:
			it.Op = ir.OpAnd
		case ir.OpAnd, ir.OpOr, ir.OpXor:
		default:
			return lw.errAt(in.tok, "unsupported '%s' on i1", in.op)
		}
	}
	a, err := bl.val(in.args[0], t)
	if err != nil {
		return err
	}
	b, err := bl.val(in.args[1], t)
	if err != nil {
		return err
	}
	it.Args = []ir.Value{a, b}
	bl.insert(it)
	return nil
}

func (bl *bodyLowerer) compare(in *instAST) error {
	lw := bl.lw
	it := bl.emit(in, ir.OpICmp)
	preds := icmpPreds
	if in.op == "fcmp" {
		it.Op, preds = ir.OpFCmp, fcmpPreds
	}
	p, ok := preds[in.pred]
	if !ok {
		return lw.errAt(in.tok, "unsupported %s predicate '%s'", in.op, in.pred)
	}
	it.Pred = p
	a, err := bl.val(in.args[0], nil)
	if err != nil {
		return err
	}
	s := a.Type().Scalar()
	switch {
	case containsOpaque(a.Type()):
		return lw.errAt(in.tok, "unsupported %s on %s", in.op, in.args[0].ty)
	case in.op == "fcmp" && s.Kind != ir.KFloat:
		return lw.errAt(in.tok, "fcmp needs floating-point operands, not %s", in.args[0].ty)
	case in.op == "icmp" && s.Kind == ir.KPointer:
		return lw.errAt(in.tok, "unsupported pointer comparison")
	case in.op == "icmp" && s == ir.Bool && p != ir.PredEQ && p != ir.PredNE:
		return lw.errAt(in.tok, "unsupported icmp %s on i1 (passlens compares bools with eq and ne only)", in.pred)
	case in.op == "icmp" && !s.IsIntegral() && s != ir.Bool:
		return lw.errAt(in.tok, "icmp needs integer operands, not %s", in.args[0].ty)
	}
	if want := a.Type().WithScalar(ir.Bool); it.Type() != want {
		// The written type disagrees with the operand's definition.
		return lw.errAt(in.tok, "unsupported %s: operand %s is not of type %s", in.op, a.Ref(), in.args[0].ty)
	}
	b, err := bl.val(in.args[1], a.Type())
	if err != nil {
		return err
	}
	it.Args = []ir.Value{a, b}
	bl.insert(it)
	return nil
}

func (bl *bodyLowerer) phi(in *instAST) error {
	it := bl.emit(in, ir.OpPhi)
	for _, x := range in.phis {
		pred, err := bl.block(x.block)
		if err != nil {
			return err
		}
		var v ir.Value
		if x.v.kind == vLocal || x.v.kind == vGlobal {
			v, err = bl.val(typedVal{in.ty, x.v}, nil)
			if err != nil {
				return err
			}
			if v.Type() != it.Type() {
				if v.Type().Kind != ir.KPointer || it.Type().Kind != ir.KPointer {
					return bl.lw.errAt(x.v.tok, "type mismatch: %s has type %s, phi has %s", v.Ref(), v.Type(), it.Type())
				}
				bl.phiFix = append(bl.phiFix, phiFixup{phi: it, idx: len(it.Args), pred: pred, to: it.Type()})
			}
		} else if v, err = bl.val(typedVal{in.ty, x.v}, it.Type()); err != nil {
			return err
		}
		it.AddIncoming(v, pred)
	}
	bl.insert(it)
	return nil
}

func (bl *bodyLowerer) call(in *instAST) error {
	lw := bl.lw
	if in.c().asm != nil || in.c().callee.kind != vGlobal {
		return lw.errAt(in.c().calleeTok, "unsupported indirect call or inline asm")
	}
	name := in.c().callee.text
	if f, ok := lw.funcs[name]; ok && !lw.isIntrinsicCallee(name) {
		it := bl.emit(in, ir.OpCall)
		it.Callee = f
		if len(in.args) != len(f.Params) {
			return lw.errAt(in.c().calleeTok, "call of @%s with %d arguments, it takes %d", name, len(in.args), len(f.Params))
		}
		for i, a := range in.args {
			v, err := bl.val(a, f.Params[i].Type())
			if err != nil {
				return err
			}
			it.Args = append(it.Args, v)
		}
		if want, err := lw.typeAt(in.tok, in.ty, f.Ret.Elem); err == nil && f.Ret.Kind != ir.KPointer && want != f.Ret {
			return lw.errAt(in.tok, "call of @%s returns %s, not %s", name, lw.decls[name].ret, in.ty)
		}
		bl.insert(it)
		return nil
	}
	if !lw.isIntrinsicCallee(name) {
		if _, ok := lw.decls[name]; ok {
			return lw.errAt(in.c().calleeTok, "unsupported call of @%s", name)
		}
		if _, ok := lw.globals[name]; ok || lw.opaqueGlobals[name] {
			return lw.errAt(in.c().calleeTok, "unsupported call through global @%s", name)
		}
		return lw.fatalAt(in.c().calleeTok, "call of undefined function @%s", name)
	}
	var attrs map[string]bool
	if d, ok := lw.decls[name]; ok {
		attrs = lw.fnAttrs(d)
		if n := valueParams(d); n != len(in.args) && !d.varargs {
			return lw.errAt(in.c().calleeTok, "call of @%s with %d arguments, it takes %d", name, len(in.args), n)
		}
	}
	it := bl.emit(in, ir.OpIntrinsic)
	it.Intr = intrinsicFor(name, attrs, len(in.args))
	for _, a := range in.args {
		v, err := bl.val(a, nil)
		if err != nil {
			return err
		}
		it.Args = append(it.Args, v)
	}
	bl.insert(it)
	return nil
}

// containsOpaque reports whether t is or contains an opaque stand-in type.
// Structs are not looked into: native arithmetic, compares and casts never
// take them, and a walk through shared struct fields is exponential.
func containsOpaque(t *ir.Type) bool {
	for t.Kind == ir.KVector || t.Kind == ir.KArray || t.Kind == ir.KMatrix {
		t = t.Elem
	}
	return IsOpaqueType(t) || t.Kind == ir.KStruct
}

// valueParams counts the parameters of a declaration that are not metadata
// (metadata arguments are dropped by the parser).
func valueParams(d *funcAST) int {
	n := 0
	for _, p := range d.params {
		if p.ty.kind != lkMetadata {
			n++
		}
	}
	return n
}

// intrinsicFor finds or registers the passlens intrinsic for a call of the
// LLVM function name. The exporter's stand-ins llvm.passlens.NAME.* map
// back to passlens's own NAME; everything else keeps its exact LLVM name
// (overload suffix included) so that export reproduces the call.
func intrinsicFor(name string, fnAttrs map[string]bool, nargs int) *ir.Intrinsic {
	if rest, ok := strings.CutPrefix(name, passlensPrefix); ok {
		// The exporter's stand-in for a passlens intrinsic. LLVM treats
		// the call as an ordinary operation (its divergence propagates),
		// so only intrinsics with that behaviour map back; the stand-ins
		// of wave operations (always uniform, divergence sources) stay
		// LLVM calls so that uniformity agrees with opt-22.
		base, _, _ := strings.Cut(rest, ".")
		if it := ir.LookupIntrinsic(base); it != nil && !strings.HasPrefix(it.Doc, importedDoc) &&
			!it.Attrs.Has(ir.AttrAlwaysUniform) && !it.Attrs.Has(ir.AttrDivergenceSource) {
			return it
		}
	}
	if it := ir.LookupIntrinsic(name); it != nil {
		return it
	}
	return ir.RegisterIntrinsic(name, IntrinsicAttrs(name, fnAttrs), nargs, nargs, importedDoc+name)
}

func (bl *bodyLowerer) gep(in *instAST) error {
	lw := bl.lw
	it := bl.emit(in, ir.OpAccess)
	if len(in.args) == 0 {
		return lw.errAt(in.tok, "getelementptr needs a pointer operand")
	}
	src, err := lw.typeAt(in.tok, in.ty, nil)
	if err != nil {
		return err
	}
	sp, err := bl.spaceOf(in.args[0].v.tok, in.args[0].ty)
	if err != nil {
		return err
	}
	baseT, indices := ir.Array(src, -1), in.args[1:]
	if src.Kind == ir.KArray && src.Len < 0 {
		// getelementptr [0 x T], ptr @buf, 0, i: the buffer itself is
		// the runtime-sized array (arrays of them do not exist).
		if len(in.args) < 2 || in.args[1].v.kind != vInt || in.args[1].v.text != "0" {
			return lw.errAt(in.tok, "unsupported getelementptr over %s without a leading 0 index", in.ty)
		}
		baseT, indices = src, in.args[2:]
	}
	base, err := bl.val(in.args[0], bl.register(ir.Ptr(sp, baseT)))
	if err != nil {
		return err
	}
	args := []ir.Value{base}
	for _, ix := range indices {
		if ix.ty.kind != lkInt {
			return lw.errAt(ix.v.tok, "unsupported getelementptr index of type %s", ix.ty)
		}
		v, err := bl.val(ix, nil)
		if err != nil {
			return err
		}
		args = append(args, v)
	}
	rt := ir.AccessType(base.Type(), args[1:])
	if rt == nil {
		return lw.errAt(in.tok, "unsupported getelementptr: its indices do not select a member of %s", in.ty)
	}
	if rt != it.Type() {
		it.SetType(bl.register(rt))
	}
	it.Args = args
	bl.insert(it)
	return nil
}

func (bl *bodyLowerer) aggregate(in *instAST) error {
	lw := bl.lw
	op := ir.OpExtractValue
	if in.op == "insertvalue" {
		op = ir.OpInsertValue
	}
	it := bl.emit(in, op)
	agg, err := bl.val(in.args[0], nil)
	if err != nil {
		return err
	}
	et := agg.Type().IndexPath(in.idx)
	if et == nil || len(in.idx) == 0 {
		return lw.errAt(in.tok, "invalid %s indices for %s", in.op, in.args[0].ty)
	}
	if op == ir.OpExtractValue && len(in.idx) == 1 {
		if outs, ok := bl.asmOuts[agg]; ok && in.idx[0] < len(outs) && outs[in.idx[0]] {
			return lw.errAt(in.tok, "unsupported extractvalue of an SGPR output of inline asm")
		}
	}
	it.Args = []ir.Value{agg}
	it.Idx = append([]int(nil), in.idx...)
	if op == ir.OpInsertValue {
		if agg.Type() != it.Type() {
			return lw.errAt(in.tok, "unsupported insertvalue into %s", in.args[0].ty)
		}
		e, err := bl.val(in.args[1], et)
		if err != nil {
			return err
		}
		it.Args = append(it.Args, e)
	} else if et != it.Type() {
		it.SetType(et)
	}
	bl.insert(it)
	return nil
}

func (bl *bodyLowerer) element(in *instAST) error {
	lw := bl.lw
	op := ir.OpExtractElem
	n := 2
	if in.op == "insertelement" {
		op, n = ir.OpInsertElem, 3
	}
	it := bl.emit(in, op)
	vec, err := bl.val(in.args[0], nil)
	if err != nil {
		return err
	}
	if vec.Type().Kind != ir.KVector {
		return lw.errAt(in.tok, "%s needs a vector operand", in.op)
	}
	if want := vec.Type(); n == 2 {
		want = want.Elem
		if it.Type() != want {
			return lw.errAt(in.tok, "unsupported extractelement of %s", in.args[0].ty)
		}
	} else if it.Type() != want {
		return lw.errAt(in.tok, "unsupported insertelement into %s", in.args[0].ty)
	}
	it.Args = []ir.Value{vec}
	if n == 3 {
		e, err := bl.val(in.args[1], vec.Type().Elem)
		if err != nil {
			return err
		}
		it.Args = append(it.Args, e)
	}
	ix, err := bl.val(in.args[n-1], nil)
	if err != nil {
		return err
	}
	if !ix.Type().IsIntegral() {
		return lw.errAt(in.args[n-1].v.tok, "%s index must be an integer", in.op)
	}
	it.Args = append(it.Args, ix)
	bl.insert(it)
	return nil
}

func (bl *bodyLowerer) shuffle(in *instAST) error {
	lw := bl.lw
	it := bl.emit(in, ir.OpShuffle)
	a, err := bl.val(in.args[0], nil)
	if err != nil {
		return err
	}
	if a.Type().Kind != ir.KVector || it.Type().Kind != ir.KVector {
		return lw.errAt(in.tok, "unsupported shufflevector on %s", in.args[0].ty)
	}
	b, err := bl.val(in.args[1], a.Type())
	if err != nil {
		return err
	}
	m := in.args[2]
	var mask []int
	switch m.v.kind {
	case vZero:
		mask = make([]int, m.ty.n)
	case vAgg:
		for _, e := range m.v.elems {
			if e.v.kind == vPoison || e.v.kind == vUndef {
				// Any lane may be chosen for a poison lane: take the
				// first (a refinement LLVM allows).
				mask = append(mask, 0)
				continue
			}
			if e.v.kind != vInt {
				return lw.errAt(e.v.tok, "unsupported shufflevector mask element %s (constant integers only)", e.v.tok)
			}
			n, err := strconv.Atoi(e.v.text)
			if err != nil || n < 0 || n >= 2*a.Type().Len {
				return lw.errAt(e.v.tok, "shufflevector mask element %s out of range", e.v.text)
			}
			mask = append(mask, n)
		}
	default:
		return lw.errAt(m.v.tok, "unsupported shufflevector mask (constant integers only)")
	}
	if it.Type() != ir.Vec(a.Type().Elem, len(mask)) {
		return lw.errAt(in.tok, "unsupported shufflevector result %s", it.Type())
	}
	it.Args = []ir.Value{a, b}
	it.Idx = mask
	bl.insert(it)
	return nil
}

// cmpxchg becomes "x.old = atomic cmpxchg", "x.ok = icmp eq x.old, cmp"
// and "x = construct { T, bool } (x.old, x.ok)": passlens's cmpxchg returns
// only the old value. The exporter folds the three back into one cmpxchg.
func (bl *bodyLowerer) cmpxchg(in *instAST) error {
	lw := bl.lw
	it := bl.emit(in, ir.OpConstruct)
	vt := it.Type().Fields[0].Type
	if !vt.IsIntegral() {
		return lw.errAt(in.tok, "unsupported cmpxchg on %s (integers only)", in.args[1].ty)
	}
	sp, err := bl.spaceOf(in.args[0].v.tok, in.args[0].ty)
	if err != nil {
		return err
	}
	p, err := bl.val(in.args[0], bl.register(ir.Ptr(sp, vt)))
	if err != nil {
		return err
	}
	cmp, err := bl.val(in.args[1], vt)
	if err != nil {
		return err
	}
	nv, err := bl.val(in.args[2], vt)
	if err != nil {
		return err
	}
	old := bl.bd.Atomic(ir.AtomicCmpXchg, p, nv, cmp, it.Name()+".old")
	ok := bl.bd.Cmp(ir.PredEQ, old, cmp, it.Name()+".ok")
	it.Args = []ir.Value{old, ok}
	bl.insert(it)
	return nil
}
