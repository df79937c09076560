package dxil

import (
	"strings"

	"passlens/compiler/ir"
	"passlens/compiler/llvm"
)

// lowerCounters rewrites the updates of a buffer's hidden counter (an
// atomic add of 1 or -1 on a storage global of kind "counter", named
// "<buffer>.counter": IncrementCounter, DecrementCounter, Append,
// Consume) into dx.op.bufferUpdateCounter (70) on the buffer's UAV
// handle, as DXC emits them. The operation returns the value before an
// increment and the value after a decrement; the IR's atomic returns the
// value before, so a decrement's result is the operation's plus one.
// The counters are no resources of their own in DXIL: they do not count
// in the range ids. Counter updates of another shape (a counter chosen among buffers by a
// select) stay atomics on the counter's memory.
func lowerCounters(f *ir.Function) {
	for _, b := range f.Blocks {
		for _, in := range append([]*ir.Instr(nil), b.Instrs...) {
			if in.Op != ir.OpAtomic || in.Atomic != ir.AtomicAdd || len(in.Args) != 2 {
				continue
			}
			g, ok := in.Args[0].(*ir.Global)
			if !ok || g.Kind != "counter" || f.Module == nil {
				continue
			}
			k, ok := in.Args[1].(*ir.Const)
			if !ok || k.Int() != 1 && k.Int() != -1 && uint32(k.Int()) != 0xFFFFFFFF {
				continue
			}
			buf := f.Module.Global(strings.TrimSuffix(g.Name(), ".counter"))
			if buf == nil || buf.Space != ir.SpaceStorage || buf.ReadOnly {
				continue
			}
			inc := k.Int() == 1
			lw := &lowerer{f: f, bd: ir.NewBuilder(f)}
			lw.bd.SetBefore(in)
			rangeID := rangeIndex(f.Module, buf, func(o *ir.Global) bool {
				return o.Space == ir.SpaceStorage && !ir.IsImageGlobal(o) && !o.ReadOnly && o.Kind != "counter"
			})
			hargs := []ir.Value{ir.ConstInt(ir.I32, opCreateHandle), i8(1), ir.ConstInt(ir.I32, int64(rangeID)),
				ir.ConstInt(ir.I32, int64(max(buf.Binding, 0))), ir.ConstBool(ir.Bool, false)}
			llvm.RegisterExternalIntrinsic("dx.op.createHandle", ir.AttrPure, len(hargs))
			h := lw.bd.Intrinsic("dx.op.createHandle", lw.handleType(), hargs, buf.Name()+".handle")
			dir := int64(1)
			if !inc {
				dir = -1
			}
			uargs := []ir.Value{ir.ConstInt(ir.I32, opBufferUpdateCounter), h, i8(int(dir))}
			llvm.RegisterExternalIntrinsic("dx.op.bufferUpdateCounter", 0, len(uargs))
			call := lw.bd.Intrinsic("dx.op.bufferUpdateCounter", ir.I32, uargs, in.Name()+".dx")
			var v ir.Value = call
			if !inc {
				v = lw.bd.Binary(ir.OpAdd, call, ir.ConstInt(ir.I32, 1), in.Name()+".old")
			}
			if in.Type() != ir.I32 {
				v = lw.bd.Cast(ir.OpBitcast, v, in.Type(), in.Name()+".u")
			}
			f.ReplaceUses(map[ir.Value]ir.Value{in: v})
			in.Remove()
		}
	}
}

// opBufferUpdateCounter is dx.op.bufferUpdateCounter.
const opBufferUpdateCounter = 70
