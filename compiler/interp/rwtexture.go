package interp

// Read-write textures (ir/rwtexture.go). A RWTexture* global is a memory
// object of width × height × depth-or-layers texels of its texel type, in
// the order of the input (x fastest, then y, then the slice or layer), so
// atomics work through tex.texel pointers like on buffer elements; the
// image in mc.images keyed by that object gives the size. Reads outside
// the texture return 0 and writes there do nothing (D3D's rule for UAVs).
// The input is a "textures" entry of a 32-bit float or integer format
// with at most one level (no levels: zero texels), stored at 32 bits per
// channel; the result lists the texture with the buffers (docs/run.md).

import (
	"fmt"
	"math/bits"

	"passlens/compiler/ir"
)

// bindRWTexture creates the memory of read-write texture global g from
// its input t (nil: a null view, 0 texels) and returns its pointer.
func (mc *machine) bindRWTexture(g *ir.Global, shape ir.TexShape, t *TextureInput) (uint64, error) {
	img := &image{name: g.Name(), shape: shape}
	elem := g.ValType
	comps := slots(elem)
	n := 0
	var data []any
	var f texFormat
	if t != nil {
		what := "texture @" + g.Name()
		var err error
		if f, err = rwTextureFormat(t, g); err != nil {
			return 0, err
		}
		if len(t.Levels) > 1 {
			return 0, inputErr("%s: a %s has one level, the input has %d", what, g.Kind, len(t.Levels))
		}
		if len(t.Levels) == 1 {
			data = t.Levels[0]
		}
		w, h, d := t.Width, max(t.Height, 1), 1
		switch {
		case shape.Coords == 1 || shape.Coords == 2 && shape.Array:
			if t.Height > 1 {
				return 0, inputErr("%s: a %s has no height", what, g.Kind)
			}
			h = 1
		case shape.Coords == 3 && !shape.Array:
			d = max(t.Depth, 1)
		}
		if shape.Array {
			d = max(t.Layers, 1)
		}
		if w <= 0 || w > 1<<14 || h > 1<<14 || d > 2048 {
			return 0, inputErr("%s: size %dx%dx%d out of range", what, w, h, d)
		}
		n = w * h * d
		if n > MaxMemoryCells/4 {
			return 0, inputErr("%s: too many texels", what)
		}
		if data != nil && len(data) != n*f.channels {
			return 0, inputErr("%s: %dx%dx%d texels of %d channels (%d values), the input has %d", what, w, h, d, f.channels, n*f.channels, len(data))
		}
		img.levels = []texLevel{{w: w, h: h, d: d}}
	}
	p := mc.mem.allocCells(n*comps, ir.Array(elem, n), g.Space, "@"+g.Name())
	cells := mc.mem.objs[ptrObj(p)].cells
	for i := 0; data != nil && i < n; i++ {
		for c := 0; c < comps && c < f.channels; c++ {
			v, err := decodeChannel(f, data[i*f.channels+c], fmt.Sprintf("texture @%s texel %d channel %d", g.Name(), i, c))
			if err != nil {
				return 0, &Error{Msg: err.Error(), Err: ErrInput}
			}
			cells[i*comps+c] = uint64(v)
		}
	}
	if mc.images == nil {
		mc.images = map[int]*image{}
	}
	mc.images[ptrObj(p)] = img
	return p, nil
}

// rwTextureFormat checks the format of a read-write texture's input:
// 32-bit float or integer channels fitting the texel type.
func rwTextureFormat(t *TextureInput, g *ir.Global) (texFormat, error) {
	what := "texture @" + g.Name()
	fname := canonicalFormat(t.Format)
	f, ok := texFormats[fname]
	if !ok || f.bits != 32 {
		return f, inputErr("%s: format %q: a %s holds 32-bit channels (R32F, RG32F, RGBA32F, R32UI, RG32UI, RGBA32UI, R32I, RG32I, RGBA32I)", what, t.Format, g.Kind)
	}
	elem := g.ValType.Scalar()
	integer := f.kind == 'U' || f.kind == 'I'
	if elem == nil || integer != (elem.Kind == ir.KInt || elem.Kind == ir.KUint) {
		return f, inputErr("%s: format %s does not fit texel type %s", what, fname, g.ValType)
	}
	return f, nil
}

// texelIndex is the index of the texel at coord in a read-write texture,
// and false outside it.
func (img *image) texelIndex(coord []int) (int, bool) {
	if len(img.levels) == 0 {
		return 0, false
	}
	lv := &img.levels[0]
	sh := img.shape
	n := sh.Coords
	if sh.Array {
		n--
	}
	p := [3]int{}
	copy(p[:n], coord[:n])
	if sh.Array {
		p[2] = coord[n]
	}
	if p[0] < 0 || p[0] >= lv.w || p[1] < 0 || p[1] >= lv.h || p[2] < 0 || p[2] >= lv.d {
		return 0, false
	}
	return (p[2]*lv.h+p[1])*lv.w + p[0], true
}

// rwTexIntrinsic executes tex.read, tex.write and tex.texel for the lanes
// of mask.
func (w *wave) rwTexIntrinsic(fr *frame, ic *icode, mask uint64) error {
	name := ic.name
	if ic.res < 0 && name != "tex.write" {
		return fmt.Errorf("%w: %s must have a result", ErrMalformed, name)
	}
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		arg := func(i int) []uint64 { return w.arg(fr, &ic.args[i], l) }
		base := arg(0)[0]
		img := w.mc.images[ptrObj(base)]
		if img == nil || !img.shape.RW {
			return fmt.Errorf("%w: %s: operand 1 is not a read-write texture", ErrMalformed, name)
		}
		o := w.mc.mem.objs[ptrObj(base)]
		comps := 1
		if n := len(img.levels); n > 0 {
			lv := img.levels[0]
			comps = len(o.cells) / max(1, lv.w*lv.h*lv.d)
		}
		i, in := img.texelIndex(ints(arg(1)))
		switch name {
		case "tex.read":
			r := w.dst(fr, ic.res, l)
			for k := range r {
				r[k] = 0
				if in && k < comps {
					r[k] = o.cells[i*comps+k]
				}
			}
		case "tex.write":
			// A helper lane (quad.go) writes no UAV.
			if in && !w.helperStore(l, o) {
				copy(o.cells[i*comps:(i+1)*comps], arg(2))
			}
		case "tex.texel":
			p := uint64(0) // the invalid pointer: atomics do nothing
			if in {
				p = mkPtr(ptrObj(base), i*comps)
			}
			w.dst(fr, ic.res, l)[0] = p
		}
	}
	return nil
}
