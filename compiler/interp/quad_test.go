package interp

import (
	"errors"
	"math"
	"strings"
	"testing"

	"passlens/compiler/ir"
)

// quadPixelSrc: v = x*x + 3*y*y (x, y the pixel centre) is not affine, so
// coarse and fine derivatives differ; the shader stores the derivatives,
// the Quad* reads and the number of active wave lanes to two render
// targets and marks its pixel in a storage buffer (helpers must not).
const quadPixelSrc = `module "quad"

@pos = global input <4 x f32> semantic "SV_Position"
@t0 = global output <4 x f32> semantic "SV_Target0"
@t1 = global output <4 x f32> semantic "SV_Target1"
@t2 = global output <4 x u32> semantic "SV_Target2"
@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"

define void @main() pixel {
entry:
  %pos = load ptr<input, <4 x f32>> @pos
  %x = extractvalue <4 x f32> %pos, 0
  %y = extractvalue <4 x f32> %pos, 1
  %xx = fmul f32 %x, %x
  %yy = fmul f32 %y, %y
  %yy3 = fmul f32 %yy, 3.0
  %v = fadd f32 %xx, %yy3
  %dxc = intr f32 ddx_coarse(f32 %v)
  %dyc = intr f32 ddy_coarse(f32 %v)
  %dxf = intr f32 ddx_fine(f32 %v)
  %dyf = intr f32 ddy_fine(f32 %v)
  %r0 = construct <4 x f32> (f32 %dxc, f32 %dyc, f32 %dxf, f32 %dyf)
  store <4 x f32> %r0, ptr<output, <4 x f32>> @t0
  %fw = intr f32 fwidth(f32 %v)
  %qx = intr f32 QuadReadAcrossX(f32 %v)
  %qy = intr f32 QuadReadAcrossY(f32 %v)
  %qd = intr f32 QuadReadAcrossDiagonal(f32 %v)
  %r1 = construct <4 x f32> (f32 %fw, f32 %qx, f32 %qy, f32 %qd)
  store <4 x f32> %r1, ptr<output, <4 x f32>> @t1
  %q3 = intr f32 QuadReadLaneAt(f32 %v, u32 3)
  %q3u = fptoui f32 %q3 to u32
  %big = fcmp ogt f32 %x, 2.0
  %any = intr bool QuadAny(bool %big)
  %all = intr bool QuadAll(bool %big)
  %anyu = zext bool %any to u32
  %allu = zext bool %all to u32
  %n = intr u32 WaveActiveCountBits(bool true)
  %r2 = construct <4 x u32> (u32 %q3u, u32 %anyu, u32 %allu, u32 %n)
  store <4 x u32> %r2, ptr<output, <4 x u32>> @t2
  %xi = fptoui f32 %x to u32
  %yi = fptoui f32 %y to u32
  %row = mul u32 %yi, 4
  %i = add u32 %row, %xi
  %p = access ptr<storage, [? x u32]> @Out, u32 %i
  store u32 1, ptr<storage, u32> %p
  ret
}
`

// TestQuadPixel runs two partly covered quads (pixels (1,1) and (2,0)):
// six helper lanes complete them; derivatives and quad reads see the
// helpers' values, computed here independently from the pixel
// coordinates; helpers write no render target, no storage buffer and are
// not active lanes of wave operations.
func TestQuadPixel(t *testing.T) {
	t.Parallel()
	m, err := ir.ParseModule("quad.pir", []byte(quadPixelSrc))
	if err != nil {
		t.Fatal(err)
	}
	in, err := ParseInput([]byte(`{"pixels": [[1, 1], [2, 0]], "buffers": [{"name": "Out", "count": 16}]}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := runT(m, in, Options{WaveSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	v := func(x, y int) float32 {
		fx, fy := float32(x)+0.5, float32(y)+0.5
		return fx*fx + fy*fy*3
	}
	if len(res.Lanes) != 8 {
		t.Fatalf("%d lanes, want 8 (two quads)", len(res.Lanes))
	}
	helpers := 0
	for _, l := range res.Lanes {
		if l.Helper {
			helpers++
			if len(l.Outputs) != 0 {
				t.Errorf("helper %v reports outputs", l.Pixel)
			}
		}
	}
	if helpers != 6 || res.Lanes[0].Pixel != [2]int{1, 1} || res.Lanes[1].Pixel != [2]int{2, 0} || res.Lanes[0].Helper {
		t.Fatalf("lanes: %+v", res.Lanes)
	}
	if res.Lanes[0].WaveLane != 3 || res.Lanes[1].WaveLane != 4 {
		t.Errorf("quad layout: pixel (1,1) in lane %d (want 3, bottom-right of quad 0), (2,0) in lane %d (want 4)", res.Lanes[0].WaveLane, res.Lanes[1].WaveLane)
	}
	for _, p := range [][2]int{{1, 1}, {2, 0}} {
		x, y := p[0], p[1]
		x0, y0 := x&^1, y&^1
		fx, fy := x0+(x&1^1), y0+(y&1^1) // the other column and row of the quad
		dx := func(row int) float32 { return v(x0+1, row) - v(x0, row) }
		dy := func(col int) float32 { return v(col, y0+1) - v(col, y0) }
		want0 := []float32{dx(y0), dy(x0), dx(y), dy(x)}
		fw := float32(math.Abs(float64(dx(y0)))) + float32(math.Abs(float64(dy(x0))))
		want1 := []float32{fw, v(fx, y), v(x, fy), v(fx, fy)}
		for i, want := range append(want0, want1...) {
			tgt := res.Targets[i/4]
			if got := f32(tgt.Pixel(x, y)[i%4]); got != want {
				t.Errorf("pixel (%d,%d) %s[%d] = %v, want %v", x, y, tgt.Semantic, i%4, got, want)
			}
		}
		any, all := 0, 0
		for _, q := range [][2]int{{x0, y0}, {x0 + 1, y0}, {x0, y0 + 1}, {x0 + 1, y0 + 1}} {
			if float32(q[0])+0.5 > 2 {
				any, all = 1, 1
			}
		}
		if x0 == 0 {
			all = 0
		}
		want2 := []uint64{uint64(v(x0+1, y0+1)), uint64(any), uint64(all), 2}
		for i, want := range want2 {
			if got := res.Targets[2].Pixel(x, y)[i]; got != want {
				t.Errorf("pixel (%d,%d) SV_Target2[%d] = %d, want %d", x, y, i, got, want)
			}
		}
	}
	for _, tg := range res.Targets {
		n := 0
		for _, w := range tg.Written {
			if w {
				n++
			}
		}
		if n != 2 {
			t.Errorf("%s: %d pixels written, want 2 (no helper)", tg.Semantic, n)
		}
	}
	js, err := res.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(strings.ReplaceAll(string(js), " ", ""), `"helper":true`); n != 6 {
		t.Errorf("JSON marks %d lanes as helpers, want 6", n)
	}
	out := res.Buffer("Out")
	for i := 0; i < 16; i++ {
		want := uint64(0)
		if i == 1*4+1 || i == 0*4+2 {
			want = 1
		}
		if got := out.Element(i)[0]; got != want {
			t.Errorf("Out[%d] = %d, want %d (helpers must not write storage)", i, got, want)
		}
	}
}

// TestQuadDivergentDerivative: a derivative in control flow that only
// some lanes of a quad take is undefined (D3D, Vulkan) and is an error.
func TestQuadDivergentDerivative(t *testing.T) {
	t.Parallel()
	src := `module "div"

@pos = global input <4 x f32> semantic "SV_Position"
@t0 = global output f32 semantic "SV_Target0"

define void @main() pixel {
entry:
  %pos = load ptr<input, <4 x f32>> @pos
  %x = extractvalue <4 x f32> %pos, 0
  %c = fcmp olt f32 %x, 1.0
  selection_merge %done
  condbr bool %c, %then, %done
then:
  %d = intr f32 ddx_fine(f32 %x)
  store f32 %d, ptr<output, f32> @t0
  br %done
done:
  ret
}
`
	m, err := ir.ParseModule("div.pir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, err = runT(m, nil, Options{})
	if !errors.Is(err, ErrUndefined) {
		t.Fatalf("got %v, want ErrUndefined", err)
	}
}

// TestQuadImplicitLOD: Sample in a pixel shader takes its level of detail
// from the quad's derivatives: uv = pos.xy * s over a 4x2 texture with
// two levels reads level 0 for s = 1/4 (one texel per pixel, lod 0) and
// level 1 for s = 1/2 (two texels per pixel, lod 1).
func TestQuadImplicitLOD(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		scale string
		want  float32 // red at pixel (0, 0)
	}{{"0.25", 0}, {"0.5", 100}} {
		src := `module "lod"

@pos = global input <4 x f32> semantic "SV_Position"
@t = global storage <4 x f32> binding 0, 0 readonly kind "Texture2D"
@s = global storage u32 binding 0, 0 readonly kind "SamplerState"
@t0 = global output <4 x f32> semantic "SV_Target0"

define void @main() pixel {
entry:
  %pos = load ptr<input, <4 x f32>> @pos
  %xy = shuffle <4 x f32> %pos, <4 x f32> %pos, [0, 1]
  %uv = fmul <2 x f32> %xy, <` + c.scale + `, ` + c.scale + `>
  %r = intr <4 x f32> tex.sample(ptr<storage, <4 x f32>> @t, ptr<storage, u32> @s, <2 x f32> %uv, <2 x i32> <0, 0>)
  store <4 x f32> %r, ptr<output, <4 x f32>> @t0
  ret
}
`
		m, err := ir.ParseModule("lod.pir", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		in, err := ParseInput([]byte(`{"rect": {"width": 2, "height": 2}, "textures": [` + grid4x2 + `], "samplers": [{"name": "s", "filter": "point", "mip_filter": "point"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		res, err := runT(m, in, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := f32(res.Targets[0].Pixel(0, 0)[0]); got != c.want {
			t.Errorf("scale %s: red %v, want %v", c.scale, got, c.want)
		}
	}
}

// TestQuadDemote: ps.demote (D3D's discard) turns the lane into a helper
// that keeps running: the other lanes' derivatives after it are defined
// and read its values, it writes no render target and no storage buffer,
// leaves the wave operations' active lanes and is reported discarded.
func TestQuadDemote(t *testing.T) {
	t.Parallel()
	src := `module "demote"

@pos = global input <4 x f32> semantic "SV_Position"
@t0 = global output <4 x f32> semantic "SV_Target0"
@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"

define void @main() pixel {
entry:
  %pos = load ptr<input, <4 x f32>> @pos
  %x = extractvalue <4 x f32> %pos, 0
  %y = extractvalue <4 x f32> %pos, 1
  %odd = fcmp oeq f32 %x, 1.5
  selection_merge %cont
  condbr bool %odd, %kill, %cont
kill:
  intr void ps.demote()
  br %cont
cont:
  %xy = fmul f32 %x, %y
  %dx = intr f32 ddx_fine(f32 %xy)
  %dy = intr f32 ddy_fine(f32 %xy)
  %n = intr u32 WaveActiveCountBits(bool true)
  %nf = uitofp u32 %n to f32
  %r = construct <4 x f32> (f32 %dx, f32 %dy, f32 %nf, f32 %x)
  store <4 x f32> %r, ptr<output, <4 x f32>> @t0
  %xi = fptoui f32 %x to u32
  %p = access ptr<storage, [? x u32]> @Out, u32 %xi
  store u32 7, ptr<storage, u32> %p
  ret
}
`
	m, err := ir.ParseModule("demote.pir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	in, err := ParseInput([]byte(`{"rect": {"width": 2, "height": 2}, "buffers": [{"name": "Out", "count": 2}]}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := runT(m, in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tg := res.Targets[0]
	for _, l := range res.Lanes {
		x, y := l.Pixel[0], l.Pixel[1]
		if x == 1 {
			if !l.Killed || tg.Written[y*2+x] {
				t.Errorf("pixel (%d,%d): discarded %v, written %v; want discarded, not written", x, y, l.Killed, tg.Written[y*2+x])
			}
			continue
		}
		// x*y at the centres: the row's right pixel (demoted) minus the
		// left, the column's lower pixel minus the upper.
		fy := float32(y) + 0.5
		want := []float32{1.5*fy - 0.5*fy, 0.5*1.5 - 0.5*0.5, 2, 0.5}
		for c, w := range want {
			if got := f32(tg.Pixel(x, y)[c]); got != w {
				t.Errorf("pixel (%d,%d) component %d = %v, want %v", x, y, c, got, w)
			}
		}
	}
	if got := res.Buffer("Out"); got.Element(0)[0] != 7 || got.Element(1)[0] != 0 {
		t.Errorf("Out = %d, %d; want 7, 0 (a demoted lane writes no storage)", got.Element(0)[0], got.Element(1)[0])
	}
}
