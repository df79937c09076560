package dxil

import (
	"fmt"

	"passlens/compiler/ir"
	"passlens/compiler/llvm"
)

// bufWord64 lowers buf.word64 (ir/bufword64.go) with the atomics using it
// as DXC lowers RWByteAddressBuffer.Interlocked*64: each atomic becomes
// dx.op.atomicBinOp.i64 (78) or dx.op.atomicCompareExchange.i64 (79) on
// the buffer's UAV handle, with the byte offset as the first coordinate
// and the other two undef (a raw buffer has one address); buf.word64
// itself goes away.
func (lw *lowerer) bufWord64(in *ir.Instr) error {
	g, ok := in.Args[0].(*ir.Global)
	if !ok || g.Space != ir.SpaceStorage || ir.IsImageGlobal(g) || g.ReadOnly {
		return fmt.Errorf("the buffer operand %s is not a writable storage buffer global (inline calls that pass resources)", in.Args[0].Ref())
	}
	et := in.Type().Elem
	o, err := overload(et)
	if err != nil {
		return err
	}
	var users []*ir.Instr
	for _, b := range lw.f.Blocks {
		for _, u := range b.Instrs {
			for i, x := range u.Args {
				if x == ir.Value(in) {
					if u.Op != ir.OpAtomic || i != 0 {
						return fmt.Errorf("the 64-bit buffer pointer %s is used by %s: only atomics may use it", in.Ref(), u.Op)
					}
					users = append(users, u)
				}
			}
		}
	}
	i32 := ir.I32
	for _, u := range users {
		lw.bd.SetBefore(u)
		h := lw.bufferHandle(g)
		coords := []ir.Value{in.Args[1], ir.ConstUndef(i32), ir.ConstUndef(i32)}
		var all []ir.Value
		dx := "dx.op.atomicBinOp." + o
		if u.Atomic == ir.AtomicCmpXchg {
			dx = "dx.op.atomicCompareExchange." + o
			all = append([]ir.Value{ir.ConstInt(i32, opAtomicCompareExchange), h}, coords...)
			all = append(all, u.Args[2], u.Args[1])
		} else {
			code, ok := dxilAtomicOps[u.Atomic]
			if !ok {
				return fmt.Errorf("no DXIL atomic for %s", u.Atomic)
			}
			all = append([]ir.Value{ir.ConstInt(i32, opAtomicBinOp), h, ir.ConstInt(i32, int64(code))}, coords...)
			all = append(all, u.Args[1])
		}
		llvm.RegisterExternalIntrinsic(dx, 0, len(all))
		u.Op, u.Intr, u.Args, u.Atomic = ir.OpIntrinsic, ir.LookupIntrinsic(dx), all, ir.AtomicNone
	}
	in.Remove()
	return nil
}
