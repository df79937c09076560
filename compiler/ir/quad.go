package ir

// This file declares the quad operations: derivatives and the Quad* reads.
// Lanes 4k..4k+3 of a wave form a quad, in the order top-left, top-right,
// bottom-left, bottom-right (the layout D3D, Vulkan and DXC assume; in a
// pixel shader the quad is a 2×2 block of pixels, helper lanes filling the
// pixels the primitive does not cover). Every quad operation reads values
// of the other lanes of its quad, so it is convergent: moving it across
// control flow changes which lanes take part. Its result is the same in
// the four lanes of a quad (derivatives, QuadAny/QuadAll) or a value of a
// lane of the quad, so it is divergent exactly when its operand is: the
// uniformity analysis propagates operand divergence (no source, no
// always-uniform rule).

// QuadOps lists the quad intrinsics (derivatives first).
var QuadOps = []string{"ddx_coarse", "ddy_coarse", "ddx_fine", "ddy_fine", "fwidth",
	"QuadReadAcrossX", "QuadReadAcrossY", "QuadReadAcrossDiagonal", "QuadReadLaneAt", "QuadAny", "QuadAll"}

// IsDerivative reports whether name is a derivative intrinsic.
func IsDerivative(name string) bool {
	switch name {
	case "ddx_coarse", "ddy_coarse", "ddx_fine", "ddy_fine", "fwidth":
		return true
	}
	return false
}

// IsQuadOp reports whether name is a quad intrinsic (derivative or Quad*).
func IsQuadOp(name string) bool {
	for _, n := range QuadOps {
		if n == name {
			return true
		}
	}
	return false
}

func init() {
	const deriv = AttrPure | AttrConvergent | AttrElementwise
	def("ddx_coarse", deriv, 1, 1, "ddx_coarse(x): x in the quad's top-right lane minus x in its top-left lane, the same in all four lanes (HLSL ddx and ddx_coarse)")
	def("ddy_coarse", deriv, 1, 1, "ddy_coarse(x): x in the quad's bottom-left lane minus x in its top-left lane, the same in all four lanes (HLSL ddy and ddy_coarse)")
	def("ddx_fine", deriv, 1, 1, "ddx_fine(x): x in the right lane minus x in the left lane of this lane's row of the quad")
	def("ddy_fine", deriv, 1, 1, "ddy_fine(x): x in the bottom lane minus x in the top lane of this lane's column of the quad")
	def("fwidth", deriv, 1, 1, "fwidth(x): abs(ddx_coarse(x)) + abs(ddy_coarse(x))")
	const quad = AttrConvergent | AttrWave
	def("QuadReadAcrossX", quad, 1, 1, "QuadReadAcrossX(v): v in the horizontally adjacent lane of the quad (lane ^ 1)")
	def("QuadReadAcrossY", quad, 1, 1, "QuadReadAcrossY(v): v in the vertically adjacent lane of the quad (lane ^ 2)")
	def("QuadReadAcrossDiagonal", quad, 1, 1, "QuadReadAcrossDiagonal(v): v in the diagonally opposite lane of the quad (lane ^ 3)")
	def("QuadReadLaneAt", quad, 2, 2, "QuadReadLaneAt(v, u32 i): v in lane i (0..3) of this lane's quad")
	def("QuadAny", quad, 1, 1, "QuadAny(bool b): true if b is true in any active lane of the quad")
	def("QuadAll", quad, 1, 1, "QuadAll(bool b): true if b is true in every active lane of the quad")
	// D3D's discard: the lane becomes a helper and keeps running (HLSL
	// lowering uses it instead of the discard terminator when the shader
	// has quad operations). Not pure: it changes what the lane may write.
	def(Demote, 0, 0, 0, "ps.demote(): demote the pixel to a helper lane: it keeps running for its quad's derivatives, but writes no render target or storage buffer and leaves the wave operations' active lanes (D3D discard, SPIR-V OpDemoteToHelperInvocation)")
}

// Demote is the intrinsic of D3D's discard (demote to helper).
const Demote = "ps.demote"
