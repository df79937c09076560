package spirv

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/interp/render"
	"passlens/compiler/ir"
	"passlens/compiler/load"
	"passlens/compiler/target/spirv/vkrun"
	"passlens/samples"
)

// The pictures of the lanes pane and `passlens run --png` against a real
// rasterizer: every embedded pixel sample that ships an input is drawn by
// the interpreter (render.Draw, the explorer's draw) and on lavapipe over
// the same viewport with the same uniforms and interpolated inputs (the
// draw of lavapipe_pixel_test.go), both converted to 8 bits by
// render.Convert, and compared pixel by pixel.

const pictureW, pictureH = 48, 32

// floatsOf flattens an input value (a number or nested lists) to floats.
func floatsOf(v any) ([]float64, error) {
	switch v := v.(type) {
	case json.Number:
		f, err := v.Float64()
		return []float64{f}, err
	case float64:
		return []float64{v}, nil
	case []any:
		var out []float64
		for _, x := range v {
			fs, err := floatsOf(x)
			if err != nil {
				return nil, err
			}
			out = append(out, fs...)
		}
		return out, nil
	}
	return nil, fmt.Errorf("value %v (%T) is not a number or a list", v, v)
}

// uniformCells returns the 32-bit bit pattern of every leaf of uniform g
// from the input (struct members as "g.member" or "member"), in leaf
// order; missing values are zero.
func uniformCells(g *ir.Global, in *interp.Input) ([]uint32, error) {
	leaves := leafScalars(g.ValType, nil)
	var vals []float64
	if g.ValType.Kind == ir.KStruct {
		for _, f := range g.ValType.Fields {
			v, ok := in.Uniforms[g.Name()+"."+f.Name]
			if !ok {
				v, ok = in.Uniforms[f.Name]
			}
			fs := make([]float64, len(leafScalars(f.Type, nil)))
			if ok {
				got, err := floatsOf(v)
				if err != nil {
					return nil, fmt.Errorf("%s.%s: %v", g.Name(), f.Name, err)
				}
				copy(fs, got)
			}
			vals = append(vals, fs...)
		}
	} else if v, ok := in.Uniforms[g.Name()]; ok {
		got, err := floatsOf(v)
		if err != nil {
			return nil, err
		}
		vals = got
	}
	out := make([]uint32, len(leaves))
	for i, s := range leaves {
		if i >= len(vals) {
			break
		}
		if s.Kind == ir.KFloat {
			out[i] = math.Float32bits(float32(vals[i]))
		} else {
			out[i] = uint32(int64(vals[i]))
		}
	}
	return out, nil
}

// pictureCorners sets the plan's varyings from the input's corners (or the
// full-screen quad's texture coordinate render.Draw gives a TEXCOORD
// without input); "" when every varying could be set.
func pictureCorners(p pixelPlan, in *interp.Input) string {
	for _, v := range p.varyings {
		var li *interp.LaneInput
		for k, x := range in.Inputs {
			if strings.EqualFold(k, v.g.Semantic) || k == v.g.Name() {
				li = &x
			}
		}
		for k := range v.corners {
			v.corners[k] = nil
		}
		switch {
		case v.value != nil:
			return "integer varying " + v.g.Semantic
		case li == nil && strings.HasPrefix(strings.ToUpper(v.g.Semantic), "TEXCOORD"):
			for k, uv := range [4][2]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
				for c := 0; c < v.g.ValType.Lanes(); c++ {
					x := 0.0
					if c < 2 {
						x = uv[c]
					}
					v.corners[k] = append(v.corners[k], x)
				}
			}
		case li != nil && li.Corners != nil:
			for k := range 4 {
				fs, err := floatsOf(li.Corners[k])
				if err != nil || len(fs) != v.g.ValType.Lanes() {
					return fmt.Sprintf("corner %d of %s: %v", k, v.g.Semantic, li.Corners[k])
				}
				v.corners[k] = fs
			}
		default:
			return "varying " + v.g.Semantic + " not given by corners"
		}
	}
	return ""
}

func TestLavapipePicture(t *testing.T) {
	t.Parallel()
	needDevice(t)
	drawn := 0
	for _, s := range samples.All() {
		if !strings.HasSuffix(s.File, ".hlsl") || s.Input == nil {
			continue
		}
		m, _, err := load.File("samples/"+s.Name, load.Options{})
		if err != nil || len(m.EntryPoints()) != 1 || m.EntryPoints()[0].Entry.Stage != ir.StagePixel {
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			in, err := interp.ParseInput(s.Input)
			if err != nil {
				t.Fatal(err)
			}
			if err := runSpirvPipeline(m); err != nil {
				t.Fatal(err)
			}
			p := planPixel(m)
			if p.skip == "" {
				p.skip = pictureCorners(p, in)
			}
			if p.skip != "" {
				t.Skipf("cannot be drawn on lavapipe here: %s", p.skip)
			}
			res, err := render.Draw(context.Background(), m, in, interp.Options{}, pictureW, pictureH)
			if err != nil {
				t.Fatal(err)
			}
			want := render.Convert(res, pictureW, pictureH)
			drawn++

			binds := map[*ir.Global]Binding{}
			for _, b := range Bindings(m) {
				binds[b.Global] = b
			}
			job := vkrun.Job{Entry: p.entry.Name(), Draw: &vkrun.Draw{Vertex: vertexShader(t, p), VertexEntry: "main",
				Width: pictureW, Height: pictureH, Targets: p.targets}}
			for _, g := range m.Globals {
				if g.Space != ir.SpaceUniform {
					continue
				}
				l, err := typeLayout(g.ValType, ruleStd140)
				if err != nil {
					t.Fatal(err)
				}
				offs, err := leafOffsets(g.ValType, ruleStd140, 0, nil)
				if err != nil {
					t.Fatal(err)
				}
				cells, err := uniformCells(g, in)
				if err != nil {
					t.Fatal(err)
				}
				data := make([]byte, max(l.Size, 16))
				for k, off := range offs {
					binary.LittleEndian.PutUint32(data[off:], cells[k])
				}
				b := binds[g]
				job.Buffers = append(job.Buffers, vkrun.Buffer{Set: b.Set, Binding: b.Binding, ArrayElement: b.ArrayIndex, Uniform: true, Data: data})
			}
			if job.SPIRV, err = Assemble(m, Options{}); err != nil {
				t.Fatal(err)
			}
			got := devicePictures(t, job, res)
			exact, off1, distinct := 0, 0, map[[4]uint8]bool{}
			for i := range want {
				a, b := want[i].Image, got[i].Image
				for k := range a.Pix {
					switch d := int(a.Pix[k]) - int(b.Pix[k]); {
					case d == 0:
						exact++
					case d == 1 || d == -1:
						off1++
					default:
						x, y := k/4%pictureW, k/4/pictureW
						t.Fatalf("%s pixel (%d, %d) channel %d: interpreter %d, lavapipe %d", want[i].Semantic, x, y, k%4, a.Pix[k], b.Pix[k])
					}
				}
				for k := 0; k < len(a.Pix); k += 4 {
					distinct[[4]uint8(a.Pix[k:k+4])] = true
				}
			}
			if len(distinct) < 100 {
				t.Errorf("only %d distinct colours: the picture shows too little to compare", len(distinct))
			}
			// The negative control: the first uniform value changed on the
			// device only must show.
			if len(job.Buffers) > 0 {
				orig := job.Buffers[0].Data
				data := append([]byte(nil), orig...)
				binary.LittleEndian.PutUint32(data, math.Float32bits(math.Float32frombits(binary.LittleEndian.Uint32(data))+0.5))
				job.Buffers[0].Data = data
				bad := devicePictures(t, job, res)
				job.Buffers[0].Data = orig
				if string(bad[0].Image.Pix) == string(want[0].Image.Pix) {
					t.Error("a changed uniform on the device went unnoticed")
				}
			}
			t.Logf("%dx%d: %d channels equal, %d differ by one (rounding of float results that differ in the last bits); %d colours", pictureW, pictureH, exact, off1, len(distinct))
		})
	}
	if drawn == 0 {
		t.Error("no pixel sample with an input was drawn")
	}
}

// devicePictures draws job on lavapipe and converts its targets like the
// interpreter's (res gives their types and which pixels were written).
func devicePictures(t *testing.T, job vkrun.Job, res *interp.Result) []render.Picture {
	t.Helper()
	_, pix, err := vkrun.RunDraw(job)
	if err != nil {
		t.Fatal(err)
	}
	dev := &interp.Result{}
	for _, tg := range res.Targets {
		n, _ := strings.CutPrefix(strings.ToUpper(tg.Semantic), "SV_TARGET")
		loc := 0
		fmt.Sscan(n, &loc)
		lanes := tg.Elem.Lanes()
		d := interp.Target{Name: tg.Name, Semantic: tg.Semantic, Elem: tg.Elem, Width: tg.Width, Height: tg.Height, Written: tg.Written}
		for y := 0; y < tg.Height; y++ {
			for x := 0; x < tg.Width; x++ {
				for c := 0; c < lanes; c++ {
					d.Cells = append(d.Cells, uint64(pix[loc][(y*pictureW+x)*4+c]))
				}
			}
		}
		dev.Targets = append(dev.Targets, d)
	}
	return render.Convert(dev, pictureW, pictureH)
}
