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
			fc, ic := uniformsFromTable(out.Text, map[string]float32{"m": float32(mval)})
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
func uniformsFromTable(asm string, vals map[string]float32) (map[string]float32, map[string]int) {
	fc, ic := map[string]float32{}, map[string]int{}
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
			ic[f[1]] = int(v)
		}
	}
	return fc, ic
}
