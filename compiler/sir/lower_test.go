package sir

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"passlens/compiler/ir"
)

// The testdata/*.sm3.pir files are samples/*.hlsl after the default "sm3"
// pipeline (passlens compile --target pir --passes <sm3 pipeline>), so this
// test does not depend on the HLSL front end.
func loadPIR(t *testing.T, name string) *ir.Function {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	m, err := ir.ParseModule(name, src)
	if err != nil {
		t.Fatal(err)
	}
	eps := m.EntryPoints()
	if len(eps) != 1 {
		t.Fatalf("%s: %d entry points", name, len(eps))
	}
	return eps[0]
}

func TestLowerSM3Samples(t *testing.T) {
	for _, name := range []string{"sm3-loop-m.sm3.pir", "sm3-loop-mm.sm3.pir", "pixel.sm3.pir"} {
		t.Run(name, func(t *testing.T) {
			fn := loadPIR(t, name)
			f, err := Lower(fn, 8)
			if err != nil {
				t.Fatal(err)
			}
			if err := Validate(f); err != nil {
				t.Fatalf("lowered SIR is invalid: %v\n%s", err, f)
			}
			n0 := countInstrs(f)
			Optimize(f)
			if err := Validate(f); err != nil {
				t.Fatalf("optimized SIR is invalid: %v\n%s", err, f)
			}
			if n := countInstrs(f); n >= n0 {
				t.Errorf("Optimize did not shrink the function (%d -> %d instructions)\n%s", n0, n, f)
			}
			if p, _ := Pressure(f); p <= 0 {
				t.Errorf("Pressure = %d", p)
			}
			t.Logf("%d -> %d instructions\n%s", n0, countInstrs(f), f)
		})
	}
}

// The loop sample keeps its shape: the uniform m is a uniform const
// register, the result is written to the output's four components, and
// the loop is a back edge to for.cond.
func TestLowerLoopShape(t *testing.T) {
	f, err := Lower(loadPIR(t, "sm3-loop-m.sm3.pir"), 8)
	if err != nil {
		t.Fatal(err)
	}
	Optimize(f)
	text := f.String()
	for _, want := range []string{
		"reg %m 32x1 simd1@0 const",
		`reg %"out.SV_Target0" 32x4 simd8@0 output`,
		`mov %"out.SV_Target0".w,`,
		`br "for.cond"`,
		"brc ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
}

func countInstrs(f *Func) int {
	n := 0
	for _, b := range f.Blocks {
		n += len(b.Instrs)
	}
	return n
}

// Unsupported constructs are errors naming the construct, not panics.
func TestLowerRejectsUnsupportedIntrinsic(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "pixel.sm3.pir"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := ir.ParseModule("pixel", []byte(strings.ReplaceAll(string(src), "fmod", "ldexp")))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Lower(m.EntryPoints()[0], 8)
	if err == nil || !strings.Contains(err.Error(), "intrinsic ldexp is not supported") {
		t.Fatalf("err = %v, want the ldexp rejection", err)
	}
}

// samples/vertex.hlsl after the sm3 pipeline: the row_major float4x4 in its
// cbuffer becomes one const register array of 4 slots (one per row) of 4
// components, and each scalar load of row r, column c reads slot r through
// swizzle c — what the IR's access path says.
func TestLowerMatrixUniform(t *testing.T) {
	fn := loadPIR(t, "vertex.sm3.pir")
	f, err := Lower(fn, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(f); err != nil {
		t.Fatal(err)
	}
	var m *Reg
	for _, r := range f.Regs {
		if r.File == FileConst {
			if m != nil {
				t.Fatalf("two const registers %s and %s; want one for the matrix", m.Name, r.Name)
			}
			m = r
		}
	}
	if m == nil || m.Name != "worldViewProj" || m.Elems != 4 || m.Comps != 4 || m.Group.Width != 1 {
		t.Fatalf("matrix register %+v; want worldViewProj, 4 slots of 4 components, uniform", m)
	}
	// IR: %worldViewProj.1.<row>.<col> = load of access @Transform, 0, row, col.
	reads := 0
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op != OpMov || len(in.Srcs) != 1 || in.Srcs[0].Reg != m {
				continue
			}
			var row, col int
			var comp byte
			if _, err := fmt.Sscanf(in.Dst.Reg.Name, "worldViewProj.1.%d.%c", &row, &comp); err != nil {
				t.Fatalf("unexpected destination %s", in.Dst.Reg.Name)
			}
			col = strings.IndexByte("xyzw", comp)
			if s := in.Srcs[0]; s.Elem != row || s.Comp(0) != col {
				t.Errorf("%s reads slot %d component %d; want %d, %d", in, s.Elem, s.Comp(0), row, col)
			}
			reads++
		}
	}
	if reads != 16 {
		t.Errorf("%d matrix reads, want 16", reads)
	}
}
