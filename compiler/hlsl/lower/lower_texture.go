package lower

import (
	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
)

// Texture methods. Each becomes one tex.* intrinsic whose first operand
// is the texture global's pointer (and the second, for sampling, the
// sampler's); operands the source leaves out get their defaults (offset 0,
// mip 0 for operator[]), so every call of one intrinsic has the same
// operand list (docs/ir.md, "Textures and samplers").

// textureCall lowers a checked method call on a texture. args are the
// converted non-out arguments (nil for resources and out parameters).
func (fl *fnLowerer) textureCall(x *hlsl.MethodCall, tex ir.Value, args []ir.Value) ir.Value {
	m := x.Method
	rt := x.Recv.Type()
	sh := rt.Resource.Shape()
	name := exprName(x.Recv)
	ret := fl.irType(m.Ret)
	offset := func(i int) ir.Value {
		if i < len(args) && args[i] != nil {
			return args[i]
		}
		if sh.Offsets == 0 {
			return ir.ConstInt(ir.I32, 0)
		}
		return ir.ConstInt(ir.Vec(ir.I32, sh.Offsets), 0)
	}
	sampler := func() ir.Value { return fl.resourcePtr(x.Args[0]) }
	switch m.Name {
	case "Load":
		if rt.Resource.IsRWTexture() {
			return fl.rwTextureLoad(x, tex, args[0])
		}
		if rt.Resource.IsMSTexture() {
			// Load(location, sample[, offset]): tex.load_ms.
			return fl.b.Intrinsic("tex.load_ms", ret, []ir.Value{tex, args[0], args[1], offset(2)}, name+".load")
		}
		// The last component of the location is the mip level.
		loc := args[0]
		var coord ir.Value
		if sh.Coords == 1 {
			coord = fl.b.ExtractValue(loc, []int{0}, name+".coord")
		} else {
			coord = fl.b.Shuffle(loc, loc, iota0(sh.Coords), name+".coord")
		}
		mip := fl.b.ExtractValue(loc, []int{sh.Coords}, name+".mip")
		return fl.b.Intrinsic("tex.load", ret, []ir.Value{tex, coord, mip, offset(1)}, name+".load")
	case "operator[]":
		coord := fl.convert(args[0], m.Params[0], m.Params[0].WithScalar(hlsl.TypeInt))
		if rt.Resource.IsMSTexture() {
			return fl.b.Intrinsic("tex.load_ms", ret, []ir.Value{tex, coord, ir.ConstInt(ir.I32, 0), offset(1)}, name+".load")
		}
		return fl.b.Intrinsic("tex.load", ret, []ir.Value{tex, coord, ir.ConstInt(ir.I32, 0), offset(1)}, name+".load")
	case "Sample":
		return fl.b.Intrinsic("tex.sample", ret, []ir.Value{tex, sampler(), args[1], offset(2)}, name+".sample")
	case "SampleLevel":
		return fl.b.Intrinsic("tex.sample_level", ret, []ir.Value{tex, sampler(), args[1], args[2], offset(3)}, name+".sample")
	case "SampleBias":
		return fl.b.Intrinsic("tex.sample_bias", ret, []ir.Value{tex, sampler(), args[1], args[2], offset(3)}, name+".sample")
	case "SampleGrad":
		return fl.b.Intrinsic("tex.sample_grad", ret, []ir.Value{tex, sampler(), args[1], args[2], args[3], offset(4)}, name+".sample")
	case "SampleCmp":
		return fl.b.Intrinsic("tex.sample_cmp", ret, []ir.Value{tex, sampler(), args[1], args[2], offset(3)}, name+".cmp")
	case "SampleCmpLevelZero":
		return fl.b.Intrinsic("tex.sample_cmp_level_zero", ret, []ir.Value{tex, sampler(), args[1], args[2], offset(3)}, name+".cmp")
	case "Gather", "GatherRed", "GatherGreen", "GatherBlue", "GatherAlpha",
		"GatherCmp", "GatherCmpRed", "GatherCmpGreen", "GatherCmpBlue", "GatherCmpAlpha":
		ch := hlsl.GatherChannel(m.Name)
		if ch >= rt.Elem.Dim() {
			fl.errorf(x, "'%s' reads component %d of '%s', which has %d", m.Name, ch, rt, rt.Elem.Dim())
			return ir.ConstUndef(ret)
		}
		intr, fixed := "tex.gather", []ir.Value{tex, sampler(), args[1], ir.ConstInt(ir.I32, int64(ch))}
		if hlsl.IsGatherCmp(m.Name) {
			intr = "tex.gather_cmp"
			fixed = append(fixed, args[2])
		}
		first := len(fixed) - 2 // index of the first offset in x.Args
		if len(x.Args) == first+4 {
			// One offset per texel: component k of the gather at offset k.
			comps := make([]ir.Value, 4)
			for k := range comps {
				g := fl.b.Intrinsic(intr, ret, append(append([]ir.Value(nil), fixed...), args[first+k]), name+".gather")
				comps[k] = fl.b.ExtractValue(g, []int{k}, name+".texel")
			}
			return fl.b.Construct(ret, comps, name+".gather")
		}
		return fl.b.Intrinsic(intr, ret, append(fixed, offset(first)), name+".gather")
	case "GetDimensions":
		mip, first := ir.Value(ir.ConstInt(ir.U32, 0)), 0
		withLevels := len(m.Params) == sh.Dims+2
		if withLevels {
			mip, first = args[0], 1
		}
		dims := fl.b.Intrinsic("tex.dims", ir.Vec(ir.U32, sh.Dims+1), []ir.Value{tex, mip}, name+".dims")
		for k := first; k < len(x.Args); k++ {
			fl.storeOut(x.Args[k], fl.b.ExtractValue(dims, []int{k - first}, name+".dim"), hlsl.TypeUint)
		}
		return nil
	case "CalculateLevelOfDetail", "CalculateLevelOfDetailUnclamped":
		fl.errorf(x, "'%s' is not lowered yet: the level of detail comes from a quad's derivatives (issue 17 item 2)", m.Name)
		return ir.ConstUndef(ret)
	}
	fl.errorf(x, "the method '%s' of '%s' is not supported", m.Name, rt)
	return ir.ConstUndef(ret)
}

// iota0 is 0, 1, ..., n-1 (shuffle indices).
func iota0(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
