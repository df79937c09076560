package sm3

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/target"
)

// TestEmulatorMatchesInterp runs the emitted assembly on the SM3 emulator
// and the IR on compiler/interp for several values of the uniform m, and
// compares the pixel's color.
func TestEmulatorMatchesInterp(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"sm3-loop-m.sm3.pir", "sm3-loop-mm.sm3.pir", "sm3-loop-m-uniform.sm3.pir"} {
		src, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		for _, mval := range []int{0, 1, 3, 7} {
			m, err := ir.ParseModule(name, src)
			if err != nil {
				t.Fatal(err)
			}
			out, err := target.Emit("sm3", m)
			if err != nil {
				t.Fatal(err)
			}
			m2, _ := ir.ParseModule(name, src)
			res, err := interp.Run(m2, &interp.Input{
				Uniforms: map[string]any{"m": mval},
				Pixels:   [][2]int{{0, 0}},
			}, interp.Options{WaveSize: 4})
			if err != nil {
				t.Fatalf("%s m=%d: interp: %v", name, mval, err)
			}
			tgt := res.Target("SV_Target0")
			if tgt == nil {
				t.Fatalf("%s: no SV_Target0 in the interp result", name)
			}
			var want [4]float32
			for i, c := range tgt.Pixel(0, 0) {
				want[i] = math.Float32frombits(uint32(c))
			}
			fc, ic := uniformsFromTable(out.Text, map[string][4]float32{"m": {float32(mval)}})
			got, killed, err := runPS(out.Text, fc, ic)
			if err != nil {
				t.Fatalf("%s m=%d: emulator: %v\n%s", name, mval, err, out.Text)
			}
			if killed || got != want {
				t.Errorf("%s m=%d: emulator %v (killed %v), interp %v\n%s", name, mval, got, killed, want, out.Text)
			}
		}
	}
}

// uniformsFromTable binds uniform values to the registers the header's
// register table names ("// m c0 1" or "// m i0 1").
func uniformsFromTable(asm string, vals map[string][4]float32) (map[string][4]float32, map[string]int) {
	fc, ic := map[string][4]float32{}, map[string]int{}
	for _, l := range strings.Split(asm, "\n") {
		f := strings.Fields(strings.TrimPrefix(l, "//"))
		if !strings.HasPrefix(l, "//") || len(f) != 3 {
			continue
		}
		v, ok := vals[f[0]]
		if _, err := strconv.Atoi(f[2]); !ok || err != nil {
			continue
		}
		switch f[1][0] {
		case 'c':
			fc[f[1]] = v
		case 'i':
			ic[f[1]] = int(v[0])
		}
	}
	return fc, ic
}

// Vector uniforms: the color of add-mul.hlsl, (x+y) + x*y componentwise.
func TestEmulatorMatchesInterpVectors(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(filepath.Join("testdata", "add-mul.sm3.pir"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := ir.ParseModule("add-mul", src)
	if err != nil {
		t.Fatal(err)
	}
	out, err := target.Emit("sm3", m)
	if err != nil {
		t.Fatal(err)
	}
	x, y := [4]float32{1, -2, 0.5, 3}, [4]float32{4, 0.25, -1, 2}
	m2, _ := ir.ParseModule("add-mul", src)
	res, err := interp.Run(m2, &interp.Input{
		Uniforms: map[string]any{"x": x[:], "y": y[:]},
		Pixels:   [][2]int{{0, 0}},
	}, interp.Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	var want [4]float32
	for i, c := range res.Target("SV_Target0").Pixel(0, 0) {
		want[i] = math.Float32frombits(uint32(c))
	}
	fc, ic := uniformsFromTable(out.Text, map[string][4]float32{"x": x, "y": y})
	got, _, err := runPS(out.Text, fc, ic)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("emulator %v, interp %v\n%s", got, want, out.Text)
	}
}

// if/else nesting, an equality compare and discard (texkill): the emulator's
// color and kill flag agree with the interpreter for every branch.
func TestEmulatorMatchesInterpIfElseDiscard(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(filepath.Join("testdata", "ifelse.sm3.pir"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := ir.ParseModule("ifelse", src)
	if err != nil {
		t.Fatal(err)
	}
	out, err := target.Emit("sm3", m)
	if err != nil {
		t.Fatal(err)
	}
	for _, tv := range []float32{0.25, 1, 3, 5} {
		m2, _ := ir.ParseModule("ifelse", src)
		res, err := interp.Run(m2, &interp.Input{
			Uniforms: map[string]any{"t": tv},
			Pixels:   [][2]int{{0, 0}},
		}, interp.Options{WaveSize: 4})
		if err != nil {
			t.Fatal(err)
		}
		tgt := res.Target("SV_Target0")
		wantKilled := !tgt.Written[0]
		var want [4]float32
		for i, c := range tgt.Pixel(0, 0) {
			want[i] = math.Float32frombits(uint32(c))
		}
		fc, ic := uniformsFromTable(out.Text, map[string][4]float32{"t": {tv}})
		got, killed, err := runPS(out.Text, fc, ic)
		if err != nil {
			t.Fatal(err)
		}
		if (tv > 4) != killed {
			t.Errorf("t=%v: emulator killed=%v, want %v", tv, killed, tv > 4)
		}
		if killed != wantKilled || (!killed && got != want) {
			t.Errorf("t=%v: emulator %v killed=%v, interp %v killed=%v\n%s", tv, got, killed, want, wantKilled, out.Text)
		}
	}
}

// samples/pixel.hlsl (floor, fmod, lerp, saturate, discard, vPos and a
// texcoord input) and samples/cos-sin.hlsl (sincos): the emulator agrees
// with the interpreter to within float rounding.
func TestEmulatorMatchesInterpSamples(t *testing.T) {
	t.Parallel()
	type run struct {
		uniforms map[string]any
		regs     map[string][4]float32 // table names -> values for the emulator
		pixel    [2]int
		uv       []float32
	}
	cases := []struct {
		file string
		runs []run
	}{
		{"pixel.sm3.pir", []run{
			{map[string]any{"tint": []float32{1, 0.5, 0.25, 1}, "scale": float32(2)},
				map[string][4]float32{"tint": {1, 0.5, 0.25, 1}, "scale": {2}}, [2]int{3, 5}, []float32{0.3, 0.2}},
			{map[string]any{"tint": []float32{1, 0.5, 0.25, 1}, "scale": float32(2)},
				map[string][4]float32{"tint": {1, 0.5, 0.25, 1}, "scale": {2}}, [2]int{2, 5}, []float32{0.3, 0.9}},
			{map[string]any{"tint": []float32{1, 0.5, 0.25, 1}, "scale": float32(3)},
				map[string][4]float32{"tint": {1, 0.5, 0.25, 1}, "scale": {3}}, [2]int{1, 1}, []float32{-0.5, 0.2}},
		}},
		// A loop with if/else and a break under an if (built from a
		// for loop with "if (s > lim) break;").
		{"break.sm3.pir", []run{
			{map[string]any{"lim": float32(4)}, map[string][4]float32{"lim": {4}}, [2]int{0, 0}, nil},
			{map[string]any{"lim": float32(100)}, map[string][4]float32{"lim": {100}}, [2]int{0, 0}, nil},
			{map[string]any{"lim": float32(-1)}, map[string][4]float32{"lim": {-1}}, [2]int{0, 0}, nil},
		}},
		{"cos-sin.sm3.pir", []run{
			{map[string]any{"a": []float32{0, 1, -2, 3.5}}, map[string][4]float32{"a": {0, 1, -2, 3.5}}, [2]int{0, 0}, nil},
		}},
	}
	for _, c := range cases {
		src, err := os.ReadFile(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		m, err := ir.ParseModule(c.file, src)
		if err != nil {
			t.Fatal(err)
		}
		out, err := target.Emit("sm3", m)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range c.runs {
			m2, _ := ir.ParseModule(c.file, src)
			in := &interp.Input{Uniforms: r.uniforms, Pixels: [][2]int{r.pixel}}
			if r.uv != nil {
				in.Inputs = map[string]interp.LaneInput{"TEXCOORD0": {Value: r.uv}}
			}
			res, err := interp.Run(m2, in, interp.Options{WaveSize: 4})
			if err != nil {
				t.Fatalf("%s: interp: %v", c.file, err)
			}
			tgt := res.Target("SV_Target0")
			wantKilled := !tgt.Written[r.pixel[1]*tgt.Width+r.pixel[0]]
			var want [4]float32
			for i, cell := range tgt.Pixel(r.pixel[0], r.pixel[1]) {
				want[i] = math.Float32frombits(uint32(cell))
			}
			fc, ic := uniformsFromTable(out.Text, r.regs)
			fc["vPos"] = [4]float32{float32(r.pixel[0]), float32(r.pixel[1])} // D3D9: centres at integers
			if r.uv != nil {
				fc["v0"] = [4]float32{r.uv[0], r.uv[1]}
			}
			got, killed, err := runPS(out.Text, fc, ic)
			if err != nil {
				t.Fatalf("%s: emulator: %v", c.file, err)
			}
			if shouldKill := r.uv != nil && r.uv[0] < 0; killed != shouldKill {
				t.Errorf("%s %+v: killed %v, want %v (uv.x < 0 discards)", c.file, r, killed, shouldKill)
			}
			if killed != wantKilled {
				t.Errorf("%s %+v: killed %v, interp %v", c.file, r, killed, wantKilled)
				continue
			}
			for i := range got {
				if !killed && math.Abs(float64(got[i]-want[i])) > 1e-5 {
					t.Errorf("%s %+v: emulator %v, interp %v\n%s", c.file, r, got, want, out.Text)
					break
				}
			}
		}
	}
}
