package interp

import (
	"passlens/compiler/ir"

	"errors"
	"runtime"
	"strings"
	"testing"
)

// Inputs the JSON decoder would accept silently are located errors.
func TestParseInputRefusesOutOfRange(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ json, want string }{
		{`{"dispatch":[1,1,1,1]}`, "in.json:1:2: dispatch has 4 sizes"},
		{`{"dispatch":[4294967296,1,1]}`, "in.json: dispatch[0] = 4294967296"},
		{`{"dispatch":[1,-5,1]}`, "in.json: dispatch[1] = -5"},
		{`{"buffers":[{"binding":0},{"binding":1,"count":-1}]}`, "in.json: buffers[1].count = -1 is negative"},
		{`{"buffers":[{"binding":0,"tail":-1}]}`, "in.json: buffers[0].tail = -1 is negative"},
		{`{"vertex_count":-3}`, "in.json: vertex_count = -3 is negative"},
		{`{"rect":{"width":0,"height":4}}`, "in.json: rect"},
		{"{\n  \"dispatch\": [1, 1, 1],\n  \"bogus\": 1\n}", `in.json:3:3: unknown field "bogus"`},
		{`{"dispatch":[1,1,1]} {}`, "in.json:1:22: trailing data"},
		{`{"dispatch":[1,1,`, "in.json:1:"},
	} {
		_, err := ParseInputFile("in.json", []byte(c.json))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ParseInputFile(%s) = %v, want an error starting %q", c.json, err, c.want)
		}
	}
	if _, err := ParseInputFile("in.json", []byte(`{"dispatch":[2,1,1],"buffers":[{"binding":0,"count":4}]}`)); err != nil {
		t.Errorf("a valid input: %v", err)
	}
}

// The memory limit holds for runs of many invocations, whose per-lane
// state (registers, per-lane globals) is not buffer memory.
func TestManyInvocationsHitTheMemoryLimit(t *testing.T) {
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for _, c := range []struct {
		name string
		run  func() error
	}{
		{"rect 1024x1024", func() error {
			_, err := runT(pixelModule(), &Input{Rect: &Rect{Width: 1024, Height: 1024}, Uniforms: map[string]any{"scale": 2}}, Options{})
			return err
		}},
		{"vertex_count 4e6", func() error {
			_, err := runT(vertexModule(), &Input{VertexCount: 4_000_000}, Options{})
			return err
		}},
		{"dispatch 65535^3", func() error {
			k := newKit(ir.U32, 64)
			k.store(u32c(1))
			_, err := runT(k.finish(), &Input{Dispatch: [3]int{65535, 65535, 65535}}, Options{})
			return err
		}},
	} {
		err := c.run()
		if err == nil || !(errors.Is(err, ErrMemoryLimit) || errors.Is(err, ErrInput)) {
			t.Errorf("%s: %v, want a memory-limit or input error", c.name, err)
		}
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<30 {
		t.Errorf("the refused runs allocated %d MiB", grew>>20)
	}
	// A run under the limit still works.
	if _, err := runT(pixelModule(), &Input{Rect: &Rect{Width: 64, Height: 64}, Uniforms: map[string]any{"scale": 2}}, Options{}); err != nil {
		t.Errorf("rect 64x64: %v", err)
	}
}

// Without Options.MaxSteps an infinite loop stops at DefaultMaxSteps.
func TestInfiniteLoopStopsByDefault(t *testing.T) {
	t.Parallel()
	k := newKit(ir.U32, 1)
	loop := k.f.NewBlock("loop")
	k.b.Br(loop)
	k.b.SetBlock(loop)
	k.b.Br(loop)
	m := k.m
	_, err := runT(m, nil, Options{})
	if !errors.Is(err, ErrStepLimit) {
		t.Fatalf("infinite loop: %v, want ErrStepLimit", err)
	}
}
