package interp

import (
	"testing"

	"passlens/compiler/ir"
)

func global(m *ir.Module, name string, space ir.AddrSpace, t *ir.Type, sem string) *ir.Global {
	g := ir.NewGlobal(name, space, t)
	g.Semantic = sem
	m.AddGlobal(g)
	return g
}

// pixelModule: SV_Target0 = <pos.x * scale, pos.y, uv.x, uv.y>, SV_Target1
// = the number of live lanes of the wave; pixel (1, 2) is discarded.
func pixelModule() *ir.Module {
	m := ir.NewModule("pixel")
	v4, v2 := ir.Vec(ir.F32, 4), ir.Vec(ir.F32, 2)
	colors := ir.Struct("Colors", []ir.Field{{Name: "tint", Type: v4}, {Name: "scale", Type: ir.F32}})
	m.AddStruct(colors)
	pos := global(m, "pos", ir.SpaceInput, v4, "SV_Position")
	uv := global(m, "uv", ir.SpaceInput, v2, "TEXCOORD0")
	cb := global(m, "Colors", ir.SpaceUniform, colors, "")
	cb.Kind, cb.Binding = "cbuffer", 0
	target := global(m, "target", ir.SpaceOutput, v4, "SV_Target0")
	count := global(m, "count", ir.SpaceOutput, ir.U32, "SV_Target1")
	f := m.NewFunction("main", ir.Void, nil, nil)
	f.Entry = &ir.EntryPoint{Stage: ir.StagePixel}
	b := ir.NewBuilder(f)
	entry := f.NewBlock("entry")
	kill := f.NewBlock("kill")
	cont := f.NewBlock("cont")
	b.SetBlock(entry)
	p := b.Load(pos, "pos")
	t := b.Load(uv, "uv")
	px := b.ExtractValue(p, []int{0}, "px")
	py := b.ExtractValue(p, []int{1}, "py")
	c := b.Binary(ir.OpAnd, b.Cmp(ir.PredOEQ, px, f32c(1.5), ""), b.Cmp(ir.PredOEQ, py, f32c(2.5), ""), "")
	b.CondBr(c, kill, cont)
	b.SetBlock(kill)
	b.Discard()
	b.SetBlock(cont)
	scale := b.Load(b.Access(cb, []ir.Value{i32c(1)}, ""), "scale")
	out := b.Construct(v4, []ir.Value{b.Binary(ir.OpFMul, px, scale, ""), py,
		b.ExtractValue(t, []int{0}, ""), b.ExtractValue(t, []int{1}, "")}, "out")
	b.Store(out, target)
	b.Store(b.Intrinsic("WaveActiveCountBits", ir.U32, []ir.Value{ir.ConstBool(ir.Bool, true)}, ""), count)
	b.Ret(nil)
	return m
}

func TestPixelShader(t *testing.T) {
	t.Parallel()
	in := &Input{
		Rect:     &Rect{Width: 4, Height: 4},
		Uniforms: map[string]any{"scale": 2},
		Inputs:   map[string]LaneInput{"TEXCOORD0": {Corners: []any{[]any{0, 0}, []any{1, 0}, []any{0, 1}, []any{1, 1}}}},
	}
	res, err := runT(pixelModule(), in, Options{WaveSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	tg := res.Target("SV_Target0")
	cnt := res.Target("SV_Target1")
	if tg == nil || cnt == nil || tg.Width != 4 || tg.Height != 4 {
		t.Fatalf("targets %+v", res.Targets)
	}
	for y := 0; y < 4; y++ {
		for x := 0; x < 4; x++ {
			if x == 1 && y == 2 {
				if tg.Written[y*4+x] || !res.Lanes[y*4+x].Killed {
					t.Errorf("pixel (1,2) should be discarded")
				}
				continue
			}
			fx, fy := float32(x)+0.5, float32(y)+0.5
			want := f32s(fx*2, fy, fx/4, fy/4)
			if got := tg.Pixel(x, y); !eqCells(got, want) {
				t.Errorf("pixel (%d,%d): got %s, want %s", x, y, FormatValue(tg.Elem, got), FormatValue(tg.Elem, want))
			}
			// Pixels 0-7 form wave 0 (8 live lanes), 8-15 wave 1 (7).
			n := uint64(8)
			if y >= 2 {
				n = 7
			}
			if got := cnt.Pixel(x, y)[0]; got != n {
				t.Errorf("pixel (%d,%d): wave count %d, want %d", x, y, got, n)
			}
		}
	}
}

func eqCells(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestPixelList shades an explicit pixel list with a per-lane input.
func TestPixelList(t *testing.T) {
	t.Parallel()
	in := &Input{
		Pixels:   [][2]int{{3, 0}, {0, 1}},
		Uniforms: map[string]any{"Colors.scale": 1, "Colors.tint": []any{1, 1, 1, 1}},
		Inputs:   map[string]LaneInput{"TEXCOORD0": {PerLane: []any{[]any{0.25, 0.5}, []any{"nan", "-inf"}}}},
	}
	res, err := runT(pixelModule(), in, Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	tg := res.Target("SV_Target0")
	if tg.Width != 4 || tg.Height != 2 {
		t.Fatalf("target size %dx%d, want 4x2", tg.Width, tg.Height)
	}
	if got, want := tg.Pixel(3, 0), f32s(3.5, 0.5, 0.25, 0.5); !eqCells(got, want) {
		t.Errorf("pixel (3,0): %s", FormatValue(tg.Elem, got))
	}
	if got := tg.Pixel(0, 1); got[2] != 0x7FC00000 || got[3] != 0xFF800000 {
		t.Errorf("pixel (0,1): %s", FormatValue(tg.Elem, got))
	}
	if tg.Written[0] {
		t.Errorf("pixel (0,0) was not shaded")
	}
}

// vertexModule transforms POSITION by a row-major matrix from a cbuffer
// (row vector times matrix) and passes COLOR0 and SV_VertexID through.
func vertexModule() *ir.Module {
	m := ir.NewModule("vertex")
	v3, v4 := ir.Vec(ir.F32, 3), ir.Vec(ir.F32, 4)
	m44 := ir.Mat(ir.F32, 4, 4)
	xf := ir.Struct("Transform", []ir.Field{{Name: "worldViewProj", Type: m44}})
	m.AddStruct(xf)
	pos := global(m, "position", ir.SpaceInput, v3, "POSITION")
	col := global(m, "color", ir.SpaceInput, v4, "COLOR0")
	vid := global(m, "vid", ir.SpaceInput, ir.U32, "SV_VertexID")
	cb := global(m, "Transform", ir.SpaceUniform, xf, "")
	cb.Kind = "cbuffer"
	opos := global(m, "o.position", ir.SpaceOutput, v4, "SV_Position")
	ocol := global(m, "o.color", ir.SpaceOutput, v4, "COLOR0")
	f := m.NewFunction("main", ir.U32, nil, nil)
	f.Entry = &ir.EntryPoint{Stage: ir.StageVertex}
	b := ir.NewBuilder(f)
	b.SetBlock(f.NewBlock("entry"))
	p := b.Load(pos, "p")
	p4 := b.Construct(v4, []ir.Value{b.ExtractValue(p, []int{0}, ""), b.ExtractValue(p, []int{1}, ""),
		b.ExtractValue(p, []int{2}, ""), f32c(1)}, "p4")
	mat := b.Load(b.Access(cb, []ir.Value{i32c(0)}, ""), "m")
	b.Store(b.Intrinsic("mul", v4, []ir.Value{p4, mat}, "r"), opos)
	b.Store(b.Load(col, ""), ocol)
	b.Ret(b.Load(vid, ""))
	return m
}

func TestVertexShader(t *testing.T) {
	t.Parallel()
	in := &Input{
		Uniforms: map[string]any{"worldViewProj": []any{
			[]any{1, 0, 0, 0}, []any{0, 1, 0, 0}, []any{0, 0, 1, 0}, []any{10, 20, 30, 1}}},
		Vertices: []map[string]any{
			{"POSITION": []any{0, 0, 0}, "COLOR0": []any{1, 0, 0, 1}},
			{"POSITION": []any{1, 0, 0}, "COLOR0": []any{0, 1, 0, 1}},
			{"POSITION": []any{0, 1, 0}, "color0": []any{0, 0, 1, 1}},
		},
	}
	res, err := runT(vertexModule(), in, Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Lanes) != 3 {
		t.Fatalf("%d lanes, want 3", len(res.Lanes))
	}
	wantPos := [][]float32{{10, 20, 30, 1}, {11, 20, 30, 1}, {10, 21, 30, 1}}
	wantCol := [][]float32{{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}}
	for i, l := range res.Lanes {
		if len(l.Outputs) != 3 {
			t.Fatalf("vertex %d outputs %+v", i, l.Outputs)
		}
		if got := l.Outputs[0].Cells; !eqCells(got, f32s(wantPos[i]...)) {
			t.Errorf("vertex %d SV_Position %s", i, FormatValue(l.Outputs[0].Type, got))
		}
		if got := l.Outputs[1].Cells; !eqCells(got, f32s(wantCol[i]...)) {
			t.Errorf("vertex %d COLOR0 %s", i, FormatValue(l.Outputs[1].Type, got))
		}
		if ret := l.Outputs[2]; ret.Name != "return" || ret.Cells[0] != uint64(i) {
			t.Errorf("vertex %d return value %+v", i, ret)
		}
	}
}
