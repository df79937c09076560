package render

import (
	"image"
	"image/color"
	"math"
	"sort"
	"strconv"
	"strings"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
)

// Picture is one render target converted to 8 bits per channel.
type Picture struct {
	Semantic string // SV_Target0, SV_Target1, SV_Depth, …
	Type     *ir.Type
	// Image holds the converted pixels, Width × Height of the draw.
	Image *image.NRGBA
	// Written says which pixels a lane wrote (row-major); the others
	// (discarded, or outside the target) are transparent black.
	Written []bool
	// Note says how the values were mapped, for the explorer's header.
	Note string
}

// Convert turns the render targets of a draw into pictures of width ×
// height pixels, colour targets (SV_TargetN) first in N order, then the
// other outputs. The mapping, which docs/run.md repeats:
//
//   - float channels are clamped to [0, 1] (NaN is 0) and scaled to
//     0…255, rounding to nearest even: the conversion D3D and Vulkan
//     apply when a shader writes a float to an R8G8B8A8_UNORM target.
//     No sRGB encoding is applied: a UNORM target stores the linear value
//     the shader wrote, and the PNG (no gamma chunk) is then shown the way
//     such a target is presented on a non-sRGB swap chain;
//   - integer channels are normalized over the picture: each channel's
//     smallest written value becomes 0 and its largest 255, linearly (a
//     channel with one value is 0 when that value is 0, else 255), so IDs
//     and counters stay distinguishable; an integer picture is opaque;
//   - one channel is grey (r = g = b), two are red and green (blue 0),
//     three are RGB; alpha is the fourth float channel, else 1.
func Convert(r *interp.Result, width, height int) []Picture {
	var out []Picture
	for i := range r.Targets {
		out = append(out, convertTarget(&r.Targets[i], width, height))
	}
	sort.SliceStable(out, func(i, j int) bool { return targetOrder(out[i].Semantic) < targetOrder(out[j].Semantic) })
	return out
}

// targetOrder sorts SV_Target0..7 first, by index, then everything else.
func targetOrder(sem string) int {
	n, ok := strings.CutPrefix(strings.ToUpper(sem), "SV_TARGET")
	if !ok {
		return 1 << 20
	}
	i, err := strconv.Atoi(n)
	if n == "" || err != nil {
		return 0
	}
	return i
}

func convertTarget(t *interp.Target, width, height int) Picture {
	p := Picture{Semantic: t.Semantic, Type: t.Elem, Image: image.NewNRGBA(image.Rect(0, 0, width, height)), Written: make([]bool, width*height)}
	if p.Semantic == "" {
		p.Semantic = t.Name
	}
	s := t.Elem.Scalar()
	lanes := min(t.Elem.Lanes(), 4)
	isFloat := s.Kind == ir.KFloat
	inside := func(x, y int) bool { return x < t.Width && y < t.Height && t.Written[y*t.Width+x] }
	// The integer range per channel, over the written pixels.
	lo, hi := [4]int64{math.MaxInt64, math.MaxInt64, math.MaxInt64, math.MaxInt64}, [4]int64{math.MinInt64, math.MinInt64, math.MinInt64, math.MinInt64}
	if !isFloat {
		for y := 0; y < min(height, t.Height); y++ {
			for x := 0; x < min(width, t.Width); x++ {
				if !inside(x, y) {
					continue
				}
				px := t.Pixel(x, y)
				for c := 0; c < lanes; c++ {
					v := intCell(s, px[c])
					lo[c], hi[c] = min(lo[c], v), max(hi[c], v)
				}
			}
		}
		p.Note = "integer: each channel scaled from its smallest to its largest value"
	} else {
		p.Note = "float: clamped to [0,1], linear (UNORM) values"
	}
	for y := 0; y < height; y++ {
		for x := 0; x < width; x++ {
			if !inside(x, y) {
				continue
			}
			p.Written[y*width+x] = true
			px := t.Pixel(x, y)
			var ch [4]uint8
			for c := 0; c < lanes; c++ {
				if isFloat {
					ch[c] = UNORM8(interp.CellFloat(s, px[c]))
				} else {
					ch[c] = stretch(intCell(s, px[c]), lo[c], hi[c])
				}
			}
			var col color.NRGBA
			switch lanes {
			case 1:
				col = color.NRGBA{ch[0], ch[0], ch[0], 255}
			case 2:
				col = color.NRGBA{ch[0], ch[1], 0, 255}
			case 3:
				col = color.NRGBA{ch[0], ch[1], ch[2], 255}
			default:
				col = color.NRGBA{ch[0], ch[1], ch[2], ch[3]}
				if !isFloat {
					col.A = 255
				}
			}
			p.Image.SetNRGBA(x, y, col)
		}
	}
	return p
}

// UNORM8 converts a float to an 8-bit UNORM channel: clamp to [0, 1]
// (NaN to 0), times 255, rounded to nearest even.
func UNORM8(f float64) uint8 {
	if !(f > 0) { // NaN too
		return 0
	}
	if f >= 1 {
		return 255
	}
	return uint8(math.RoundToEven(f * 255))
}

// intCell reads an integer cell of scalar type s as a signed or unsigned
// value (unsigned values above MaxInt64 saturate).
func intCell(s *ir.Type, c uint64) int64 {
	bits := s.Bits
	if bits <= 0 || bits > 64 {
		bits = 32
	}
	if s.Kind == ir.KInt {
		shift := 64 - uint(bits)
		return int64(c<<shift) >> shift
	}
	if bits < 64 {
		c &= 1<<uint(bits) - 1
	}
	return int64(min(c, math.MaxInt64))
}

// stretch maps v in [lo, hi] linearly to 0…255 (rounded to nearest).
func stretch(v, lo, hi int64) uint8 {
	if lo == hi {
		if v == 0 {
			return 0
		}
		return 255
	}
	return uint8(math.Round(float64(v-lo) / float64(hi-lo) * 255))
}
