// Package render draws a pixel shader as a picture: it runs the
// interpreter over a full-viewport quad of W×H pixels (Draw) and converts
// the render targets it wrote to 8-bit images (Convert), which the
// explorer's lanes pane shows as half-block cells and `passlens run --png`
// writes as PNG (WritePNG). The conversion rules are in convert.go and
// docs/run.md ("Pictures").
package render

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
)

// MaxSide is the largest width or height Draw accepts: a 512×512 draw is
// 262,144 invocations, well inside the interpreter's memory limit.
const MaxSide = 512

// ErrNotPixel is returned (wrapped) when the entry point is not a pixel
// shader: there is no picture to draw.
var ErrNotPixel = errors.New("not a pixel shader")

// Draw runs the pixel entry point of m (opts.Entry, else the module's
// only entry point) on every pixel of a width × height viewport, as a
// draw of one quad covering it would: the input's rect becomes (0, 0,
// width, height) and its pixel list is dropped, so SV_Position is
// (x + 0.5, y + 0.5, 0, 1) and inputs given by corners are interpolated
// across the whole viewport. Uniforms, textures, samplers and constant
// inputs are used as given. An interpolated float input named TEXCOORDn
// that the input does not give gets the usual full-screen quad's
// coordinates, (0, 0) at the top-left corner to (1, 1) at the
// bottom-right (further components 0), so that shaders that read a
// texture coordinate draw something without an input file; any other
// missing input is zero as in a run. in is not modified; nil means no
// input.
func Draw(ctx context.Context, m *ir.Module, in *interp.Input, opts interp.Options, width, height int) (*interp.Result, error) {
	if width < 1 || height < 1 || width > MaxSide || height > MaxSide {
		return nil, fmt.Errorf("image size %dx%d: want 1 to %d pixels on each side", width, height, MaxSide)
	}
	entry, err := pixelEntry(m, opts.Entry)
	if err != nil {
		return nil, err
	}
	var draw interp.Input
	if in != nil {
		draw = *in
	}
	draw.Rect = &interp.Rect{Width: width, Height: height}
	draw.Pixels = nil
	draw.Inputs = maps.Clone(draw.Inputs)
	if draw.Inputs == nil {
		draw.Inputs = map[string]interp.LaneInput{}
	}
	for _, g := range m.Globals {
		if g.Space != ir.SpaceInput || g.Flat || !isTexcoord(g.Semantic) || given(in, g) {
			continue
		}
		if c := quadCorners(g.ValType); c != nil {
			draw.Inputs[g.Semantic] = interp.LaneInput{Corners: c}
		}
	}
	opts.Entry = entry.Name()
	return interp.RunContext(ctx, m, &draw, opts)
}

// pixelEntry is the entry point a draw runs, which must be a pixel shader.
func pixelEntry(m *ir.Module, name string) (*ir.Function, error) {
	if m == nil {
		return nil, errors.New("no module")
	}
	var f *ir.Function
	if name != "" {
		f = m.Func(name)
		if f == nil || f.Entry == nil {
			return nil, fmt.Errorf("@%s is not an entry point", name)
		}
	} else {
		eps := m.EntryPoints()
		if len(eps) != 1 {
			return nil, fmt.Errorf("the module has %d entry points: choose one", len(eps))
		}
		f = eps[0]
	}
	if f.Entry.Stage != ir.StagePixel {
		return nil, fmt.Errorf("@%s is a %s shader: %w", f.Name(), f.Entry.Stage, ErrNotPixel)
	}
	return f, nil
}

// isTexcoord reports whether a semantic is TEXCOORD or TEXCOORDn.
func isTexcoord(sem string) bool {
	rest, ok := strings.CutPrefix(strings.ToUpper(sem), "TEXCOORD")
	return ok && strings.Trim(rest, "0123456789") == ""
}

// given reports whether the input sets g (by semantic, case-insensitive,
// or by name), as the interpreter matches them.
func given(in *interp.Input, g *ir.Global) bool {
	if in == nil {
		return false
	}
	for k := range in.Inputs {
		if strings.EqualFold(k, g.Semantic) || k == g.Name() {
			return true
		}
	}
	return false
}

// quadCorners is the texture coordinate of a full-screen quad at the
// viewport's corners (top-left, top-right, bottom-left, bottom-right) for
// a float scalar or vector; nil for other types.
func quadCorners(t *ir.Type) []any {
	if t.Scalar().Kind != ir.KFloat || t.Kind != ir.KVector && !t.IsScalar() {
		return nil
	}
	uv := [4][2]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}}
	out := make([]any, 4)
	for i, c := range uv {
		if t.IsScalar() {
			out[i] = c[0]
			continue
		}
		v := make([]any, t.Len)
		for k := range v {
			v[k] = 0.0
			if k < 2 {
				v[k] = c[k]
			}
		}
		out[i] = v
	}
	return out
}
