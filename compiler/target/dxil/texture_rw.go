package dxil

import (
	"fmt"

	"passlens/compiler/ir"
	"passlens/compiler/llvm"
)

// Read-write textures (ir/rwtexture.go) on UAV handles (createHandle
// class UAV; the range id is the texture's position among the module's
// writable storage globals):
//
//	tex.read              dx.op.textureLoad  (66), mip undef
//	tex.write             dx.op.textureStore (67), mask of the texel's components
//	tex.dims              dx.op.getDimensions (72)
//	atomic on tex.texel   dx.op.atomicBinOp (78) / dx.op.atomicCompareExchange (79)
//	                      with the texel's coordinates (tex.texel itself goes away)
const (
	opTextureStore          = 67
	opAtomicBinOp           = 78
	opAtomicCompareExchange = 79

	classUAV = 1
)

// dxilAtomicOps are DXIL's AtomicBinOpCode values.
var dxilAtomicOps = map[ir.AtomicKind]int{
	ir.AtomicAdd: 0, ir.AtomicAnd: 1, ir.AtomicOr: 2, ir.AtomicXor: 3, ir.AtomicMin: 4,
	ir.AtomicMax: 5, ir.AtomicUMin: 6, ir.AtomicUMax: 7, ir.AtomicXchg: 8,
}

// uavHandle emits dx.op.createHandle for a read-write texture.
func (lw *lowerer) uavHandle(g *ir.Global) ir.Value {
	rangeID := lw.textureRange(g)
	args := []ir.Value{ir.ConstInt(ir.I32, opCreateHandle), i8(classUAV), ir.ConstInt(ir.I32, int64(rangeID)),
		ir.ConstInt(ir.I32, int64(max(g.Binding, 0))), ir.ConstBool(ir.Bool, false)}
	llvm.RegisterExternalIntrinsic("dx.op.createHandle", ir.AttrPure, len(args))
	return lw.bd.Intrinsic("dx.op.createHandle", lw.handleType(), args, g.Name()+".handle")
}

// rwTexel returns the texel type of a read-write texture operand: a
// global, or a select between globals (an array indexed at run time).
func rwTexel(v ir.Value) (*ir.Type, error) {
	switch x := v.(type) {
	case *ir.Global:
		if ir.IsRWTextureGlobal(x) {
			return x.ValType, nil
		}
	case *ir.Instr:
		if x.Op == ir.OpSelect {
			return rwTexel(x.Args[1])
		}
	}
	return nil, fmt.Errorf("the texture operand %s is not a read-write texture global (inline calls that pass resources)", v.Ref())
}

// rwTexture lowers tex.read, tex.write, tex.dims and tex.texel (with the
// atomics using it) on a read-write texture.
func (lw *lowerer) rwTexture(in *ir.Instr) error {
	name := in.Intr.Name
	a := in.Args
	texel, err := rwTexel(a[0])
	if err != nil {
		return err
	}
	i32 := ir.I32
	scalar := texel.Scalar()
	o, err := overload(scalar)
	if err != nil {
		return err
	}
	coords, err := scalars(a[1], 3, i32)
	if err != nil {
		return err
	}
	switch name {
	case "tex.texel":
		var users []*ir.Instr
		for _, b := range lw.f.Blocks {
			for _, u := range b.Instrs {
				for i, x := range u.Args {
					if x == ir.Value(in) {
						if u.Op != ir.OpAtomic || i != 0 {
							return fmt.Errorf("the texel pointer %s is used by %s: DXIL has texel atomics only", in.Ref(), u.Op)
						}
						users = append(users, u)
					}
				}
			}
		}
		for _, u := range users {
			lw.bd.SetBefore(u)
			h, err := lw.handle(a[0])
			if err != nil {
				return err
			}
			if err := atomicOnHandle(u, h, coords, o); err != nil {
				return err
			}
		}
		in.Remove()
		return nil
	case "tex.write":
		lw.bd.SetBefore(in)
		h, err := lw.handle(a[0])
		if err != nil {
			return err
		}
		n := 1
		if t := a[2].Type(); t.Kind == ir.KVector {
			n = t.Len
		}
		vals, err := scalars(a[2], 4, scalar)
		if err != nil {
			return err
		}
		all := append([]ir.Value{ir.ConstInt(i32, opTextureStore), h}, coords...)
		all = append(append(all, vals...), i8(1<<n-1))
		dx := "dx.op.textureStore." + o
		llvm.RegisterExternalIntrinsic(dx, 0, len(all))
		in.Intr, in.Args = ir.LookupIntrinsic(dx), all
		return nil
	}
	return fmt.Errorf("no DXIL operation for %s on a read-write texture", name)
}

// atomicOnHandle rewrites atomic u (on a texel or buffer word pointer) into
// dx.op.atomicBinOp or dx.op.atomicCompareExchange (overload o) on handle
// h at the three coordinates.
func atomicOnHandle(u *ir.Instr, h ir.Value, coords []ir.Value, o string) error {
	i32 := ir.I32
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
	return nil
}
