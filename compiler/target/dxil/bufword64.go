package dxil

import (
	"fmt"

	"passlens/compiler/ir"
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
		if err := atomicOnHandle(u, h, coords, o); err != nil {
			return err
		}
	}
	in.Remove()
	return nil
}
