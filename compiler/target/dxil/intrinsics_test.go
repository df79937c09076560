package dxil

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/load"
	"passlens/compiler/pipeline"
)

// allIntrinsicsInput feeds testdata/all-intrinsics.hlsl: 16 float4 inputs
// mixing signs, magnitudes, zeros and integers, one workgroup of 8 lanes.
func allIntrinsicsInput() *interp.Input {
	vals := []any{}
	for i := 0; i < 16; i++ {
		for c := 0; c < 4; c++ {
			k := float64(i*4 + c)
			v := math.Sin(k*1.7)*float64(1+i%5) + float64(c%2)*0.5
			if (i+c)%7 == 3 {
				v = 0
			}
			if (i+c)%11 == 5 {
				v = math.Round(v * 3)
			}
			vals = append(vals, v)
		}
	}
	return &interp.Input{Dispatch: [3]int{1, 1, 1}, Buffers: []interp.BufferInput{
		{Name: "In", Data: vals},
		{Name: "OutF", Count: 8}, {Name: "OutI", Count: 8}, {Name: "OutU", Count: 8},
		{Name: "Counter", Count: 8},
	}}
}

func loadHLSL(t *testing.T, path string) *ir.Module {
	t.Helper()
	m, _, err := load.File(path, load.Options{})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

func runInterp(t *testing.T, m *ir.Module, in *interp.Input) *interp.Result {
	t.Helper()
	r, err := interp.Run(m, in, interp.Options{WaveSize: 8})
	if err != nil {
		t.Fatalf("interpreter: %v", err)
	}
	return r
}

// runSpec runs pipeline spec over m (verifying after each pass).
func runSpec(t *testing.T, m *ir.Module, spec string) {
	t.Helper()
	sp, err := pipeline.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	res := pipeline.Run(context.Background(), m, sp, pipeline.Options{Target: "dxil", VerifyEach: true})
	if res.Err != nil {
		t.Fatalf("pipeline %s: %v", spec, res.Err)
	}
}

// TestAllIntrinsicsDifferential runs the every-intrinsic shader through the
// dxil pipeline: the interpreter's results after the pipeline must be
// bit-identical to the results before (the scalarize expansions perform
// the interpreter's operations in its order), no vector value or vector
// intrinsic may remain in the IR, and the emitted text must pass
// llvm-as-22 and opt-22 -passes=verify with no vector type in it. It runs
// twice: with the default pipeline (helpers inlined) and without inline,
// so the helpers' vector signatures go through scalarize's flattening and
// the calls are executed by the interpreter.
func TestAllIntrinsicsDifferential(t *testing.T) {
	const src = "testdata/all-intrinsics.hlsl"
	in := allIntrinsicsInput()
	want := runInterp(t, loadHLSL(t, src), in)
	for _, spec := range []string{"inline,sroa,simplify,scalarize,simplify", "sroa,simplify,scalarize,simplify"} {
		t.Run(spec, func(t *testing.T) {
			m := loadHLSL(t, src)
			runSpec(t, m, spec)
			checkNoVectorValues(t, m)
			got := runInterp(t, m, in)
			if ok, diff := want.Equal(got); !ok {
				t.Errorf("results differ after %s: %s", spec, diff)
			}
			out, err := Emit(m)
			if err != nil {
				t.Fatalf("emit: %v", err)
			}
			checkScalar(t, "all-intrinsics", out.Text)
			checkLLVM(t, "all-intrinsics", out.Text)
			for _, w := range []string{"@dx.op.unary.f32(i32 13,", "@dx.op.binary.i32(i32 37,", "@dx.op.waveActiveOp.i32(i32 119,", "@dx.op.barrier(i32 80, i32 11)"} {
				if !strings.Contains(out.Text, w) {
					t.Errorf("no %q in the output", w)
				}
			}
			if strings.Contains(spec, "inline") {
				return
			}
			for _, w := range []*regexp.Regexp{
				regexp.MustCompile(`define \{ float, float, float, float \} @mix4\(float %a\.x, float %a\.y, float %a\.z, float %a\.w, float %b\.x`),
				regexp.MustCompile(`call \{ float, float, float, float \} @mix4\(`),
			} {
				if !w.MatchString(out.Text) {
					t.Errorf("no match for %s in the output", w)
				}
			}
		})
	}
}

// checkNoVectorValues asserts that no instruction of m produces or takes a
// vector or matrix value and no function signature has one.
func checkNoVectorValues(t *testing.T, m *ir.Module) {
	t.Helper()
	n := 0
	for _, f := range m.Funcs {
		for _, p := range f.Params {
			if hasVector(p.Type()) && p.Type().Kind != ir.KPointer {
				t.Errorf("@%s: parameter %s: %s", f.Name(), p.Ref(), p.Type())
			}
		}
		if f.Ret != nil && hasVector(f.Ret) {
			t.Errorf("@%s returns %s", f.Name(), f.Ret)
		}
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				bad := in.HasResult() && in.Type().Kind != ir.KPointer && hasVector(in.Type())
				for _, a := range in.Args {
					bad = bad || a.Type().Kind != ir.KPointer && hasVector(a.Type())
				}
				if bad && n < 20 {
					t.Errorf("@%s: vector value left: %s", f.Name(), ir.InstrString(in))
					n++
				}
			}
		}
	}
	_ = fmt.Sprint
}
