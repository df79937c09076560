package dxil

// This file lowers the quad intrinsics (compiler/ir/quad.go) to DXIL
// operations, as DXC does:
//
//	ddx_coarse, ddy_coarse  dx.op.unary DerivCoarseX/Y (83, 84)
//	ddx_fine, ddy_fine      dx.op.unary DerivFineX/Y (85, 86)
//	fwidth                  FAbs(DerivCoarseX) + FAbs(DerivCoarseY)
//	QuadReadAcrossX/Y/Diag. dx.op.quadOp (123), QuadOpKind 0/1/2
//	QuadReadLaneAt          dx.op.quadReadLaneAt (122)
//	QuadAny, QuadAll        dx.op.quadVote (222, SM6.7), QuadVoteKind 0/1
//	ps.demote               dx.op.discard (82) of true: DXIL's discard
//	                        does not end the shader (demote semantics)
//
// The operations are scalar: the scalarize pass splits vectors first.

import (
	"fmt"

	"passlens/compiler/ir"
)

var derivCodes = map[string]int{"ddx_coarse": opDerivCoarseX, "ddy_coarse": opDerivCoarseY,
	"ddx_fine": opDerivFineX, "ddy_fine": opDerivFineY}

// quad lowers one quad intrinsic call (or ps.demote).
func (lw *lowerer) quad(in *ir.Instr) error {
	name := in.Intr.Name
	if name == ir.Demote {
		return lw.dxCall(in, opSpec{opDiscard, "discard", false}, nil, []ir.Value{ir.ConstBool(ir.Bool, true)})
	}
	rt := in.Type()
	a := in.Args
	if !rt.IsScalar() {
		return fmt.Errorf("no DXIL operation for intrinsic %s with result type %s (the scalarize pass splits vectors: run the dxil pipeline)", name, rt)
	}
	if code, ok := derivCodes[name]; ok {
		return lw.dxCall(in, opSpec{code, "unary", true}, rt, a)
	}
	switch name {
	case "fwidth":
		lw.bd.SetBefore(in)
		abs := func(axis string, code int) (ir.Value, error) {
			d := lw.bd.Intrinsic("dd"+axis+"_coarse", rt, []ir.Value{a[0]}, in.Name()+".d"+axis)
			if err := lw.dxCall(d, opSpec{code, "unary", true}, rt, d.Args); err != nil {
				return nil, err
			}
			m := lw.bd.Intrinsic("abs", rt, []ir.Value{d}, in.Name()+".a"+axis)
			return m, lw.dxCall(m, opSpec{opFAbs, "unary", true}, rt, m.Args)
		}
		x, err := abs("x", opDerivCoarseX)
		if err != nil {
			return err
		}
		y, err := abs("y", opDerivCoarseY)
		if err != nil {
			return err
		}
		return lw.replace(in, ir.OpFAdd, x, y)
	case "QuadReadAcrossX", "QuadReadAcrossY", "QuadReadAcrossDiagonal":
		kind := map[string]int{"QuadReadAcrossX": 0, "QuadReadAcrossY": 1, "QuadReadAcrossDiagonal": 2}[name]
		return lw.dxCall(in, opSpec{opQuadOp, "quadOp", true}, rt, []ir.Value{a[0], i8(kind)})
	case "QuadReadLaneAt":
		return lw.dxCall(in, opSpec{opQuadReadLaneAt, "quadReadLaneAt", true}, rt, a)
	case "QuadAny", "QuadAll":
		kind := 0
		if name == "QuadAll" {
			kind = 1
		}
		return lw.dxCall(in, opSpec{opQuadVote, "quadVote", true}, rt, []ir.Value{a[0], i8(kind)})
	}
	return fmt.Errorf("no DXIL operation for intrinsic %s", name)
}
