package spirv

import "passlens/compiler/ir"

// Textures and samplers chosen at run time. A dynamic index into an
// array of textures or samplers (Texture2D t[4]; t[i].Sample(...)) is a
// chain of selects between the element globals (hlsl/lower's resource
// arrays). SPIR-V 1.3 cannot select an image or sampler, so the select
// itself emits nothing and a read-only tex.* call through it is emitted
// once per candidate, the results selected with the same conditions
// (each read is pure; an implicit-LOD sample runs in the same control
// flow, so its derivatives are the same). A write or an atomic through a
// select cannot work so; the HLSL lowering branches per element for those
// (hlsl/lower/lower_rwtexture.go), and other IR gets a located error.

// isImageSelect reports whether v selects between textures or samplers.
func isImageSelect(v ir.Value) bool {
	in, ok := v.(*ir.Instr)
	if !ok || in.Op != ir.OpSelect {
		return false
	}
	for _, a := range in.Args[1:] {
		g, isGlobal := a.(*ir.Global)
		if !(isGlobal && ir.IsImageGlobal(g) || isImageSelect(a)) {
			return false
		}
	}
	return true
}

// textureSelect emits tex.* call in whose operand i is an image select.
func (fe *fn) textureSelect(in *ir.Instr, i int) error {
	name := in.Intr.Name
	if name == "tex.write" || name == "tex.texel" {
		return fe.fail("%s on a read-write texture chosen at run time is not supported by the SPIR-V back end (a select between textures)", name)
	}
	sel := in.Args[i].(*ir.Instr)
	c, err := fe.value(sel.Args[0])
	if err != nil {
		return err
	}
	var ids [2]uint32
	for k := range ids {
		branch := *in
		branch.Args = append([]ir.Value(nil), in.Args...)
		branch.Args[i] = sel.Args[k+1]
		if err := fe.texture(&branch); err != nil {
			return err
		}
		ids[k] = fe.resultID(&branch)
	}
	rt := in.Type()
	tid, err := fe.typ(rt)
	if err != nil {
		return err
	}
	if rt.Kind == ir.KVector {
		// SPIR-V 1.3 selects vectors with a vector condition.
		bv, err := fe.typ(ir.Vec(ir.Bool, rt.Len))
		if err != nil {
			return err
		}
		cs := make([]uint32, rt.Len)
		for k := range cs {
			cs[k] = c
		}
		c = fe.op(OpCompositeConstruct, bv, 0, cs...)
	}
	fe.op(OpSelect, tid, fe.resultID(in), c, ids[0], ids[1])
	return nil
}
