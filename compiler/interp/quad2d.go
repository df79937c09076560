package interp

import "passlens/compiler/ir"

// SM6.6 compute quads (DirectX-Specs, "HLSL Derivative Operations in
// Compute, Mesh and Amplification Shaders", "Thread Groups and Quads"):
// lanes 4k..4k+3 always form a quad, and which threads share one depends
// on numthreads:
//
//   - 1D quads, numthreads(X, 1, 1) with X a multiple of 4: threads in
//     SV_GroupIndex order, so threads 4k..4k+3 form a quad (the order the
//     interpreter uses for every compute shader);
//   - 2D quads, X and Y multiples of 2: the quad of the thread at
//     SV_GroupThreadID (x, y, z), x and y even, is (x, y), (x+1, y),
//     (x, y+1), (x+1, y+1) — top-left, top-right, bottom-left,
//     bottom-right — so that ddx and ddy are differences along x and y.
//
// The spec leaves the order of quads within a wave, and any relation of
// WaveGetLaneIndex to SV_GroupIndex in the 2D layout, undefined; the
// interpreter places quads in row-major order of their top-left threads
// (for each z). It applies the 2D layout only to an entry point whose
// module uses a derivative (the SM6.6 feature that defines it); other
// compute shaders, also those using only Quad* reads (which SM6.0 already
// had, without a mapping to SV_GroupThreadID), keep threads in
// SV_GroupIndex order, the order Vulkan implementations give their
// subgroups, so that wave operations agree with them. Implicit-LOD
// texture reads in compute shaders still take level 0 (texture.go).

// quad2D reports whether a compute entry of numthreads nt in module m runs
// with the 2D quad layout.
func quad2D(m *ir.Module, nt [3]int) bool {
	if nt[0]%2 != 0 || nt[1]%2 != 0 || m == nil {
		return false
	}
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Op != ir.OpIntrinsic || in.Intr == nil {
					continue
				}
				if ir.IsDerivative(in.Intr.Name) {
					return true
				}
			}
		}
	}
	return false
}

// quad2DOrder reorders the invocations of a workgroup (in SV_GroupIndex
// order) so that every four consecutive ones are a 2×2 block of
// SV_GroupThreadID.
func quad2DOrder(invs []*invocation, nt [3]int) []*invocation {
	out := make([]*invocation, 0, len(invs))
	for z := 0; z < nt[2]; z++ {
		for by := 0; by < nt[1]; by += 2 {
			for bx := 0; bx < nt[0]; bx += 2 {
				for s := 0; s < 4; s++ {
					x, y := bx+s&1, by+s>>1
					out = append(out, invs[(z*nt[1]+y)*nt[0]+x])
				}
			}
		}
	}
	return out
}
