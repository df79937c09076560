package dxil

import (
	"fmt"
	"strings"

	"passlens/compiler/ir"
	"passlens/compiler/llvm"
)

// bufLength lowers buf.length (ir/buflen.go) as DXC lowers GetDimensions
// on a buffer: dx.op.getDimensions (72) on a handle made with
// dx.op.createHandle (class SRV for read-only buffers, UAV for writable
// ones; the range id counts the module's storage buffers of the class
// before it), mip level undef; component 0 of %dx.types.Dimensions is
// the element count, in bytes for a byte address buffer, which buf.length
// counts in 32-bit words (hence the shift).
func (lw *lowerer) bufLength(in *ir.Instr) error {
	g, ok := in.Args[0].(*ir.Global)
	if !ok || g.Space != ir.SpaceStorage || ir.IsImageGlobal(g) {
		return fmt.Errorf("the buffer operand %s is not a storage buffer global (inline calls that pass resources)", in.Args[0].Ref())
	}
	lw.bd.SetBefore(in)
	h := lw.bufferHandle(g)
	i32 := ir.I32
	st := ir.Struct("dx.types.Dimensions", []ir.Field{{Name: "w", Type: i32}, {Name: "h", Type: i32}, {Name: "d", Type: i32}, {Name: "l", Type: i32}})
	if lw.f.Module != nil {
		lw.f.Module.AddStruct(st)
	}
	dargs := []ir.Value{ir.ConstInt(i32, opGetDimensions), h, ir.ConstUndef(i32)}
	llvm.RegisterExternalIntrinsic("dx.op.getDimensions", ir.AttrPure, len(dargs))
	dims := lw.bd.Intrinsic("dx.op.getDimensions", st, dargs, in.Name()+".dims")
	w := lw.bd.ExtractValue(dims, []int{0}, in.Name()+".w")
	var n ir.Value = w
	if strings.Contains(g.Kind, "ByteAddressBuffer") {
		n = lw.bd.Binary(ir.OpLShr, w, ir.ConstInt(i32, 2), in.Name()+".words")
	}
	if in.Type() != i32 {
		n = lw.bd.Cast(ir.OpBitcast, n, in.Type(), in.Name()+".n")
	}
	lw.f.ReplaceUses(map[ir.Value]ir.Value{in: n})
	in.Remove()
	return nil
}

// bufferHandle emits dx.op.createHandle for storage buffer global g: class
// SRV for a read-only buffer, UAV for a writable one; the range id counts
// the module's storage buffers of the class before it.
func (lw *lowerer) bufferHandle(g *ir.Global) ir.Value {
	class := 1 // UAV
	if g.ReadOnly {
		class = classSRV
	}
	// The range counts the buffers of the class before it; an array's
	// elements share one (resarray.go).
	rangeID := rangeIndex(lw.f.Module, g, func(o *ir.Global) bool {
		return o.Space == ir.SpaceStorage && !ir.IsImageGlobal(o) && o.ReadOnly == g.ReadOnly && o.Kind != "counter"
	})
	hargs := []ir.Value{ir.ConstInt(ir.I32, opCreateHandle), i8(class), ir.ConstInt(ir.I32, int64(rangeID)),
		ir.ConstInt(ir.I32, int64(max(g.Binding, 0))), ir.ConstBool(ir.Bool, false)}
	llvm.RegisterExternalIntrinsic("dx.op.createHandle", ir.AttrPure, len(hargs))
	return lw.bd.Intrinsic("dx.op.createHandle", lw.handleType(), hargs, g.Name()+".handle")
}
