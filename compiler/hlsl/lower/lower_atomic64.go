package lower

import (
	"strings"

	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
)

// atomic64 lowers RWByteAddressBuffer.Interlocked*64(offset, …)
// (hlsl/atomic64.go) to one 64-bit atomic through buf.word64, the pointer
// to the 64-bit integer at the byte offset of the buffer's 32-bit words
// (ir/bufword64.go). args are the converted in-arguments.
func (fl *fnLowerer) atomic64(x *hlsl.MethodCall, buf ir.Value, args []ir.Value) ir.Value {
	m := x.Method
	base, _ := hlsl.Atomic64Base(m.Name)
	op := strings.TrimPrefix(base, "Interlocked")
	vt := m.Params[1]
	et := fl.irType(vt)
	p := fl.b.Intrinsic(ir.BufWord64, ir.Ptr(ir.SpaceStorage, et), []ir.Value{buf, args[0]}, exprName(x.Recv)+".q")
	var v, cmp ir.Value
	orig := -1
	if op == "CompareExchange" || op == "CompareStore" {
		cmp, v = args[1], args[2]
		if len(args) > 3 {
			orig = 3
		}
	} else {
		v = args[1]
		if len(args) > 2 {
			orig = 2
		}
	}
	old := fl.b.Atomic(atomicKind(op, vt), p, v, cmp, "old")
	if orig >= 0 {
		fl.storeOut(x.Args[orig], old, vt)
	}
	return nil
}
