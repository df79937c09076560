package spirv

// This file emits the quad intrinsics (compiler/ir/quad.go):
//
//	ddx_coarse, ddy_coarse   OpDPdxCoarse, OpDPdyCoarse   (DerivativeControl)
//	ddx_fine, ddy_fine       OpDPdxFine, OpDPdyFine       (DerivativeControl)
//	fwidth                   OpFwidthCoarse: abs(coarse x) + abs(coarse y), the
//	                         interpreter's (and DXC's DXIL) definition
//	QuadReadAcrossX/Y/Diag.  OpGroupNonUniformQuadSwap direction 0/1/2
//	QuadReadLaneAt           OpGroupNonUniformQuadBroadcast (constant index)
//	QuadAny, QuadAll         the lane's value combined with its three quad
//	                         swaps (SPIR-V has quad votes only through
//	                         SPV_KHR_quad_control; this is DXC's fallback)
//
// Derivatives exist only in the Fragment execution model (compute needs
// SPV_KHR_compute_shader_derivatives, which the back end does not emit);
// the quad operations need capability GroupNonUniformQuad and work in
// every stage with subgroups, whose lanes 4k..4k+3 form the quads.
// ps.demote, D3D's discard, is OpDemoteToHelperInvocation (extension
// SPV_EXT_demote_to_helper_invocation, core in SPIR-V 1.6).

import (
	"passlens/compiler/ir"
)

// SPIR-V opcodes and capabilities of the quad operations.
const (
	OpDPdxFine                     = 210
	OpDPdyFine                     = 211
	OpDPdxCoarse                   = 213
	OpDPdyCoarse                   = 214
	OpFwidthCoarse                 = 215
	OpGroupNonUniformQuadBroadcast = 365
	OpGroupNonUniformQuadSwap      = 366

	CapDerivativeControl   = 51
	CapGroupNonUniformQuad = 68

	// D3D's discard (ps.demote): core in SPIR-V 1.6, an extension before.
	OpDemoteToHelperInvocation  = 5380
	CapDemoteToHelperInvocation = 5379
	extDemoteToHelperInvocation = "SPV_EXT_demote_to_helper_invocation"
)

func init() {
	for code, name := range map[uint16]string{OpDPdxFine: "DPdxFine", OpDPdyFine: "DPdyFine",
		OpDPdxCoarse: "DPdxCoarse", OpDPdyCoarse: "DPdyCoarse", OpFwidthCoarse: "FwidthCoarse"} {
		defOp(code, name, "T R i")
	}
	defOp(OpGroupNonUniformQuadBroadcast, "GroupNonUniformQuadBroadcast", "T R i i i")
	defOp(OpGroupNonUniformQuadSwap, "GroupNonUniformQuadSwap", "T R i i i")
	capabilityNames[CapDerivativeControl] = "DerivativeControl"
	capabilityNames[CapGroupNonUniformQuad] = "GroupNonUniformQuad"
	defOp(OpDemoteToHelperInvocation, "DemoteToHelperInvocation", "")
	capabilityNames[CapDemoteToHelperInvocation] = "DemoteToHelperInvocation"
}

// demote emits ps.demote (D3D's discard) as OpDemoteToHelperInvocation,
// in fragment shaders only.
func (fe *fn) demote() error {
	for st := range fe.e.stagesOf(fe.f) {
		if st != ir.StagePixel {
			return fe.fail("discard in a function a %s entry point calls: only pixel shaders can discard", st)
		}
	}
	fe.e.capability(CapDemoteToHelperInvocation)
	fe.body.inst(OpDemoteToHelperInvocation)
	return nil
}

var derivOps = map[string]uint16{"ddx_coarse": OpDPdxCoarse, "ddy_coarse": OpDPdyCoarse,
	"ddx_fine": OpDPdxFine, "ddy_fine": OpDPdyFine, "fwidth": OpFwidthCoarse}

// quad emits a quad intrinsic; a is the operand ids, tid and res the
// result's type and id.
func (fe *fn) quad(in *ir.Instr, a []uint32, tid, res uint32) error {
	e := fe.e
	name := in.Intr.Name
	at := in.Args[0].Type()
	if op, ok := derivOps[name]; ok {
		if at.Scalar().Kind != ir.KFloat || at.Kind == ir.KMatrix {
			return fe.fail("%s of %s: SPIR-V derivatives take float scalars and vectors", name, at)
		}
		for st := range e.stagesOf(fe.f) {
			if st != ir.StagePixel {
				return fe.fail("%s in a function a %s entry point calls: SPIR-V has derivatives only in fragment shaders (compute needs SPV_KHR_compute_shader_derivatives, not emitted)", name, st)
			}
		}
		e.capability(CapDerivativeControl)
		fe.op(op, tid, res, a[0])
		return nil
	}
	e.capability(CapGroupNonUniformQuad)
	swap := func(t, dst, v uint32, dir uint32) uint32 {
		return fe.op(OpGroupNonUniformQuadSwap, t, dst, fe.subgroup(), v, e.uintConst(dir))
	}
	switch name {
	case "QuadReadAcrossX":
		swap(tid, res, a[0], 0)
	case "QuadReadAcrossY":
		swap(tid, res, a[0], 1)
	case "QuadReadAcrossDiagonal":
		swap(tid, res, a[0], 2)
	case "QuadReadLaneAt":
		c, ok := in.Args[1].(*ir.Const)
		if !ok {
			return fe.fail("QuadReadLaneAt with a lane index that is not a constant: SPIR-V's OpGroupNonUniformQuadBroadcast needs a constant index")
		}
		fe.op(OpGroupNonUniformQuadBroadcast, tid, res, fe.subgroup(), a[0], e.uintConst(uint32(c.Int())))
	case "QuadAny", "QuadAll":
		if at != ir.Bool {
			return fe.fail("%s of %s (bool only)", name, at)
		}
		op := uint16(OpLogicalOr)
		if name == "QuadAll" {
			op = OpLogicalAnd
		}
		x := fe.op(op, tid, 0, a[0], swap(tid, 0, a[0], 0))
		y := fe.op(op, tid, 0, swap(tid, 0, a[0], 1), swap(tid, 0, a[0], 2))
		fe.op(op, tid, res, x, y)
	default:
		return fe.fail("intrinsic %s is not supported by the SPIR-V back end", name)
	}
	return nil
}
