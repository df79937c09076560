package interp

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"passlens/compiler/ir"
	"passlens/internal/golden"
)

// infiniteLoop: while (true) { x++ } with a store, never terminating.
func infiniteLoop() *ir.Module {
	k := newKit(ir.U32, 4)
	loop := k.f.NewBlock("spin")
	x := k.variable(ir.U32, "x", u32c(0))
	k.b.Br(loop)
	k.b.SetBlock(loop)
	k.add(x, u32c(1))
	k.b.Br(loop)
	return k.m
}

func TestStepLimit(t *testing.T) {
	start := time.Now()
	_, err := runT(infiniteLoop(), nil, Options{WaveSize: 4, MaxSteps: 100000})
	if !errors.Is(err, ErrStepLimit) {
		t.Fatalf("got %v, want ErrStepLimit", err)
	}
	var e *Error
	if !errors.As(err, &e) || e.Func != "main" || e.Block != "spin" {
		t.Errorf("error not located in @main %%spin: %v", err)
	}
	if !strings.Contains(err.Error(), "MaxSteps") {
		t.Errorf("message does not say how to raise the limit: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("100000 steps took %v", d)
	}
}

func TestCancel(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(20 * time.Millisecond)
		cancel()
	}()
	_, err := RunContext(ctx, infiniteLoop(), nil, Options{WaveSize: 4, MaxSteps: 1 << 40})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

func TestRunErrors(t *testing.T) {
	t.Parallel()
	// Unreachable.
	k := newKit(ir.U32, 4)
	k.b.Unreachable()
	if _, err := runT(k.m, nil, Options{}); !errors.Is(err, ErrUndefined) {
		t.Errorf("unreachable: got %v", err)
	}
	// Store to a read-only buffer.
	k = newKit(ir.U32, 4)
	ro := ir.NewGlobal("In", ir.SpaceStorage, ir.Array(ir.U32, -1))
	ro.ReadOnly, ro.Binding = true, 1
	k.m.AddGlobal(ro)
	k.b.Store(u32c(1), k.b.Access(ro, []ir.Value{k.tid}, ""))
	// The verifier rejects this module; the interpreter must still report
	// the store clearly.
	if _, err := Run(k.finish(), nil, Options{}); !errors.Is(err, ErrReadOnly) {
		t.Errorf("read-only store: got %v", err)
	}
	// Store to a uniform.
	k = newKit(ir.U32, 4)
	u := ir.NewGlobal("u", ir.SpaceUniform, ir.U32)
	k.m.AddGlobal(u)
	k.b.Store(u32c(1), u)
	if _, err := Run(k.finish(), nil, Options{}); !errors.Is(err, ErrReadOnly) {
		t.Errorf("uniform store: got %v", err)
	}
	// Bad options and inputs.
	for _, tc := range []struct {
		name string
		in   *Input
		opts Options
	}{
		{"wave size", nil, Options{WaveSize: 12}},
		{"wave size big", nil, Options{WaveSize: 128}},
		{"entry", nil, Options{Entry: "nope"}},
		{"buffer name", &Input{Buffers: []BufferInput{{Name: "nope"}}}, Options{}},
		{"buffer type", &Input{Buffers: []BufferInput{{Name: "Out", Type: "f32"}}}, Options{}},
		{"buffer data", &Input{Buffers: []BufferInput{{Name: "Out", Data: []any{1.5}}}}, Options{}},
		{"buffer range", &Input{Buffers: []BufferInput{{Name: "Out", Data: []any{-1}}}}, Options{}},
		{"uniform", &Input{Uniforms: map[string]any{"nope": 1}}, Options{}},
		{"input", &Input{Inputs: map[string]LaneInput{"NOPE": {Value: 1}}}, Options{}},
		{"dispatch", &Input{Dispatch: [3]int{-1, 1, 1}}, Options{}},
	} {
		k := newKit(ir.U32, 4)
		if _, err := runT(k.finish(), tc.in, tc.opts); !errors.Is(err, ErrInput) {
			t.Errorf("%s: got %v, want ErrInput", tc.name, err)
		}
	}
	// Two entry points and no choice.
	k = newKit(ir.U32, 4)
	k.finish()
	g := k.m.NewFunction("other", ir.Void, nil, nil)
	g.Entry = &ir.EntryPoint{Stage: ir.StageCompute, NumThreads: [3]int{1, 1, 1}}
	gb := ir.NewBuilder(g)
	gb.SetBlock(g.NewBlock("entry"))
	gb.Ret(nil)
	if _, err := runT(k.m, nil, Options{}); err == nil || !strings.Contains(err.Error(), "choose one") {
		t.Errorf("two entries: got %v", err)
	}
	if _, err := runT(k.m, nil, Options{Entry: "other"}); err != nil {
		t.Errorf("entry other: %v", err)
	}
	// Phi without an incoming value for the edge taken.
	k = newKit(ir.U32, 4)
	next := k.f.NewBlock("next")
	k.b.Br(next)
	k.b.SetBlock(next)
	ph := k.b.Phi(ir.U32, "p")
	ph.AddIncoming(u32c(1), next)
	k.store(ph)
	if _, err := Run(k.finish(), nil, Options{}); !errors.Is(err, ErrUndefined) {
		t.Errorf("bad phi: got %v", err)
	}
	// A block without a terminator.
	k = newKit(ir.U32, 4)
	if _, err := Run(k.m, nil, Options{}); !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "terminator") {
		t.Errorf("no terminator: got %v", err)
	}
	// Recursion is bounded.
	k = newKit(ir.U32, 4)
	rec := k.m.NewFunction("rec", ir.Void, nil, nil)
	rb := ir.NewBuilder(rec)
	rb.SetBlock(rec.NewBlock("entry"))
	rb.Call(rec, nil, "")
	rb.Ret(nil)
	k.b.Call(rec, nil, "")
	if _, err := runT(k.finish(), nil, Options{}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("recursion: got %v", err)
	}
}

func TestDefaults(t *testing.T) {
	t.Parallel()
	k := newKit(ir.U32, 100)
	k.store(k.wave("WaveGetLaneCount", ir.U32))
	res := k.run(t, nil, Options{})
	b := res.Buffer("Out")
	if b.Count != 100 {
		t.Errorf("default count %d, want max(64, 100)", b.Count)
	}
	if res.WaveSize != 32 || b.Cells[99] != 32 {
		t.Errorf("default wave size %d / %d", res.WaveSize, b.Cells[99])
	}
	if res.Policy != PolicyMaximal || res.Stage != ir.StageCompute || res.Entry != "main" {
		t.Errorf("result header %+v", res)
	}
}

func TestParsePolicy(t *testing.T) {
	t.Parallel()
	for _, p := range Policies() {
		q, err := ParsePolicy(p.String())
		if err != nil || q != p {
			t.Errorf("%s: %v %v", p, q, err)
		}
	}
	if _, err := ParsePolicy("nope"); err == nil {
		t.Error("ParsePolicy accepted nope")
	}
}

func TestParseInput(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("testdata", "switch42.json"))
	if err != nil {
		t.Fatal(err)
	}
	in, err := ParseInput(data)
	if err != nil {
		t.Fatal(err)
	}
	res, err := runT(switch42Module(), in, Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	if got := outU32(t, res, "value", 4); !eqU32(got, []uint32{42, 42, 40, 40}) {
		t.Errorf("got %v", got)
	}
	for _, tc := range []struct{ text, want string }{
		{"{\n  \"dispatch\": [1,\n  }", "input:3:3"},
		{`{"buffer": []}`, "unknown field"},
		{`{"dispatch": "x"}`, "input:1:"},
		{`{} {}`, "trailing"},
	} {
		if _, err := ParseInput([]byte(tc.text)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.text, err, tc.want)
		}
	}
}

// TestJSONValues: exact float round trip through the JSON input and
// output formats, including NaN payloads, infinities and -0.
func TestJSONValues(t *testing.T) {
	t.Parallel()
	k := newKit(ir.F32, 1)
	k.finish()
	data := `{"buffers": [{"name": "Out", "data": [0.1, 3.4028235e+38, 1e-45, "nan", "-inf", "0x80000000", "0x7FC00001", 16777217, -2.5]}]}`
	in, err := ParseInput([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	res, err := runT(k.m, in, Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	b := res.Buffer("Out")
	if b.Count != 9 {
		t.Fatalf("count %d", b.Count)
	}
	want := []uint64{f32bits(0.1), 0x7F7FFFFF, 1, 0x7FC00000, 0xFF800000, 0x80000000, 0x7FC00001, f32bits(16777216), f32bits(-2.5)}
	if !eqCells(b.Cells, want) {
		t.Fatalf("cells %#x, want %#x", b.Cells, want)
	}
	out, err := res.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"data":[0.1,3.4028235e+38,1e-45,"0x7FC00000","0xFF800000","0x80000000","0x7FC00001",1.6777216e+07,-2.5]`) {
		t.Errorf("json: %s", out)
	}
	// Feeding the output data back gives the same bits.
	start := strings.Index(string(out), `"data":`) + len(`"data":`)
	end := strings.Index(string(out[start:]), "]") + start + 1
	in2, err := ParseInput([]byte(`{"buffers": [{"name": "Out", "data": ` + string(out[start:end]) + `}]}`))
	if err != nil {
		t.Fatal(err)
	}
	res2, err := runT(k.m, in2, Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	if ok, diff := res.Equal(res2); !ok {
		t.Errorf("round trip: %s", diff)
	}
}

// TestResultJSONGolden pins the JSON output shape (docs/run.md).
func TestResultJSONGolden(t *testing.T) {
	t.Parallel()
	res, err := runT(switch42Module(), switch42Input(), Options{WaveSize: 4, Trace: true})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := res.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "switch42.out.json")
	golden.Check(t, path, buf.Bytes())
	// Pixel results have targets and lanes.
	res, err = runT(pixelModule(), &Input{Rect: &Rect{Width: 2, Height: 1}}, Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := res.MarshalJSON()
	for _, s := range []string{`"targets":[{"name":"target","semantic":"SV_Target0","type":"<4 x f32>","width":2,"height":1,"rows":[[[0.0,0.5,0.0,0.0],[0.0,0.5,0.0,0.0]]]}`, `"lanes":[{"index":0,"pixel":[0,0]`} {
		if !strings.Contains(string(out), s) {
			t.Errorf("pixel JSON lacks %s:\n%s", s, out)
		}
	}
}

func TestEqual(t *testing.T) {
	t.Parallel()
	a, err := runT(switch42Module(), switch42Input(), Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	b, err := runT(switch42LoweredModule(), switch42Input(), Options{WaveSize: 4, Policy: PolicySwitchSeparate})
	if err != nil {
		t.Fatal(err)
	}
	if ok, diff := a.Equal(b); !ok {
		t.Errorf("original (maximal) and lowered (switch-separate) differ: %s", diff)
	}
	c, err := runT(switch42Module(), switch42Input(), Options{WaveSize: 4, Policy: PolicySwitchSeparate})
	if err != nil {
		t.Fatal(err)
	}
	ok, diff := a.Equal(c)
	if ok || diff != "buffer value element 0: 42 vs 22" {
		t.Errorf("Equal = %v, %q", ok, diff)
	}
	// Pixel results compare targets.
	p1, _ := runT(pixelModule(), &Input{Uniforms: map[string]any{"scale": 1}}, Options{WaveSize: 4})
	p2, _ := runT(pixelModule(), &Input{Uniforms: map[string]any{"scale": 2}}, Options{WaveSize: 4})
	if ok, diff := p1.Equal(p2); ok || !strings.HasPrefix(diff, "render target SV_Target0 pixel (0,0): <0.5, 0.5, 0.0, 0.0> vs <1.0, 0.5") {
		t.Errorf("pixel Equal = %v, %q", ok, diff)
	}
	if ok, _ := p1.Equal(p1); !ok {
		t.Error("result differs from itself")
	}
}

// TestTailBuffer: a storage struct ending in a runtime-sized array
// (ByteAddressBuffer-like) is one element whose array length comes from
// the input.
func TestTailBuffer(t *testing.T) {
	t.Parallel()
	k := newKit(ir.U32, 4)
	bt := ir.Struct("Buf", []ir.Field{{Name: "count", Type: ir.U32}, {Name: "data", Type: ir.Array(ir.F32, -1)}})
	k.m.AddStruct(bt)
	g := ir.NewGlobal("buf", ir.SpaceStorage, bt)
	g.Binding = 3
	k.m.AddGlobal(g)
	e := k.b.Access(g, []ir.Value{i32c(1), k.tid}, "")
	k.b.Store(k.b.Binary(ir.OpFMul, k.b.Load(e, ""), f32c(2), ""), e)
	k.b.Atomic(ir.AtomicAdd, k.b.Access(g, []ir.Value{i32c(0)}, ""), u32c(1), nil, "")
	k.finish()
	for _, data := range []string{`[{"count": 10, "data": [1, 2, 3]}]`, `[10, 1, 2, 3]`} {
		in, err := ParseInput([]byte(`{"buffers": [{"name": "buf", "data": ` + data + `}]}`))
		if err != nil {
			t.Fatal(err)
		}
		res, err := runT(k.m, in, Options{WaveSize: 4})
		if err != nil {
			t.Fatal(err)
		}
		b := res.Buffer("buf")
		if b.Count != 1 || b.Tail != 3 {
			t.Fatalf("%s: count %d tail %d, want 1 and 3", data, b.Count, b.Tail)
		}
		// Lane 3 writes past the tail: dropped.
		if got, want := FormatValue(b.Elem, b.Element(0)), "{14, [2.0, 4.0, 6.0]}"; got != want {
			t.Errorf("%s: got %s, want %s", data, got, want)
		}
		out, _ := res.MarshalJSON()
		if !strings.Contains(string(out), `"count":1,"tail":3,"data":[{"count":14,"data":[2.0,4.0,6.0]}]`) {
			t.Errorf("json: %s", out)
		}
	}
}

func TestMemoryLimit(t *testing.T) {
	t.Parallel()
	k := newKit(ir.U32, 64)
	p := k.b.Alloca(ir.Array(ir.U32, 1<<20), "big") // 64 lanes x 1M cells
	k.b.Store(u32c(1), k.b.Access(p, []ir.Value{k.tid}, ""))
	_, err := runT(k.finish(), nil, Options{})
	if !errors.Is(err, ErrMemoryLimit) {
		t.Fatalf("got %v, want ErrMemoryLimit", err)
	}
	_, err = runT(pixelModule(), &Input{Pixels: [][2]int{{16000, 16000}}}, Options{})
	if !errors.Is(err, ErrMemoryLimit) {
		t.Fatalf("got %v, want ErrMemoryLimit", err)
	}
}
