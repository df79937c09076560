package interp

// This file exposes the interpreter's texture reads (texture.go) to other
// executors of the same program, so that they sample exactly as the
// interpreter does instead of carrying a second implementation: the SM3
// emulator of compiler/target/sm3's tests binds each s# register to a
// SampledTexture built from the same run input (docs/run.md) the
// interpreter reads.

import (
	"fmt"
	"math"

	"passlens/compiler/ir"
)

// QuadLOD returns the level of detail the interpreter gives an
// implicit-LOD read (tex.sample, tex.sample_bias, tex.sample_cmp) in a
// pixel shader whose quad has coordinates tl, tr and bl in its top-left,
// top-right and bottom-left lanes: that of the coarse derivatives
// (float32 differences) of the coordinates, as the interpreter computes
// it for its own quads (quad.go), or -inf (level 0, the mag filter) for a
// cube map, where the interpreter does not take derivatives. Another
// executor of the same program (the SM3 emulator) calls it so that the
// two agree bit for bit.
func (st *SampledTexture) QuadLOD(tl, tr, bl []float64) (float64, error) {
	if st.img.shape.Cube {
		return math.Inf(-1), nil
	}
	n := st.img.shape.Coords
	if len(tl) < n || len(tr) < n || len(bl) < n {
		return 0, fmt.Errorf("interp: texture @%s takes %d coordinates", st.img.name, n)
	}
	dx, dy := coarseDerivs(tl[:n], tr[:n], bl[:n])
	return st.img.derivLOD(dx, dy)
}

// SampledTexture is a texture and the sampler state it is read with,
// decoded from run input as Run decodes them.
type SampledTexture struct {
	img *image
	smp *samplerState
}

// NewSampledTexture decodes texture input t for the texture global tex
// (its Kind gives the shape, its value type the texel type) and sampler
// input s (nil: D3D11's default sampler state) for the sampler global smp
// (used for messages; may be nil). A nil t is a null view: reads give 0.
func NewSampledTexture(t *TextureInput, tex *ir.Global, s *SamplerInput, smp *ir.Global) (*SampledTexture, error) {
	shape, ok := ir.TextureShape(tex.Kind)
	if !ok {
		return nil, fmt.Errorf("interp: @%s (kind %q) is not a texture", tex.Name(), tex.Kind)
	}
	st := &SampledTexture{img: &image{name: tex.Name(), shape: shape}, smp: defaultSampler()}
	if t != nil {
		img, err := buildImage(t, tex, shape)
		if err != nil {
			return nil, err
		}
		st.img = img
	}
	if s != nil {
		if smp == nil {
			smp = tex
		}
		ss, err := buildSampler(s, smp)
		if err != nil {
			return nil, err
		}
		st.smp = ss
	}
	return st, nil
}

// Shape is the texture's addressing shape.
func (st *SampledTexture) Shape() ir.TexShape { return st.img.shape }

// Sample is a filtered read (tex.sample_level) at level of detail lod
// before the sampler's bias and clamp; QuadLOD gives that of the
// interpreter's implicit-LOD read in a pixel shader. coord holds at least Shape().Coords
// components; extra ones are ignored. The result is four float32 bit
// patterns.
func (st *SampledTexture) Sample(coord []float64, lod float64) ([4]uint32, error) {
	c, err := st.coords(coord)
	if err != nil {
		return [4]uint32{}, err
	}
	return st.img.sample(st.smp, c, lod, make([]int, st.img.shape.Offsets), nil)
}

// GradLOD is the level of detail tex.sample_grad computes from the
// derivative vectors ddx and ddy (as many components as the texture has
// position coordinates; extra ones are ignored).
func (st *SampledTexture) GradLOD(ddx, ddy []float64) (float64, error) {
	n := st.img.shape.Coords
	if st.img.shape.Array {
		n--
	}
	if len(ddx) < n || len(ddy) < n {
		return 0, fmt.Errorf("interp: gradients of texture @%s need %d components", st.img.name, n)
	}
	return st.img.gradLOD(ddx[:n], ddy[:n])
}

func (st *SampledTexture) coords(coord []float64) ([]float64, error) {
	n := st.img.shape.Coords
	if len(coord) < n {
		return nil, fmt.Errorf("interp: texture @%s takes %d coordinates, got %d", st.img.name, n, len(coord))
	}
	return coord[:n], nil
}
