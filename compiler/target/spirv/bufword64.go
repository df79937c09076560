package spirv

import (
	"fmt"

	"passlens/compiler/ir"
)

// buf.word64 (ir/bufword64.go), the 64-bit integer at a byte offset of a
// byte address buffer, for RWByteAddressBuffer.Interlocked*64.
//
// SPIR-V has no pointer casts in logical addressing, so the buffer gets a
// second view: a variable of the same descriptor set and binding whose
// Block holds a runtime array of 64-bit integers (ArrayStride 8), and
// buf.word64 is the access chain to element offset/8 of that view (D3D
// requires the offset to be 8-aligned). Both variables are decorated
// Aliased, as the two views address the same memory. The atomic then is
// an ordinary OpAtomic* on a 64-bit StorageBuffer pointer (Int64Atomics;
// Vulkan's shaderBufferInt64Atomics). DXC's SPIR-V back end has no
// lowering for these methods (microsoft/DirectXShaderCompiler#8451, which
// the offload-test-suite's tests mark XFAIL on Vulkan), so this mapping is
// passlens's own.

// DecAliased is SPIR-V's Aliased decoration.
const DecAliased = 20

func init() { decorationNames[DecAliased] = "Aliased" }

// view64Key identifies the 64-bit view of a buffer global by its element
// type (i64 or u64).
type view64Key struct {
	g  *ir.Global
	et *ir.Type
}

// bufWord64 emits buf.word64 call in as an access chain into the 64-bit
// view of its buffer and records it as a StorageBuffer pointer for the
// atomics using it (the only users the IR allows).
func (fe *fn) bufWord64(in *ir.Instr) error {
	e := fe.e
	if len(in.Args) != 2 {
		return fe.fail("%s takes a buffer and a byte offset", ir.BufWord64)
	}
	g, ok := in.Args[0].(*ir.Global)
	if !ok || g.Space != ir.SpaceStorage || g.ValType.Kind != ir.KArray || g.ValType.Len >= 0 {
		return fe.fail("%s of %s: the buffer must be one byte address buffer global (a buffer chosen at run time has no 64-bit view)", ir.BufWord64, in.Args[0].Ref())
	}
	for _, b := range fe.f.Blocks {
		for _, u := range b.Instrs {
			for i, a := range u.Args {
				if a == ir.Value(in) && (u.Op != ir.OpAtomic || i != 0) {
					return fe.fail("the 64-bit buffer pointer %s is used by %s: only atomics may use it", in.Ref(), u.Op)
				}
			}
		}
	}
	et := in.Type().Elem
	view, err := e.view64(g, et)
	if err != nil {
		return fe.fail("%v", err)
	}
	off, err := fe.value(in.Args[1])
	if err != nil {
		return err
	}
	u32 := e.mustType(ir.U32, rulePlain)
	idx := fe.op(OpShiftRightLogical, u32, 0, off, e.uintConst(3))
	pt := e.pointerType(SCStorageBuffer, e.mustType(et, ruleStd430))
	fe.op(OpAccessChain, pt, fe.resultID(in), view, e.uintConst(0), idx)
	fe.ptrs[in] = &ptrInfo{sc: SCStorageBuffer, rule: ruleStd430, ptype: pt}
	return nil
}

// view64 returns the variable viewing buffer g as a runtime array of et
// (declaring it, and decorating both variables Aliased, the first time).
func (e *enc) view64(g *ir.Global, et *ir.Type) (uint32, error) {
	k := view64Key{g, et}
	if id, ok := e.views64[k]; ok {
		return id, nil
	}
	gv := e.gvars[g]
	if gv == nil {
		return 0, fmt.Errorf("global @%s was not declared", g.Name())
	}
	var bind *Binding
	for _, b := range Bindings(e.m) {
		if b.Global == g {
			bind = &b
			break
		}
	}
	if bind == nil {
		return 0, fmt.Errorf("buffer @%s has no binding", g.Name())
	}
	at, err := e.typeID(ir.Array(et, -1), ruleStd430)
	if err != nil {
		return 0, err
	}
	root := e.id()
	e.globals.inst(OpTypeStruct, root, at)
	e.name(root, "type."+g.Name()+".u64")
	e.memberName(root, 0, g.Name())
	e.annots.inst(OpMemberDecorate, root, 0, DecOffset, 0)
	e.annots.inst(OpDecorate, root, DecBlock)
	id := e.id()
	e.globals.inst(OpVariable, e.pointerType(SCStorageBuffer, root), id, SCStorageBuffer)
	e.name(id, g.Name()+".u64")
	e.annots.inst(OpDecorate, id, DecDescriptorSet, uint32(bind.Set))
	e.annots.inst(OpDecorate, id, DecBinding, uint32(bind.Binding))
	e.annots.inst(OpDecorate, id, DecAliased)
	if !e.aliased[g] {
		e.annots.inst(OpDecorate, gv.id, DecAliased)
		e.aliased[g] = true
	}
	e.views64[k] = id
	return id, nil
}
