package interp

import (
	"os"
	"path/filepath"
	"testing"

	"passlens/compiler/ir"
	"passlens/compiler/llvm"
	"passlens/internal/testtool"
)

// TestByteLayout checks the byte layout byteaddr.go gives types against
// the amdgcn data layout's (what clang's offsetof and sizeof say for the
// same OpenCL types): sizes, field offsets with padding, vectors of three
// padded to four, and that offsets into padding or inside a scalar are
// refused.
func TestByteLayout(t *testing.T) {
	t.Parallel()
	v3 := ir.Vec(ir.F32, 3)
	s := ir.Struct("S", []ir.Field{{Name: "c", Type: ir.I8}, {Name: "v", Type: v3}, {Name: "h", Type: ir.I16}, {Name: "d", Type: ir.F64}})
	for _, c := range []struct {
		t    *ir.Type
		size int
	}{{ir.I8, 1}, {ir.Bool, 1}, {ir.F16, 2}, {ir.I64, 8}, {v3, 16}, {ir.Vec(ir.I16, 3), 8}, {s, 48}, {ir.Array(s, 2), 96}} {
		if got := llSize(c.t); got != c.size {
			t.Errorf("size of %s = %d, want %d", c.t, got, c.size)
		}
	}
	// S: c at 0, v at 16 (cells 1-3 at 16, 20, 24), h at 32, d at 40.
	for _, c := range []struct{ cell, byte int }{{0, 0}, {1, 16}, {2, 20}, {3, 24}, {4, 32}, {5, 40}, {6, 48}, {11, 88}} {
		a := ir.Array(s, -1)
		if got := byteOfCell(a, c.cell); got != c.byte {
			t.Errorf("byte of cell %d = %d, want %d", c.cell, got, c.byte)
		}
		if got, ok := cellAtByte(a, c.byte); !ok || got != c.cell {
			t.Errorf("cell at byte %d = %d %v, want %d", c.byte, got, ok, c.cell)
		}
	}
	for _, b := range []int{1, 8, 28, 34, 41, -4} { // padding, the fourth lane of v, inside d, negative
		if cell, ok := cellAtByte(s, b); ok {
			t.Errorf("byte %d of %s gave cell %d, want a refusal", b, s, cell)
		}
	}
}

// TestByteLayoutMatchesClang asks clang-22 for the same layout: an OpenCL
// kernel stores sizeof and offsetof of the struct of TestByteLayout, and
// the interpreter runs it.
func TestByteLayoutMatchesClang(t *testing.T) {
	t.Parallel()
	testtool.Require(t, "clang-22", "clang-22")
	cl := filepath.Join(t.TempDir(), "layout.cl")
	os.WriteFile(cl, []byte(`typedef struct { char c; float3 v; short h; double d; } S;
__kernel void layout(__global int *out) {
  out[0] = sizeof(S); out[1] = __builtin_offsetof(S, v); out[2] = __builtin_offsetof(S, h);
  out[3] = __builtin_offsetof(S, d); out[4] = sizeof(float3); out[5] = sizeof(short3);
}
`), 0o644)
	m, err := llvm.Import("layout.ll", compileCL(t, cl, nil))
	if err != nil {
		t.Fatal(err)
	}
	noteCoverage(m)
	arg := 0
	r, err := Run(m, &Input{WorkgroupSize: [3]int{1, 1, 1}, Buffers: []BufferInput{{Arg: &arg, Count: 6}}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	v3 := ir.Vec(ir.F32, 3)
	s := ir.Struct("S", []ir.Field{{Name: "c", Type: ir.I8}, {Name: "v", Type: v3}, {Name: "h", Type: ir.I16}, {Name: "d", Type: ir.F64}})
	a := ir.Array(s, -1)
	want := []int{llSize(s), byteOfCell(a, 1), byteOfCell(a, 4), byteOfCell(a, 5), llSize(v3), llSize(ir.Vec(ir.I16, 3))}
	b := r.Buffers[len(r.Buffers)-1]
	for i, w := range want {
		if got := int(int32(b.Element(i)[0])); got != w {
			t.Errorf("out[%d]: clang says %d, the interpreter's layout %d", i, got, w)
		}
	}
}
