package serve

import (
	"context"
	"errors"

	"passlens/internal/guard"
	"passlens/tui"
)

// RenderImage (the lanes pane's picture of a pixel shader) takes the
// heavy slot and the panic guard as Run does; the session's input is the
// module's bundled one (SetInput is refused).
func (d *safeDriver) RenderImage(ctx context.Context, c *tui.Compiled, step int, o tui.ImageOptions) (img *tui.RenderedImage, err error) {
	defer guard.Handle("picture", d.onPanic(&err))
	r, ok := d.Driver.(tui.ImageRenderer)
	if !ok {
		return nil, errors.New("this session cannot draw pictures")
	}
	o.Input = ""
	err = d.s.heavyJob(ctx, d.size, "picture", func() error {
		img, err = r.RenderImage(ctx, c, step, o)
		return err
	})
	if err != nil {
		return nil, err
	}
	return img, nil
}
