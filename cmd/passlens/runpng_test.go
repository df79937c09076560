package main

import (
	"context"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/interp/render"
	"passlens/compiler/load"
)

// TestRunPNG: run --png writes the picture sample as a PNG whose pixels
// are the render target of a draw of the same size converted as
// documented (render.Convert), with the sample's bundled input.
func TestRunPNG(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "pic.png")
	code, stdout, stderr := run("run", "--png", out, "--size", "24x16", "samples/pixel-image")
	if code != 0 || stdout != "" || stderr != "" {
		t.Fatalf("code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	m, src, err := load.File("samples/pixel-image", load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	in, err := interp.ParseInput(src.Input)
	if err != nil {
		t.Fatal(err)
	}
	r, err := render.Draw(context.Background(), m, in, interp.Options{}, 24, 16)
	if err != nil {
		t.Fatal(err)
	}
	want := render.Convert(r, 24, 16)[0].Image
	if img.Bounds() != want.Bounds() {
		t.Fatalf("PNG %v, want %v", img.Bounds(), want.Bounds())
	}
	distinct := map[[4]uint32]bool{}
	for y := 0; y < 16; y++ {
		for x := 0; x < 24; x++ {
			r, g, b, a := img.At(x, y).RGBA()
			w := want.NRGBAAt(x, y)
			if [4]uint32{r >> 8, g >> 8, b >> 8, a >> 8} != [4]uint32{uint32(w.R), uint32(w.G), uint32(w.B), uint32(w.A)} {
				t.Fatalf("pixel (%d, %d): PNG %v %v %v %v, want %v", x, y, r>>8, g>>8, b>>8, a>>8, w)
			}
			distinct[[4]uint32{r, g, b, a}] = true
		}
	}
	if len(distinct) < 50 {
		t.Errorf("only %d distinct colours: the bundled input was not used?", len(distinct))
	}
}

func TestRunPNGErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--size", "8x8", "samples/pixel-image"}, 2, "--size and --rt need --png FILE"},
		{[]string{"--png", filepath.Join(dir, "a.png"), "--size", "8", "samples/pixel-image"}, 2, "--size 8: want WIDTHxHEIGHT"},
		{[]string{"--png", filepath.Join(dir, "a.png"), "--size", "0x8", "samples/pixel-image"}, 2, "1 to 512 pixels a side"},
		{[]string{"--png", filepath.Join(dir, "a.png"), "--rt", "1", "samples/pixel-image"}, 1, "--rt 1: the shader writes 1 render target(s) (0 = SV_Target"},
		{[]string{"--png", filepath.Join(dir, "a.png"), "samples/wave-switch-42"}, 1, "--png draws pixel shaders only: @main is a compute shader"},
	} {
		code, _, stderr := run(append([]string{"run"}, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: code %d, stderr %q; want code %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "a.png")); err == nil {
		t.Error("a failed run wrote a.png")
	}
}
