package spvread

import "passlens/compiler/ir"

// This file reads the quad operations back into the IR's quad intrinsics
// (compiler/ir/quad.go), the inverse of compiler/target/spirv/quad.go:
// OpDPdx/OpDPdy/OpFwidth (the implementation's choice) and their Coarse
// forms become ddx_coarse, ddy_coarse, fwidth; the Fine forms ddx_fine,
// ddy_fine and abs(ddx_fine) + abs(ddy_fine); OpGroupNonUniformQuadSwap
// at Subgroup scope with a constant direction QuadReadAcrossX/Y/Diagonal;
// OpGroupNonUniformQuadBroadcast QuadReadLaneAt; OpDemoteToHelperInvocation
// ps.demote. Anything else stays opaque.

var derivOps = map[string]string{
	"OpDPdx": "ddx_coarse", "OpDPdy": "ddy_coarse", "OpFwidth": "fwidth",
	"OpDPdxCoarse": "ddx_coarse", "OpDPdyCoarse": "ddy_coarse", "OpFwidthCoarse": "fwidth",
	"OpDPdxFine": "ddx_fine", "OpDPdyFine": "ddy_fine",
}

// quad translates a quad operation; ok is false for other instructions.
func (fe *fn) quad(in *inst, res *ir.Instr) (ok bool, err error) {
	if name, found := derivOps[in.op]; found && res != nil && len(in.args) == 1 {
		x, err := fe.value(in.args[0])
		if err != nil {
			return true, err
		}
		fe.setIntr(res, name, x)
		return true, nil
	}
	switch in.op {
	case "OpFwidthFine":
		if res == nil || len(in.args) != 1 {
			return true, fe.opaque(in, res)
		}
		x, err := fe.value(in.args[0])
		if err != nil {
			return true, err
		}
		t := res.Type()
		dx := fe.intr("abs", t, fe.intr("ddx_fine", t, x))
		dy := fe.intr("abs", t, fe.intr("ddy_fine", t, x))
		res.Op, res.Intr, res.Args = ir.OpFAdd, nil, []ir.Value{dx, dy}
		fe.put(res)
		return true, nil
	case "OpDemoteToHelperInvocation":
		fe.setIntr(nil, ir.Demote)
		return true, nil
	case "OpGroupNonUniformQuadSwap", "OpGroupNonUniformQuadBroadcast":
		if res == nil || len(in.args) != 3 {
			return true, fe.opaque(in, res)
		}
		if s, ok := fe.constInt(in.args[0]); !ok || s != scopeSubgroup {
			return true, fe.opaque(in, res)
		}
		x, err := fe.value(in.args[1])
		if err != nil {
			return true, err
		}
		x = fe.coerce(x, res.Type())
		if in.op == "OpGroupNonUniformQuadBroadcast" {
			i, err := fe.value(in.args[2])
			if err != nil {
				return true, err
			}
			fe.setIntr(res, "QuadReadLaneAt", x, fe.coerce(i, ir.U32))
			return true, nil
		}
		dir, ok := fe.constInt(in.args[2])
		if !ok || dir < 0 || dir > 2 {
			return true, fe.opaque(in, res)
		}
		fe.setIntr(res, []string{"QuadReadAcrossX", "QuadReadAcrossY", "QuadReadAcrossDiagonal"}[dir], x)
		return true, nil
	}
	return false, nil
}
