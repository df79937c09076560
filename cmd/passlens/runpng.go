package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"passlens/compiler/interp"
	"passlens/compiler/interp/render"
	"passlens/compiler/ir"
	"passlens/compiler/load"
	"passlens/internal/atomicfile"
)

// pictureFlags are run's --png, --size and --rt: draw a pixel shader and
// write one render target as a PNG (compiler/interp/render).
type pictureFlags struct {
	path          string
	width, height int // 0: from the input's rect, else 64x64
	target        int
}

// defaultPictureSide is the viewport side without --size or an input rect.
const defaultPictureSide = 64

func parsePictureFlags(c *command, path, size string, rt int, input string) (*pictureFlags, error) {
	if path == "" {
		return nil, &usageError{c, "--size and --rt need --png FILE"}
	}
	if atomicfile.SameFile(path, input) {
		return nil, &usageError{c, fmt.Sprintf("--png %s names the input file", path)}
	}
	p := &pictureFlags{path: path, target: rt}
	if rt < 0 {
		return nil, &usageError{c, fmt.Sprintf("--rt %d: want a render target index from 0", rt)}
	}
	if size != "" {
		w, h, ok := strings.Cut(strings.ToLower(size), "x")
		var err1, err2 error
		p.width, err1 = strconv.Atoi(w)
		p.height, err2 = strconv.Atoi(h)
		if !ok || err1 != nil || err2 != nil || p.width < 1 || p.height < 1 || p.width > render.MaxSide || p.height > render.MaxSide {
			return nil, &usageError{c, fmt.Sprintf("--size %s: want WIDTHxHEIGHT, 1 to %d pixels a side (e.g. 64x64)", size, render.MaxSide)}
		}
	}
	return p, nil
}

// writePicture draws m's pixel entry point and writes the chosen render
// target to p.path (replacing a file there: naming it is the user's
// say-so, as with compile -o).
func writePicture(src *load.Source, m *ir.Module, in *interp.Input, opts interp.Options, p *pictureFlags) error {
	w, h := p.width, p.height
	if w == 0 {
		w, h = defaultPictureSide, defaultPictureSide
		if in != nil && in.Rect != nil && in.Rect.Width <= render.MaxSide && in.Rect.Height <= render.MaxSide {
			w, h = in.Rect.Width, in.Rect.Height
		}
	}
	r, err := render.Draw(context.Background(), m, in, opts, w, h)
	if errors.Is(err, render.ErrNotPixel) {
		return fmt.Errorf("%s: --png draws pixel shaders only: %v", src.Path, err)
	}
	if err != nil {
		return interpFailure(src, err)
	}
	pics := render.Convert(r, w, h)
	if len(pics) == 0 {
		return fmt.Errorf("%s: the pixel shader writes no render target", src.Path)
	}
	if p.target >= len(pics) {
		var names []string
		for i, pc := range pics {
			names = append(names, fmt.Sprintf("%d = %s", i, pc.Semantic))
		}
		return fmt.Errorf("passlens: --rt %d: the shader writes %d render target(s) (%s)", p.target, len(pics), strings.Join(names, ", "))
	}
	data, err := render.EncodePNG(pics[p.target])
	if err != nil {
		return fmt.Errorf("passlens: %v", err)
	}
	if err := atomicfile.Write(p.path, data, atomicfile.Options{Replace: true}); err != nil {
		return fmt.Errorf("passlens: %v", err)
	}
	return nil
}
