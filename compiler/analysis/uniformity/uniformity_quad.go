package uniformity

import "passlens/compiler/ir"

// Quad operations (compiler/ir/quad.go): derivatives and Quad* reads
// combine values of the four lanes of a 2×2 quad. Their result is the same
// in the lanes of a quad (or is one lane's value), so it is divergent
// exactly when the operand is: no source and no always-uniform rule, the
// operand's divergence propagates as for any instruction. What the
// explanation adds is why that matters: the result still differs between
// the quads of a wave, and the operation needs the four lanes of its quad
// to execute it together (it is convergent), so it must stay in control
// flow that is uniform at least across each quad.

// quadNote is the explanation prefix for a quad operation made divergent
// by its operand ("" for anything else).
func quadNote(v ir.Value, r Reason) string {
	in, ok := v.(*ir.Instr)
	if !ok || in.Op != ir.OpIntrinsic || in.Intr == nil || r.Kind != DivOperand || !ir.IsQuadOp(in.Intr.Name) {
		return ""
	}
	if ir.IsDerivative(in.Intr.Name) {
		return "derivative across a 2×2 quad (the same in a quad's lanes, needs the quad converged) of a value that differs between quads; "
	}
	return "quad operation (reads lanes of its 2×2 quad, needs the quad converged) on a value that differs between quads; "
}
