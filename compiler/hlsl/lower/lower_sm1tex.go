package lower

import (
	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
)

// Shader model 1-3 texture intrinsics (hlsl/sm1tex.go; accepted only with
// hlsl.Options.SM1Textures). A D3D9 sampler register binds a texture and
// its sampler state together; the IR keeps them apart (docs/ir.md), so a
// sampler variable read by tex2D & co. gets, besides its sampler global
// @s, a texture global @s.texture of the dimension it is read with (an
// element of a sampler array, global @s.k, gets @s.k.texture), bound
// at the sampler's register number (register(s3): binding 3, as vkd3d's
// runner binds [srv 3] with [sampler 3]). The SM3 back end pairs them into
// one s# again, named s in its register table. Each call becomes the
// tex.* intrinsic of its mode: tex2D is tex.sample, with gradients (or
// tex2Dgrad) tex.sample_grad, tex2Dbias tex.sample_bias with t.w,
// tex2Dlod tex.sample_level with t.w, and tex2Dproj tex.sample at
// t.xy / t.w (the division is in the shader, not texldp).

// legacyTexture returns the texture global read through sampler v (or
// its element: smp is the sampler's global, one per element of a sampler
// array, lower_resarray.go), named after the sampler's global.
func (fl *fnLowerer) legacyTexture(v *hlsl.VarDecl, dim hlsl.ResourceKind, smp ir.Value) *ir.Global {
	if fl.sm1Textures == nil {
		fl.sm1Textures = map[ir.Value]*ir.Global{}
	}
	if g := fl.sm1Textures[smp]; g != nil {
		return g
	}
	name := v.Name
	sg, isGlobal := smp.(*ir.Global)
	if isGlobal {
		name = sg.Name()
	}
	g := ir.NewGlobal(fl.uniqueGlobalName(name+".texture"), ir.SpaceStorage, ir.Vec(ir.F32, 4))
	g.Kind = dim.String()
	g.ReadOnly = true
	g.Loc = fl.loc(v.NamePos)
	if isGlobal {
		g.Set, g.Binding = sg.Set, sg.Binding
	}
	fl.m.AddGlobal(g)
	fl.sm1Textures[smp] = g
	return g
}

// legacyTexCall lowers a checked tex1D ... texCUBEproj call.
func (fl *fnLowerer) legacyTexCall(x *hlsl.Call) ir.Value {
	lt := x.Legacy
	smp := fl.resourcePtr(x.Args[0])
	tex := fl.legacyTexture(lt.Sampler, lt.Dim, smp)
	sh := lt.Dim.Shape()
	ret := ir.Vec(ir.F32, 4)
	args := make([]ir.Value, len(x.Args))
	for i := 1; i < len(x.Args); i++ {
		args[i] = fl.rv(x.Args[i])
	}
	off := ir.Value(ir.ConstInt(ir.I32, 0))
	if sh.Offsets > 1 {
		off = ir.ConstInt(ir.Vec(ir.I32, sh.Offsets), 0)
	}
	name := x.Name
	// first n components of a float4, divided by its w for proj.
	coord := func(t ir.Value, proj bool) ir.Value {
		comps := make([]ir.Value, sh.Coords)
		var w ir.Value
		if proj {
			w = fl.b.ExtractValue(t, []int{3}, name+".w")
		}
		for k := range comps {
			comps[k] = fl.b.ExtractValue(t, []int{k}, name+".t")
			if proj {
				comps[k] = fl.b.Binary(ir.OpFDiv, comps[k], w, name+".t")
			}
		}
		if len(comps) == 1 {
			return comps[0]
		}
		return fl.b.Construct(ir.Vec(ir.F32, sh.Coords), comps, name+".coord")
	}
	switch lt.Mode {
	case "grad":
		return fl.b.Intrinsic("tex.sample_grad", ret, []ir.Value{tex, smp, args[1], args[2], args[3], off}, name)
	case "bias", "lod":
		w := fl.b.ExtractValue(args[1], []int{3}, name+".w")
		intr := map[string]string{"bias": "tex.sample_bias", "lod": "tex.sample_level"}[lt.Mode]
		return fl.b.Intrinsic(intr, ret, []ir.Value{tex, smp, coord(args[1], false), w, off}, name)
	case "proj":
		return fl.b.Intrinsic("tex.sample", ret, []ir.Value{tex, smp, coord(args[1], true), off}, name)
	}
	return fl.b.Intrinsic("tex.sample", ret, []ir.Value{tex, smp, args[1], off}, name)
}
