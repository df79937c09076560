package sir

import (
	"fmt"
	"math"

	"passlens/compiler/ir"
)

// This file lowers the tex.* intrinsics shader model 3 can express
// (texture.go) and the vector values around them: the scalarizer leaves a
// texture read whole, so its coordinate arrives as a construct of scalars
// (or a vector constant) and its result leaves through extractvalues.
//
// Sampler registers. D3D9 binds a texture and its sampler state together
// to one s#, so every (texture, sampler) pair read gets its own s#
// (Func.Samplers; the SM3 emitter chooses the registers). Texture1D and
// Texture2D declare dcl_2d (a 1D texture is a 2D texture of height 1, read
// at v = 0.5), TextureCube dcl_cube, Texture3D dcl_volume; sm3-lower has rejected the rest (arrays, Load, Gather,
// GetDimensions, comparisons, offsets) with located errors.

// texKinds maps the tex.* intrinsics with an SM3 form to their read.
var texKinds = map[string]TexKind{
	"tex.sample":       TexLD,
	"tex.sample_bias":  TexLDB,
	"tex.sample_level": TexLDL,
	"tex.sample_grad":  TexLDD,
}

// maxSamplers is the number of sampler registers of ps_3_0 (vs_3_0 has 4;
// the emitter checks the profile's limit).
const maxSamplers = 16

// vectorPart records a vector construct or an extractvalue of a recorded
// vector by component, reporting whether it handled in.
func (l *lowerer) vectorPart(in *ir.Instr) (bool, error) {
	switch in.Op {
	case ir.OpConstruct:
		if in.Type().Kind != ir.KVector {
			return false, nil
		}
		parts := make([]Src, len(in.Args))
		for i, a := range in.Args {
			s, err := l.src(in, a)
			if err != nil {
				return true, err
			}
			parts[i] = s
		}
		l.vecs[in] = parts
		return true, nil
	case ir.OpExtractValue:
		parts, ok := l.vecs[in.Args[0]]
		if !ok {
			return false, nil
		}
		if len(in.Idx) != 1 || in.Idx[0] < 0 || in.Idx[0] >= len(parts) {
			return true, locErr(in, "extractvalue path %v of a %d-component vector", in.Idx, len(parts))
		}
		l.imms[in] = parts[in.Idx[0]]
		return true, nil
	}
	return false, nil
}

// vector returns the n components of a vector (or scalar) operand.
func (l *lowerer) vector(in *ir.Instr, v ir.Value) ([]Src, error) {
	if parts, ok := l.vecs[v]; ok {
		return parts, nil
	}
	if c, ok := v.(*ir.Const); ok && c.Type().Kind == ir.KVector {
		out := make([]Src, c.Type().Len)
		for i := range out {
			s, err := l.src(in, c.Elem(i))
			if err != nil {
				return nil, err
			}
			out[i] = s
		}
		return out, nil
	}
	if v.Type().IsScalar() {
		s, err := l.src(in, v)
		if err != nil {
			return nil, err
		}
		return []Src{s}, nil
	}
	return nil, locErr(in, "vector operand %s is not a construct or a constant (SIR lowering reads vectors by component)", v.Ref())
}

// texture lowers one texture read to an OpTex per result component.
func (l *lowerer) texture(in *ir.Instr, emit func(Op, *Dst, ...Src) *Instr) error {
	name := in.Intr.Name
	kind, ok := texKinds[name]
	if !ok {
		return locErr(in, "%s has no shader model 3 form", name)
	}
	tex, ok1 := in.Args[0].(*ir.Global)
	smp, ok2 := in.Args[1].(*ir.Global)
	if !ok1 || !ok2 {
		return locErr(in, "%s reads a texture or sampler chosen at run time; SM3 sampler registers are fixed", name)
	}
	sreg, err := l.samplerReg(in, tex, smp)
	if err != nil {
		return err
	}
	coord, err := l.vector(in, in.Args[2])
	if err != nil {
		return err
	}
	zero := Imm32(0)
	var srcs [TexSrcs]Src
	for i := range srcs {
		srcs[i] = zero
	}
	copy(srcs[1:4], coord)
	if len(coord) == 1 { // a 1D texture: the middle of its single row
		srcs[2] = Imm32(math.Float32bits(0.5))
	}
	switch kind {
	case TexLDB, TexLDL:
		w, err := l.src(in, in.Args[3])
		if err != nil {
			return err
		}
		srcs[4] = w
	case TexLDD:
		for k, a := range in.Args[3:5] {
			g, err := l.vector(in, a)
			if err != nil {
				return err
			}
			copy(srcs[5+3*k:8+3*k], g)
		}
	}
	t := in.Type()
	n := 1
	if t.Kind == ir.KVector {
		n = t.Len
	}
	parts := make([]Src, n)
	for c := 0; c < n; c++ {
		r := l.f.NewReg(l.uniqueName(fmt.Sprintf("%s.%c", in.Name(), "xyzw"[c])), 32, 1, l.all(), FileTemp)
		ops := srcs
		ops[0] = Imm32(uint32(MakeTexDesc(kind, c, sreg)))
		emit(OpTex, D(r), ops[:]...)
		parts[c] = R(r)
	}
	if t.Kind == ir.KVector {
		l.vecs[in] = parts
	} else {
		l.vals[in] = parts[0].Reg
	}
	return nil
}

// samplerReg returns the index of the (texture, sampler) pair in
// Func.Samplers, adding the pair on its first read.
func (l *lowerer) samplerReg(in *ir.Instr, tex, smp *ir.Global) (int, error) {
	for i, s := range l.f.Samplers {
		if s.Texture == tex.Name() && s.State == smp.Name() {
			return i, nil
		}
	}
	var dim SamplerDim
	switch tex.Kind {
	case "Texture1D", "Texture2D":
		dim = Sampler2D
	case "TextureCube":
		dim = SamplerCube
	case "Texture3D":
		dim = SamplerVolume
	default:
		return 0, locErr(in, "%s @%s has no shader model 3 sampler type", tex.Kind, tex.Name())
	}
	if len(l.f.Samplers) >= maxSamplers {
		return 0, locErr(in, "more than %d texture and sampler pairs (SM3 has %d sampler registers)", maxSamplers, maxSamplers)
	}
	l.f.Samplers = append(l.f.Samplers, &Sampler{Reg: -1, Binding: smp.Binding, Texture: tex.Name(), State: smp.Name(), Dim: dim, TextureKind: tex.Kind, Loc: locOf(in)})
	return len(l.f.Samplers) - 1, nil
}
