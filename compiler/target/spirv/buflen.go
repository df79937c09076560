package spirv

import "passlens/compiler/ir"

// bufLength emits buf.length (ir/buflen.go) as OpArrayLength of member 0
// of the buffer's Block wrapper (the runtime array).
func (fe *fn) bufLength(in *ir.Instr) error {
	if len(in.Args) != 1 {
		return fe.fail("buf.length takes one buffer")
	}
	id, pi, err := fe.pointer(in.Args[0])
	if err != nil {
		return err
	}
	if !pi.wrapped || pi.sc != SCStorageBuffer {
		return fe.fail("buf.length of a pointer that is not a storage buffer")
	}
	tid, err := fe.typ(ir.U32)
	if err != nil {
		return err
	}
	fe.op(OpArrayLength, tid, fe.resultID(in), id, 0)
	return nil
}
