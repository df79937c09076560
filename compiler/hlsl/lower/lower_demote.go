package lower

import (
	"strings"

	"passlens/compiler/ir"
)

// D3D's discard does not end the pixel shader: the pixel is demoted to a
// helper lane that keeps running, so that its quad's derivatives stay
// defined, but writes nothing (DirectX-Specs, "HLSL SM 6.7 Wave Ops
// Include Helper Lanes": a helper lane is "a lane that has been demoted
// with discard"; DXC's dx.op.discard does not end the block). The IR's
// discard terminator ends the invocation, which is the same observable
// behaviour unless a lane of the quad still needs the discarded lane's
// values: a derivative, a Quad* read or an implicit-LOD sample. So a
// pixel shader that has both a discard and such an operation is lowered a
// second time with every discard (and clip) as the ps.demote intrinsic
// followed by the rest of the code; every other shader keeps the
// terminator (and its simpler control flow).

// needsDemote reports whether the lowered module m discards and reads
// across quads (in any function).
func needsDemote(m *ir.Module) bool {
	discards, quads := false, false
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				switch {
				case in.Op == ir.OpDiscard:
					discards = true
				case in.Op == ir.OpIntrinsic && in.Intr != nil && readsQuad(in.Intr.Name):
					quads = true
				}
			}
		}
	}
	return discards && quads
}

// readsQuad reports whether an intrinsic reads other lanes of the quad.
func readsQuad(name string) bool {
	return ir.IsQuadOp(name) || strings.HasPrefix(name, "tex.sample") &&
		name != "tex.sample_level" && name != "tex.sample_grad" && name != "tex.sample_cmp_level_zero"
}

// discard lowers a discard (or clip's): the demote intrinsic when the
// module is lowered with demotion, else the discard terminator.
func (fl *fnLowerer) discard() {
	if fl.demote {
		fl.b.Intrinsic(ir.Demote, ir.Void, nil, "")
		return
	}
	fl.b.Discard()
}
