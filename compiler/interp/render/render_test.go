package render

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/load"
)

// hlslModule compiles an HLSL pixel or compute shader given as text.
func hlslModule(t *testing.T, src string) *ir.Module {
	t.Helper()
	m, err := load.Module(&load.Source{Name: "t.hlsl", Path: "t.hlsl", Kind: "hlsl", Text: []byte(src)}, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func sample(t *testing.T, name string) (*ir.Module, *interp.Input) {
	t.Helper()
	m, src, err := load.File("samples/"+name, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var in *interp.Input
	if src.Input != nil {
		if in, err = interp.ParseInput(src.Input); err != nil {
			t.Fatal(err)
		}
	}
	return m, in
}

// TestDrawSamplePNG draws the picture sample, checks the conversion
// against the documented rule applied to the interpreter's render target
// cells, that the PNG decodes to exactly those pixels, and what the
// picture shows (the disc at its centre, sky above, ground below).
func TestDrawSamplePNG(t *testing.T) {
	m, in := sample(t, "pixel-image")
	const w, h = 40, 30
	r, err := Draw(context.Background(), m, in, interp.Options{}, w, h)
	if err != nil {
		t.Fatal(err)
	}
	pics := Convert(r, w, h)
	if len(pics) != 1 || pics[0].Semantic != "SV_Target" && pics[0].Semantic != "SV_Target0" {
		t.Fatalf("pictures %+v", pics)
	}
	p := pics[0]
	tg := &r.Targets[0]
	if tg.Width != w || tg.Height != h {
		t.Fatalf("target %dx%d, want %dx%d", tg.Width, tg.Height, w, h)
	}
	data, err := EncodePNG(p)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		t.Fatalf("PNG is %v", b)
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			cells := tg.Pixel(x, y)
			var want [4]uint32
			for c := range 4 {
				want[c] = uint32(UNORM8(float64(interp.CellFloat(ir.F32, cells[c]))))
			}
			r, g, b, a := img.At(x, y).RGBA() // 16-bit, premultiplied; alpha is 1 here
			got := [4]uint32{r >> 8, g >> 8, b >> 8, a >> 8}
			if got != want || !p.Written[y*w+x] {
				t.Fatalf("pixel (%d, %d): PNG %v, target converted %v (written %v)", x, y, got, want, p.Written[y*w+x])
			}
		}
	}
	// The disc (red, lit) covers the centre (0.5, 0.45); the top row is
	// sky (blue over red), the bottom row ground (red over blue).
	c := p.Image.NRGBAAt(w/2, h*45/100)
	top, bot := p.Image.NRGBAAt(1, 0), p.Image.NRGBAAt(1, h-1)
	if c.R < 2*c.G || c.R < 2*c.B || top.B <= top.R || bot.R <= bot.B {
		t.Errorf("centre %v, top %v, bottom %v: not the disc over the gradient", c, top, bot)
	}
}

// TestDrawTexcoordDefault: without input, TEXCOORD0 runs from (0, 0) at
// the top-left corner of the viewport to (1, 1) at the bottom-right and
// SV_Position is the pixel centre.
func TestDrawTexcoordDefault(t *testing.T) {
	m := hlslModule(t, `float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target {
  return float4(uv, pos.x / 8.0, 1);
}`)
	const w, h = 8, 4
	r, err := Draw(context.Background(), m, nil, interp.Options{}, w, h)
	if err != nil {
		t.Fatal(err)
	}
	p := Convert(r, w, h)[0]
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			got := p.Image.NRGBAAt(x, y)
			u, v := (float64(x)+0.5)/w, (float64(y)+0.5)/h
			if got.R != UNORM8(u) || got.G != UNORM8(v) || got.B != UNORM8((float64(x)+0.5)/8) || got.A != 255 {
				t.Fatalf("pixel (%d, %d) = %v, want uv (%g, %g)", x, y, got, u, v)
			}
		}
	}
}

// TestDrawDiscardAndIntegers: discarded pixels are transparent and not
// written; an integer target is stretched from its smallest to its
// largest written value; a second target comes after the first.
func TestDrawDiscardAndIntegers(t *testing.T) {
	m := hlslModule(t, `struct Out { float4 c : SV_Target0; uint id : SV_Target1; };
Out main(float4 pos : SV_Position) {
  if (pos.x > 3.0 && pos.y < 1.0) discard;
  Out o;
  o.c = float4(2.0, -1.0, 0.5, 0.25);
  o.id = 10 + (uint)pos.x;
  return o;
}`)
	const w, h = 4, 2
	r, err := Draw(context.Background(), m, nil, interp.Options{}, w, h)
	if err != nil {
		t.Fatal(err)
	}
	ps := Convert(r, w, h)
	if len(ps) != 2 || ps[0].Semantic != "SV_Target0" || ps[1].Semantic != "SV_Target1" {
		t.Fatalf("pictures: %d", len(ps))
	}
	if ps[0].Written[3] || ps[0].Image.NRGBAAt(3, 0).A != 0 {
		t.Errorf("pixel (3, 0) was discarded but reads %v", ps[0].Image.NRGBAAt(3, 0))
	}
	// Clamped and rounded to nearest even: 0.5*255 = 127.5 -> 128, 0.25*255 = 63.75 -> 64.
	if got := ps[0].Image.NRGBAAt(0, 0); got.R != 255 || got.G != 0 || got.B != 128 || got.A != 64 {
		t.Errorf("float pixel %v, want {255 0 128 64}", got)
	}
	// ids 10..13 -> 0, 85, 170, 255 (grey, opaque).
	for x, want := range []uint8{0, 85, 170, 255} {
		if got := ps[1].Image.NRGBAAt(x, 1); got.R != want || got.G != want || got.B != want || got.A != 255 {
			t.Errorf("integer pixel (%d, 1) = %v, want grey %d", x, got, want)
		}
	}
}

func TestDrawRefuses(t *testing.T) {
	cs := hlslModule(t, `RWStructuredBuffer<uint> b; [numthreads(1,1,1)] void main() { b[0] = 1; }`)
	if _, err := Draw(context.Background(), cs, nil, interp.Options{}, 4, 4); !errors.Is(err, ErrNotPixel) {
		t.Errorf("compute shader: %v, want ErrNotPixel", err)
	}
	m, _ := sample(t, "pixel-image")
	for _, s := range [][2]int{{0, 4}, {4, MaxSide + 1}} {
		if _, err := Draw(context.Background(), m, nil, interp.Options{}, s[0], s[1]); err == nil {
			t.Errorf("size %v accepted", s)
		}
	}
}

func TestUNORM8(t *testing.T) {
	nan := float64(0)
	nan = nan / nan
	for _, c := range []struct {
		f    float64
		want uint8
	}{{-1, 0}, {nan, 0}, {0, 0}, {1, 255}, {7, 255}, {0.5, 128}, {1.5 / 255, 2}, {2.5 / 255, 2}, {0.2, 51}} {
		if got := UNORM8(c.f); got != c.want {
			t.Errorf("UNORM8(%g) = %d, want %d", c.f, got, c.want)
		}
	}
}

// BenchmarkDrawPane is the explorer's largest picture (128×96) of the
// picture sample.
func BenchmarkDrawPane(b *testing.B) {
	m, src, err := load.File("samples/pixel-image", load.Options{})
	if err != nil {
		b.Fatal(err)
	}
	in, err := interp.ParseInput(src.Input)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		r, err := Draw(context.Background(), m, in, interp.Options{}, 128, 96)
		if err != nil {
			b.Fatal(err)
		}
		Convert(r, 128, 96)
	}
}
