package spvread_test

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/spvread"
	"passlens/compiler/target/spirv"
	"passlens/compiler/target/spirv/vkrun"
	"passlens/internal/testtool"
)

// TestGlslangPixel: testdata/glsl/pixel.frag (gl_FragCoord, a flat input,
// a uniform block, a loop, discard, two render targets) compiled by
// glslangValidator reads, verifies and, shaded in the interpreter over an
// 8x4 rect, writes the pixels lavapipe writes drawing it with
// fullscreen.vert (which passes a constant flat color): the same pixels
// discarded, every other channel bit for bit.
func TestGlslangPixel(t *testing.T) {
	glslang := testtool.Require(t, "glslangValidator", "glslang-tools")
	dir := t.TempDir()
	compile := func(name string) []byte {
		out := filepath.Join(dir, name+".spv")
		if msg, err := exec.Command(glslang, "-V", "--target-env", "vulkan1.1", filepath.Join("testdata/glsl", name), "-o", out).CombinedOutput(); err != nil {
			t.Fatalf("glslangValidator %s: %v\n%s", name, err, msg)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	frag, vert := compile("pixel.frag"), compile("fullscreen.vert")
	m, err := spvread.Read("pixel.frag", frag)
	if err != nil {
		t.Fatal(err)
	}
	if err := ir.Verify(m); err != nil {
		t.Fatalf("%v\n%s", err, m)
	}
	const w, h = 8, 4
	color := []any{0.25, 0.5, 0.75, 1.0}
	in := &interp.Input{Rect: &interp.Rect{Width: w, Height: h},
		Inputs:   map[string]interp.LaneInput{"color": {Value: color}},
		Uniforms: map[string]any{"count": 5, "scale": 0.5}}
	res, err := interp.Run(m, in, interp.Options{})
	if err != nil {
		t.Fatalf("interp: %v\n%s", err, m)
	}
	fw, err := spirv.Words(frag)
	if err != nil {
		t.Fatal(err)
	}
	vw, err := spirv.Words(vert)
	if err != nil {
		t.Fatal(err)
	}
	ubo := make([]byte, 16)
	binary.LittleEndian.PutUint32(ubo[0:], 5)
	binary.LittleEndian.PutUint32(ubo[4:], math.Float32bits(0.5))
	job := vkrun.Job{SPIRV: fw, Entry: "main",
		Buffers: []vkrun.Buffer{{Set: 0, Binding: 0, Uniform: true, Data: ubo}},
		Draw:    &vkrun.Draw{Vertex: vw, VertexEntry: "main", Width: w, Height: h, Targets: []vkrun.TargetKind{vkrun.Float, vkrun.Float}}}
	_, pix, err := vkrun.RunDraw(job)
	if errors.Is(err, vkrun.ErrUnavailable) {
		testtool.Unavailable(t, err.Error())
	}
	if err != nil {
		t.Fatalf("lavapipe: %v", err)
	}
	if len(res.Targets) != 2 {
		t.Fatalf("%d render targets, want 2", len(res.Targets))
	}
	discarded := 0
	for k, tg := range res.Targets {
		if tg.Semantic != []string{"SV_Target0", "SV_Target1"}[k] {
			t.Fatalf("target %d is %s", k, tg.Semantic)
		}
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				p := y*w + x
				if !tg.Written[p] {
					discarded++
				}
				for c := 0; c < 4; c++ {
					want := pix[k][4*p+c]
					got := uint32(0)
					if tg.Written[p] {
						got = uint32(tg.Pixel(x, y)[c])
					}
					if got != want {
						t.Errorf("target %d pixel (%d,%d) channel %d: interp %v, lavapipe %v", k, x, y, c,
							math.Float32frombits(got), math.Float32frombits(want))
					}
				}
			}
		}
	}
	if discarded != 2 {
		t.Errorf("%d pixels discarded over both targets, want 2 (pixel (3,1))", discarded)
	}
}
