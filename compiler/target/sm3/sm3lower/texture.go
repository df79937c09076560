package sm3lower

import (
	"passlens/compiler/ir"
)

// sm3CheckTexture reports the texture reads shader model 3 cannot express.
// SM3 samples a texture through a sampler register s# that binds the
// texture and its sampler state together, with texld (level of detail from
// derivatives: pixel shaders), texldb (biased: pixel shaders), texldl
// (explicit level: both stages) and texldd (explicit gradients: pixel
// shaders). So Sample, SampleBias, SampleLevel and SampleGrad of
// Texture1D/2D/3D/Cube with float texels compile (compiler/sir,
// lower_texture.go); Load and operator[], Gather*, GetDimensions,
// SampleCmp*, texture arrays, integer texels and texel offsets have no SM3
// instruction and are rejected here, each naming the construct.
func sm3CheckTexture(f *ir.Function, in *ir.Instr, bad func(*ir.Function, *ir.Instr, string, ...any)) {
	name := in.Intr.Name
	switch name {
	case "tex.load":
		bad(f, in, "texture Load and operator[] (%s) have no shader model 3 instruction (SM3 only samples: texld/texldl)", name)
		return
	case "tex.gather", "tex.gather_cmp":
		bad(f, in, "Gather (%s) needs shader model 4.1; SM3 has no gather instruction", name)
		return
	case "tex.dims":
		bad(f, in, "GetDimensions (%s) needs shader model 4; SM3 cannot query a texture's size", name)
		return
	case "tex.sample_cmp", "tex.sample_cmp_level_zero":
		bad(f, in, "SampleCmp (%s) needs shader model 4; SM3 has no comparison sampling", name)
		return
	case "tex.sample", "tex.sample_bias", "tex.sample_level", "tex.sample_grad":
	default:
		bad(f, in, "%s has no shader model 3 form", name)
		return
	}
	tex, ok := in.Args[0].(*ir.Global)
	if !ok {
		bad(f, in, "%s reads a texture chosen at run time; SM3 sampler registers are fixed", name)
		return
	}
	if _, ok := in.Args[1].(*ir.Global); !ok {
		bad(f, in, "%s reads with a sampler chosen at run time; SM3 sampler registers are fixed", name)
		return
	}
	switch tex.Kind {
	case "Texture1D", "Texture2D", "Texture3D", "TextureCube":
	default:
		bad(f, in, "%s @%s is not available in shader model 3 (only 1D, 2D, 3D and cube textures: no arrays)", tex.Kind, ir.QuoteName(tex.Name()))
		return
	}
	if tex.ValType.Scalar().Kind != ir.KFloat {
		bad(f, in, "texture @%s has %s texels; SM3 textures are sampled as floats", ir.QuoteName(tex.Name()), tex.ValType)
		return
	}
	if off := in.Args[len(in.Args)-1]; !isZero(off) {
		bad(f, in, "texel offsets are not available in shader model 3 (%s with offset %s)", name, off.Ref())
		return
	}
	if f.Entry != nil && f.Entry.Stage == ir.StageVertex && name != "tex.sample_level" {
		bad(f, in, "%s needs derivatives: a vertex shader can only sample at an explicit level (SampleLevel, tex2Dlod: texldl)", name)
	}
}

// isZero reports a constant that is all zeros.
func isZero(v ir.Value) bool {
	c, ok := v.(*ir.Const)
	return ok && c.IsZeroValue()
}
