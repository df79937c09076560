package backend

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"passlens/compiler/interp"
	"passlens/compiler/interp/render"
	"passlens/tui"
)

// RenderImage draws a step's pixel shader over a full-viewport quad of
// o.Width × o.Height pixels with the driver's interpreter input
// (render.Draw) and converts its render targets to 8 bits a channel as
// docs/run.md ("Pictures") says (render.Convert): the lanes pane's picture
// view.
func (d *Driver) RenderImage(ctx context.Context, c *tui.Compiled, step int, o tui.ImageOptions) (*tui.RenderedImage, error) {
	m, opts, err := d.runSetup(c, step, o.Function, o.WaveSize, o.Policy)
	if err != nil {
		return nil, err
	}
	r, err := render.Draw(ctx, m, d.Input, opts, o.Width, o.Height)
	if errors.Is(err, render.ErrNotPixel) {
		return nil, fmt.Errorf("%w: %v", tui.ErrNotPixelShader, err)
	}
	if err != nil {
		return nil, d.locate(err)
	}
	out := &tui.RenderedImage{}
	for _, p := range render.Convert(r, o.Width, o.Height) {
		out.Targets = append(out.Targets, tui.ImageTarget{Semantic: p.Semantic, Note: p.Note, Image: p.Image, Written: p.Written})
	}
	return out, nil
}

// locate puts the source file and position in front of an interpreter
// error that has one (HLSL and LLVM input), as `passlens run` does.
func (d *Driver) locate(err error) error {
	var ie *interp.Error
	if d.src == nil || !errors.As(err, &ie) || ie.Loc.Line <= 0 || d.src.Kind != "hlsl" && d.src.Kind != "ll" {
		return err
	}
	text := strings.Replace(err.Error(), fmt.Sprintf(" (line %d:%d)", ie.Loc.Line, ie.Loc.Col), "", 1)
	return fmt.Errorf("%s:%d:%d: %s", d.src.Path, ie.Loc.Line, ie.Loc.Col, text)
}
