package llvm

import (
	"strconv"
	"strings"

	"passlens/compiler/ir"
)

// This file is the importer's fallback for LLVM IR that passlens IR cannot
// represent: odd integer widths (i33, i128), vectors of pointers, tokens,
// packed structs, unknown address spaces, constant expressions, inline asm,
// callbr, invoke, atomics on floats, and any instruction whose native
// lowering fails. Such code is imported as "opaque" operations instead of
// failing:
//
//   - a type passlens lacks becomes an empty struct named after its LLVM
//     spelling (%"llvm:i33", %"llvm:<2 x ptr addrspace(1)>");
//   - an instruction becomes a call of an opaque intrinsic named after its
//     opcode (intr %"llvm:i33" llvm.opaque.add(...)) whose operands are the
//     instruction's value operands, so def-use edges are kept, and whose
//     divergence class is AMDGPU's for that instruction (see opaqueClass);
//   - a constant passlens cannot write (a constant expression, c"...", a
//     literal of an opaque type, a function address) is materialised once
//     per function at the top of the entry block as an opaque operation on
//     its constant operands, so it is uniform and dominates every use;
//   - a terminator with a successor list passlens lacks (callbr, invoke,
//     indirectbr, a switch on an opaque type) becomes an opaque selector
//     followed by a switch with the same successors in LLVM's order.
//
// The CFG and the def-use edges are therefore exactly LLVM's, and
// dominators, post-dominators, cycles and uniformity equal opt-22's; the
// opaque operations cannot be executed or exported.

// opaquePrefix names the intrinsics standing for opaque operations.
const opaquePrefix = "llvm.opaque."

// opaqueTypePrefix starts the names of the empty structs standing for LLVM
// types passlens lacks.
const opaqueTypePrefix = "llvm:"

// opaqueType returns the passlens stand-in for an LLVM type it cannot
// represent.
func opaqueType(t *llType) *ir.Type {
	return ir.Struct(opaqueTypePrefix+t.String(), nil)
}

// IsOpaqueType reports whether t stands for an LLVM type passlens cannot
// represent (Import's fallback).
func IsOpaqueType(t *ir.Type) bool {
	return t.Kind == ir.KStruct && len(t.Fields) == 0 && strings.HasPrefix(t.Name, opaqueTypePrefix)
}

// IsOpaque reports whether in is an opaque operation made by Import for
// LLVM IR passlens cannot represent.
func IsOpaque(in *ir.Instr) bool {
	return in.Op == ir.OpIntrinsic && in.Intr != nil && strings.HasPrefix(in.Intr.Name, opaquePrefix)
}

// opaqueIntr returns the intrinsic for opaque operation key with the
// given divergence class. The class is part of the name when it is not
// the operation's usual one, so that one name always means one class.
func opaqueIntr(key string, d Divergence) *ir.Intrinsic {
	name := opaquePrefix + key
	switch d {
	case Source:
		name += ".divergent"
	case AlwaysUniform:
		name += ".uniform"
	}
	if it := ir.LookupIntrinsic(name); it != nil {
		return it
	}
	var a ir.Attr
	switch d {
	case Source:
		a = ir.AttrDivergenceSource
	case AlwaysUniform:
		a = ir.AttrAlwaysUniform
	}
	return ir.RegisterIntrinsic(name, a, 0, 1<<20, importedDoc+"(opaque: LLVM '"+key+"' that passlens IR cannot represent)")
}

// asmIsDivergent reports whether AMDGPU treats an inline asm call with
// these constraints as a source of divergence: some output lives in a
// register that is not an SGPR ("=v", "=a", "={v0}", ...). "s" and "r"
// outputs are SGPRs.
func asmIsDivergent(constraints string) bool {
	for _, sgpr := range asmOutputs(constraints) {
		if !sgpr {
			return true
		}
	}
	return false
}

// asmOutputs lists the outputs of an inline asm constraint string in order,
// true for those in SGPRs.
func asmOutputs(constraints string) []bool {
	var outs []bool
	for _, c := range strings.Split(constraints, ",") {
		c = strings.TrimSpace(c)
		if !strings.HasPrefix(c, "=") {
			continue
		}
		c = strings.TrimLeft(c, "=&*")
		outs = append(outs, c == "s" || c == "r" || strings.HasPrefix(c, "{s") || strings.HasPrefix(c, "{ttmp"))
	}
	return outs
}

// opaqueClass is AMDGPU's divergence class of an LLVM instruction that is
// imported as an opaque operation.
func (bl *bodyLowerer) opaqueClass(in *instAST) Divergence {
	switch in.op {
	case "atomicrmw", "cmpxchg":
		return Source
	case "extractvalue":
		// An SGPR output of an inline asm call with mixed outputs is
		// uniform although the call is divergent.
		if len(in.args) > 0 && in.args[0].v.kind == vLocal && len(in.idx) == 1 {
			x, _ := bl.vals.get(in.args[0].v.text)
			if outs, ok := bl.asmOuts[x]; ok && x != nil && in.idx[0] < len(outs) && outs[in.idx[0]] {
				return AlwaysUniform
			}
		}
	case "load":
		if len(in.args) > 0 && in.args[0].ty.kind == lkPtr && (in.args[0].ty.as == ASFlat || in.args[0].ty.as == ASPrivate) {
			return Source
		}
	case "call":
		if in.c().asm != nil {
			if asmIsDivergent(in.c().asm.constraints) {
				return Source
			}
			return AlwaysUniform
		}
		if in.c().callee.kind == vGlobal {
			var attrs map[string]bool
			if d, ok := bl.lw.decls[in.c().callee.text]; ok {
				attrs = bl.lw.fnAttrs(d)
			}
			return CallDivergence(in.c().callee.text, attrs)
		}
		return Source
	}
	return Propagates
}

// opaqueKey names the opaque intrinsic of an instruction: its opcode
// ("asm" for inline asm calls, "atomicrmw.OP" for atomicrmw).
func opaqueKey(in *instAST) string {
	if in.op == "call" && in.c().asm != nil {
		return "asm"
	}
	if in.op == "atomicrmw" && in.atomicOp != "" {
		// The operation names the semantics (atomicrmw.fadd), so that the
		// interpreter can run it (compiler/interp, docs/run.md).
		return "atomicrmw." + in.atomicOp
	}
	return in.op
}

// operands returns every value operand of an instruction in LLVM order:
// the arguments, an indirect callee, phi inputs and bundle operands.
func (bl *bodyLowerer) operands(in *instAST) ([]ir.Value, error) {
	var vals []ir.Value
	add := func(tv typedVal) error {
		if tv.v.kind == vMeta {
			return nil
		}
		v, err := bl.val(tv, nil)
		if err != nil {
			return err
		}
		vals = append(vals, v)
		return nil
	}
	args := in.args
	if in.op == "alloca" {
		args = nil // args[0] holds the address space
		if in.count != nil {
			args = []typedVal{*in.count}
		}
	}
	for _, a := range args {
		if err := add(a); err != nil {
			return nil, err
		}
	}
	isCall := in.op == "call" || in.op == "invoke" || in.op == "callbr"
	if isCall && in.c().asm == nil && (in.c().callee.kind == vLocal || in.c().callee.kind == vGlobal || in.c().callee.kind == vExpr) {
		if err := add(typedVal{&llType{kind: lkPtr}, in.c().callee}); err != nil {
			return nil, err
		}
	}
	for _, b := range in.c().bundles {
		if err := add(b); err != nil {
			return nil, err
		}
	}
	return vals, nil
}

// opaque lowers a non-terminator as an opaque operation.
func (bl *bodyLowerer) opaque(in *instAST) error {
	args, err := bl.operands(in)
	if err != nil {
		return err
	}
	it := bl.emit(in, ir.OpIntrinsic)
	it.Intr = opaqueIntr(opaqueKey(in), bl.opaqueClass(in))
	it.Args = args
	if in.c().asm != nil {
		key := ir.Value(it)
		if bl.self != nil {
			key = bl.self // what uses of the result find (a cfgValue in a CFG-only import)
		}
		bl.asmOuts[key] = asmOutputs(in.c().asm.constraints)
	}
	bl.insert(it)
	return nil
}

// opaqueTerminator lowers a terminator passlens cannot write: the result
// (callbr, invoke) becomes an opaque operation that LLVM's uniformity
// analysis never marks divergent (it marks the terminator instead), and
// the control transfer becomes a switch on an opaque selector over the
// same successors in LLVM's order. The selector is divergent as the
// terminator is: from its operands, or always for invoke (a call).
func (bl *bodyLowerer) opaqueTerminator(in *instAST, succs []token) error {
	args, err := bl.operands(in)
	if err != nil {
		return err
	}
	base := "dest"
	if it := in.pre; it != nil {
		it.Op = ir.OpIntrinsic
		it.Intr = opaqueIntr(opaqueKey(in), AlwaysUniform)
		it.Args = args
		bl.insert(it)
		base = it.Name() + ".dest"
	}
	class := Propagates
	if in.op == "invoke" {
		class = Source
	}
	loc := ir.Loc{Line: int32(in.tok.line), Col: int32(in.tok.col)}
	if len(succs) == 0 {
		// ret/resume/unreachable-like: keep the operands, end the block.
		if len(args) > 0 {
			use := ir.NewInstr(bl.f, ir.OpIntrinsic, ir.Void, "")
			use.Intr = opaqueIntr(in.op, class)
			use.Args = args
			use.Loc = loc
			bl.insert(use)
		}
		un := ir.NewInstr(bl.f, ir.OpUnreachable, ir.Void, "")
		un.Loc = loc
		bl.insert(un)
		return nil
	}
	sel := ir.NewInstr(bl.f, ir.OpIntrinsic, ir.I32, base)
	sel.Intr = opaqueIntr(in.op+".dest", class)
	sel.Args = args
	sel.Loc = loc
	bl.insert(sel)
	sw := ir.NewInstr(bl.f, ir.OpSwitch, ir.Void, "")
	sw.Loc = loc
	sw.Args = []ir.Value{sel}
	for i, t := range succs {
		b, err := bl.block(t)
		if err != nil {
			return err
		}
		if i == 0 {
			sw.Cases = append(sw.Cases, ir.SwitchCase{Default: true, Target: b})
		} else {
			sw.Cases = append(sw.Cases, ir.SwitchCase{Values: []int64{int64(i)}, Target: b})
		}
	}
	bl.insert(sw)
	return nil
}

// needsMaterialize reports whether a constant must be materialised as an
// opaque operation: it is or contains a constant expression, a string, a
// token, or a global or function address inside an aggregate.
func needsMaterialize(v valRef, inAggregate bool) bool {
	switch v.kind {
	case vExpr, vString, vNone:
		return true
	case vGlobal:
		return inAggregate
	case vAgg, vSplat:
		for _, e := range v.elems {
			if needsMaterialize(e.v, true) {
				return true
			}
		}
	}
	return false
}

// valKey is a canonical spelling of a constant, to materialise each
// distinct constant once per function.
func valKey(tv typedVal) string {
	var sb strings.Builder
	var walk func(ty *llType, v valRef)
	walk = func(ty *llType, v valRef) {
		if ty != nil {
			sb.WriteString(ty.String())
			sb.WriteByte(' ')
		}
		switch v.kind {
		case vGlobal:
			sb.WriteString("@" + v.text)
		case vLocal:
			sb.WriteString("%" + v.text)
		case vString:
			sb.WriteString(strconv.Quote(v.text))
		default:
			sb.WriteString(v.text)
		}
		if len(v.elems) > 0 {
			sb.WriteByte('(')
			for i, e := range v.elems {
				if i > 0 {
					sb.WriteString(", ")
				}
				walk(e.ty, e.v)
			}
			sb.WriteByte(')')
		}
	}
	walk(tv.ty, tv.v)
	return sb.String()
}

// materialize returns the opaque operation standing for constant tv of
// passlens type t, creating it at the top of the entry block on first use.
func (bl *bodyLowerer) materialize(tv typedVal, t *ir.Type) (ir.Value, error) {
	key := t.String() + "|" + valKey(tv)
	if v, ok := bl.consts[key]; ok {
		return v, nil
	}
	var args []ir.Value
	op, name := "", "const"
	switch v := tv.v; v.kind {
	case vExpr:
		op, name = v.text, "const."+v.text
		for _, e := range v.elems {
			if e.v.kind == vMeta {
				continue
			}
			a, err := bl.val(e, nil)
			if err != nil {
				return nil, err
			}
			args = append(args, a)
		}
	case vAgg, vSplat:
		op = "aggregate"
		for _, e := range v.elems {
			a, err := bl.val(e, nil)
			if err != nil {
				return nil, err
			}
			args = append(args, a)
		}
	case vString:
		op = "string"
	case vNone:
		op = "none"
	case vZero:
		op = "zeroinitializer"
	case vNull:
		op = "null"
	case vGlobal:
		op, name = "address", v.text+".addr"
	case vInt:
		op = "int"
		if n, ok := parseIntLiteral(v.text); ok {
			args = []ir.Value{ir.ConstInt(ir.I64, n)}
		}
	default:
		op = "literal"
	}
	it := ir.NewInstr(bl.f, ir.OpIntrinsic, bl.register(t), name)
	it.Intr = opaqueIntr(op, Propagates)
	it.Args = args
	it.Loc = ir.Loc{Line: int32(tv.v.tok.line), Col: int32(tv.v.tok.col)}
	bl.entryPre = append(bl.entryPre, it)
	bl.consts[key] = it
	return it, nil
}
