package hlsl

import (
	"fmt"
	"strings"
)

// Shader model 1-3 samplers and texture intrinsics, as FXC compiles them.
//
// "sampler", "sampler1D", "sampler2D", "sampler3D" and "samplerCUBE" are
// sampler states (DXC keeps the spellings as SamplerState: vkd3d's
// sampler.shader_test samples a Texture2D with a "sampler s" at shader
// model 6). A "sampler s = sampler_state { ... };" initializer is an
// effect state block, parsed and ignored as DXC does. The legacy
// intrinsics take the sampler variable alone, a D3D9 sampler register that
// binds a texture and its sampler state together:
//
//	tex1D/tex2D/tex3D/texCUBE(s, t)            implicit level of detail
//	tex1D/tex2D/tex3D/texCUBE(s, t, ddx, ddy)  and texNDgrad: gradients
//	texNDbias(s, float4 t)                     level biased by t.w
//	texNDlod(s, float4 t)                      level t.w
//	texNDproj(s, float4 t)                     coordinate t / t.w
//
// DXC parses them but does not compile them (DirectXShaderCompiler issue
// 107; vkd3d expects every unit calling one to fail at shader model 6),
// so they are an error unless Options.SM1Textures is set, as the SM3
// target does. With it, the lowering gives each sampler variable read so
// a texture global of its own (compiler/hlsl/lower/lower_sm1tex.go). A
// sampler declared with a dimension must be read with that dimension; an
// untyped one with one dimension throughout (FXC's rule; vkd3d's
// sampler.shader_test :37 and :46).

// LegacyTex is a checked legacy texture intrinsic call.
type LegacyTex struct {
	Dim  ResourceKind // ResTexture1D, ResTexture2D, ResTexture3D or ResTextureCube
	Mode string       // "", "bias", "lod", "grad" or "proj"
	// Sampler is the sampler variable read; Elem its element (a sampler
	// array indexed with a constant), or -1.
	Sampler *VarDecl
	Elem    int
}

// legacySampler is one sampler register: a sampler variable, or an
// element of a sampler array.
type legacySampler struct {
	v    *VarDecl
	elem int
}

// legacyTexIntrinsics are the intrinsics by name (Sampler unset).
var legacyTexIntrinsics = func() map[string]LegacyTex {
	m := map[string]LegacyTex{}
	for _, d := range []struct {
		name string
		dim  ResourceKind
	}{{"tex1D", ResTexture1D}, {"tex2D", ResTexture2D}, {"tex3D", ResTexture3D}, {"texCUBE", ResTextureCube}} {
		for _, mode := range []string{"", "bias", "lod", "grad", "proj"} {
			m[d.name+mode] = LegacyTex{Dim: d.dim, Mode: mode}
		}
	}
	return m
}()

// legacySamplerDims maps a sampler type spelling to the texture it reads
// (samplers spelled "sampler" or "SamplerState" read any).
var legacySamplerDims = map[string]ResourceKind{
	"sampler1D": ResTexture1D, "sampler2D": ResTexture2D, "sampler3D": ResTexture3D, "samplerCUBE": ResTextureCube,
}

// sm1TextureTypes are FXC's shader model 1-3 texture types, which read
// as the SM4 textures of their dimension with Options.SM1Textures (vkd3d's
// combined-samplers.shader_test samples a texture2D with
// tex.Sample(sampler, ...)); without it they stay unsupported types.
// The untyped "texture", bound to a sampler by an effect state block
// (sampler_state { Texture = <t>; }), is not supported.
var sm1TextureTypes = map[string]ResourceKind{
	"texture1D": ResTexture1D, "texture2D": ResTexture2D, "texture3D": ResTexture3D, "textureCUBE": ResTextureCube,
}

// legacyDimName spells a texture dimension as the intrinsics do.
func legacyDimName(k ResourceKind) string {
	switch k {
	case ResTexture1D:
		return "1D"
	case ResTexture2D:
		return "2D"
	case ResTexture3D:
		return "3D"
	}
	return "CUBE"
}

// checkLegacyTex checks a call of a legacy texture intrinsic whose
// arguments are checked.
func (c *checker) checkLegacyTex(e *Call, lt LegacyTex) {
	at := func() (Pos, Pos) { return e.NamePos, e.NamePos.advance(len(e.Name)) }
	if !c.opts.SM1Textures {
		p, q := at()
		c.rep.errorf(p, q, "'%s' is a shader model 1-3 texture intrinsic, which DXC does not compile: use Texture%s.Sample with a SamplerState (passlens compiles it for the SM3 target)", e.Name, strings.Replace(legacyDimName(lt.Dim), "CUBE", "Cube", 1))
		return
	}
	n := lt.Dim.Shape().Coords
	f := TypeFloat
	coord := vecOrScalar(f, n)
	var params []*Type
	switch {
	case lt.Mode == "bias" || lt.Mode == "lod" || lt.Mode == "proj":
		params = []*Type{nil, VectorOf(f, 4)}
	case lt.Mode == "grad" || len(e.Args) == 4:
		params = []*Type{nil, coord, coord, coord}
		lt.Mode = "grad"
	default:
		params = []*Type{nil, coord}
	}
	if len(e.Args) != len(params) {
		p, q := at()
		c.rep.errorf(p, q, "'%s' expects %d arguments, have %d", e.Name, len(params), len(e.Args))
		return
	}
	// The sampler: a variable, or a constant element of a sampler
	// array (FXC gives an array consecutive sampler registers).
	arg, elem := e.Args[0], -1
	if ix, isIndex := arg.(*Index); isIndex {
		if base, ok := ix.X.(*Ident); ok && base.Var != nil && base.Var.Type.Kind == KindArray {
			k, ok := c.constInt(ix.Index, "the index of a sampler array read by '"+e.Name+"'")
			if !ok {
				return
			}
			if k < 0 || (base.Var.Type.Len >= 0 && k >= int64(base.Var.Type.Len)) {
				c.errorf(ix.Index, "index %d is out of bounds for sampler array '%s' of %d elements", k, base.Var.Name, base.Var.Type.Len)
				return
			}
			arg, elem = base, int(k)
		}
	}
	id, ok := arg.(*Ident)
	st := e.Args[0].Type()
	if !ok || id.Var == nil || st.Kind != KindResource || st.Resource != ResSamplerState {
		c.errorf(e.Args[0], "the first argument of '%s' must be a sampler variable (sampler, sampler%s), not '%s'", e.Name, legacyDimName(lt.Dim), st)
		return
	}
	v := id.Var
	if v.Kind != VarGlobal || v.Mods&ModStatic != 0 {
		c.errorf(e.Args[0], "'%s' reads sampler '%s', which is not a global sampler variable (an SM1 sampler is a sampler register)", e.Name, v.Name)
		return
	}
	spelled := ""
	if v.Spec != nil {
		spelled = v.Spec.Name
	}
	if d, ok := legacySamplerDims[spelled]; ok && d != lt.Dim {
		c.errorf(e.Args[0], "'%s' reads a %s texture through sampler '%s', which is declared '%s'", e.Name, legacyDimName(lt.Dim), v.Name, spelled)
		return
	}
	if c.legacyDims == nil {
		c.legacyDims = map[legacySampler]ResourceKind{}
	}
	// Each element of a sampler array is a sampler register of its own,
	// with a dimension of its own (FXC: vkd3d's combined-samplers).
	key := legacySampler{v, elem}
	if d, ok := c.legacyDims[key]; ok && d != lt.Dim {
		c.errorf(e.Args[0], "sampler '%s' is read as a %s texture here and as a %s texture elsewhere", v.Name, legacyDimName(lt.Dim), legacyDimName(d))
		return
	}
	c.legacyDims[key] = lt.Dim
	for i := 1; i < len(params); i++ {
		e.Args[i] = c.coerce(e.Args[i], params[i], fmt.Sprintf("for argument %d of '%s'", i+1, e.Name))
	}
	lt.Sampler, lt.Elem = v, elem
	e.Legacy = &lt
	e.T = VectorOf(f, 4)
}
