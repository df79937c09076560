package interp

// This file executes the tex.* intrinsics (ir/texture.go) as the D3D11
// functional specification defines texture reads: texel centres at
// (i + 0.5) / size, so point sampling reads texel floor(u*W) and linear
// filtering weighs the texels around u*W - 0.5; address modes apply to
// integer texel indices; the level of detail is clamped to the sampler's
// [min_lod, max_lod] after adding its bias, is a magnification (mag
// filter, level 0) when it is at most 0, and picks the nearest level
// (floor(lod + 0.5)) or blends the two nearest (mip_filter linear).
//
// In pixel shaders implicit-LOD reads (tex.sample, tex.sample_bias,
// tex.sample_cmp) take the level of detail from the coarse derivatives of
// the coordinates across the lane's quad (quad.go), as D3D11 computes it
// for isotropic filtering: log2 of the longer of the two derivative
// vectors scaled to level 0's texels (one level of detail per quad). Cube
// maps and the other stages (no quads, or SM6.6 compute quads, which the
// SPIR-V back end cannot express without an extension) take the level of
// detail of zero derivatives, -inf, i.e. level 0 with the mag filter —
// what a GPU does for a quad whose lanes sample one coordinate. Filtering is
// computed in float64 and rounded to float32 once (GPUs filter with
// fewer bits: docs/run.md gives the tolerance).

import (
	"fmt"
	"math"
	"math/bits"

	"passlens/compiler/ir"
)

// texIntrinsic executes a tex.* call for the lanes of mask.
func (w *wave) texIntrinsic(fr *frame, ic *icode, mask uint64) error {
	name := ic.name
	if ic.res < 0 && name != "" {
		return fmt.Errorf("%w: %s must have a result", ErrMalformed, name)
	}
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		arg := func(i int) []uint64 { return w.arg(fr, &ic.args[i], l) }
		img := w.mc.images[ptrObj(arg(0)[0])]
		if img == nil {
			return fmt.Errorf("%w: %s: operand 1 is not a texture", ErrMalformed, name)
		}
		var smp *samplerState
		if name != "tex.load" && name != "tex.dims" && name != "tex.load_ms" {
			if smp = w.mc.samplers[ptrObj(arg(1)[0])]; smp == nil {
				return fmt.Errorf("%w: %s: operand 2 is not a sampler", ErrMalformed, name)
			}
		}
		var out [4]uint32
		var err error
		switch name {
		case "tex.load":
			out = img.load(ints(arg(1)), int(int32(arg(2)[0])), ints(arg(3)))
		case "tex.load_ms":
			// A multisampled texture keeps its samples as levels.
			out = img.load(ints(arg(1)), int(int32(arg(2)[0])), ints(arg(3)))
		case "tex.dims":
			d := img.dims(int(uint32(arg(1)[0])))
			r := w.dst(fr, ic.res, l)
			for i := range r {
				r[i] = uint64(d[min(i, len(d)-1)])
			}
			continue
		case "tex.sample", "tex.sample_bias", "tex.sample_level", "tex.sample_cmp", "tex.sample_cmp_level_zero":
			lod := math.Inf(-1) // implicit, outside pixel shaders: level 0
			if name != "tex.sample_level" && name != "tex.sample_cmp_level_zero" && w.mc.entry.Entry.Stage == ir.StagePixel && !img.shape.Cube {
				if lod, err = w.implicitLOD(fr, ic, l, mask, img); err != nil {
					return err
				}
			}
			var ref *float32
			offset := 4
			if name == "tex.sample" {
				offset = 3
			}
			switch name {
			case "tex.sample_bias":
				lod += float64(f32(arg(3)[0]))
			case "tex.sample_level":
				lod = float64(f32(arg(3)[0]))
			case "tex.sample_cmp", "tex.sample_cmp_level_zero":
				r := f32(arg(3)[0])
				ref = &r
				if name == "tex.sample_cmp_level_zero" {
					lod = 0
				}
			}
			out, err = img.sample(smp, floats(arg(2)), lod, ints(arg(offset)), ref)
		case "tex.sample_grad":
			var lod float64
			if lod, err = img.gradLOD(floats(arg(3)), floats(arg(4))); err == nil {
				out, err = img.sample(smp, floats(arg(2)), lod, ints(arg(5)), nil)
			}
		case "tex.gather":
			out, err = img.gather(smp, floats(arg(2)), int(int32(arg(3)[0])), ints(arg(4)), nil)
		case "tex.gather_cmp":
			ref := f32(arg(4)[0])
			out, err = img.gather(smp, floats(arg(2)), int(int32(arg(3)[0])), ints(arg(5)), &ref)
		default:
			return fmt.Errorf("%w: intrinsic %s", ErrUnsupported, name)
		}
		if err != nil {
			return err
		}
		r := w.dst(fr, ic.res, l)
		for i := range r {
			r[i] = texelCell(ic.in.Type(), out[i&3])
		}
	}
	return nil
}

// texelCell converts one 32-bit channel of a texture read to a cell of
// the result's scalar type: a Texture2D<half4> or <double4> read converts
// the float (D3D returns the texel in the view's declared type), 16-bit
// integers keep the low bits and 64-bit ones extend by signedness.
func texelCell(t *ir.Type, c uint32) uint64 {
	s := t.Scalar()
	switch {
	case s == nil || s.Bits == 32 || s.Kind == ir.KBool:
		return uint64(c)
	case s.Kind == ir.KFloat:
		return fromF64(float64(math.Float32frombits(c)), s.Bits)
	case s.Bits == 16:
		return uint64(c & 0xffff)
	case s.Kind == ir.KInt:
		return uint64(int64(int32(c)))
	}
	return uint64(c)
}

func f32(c uint64) float32 { return math.Float32frombits(uint32(c)) }

func ints(c []uint64) []int {
	out := make([]int, len(c))
	for i, x := range c {
		out[i] = int(int32(uint32(x)))
	}
	return out
}

func floats(c []uint64) []float64 {
	out := make([]float64, len(c))
	for i, x := range c {
		out[i] = float64(f32(x))
	}
	return out
}

// at is texel (x, y, z) of a level (in range).
func (lv *texLevel) at(x, y, z int) [4]uint32 { return lv.texels[(z*lv.h+y)*lv.w+x] }

// split turns a texture's coordinates into position components (up to
// 3) and the array layer (or -1).
func (img *image) split(c []float64) (pos []float64, layer float64, arrayed bool) {
	sh := img.shape
	if sh.Array {
		return c[:sh.Coords-1], c[sh.Coords-1], true
	}
	return c[:sh.Coords], 0, false
}

// load is tex.load: the texel at coord+offset of level mip; 0 (all
// channels) outside the texture or the levels, as D3D defines it.
func (img *image) load(coord []int, mip int, off []int) [4]uint32 {
	if mip < 0 || mip >= len(img.levels) {
		return [4]uint32{}
	}
	lv := &img.levels[mip]
	sh := img.shape
	p := [3]int{}
	n := sh.Coords
	if sh.Array {
		n--
	}
	for i := 0; i < n; i++ {
		p[i] = coord[i]
		if i < len(off) && sh.Offsets > 0 {
			p[i] += off[i]
		}
	}
	if sh.Array {
		p[2] = coord[n] // the layer (a 1D array's level has height 1)
	}
	if p[0] < 0 || p[0] >= lv.w || p[1] < 0 || p[1] >= lv.h || p[2] < 0 || p[2] >= lv.d {
		return [4]uint32{}
	}
	return lv.at(p[0], p[1], p[2])
}

// dims is tex.dims: the level's size components and the level count.
func (img *image) dims(mip int) []uint32 {
	sh := img.shape
	out := make([]uint32, sh.Dims+1)
	out[sh.Dims] = uint32(len(img.levels))
	if mip < 0 || mip >= len(img.levels) {
		return out
	}
	lv := img.levels[mip]
	size := []int{lv.w, lv.h, lv.d}
	switch {
	case sh.Cube && sh.Array:
		size[2] = lv.d / 6
	case sh.Coords == 2 && sh.Array: // 1D array: width, layers
		size[1] = lv.d
	}
	for i := 0; i < sh.Dims; i++ {
		out[i] = uint32(size[i])
	}
	return out
}

// cubeFace maps a direction to a face (+X, -X, +Y, -Y, +Z, -Z) and its
// (s, t) in [0, 1] (the Vulkan/D3D table; ties go to Z, then Y).
func cubeFace(x, y, z float64) (face int, s, t float64) {
	ax, ay, az := math.Abs(x), math.Abs(y), math.Abs(z)
	var sc, tc, ma float64
	switch {
	case az >= ax && az >= ay:
		ma = az
		if z >= 0 {
			face, sc, tc = 4, x, -y
		} else {
			face, sc, tc = 5, -x, -y
		}
	case ay >= ax:
		ma = ay
		if y >= 0 {
			face, sc, tc = 2, x, z
		} else {
			face, sc, tc = 3, x, -z
		}
	default:
		ma = ax
		if x >= 0 {
			face, sc, tc = 0, -z, -y
		} else {
			face, sc, tc = 1, z, -y
		}
	}
	if ma == 0 {
		return face, 0.5, 0.5
	}
	return face, 0.5 * (sc/ma + 1), 0.5 * (tc/ma + 1)
}

// position resolves sampling coordinates to normalized (u, v, w) and a
// layer index (array layer, cube face) and the address modes to use.
func (img *image) position(s *samplerState, c []float64) (uvw [3]float64, dims int, layer int, addr [3]string) {
	addr = s.address
	sh := img.shape
	pos, lf, arrayed := img.split(c)
	if sh.Cube {
		face, u, v := cubeFace(pos[0], pos[1], pos[2])
		cube := 0
		if arrayed {
			cube = int(math.Floor(lf + 0.5))
		}
		uvw[0], uvw[1] = u, v
		addr = [3]string{"clamp", "clamp", "clamp"}
		return uvw, 2, cube*6 + face, addr
	}
	copy(uvw[:], pos)
	if arrayed {
		layer = int(math.Floor(lf + 0.5))
	}
	return uvw, len(pos), layer, addr
}

// address maps texel index i of a dimension of n texels by mode; ok is
// false for a border texel.
func address(i, n int, mode string) (int, bool) {
	switch mode {
	case "wrap":
		return ((i % n) + n) % n, true
	case "mirror":
		m := ((i % (2 * n)) + 2*n) % (2 * n)
		if m >= n {
			m = 2*n - 1 - m
		}
		return m, true
	case "mirror_once":
		if i < 0 {
			i = -1 - i
		}
		return min(max(i, 0), n-1), true
	case "border":
		return i, i >= 0 && i < n
	}
	return min(max(i, 0), n-1), true
}

// fetch reads texel p of level lv with addressing, as floats (the border
// colour outside a border-addressed texture). A comparison replaces the
// red channel by ref OP red (1 or 0) before filtering.
func (img *image) fetch(s *samplerState, lv *texLevel, p [3]int, dims, layer int, addr [3]string, ref *float32) [4]float64 {
	size := [3]int{lv.w, lv.h, lv.d}
	q := [3]int{0, 0, layer}
	for i := 0; i < dims; i++ {
		var ok bool
		if q[i], ok = address(p[i], size[i], addr[i]); !ok {
			b := s.border
			out := [4]float64{float64(b[0]), float64(b[1]), float64(b[2]), float64(b[3])}
			if ref != nil {
				out[0] = b2f(compareFuncs[s.cmp](*ref, b[0]))
			}
			return out
		}
	}
	if dims < 3 {
		q[dims] = min(max(layer, 0), size[dims]-1)
	}
	t := lv.at(q[0], q[1], q[2])
	out := [4]float64{float64(f32(uint64(t[0]))), float64(f32(uint64(t[1]))), float64(f32(uint64(t[2]))), float64(f32(uint64(t[3])))}
	if ref != nil {
		out[0] = b2f(compareFuncs[s.cmp](*ref, f32(uint64(t[0]))))
	}
	return out
}

// filterLevel samples one level with point or linear filtering.
func (img *image) filterLevel(s *samplerState, k int, uvw [3]float64, dims, layer int, addr [3]string, off []int, linear bool, ref *float32) [4]float64 {
	lv := &img.levels[k]
	size := [3]int{lv.w, lv.h, lv.d}
	offs := [3]int{}
	for i := 0; i < dims && i < len(off) && img.shape.Offsets > 0; i++ {
		offs[i] = off[i]
	}
	if !linear {
		var p [3]int
		for i := 0; i < dims; i++ {
			p[i] = int(math.Floor(uvw[i]*float64(size[i]))) + offs[i]
		}
		return img.fetch(s, lv, p, dims, layer, addr, ref)
	}
	var i0 [3]int
	var frac [3]float64
	for i := 0; i < dims; i++ {
		x := uvw[i]*float64(size[i]) - 0.5
		fl := math.Floor(x)
		i0[i], frac[i] = int(fl)+offs[i], x-fl
	}
	var acc [4]float64
	for corner := 0; corner < 1<<dims; corner++ {
		wgt := 1.0
		var p [3]int
		for i := 0; i < dims; i++ {
			if corner>>i&1 == 1 {
				p[i], wgt = i0[i]+1, wgt*frac[i]
			} else {
				p[i], wgt = i0[i], wgt*(1-frac[i])
			}
		}
		if wgt == 0 {
			continue
		}
		t := img.fetch(s, lv, p, dims, layer, addr, ref)
		for c := range acc {
			acc[c] += wgt * t[c]
		}
	}
	return acc
}

// sample is a filtered read at level of detail lod (before the
// sampler's bias and clamp). ref makes it a comparison.
func (img *image) sample(s *samplerState, coord []float64, lod float64, off []int, ref *float32) ([4]uint32, error) {
	if len(img.levels) == 0 {
		return [4]uint32{}, nil // null view
	}
	if img.integer {
		return [4]uint32{}, fmt.Errorf("%w: sampling texture @%s of an integer format (use Load)", ErrMalformed, img.name)
	}
	uvw, dims, layer, addr := img.position(s, coord)
	lod = math.Min(math.Max(lod+s.bias, s.minLOD), s.maxLOD)
	linear := s.minLinear
	if lod <= 0 || math.IsNaN(lod) {
		linear = s.magLinear
		lod = 0
	}
	top := float64(len(img.levels) - 1)
	var res [4]float64
	if !s.mipLinear {
		k := int(math.Min(math.Floor(lod+0.5), top))
		res = img.filterLevel(s, k, uvw, dims, layer, addr, off, linear, ref)
	} else {
		k0 := math.Min(math.Floor(lod), top)
		f := lod - k0
		if k0 >= top {
			f = 0
		}
		res = img.filterLevel(s, int(k0), uvw, dims, layer, addr, off, linear, ref)
		if f > 0 {
			r1 := img.filterLevel(s, int(k0)+1, uvw, dims, layer, addr, off, linear, ref)
			for c := range res {
				res[c] = res[c]*(1-f) + r1[c]*f
			}
		}
	}
	var out [4]uint32
	for c := range out {
		out[c] = math.Float32bits(float32(res[c]))
	}
	if ref != nil {
		out = [4]uint32{out[0], out[0], out[0], out[0]}
	}
	return out, nil
}

// gradLOD is the level of detail of explicit gradients: log2 of the
// longer of the two derivative vectors scaled to level 0's texels.
func (img *image) gradLOD(ddx, ddy []float64) (float64, error) {
	if img.shape.Cube {
		return 0, fmt.Errorf("%w: tex.sample_grad on cube map @%s", ErrUnsupported, img.name)
	}
	if len(img.levels) == 0 {
		return 0, nil
	}
	lv := img.levels[0]
	size := []float64{float64(lv.w), float64(lv.h), float64(lv.d)}
	var rx, ry float64
	for i := range ddx {
		rx += ddx[i] * size[i] * ddx[i] * size[i]
		ry += ddy[i] * size[i] * ddy[i] * size[i]
	}
	return 0.5 * math.Log2(math.Max(rx, ry)), nil
}

// gather is tex.gather: channel ch of the four texels bilinear filtering
// of level 0 reads, in D3D's order (i0,j1), (i1,j1), (i1,j0), (i0,j0);
// with ref (tex.gather_cmp) the comparisons ref OP channel, 1 or 0.
func (img *image) gather(s *samplerState, coord []float64, ch int, off []int, ref *float32) ([4]uint32, error) {
	if len(img.levels) == 0 {
		return [4]uint32{}, nil
	}
	uvw, dims, layer, addr := img.position(s, coord)
	lv := &img.levels[0]
	size := [2]int{lv.w, lv.h}
	var i0 [2]int
	for i := 0; i < 2; i++ {
		o := 0
		if i < len(off) && img.shape.Offsets > 0 {
			o = off[i]
		}
		i0[i] = int(math.Floor(uvw[i]*float64(size[i])-0.5)) + o
	}
	var out [4]uint32
	for k, d := range [4][2]int{{0, 1}, {1, 1}, {1, 0}, {0, 0}} {
		p := [3]int{i0[0] + d[0], i0[1] + d[1]}
		if img.integer && ref == nil {
			q := [3]int{0, 0, layer}
			inside := true
			for i := 0; i < dims; i++ {
				var ok bool
				q[i], ok = address(p[i], []int{lv.w, lv.h}[i], addr[i])
				inside = inside && ok
			}
			if inside {
				out[k] = lv.at(q[0], q[1], min(max(layer, 0), lv.d-1))[ch]
			}
			continue
		}
		t := img.fetch(s, lv, p, dims, layer, addr, nil)
		if ref != nil {
			t[ch] = b2f(compareFuncs[s.cmp](*ref, float32(t[ch])))
		}
		out[k] = math.Float32bits(float32(t[ch]))
	}
	return out, nil
}

// implicitLOD is the level of detail of an implicit-LOD read in lane l:
// that of the coarse derivatives of its coordinates (operand 2) across the
// quad, position components only (not the array layer).
func (w *wave) implicitLOD(fr *frame, ic *icode, l int, mask uint64, img *image) (float64, error) {
	dx, dy, ok := w.quadCoordDerivs(fr, &ic.args[2], l, mask)
	if !ok {
		return 0, fmt.Errorf("%w: %s in lane %d: the level of detail needs the derivatives of the coordinates, but a lane of the quad is not active here (divergent control flow in the quad, or the lane returned or was discarded)", ErrUndefined, ic.name, l)
	}
	return img.derivLOD(dx, dy)
}

// derivLOD is the level of detail of an implicit-LOD read whose
// coordinates have the derivatives dx and dy (all coordinates; the array
// layer's are dropped).
func (img *image) derivLOD(dx, dy []float64) (float64, error) {
	px, _, _ := img.split(dx)
	py, _, _ := img.split(dy)
	return img.gradLOD(px, py)
}
