package interp

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"passlens/compiler/llvm"
	"passlens/internal/testtool"
)

// TestLLVMIntrinsicsMatchOptFolding checks the interpreter's generic LLVM
// intrinsics against LLVM's own semantics: a kernel calls each intrinsic on
// constants and stores the result's bits; opt-22's instcombine folds every
// call to a constant; both modules run in the interpreter (float32
// denormals preserved, as LLVM folds) and must store the same bits.
func TestLLVMIntrinsicsMatchOptFolding(t *testing.T) {
	t.Parallel()
	testtool.Require(t, "opt-22", "llvm-22")
	cases := []struct{ ty, call string }{
		{"i32", "@llvm.smax.i32(i32 -5, i32 3)"},
		{"i32", "@llvm.smin.i32(i32 -5, i32 3)"},
		{"i32", "@llvm.umax.i32(i32 -5, i32 3)"},
		{"i32", "@llvm.umin.i32(i32 -5, i32 3)"},
		{"i64", "@llvm.smax.i64(i64 -5, i64 3)"},
		{"i16", "@llvm.umin.i16(i16 -5, i16 3)"},
		{"<2 x i32>", "@llvm.umin.v2i32(<2 x i32> <i32 -1, i32 7>, <2 x i32> <i32 5, i32 9>)"},
		{"<2 x i32>", "@llvm.smax.v2i32(<2 x i32> <i32 -1, i32 7>, <2 x i32> <i32 5, i32 -9>)"},
		{"i32", "@llvm.abs.i32(i32 -7, i1 false)"},
		{"i16", "@llvm.abs.i16(i16 -300, i1 false)"},
		{"i32", "@llvm.abs.i32(i32 -2147483648, i1 false)"},
		{"i32", "@llvm.ctpop.i32(i32 -252645135)"},
		{"i64", "@llvm.ctpop.i64(i64 -1)"},
		{"i32", "@llvm.ctlz.i32(i32 1, i1 false)"},
		{"i32", "@llvm.ctlz.i32(i32 0, i1 false)"},
		{"i16", "@llvm.ctlz.i16(i16 255, i1 false)"},
		{"i32", "@llvm.cttz.i32(i32 8, i1 false)"},
		{"i64", "@llvm.cttz.i64(i64 0, i1 false)"},
		{"i32", "@llvm.bitreverse.i32(i32 1)"},
		{"i8", "@llvm.bitreverse.i8(i8 3)"},
		{"i32", "@llvm.bswap.i32(i32 287454020)"},
		{"i16", "@llvm.bswap.i16(i16 4386)"},
		{"i32", "@llvm.fshl.i32(i32 305419896, i32 -1698898192, i32 36)"},
		{"i32", "@llvm.fshr.i32(i32 305419896, i32 -1698898192, i32 4)"},
		{"i32", "@llvm.fshl.i32(i32 305419896, i32 -1698898192, i32 0)"},
		{"i8", "@llvm.fshr.i8(i8 -128, i8 1, i8 9)"},
		{"i32", "@llvm.sadd.sat.i32(i32 2147483600, i32 100)"},
		{"i32", "@llvm.ssub.sat.i32(i32 -2147483600, i32 100)"},
		{"i32", "@llvm.uadd.sat.i32(i32 -10, i32 20)"},
		{"i32", "@llvm.usub.sat.i32(i32 5, i32 10)"},
		{"i8", "@llvm.sadd.sat.i8(i8 100, i8 100)"},
		{"i64", "@llvm.ssub.sat.i64(i64 -9223372036854775800, i64 100)"},
		{"float", "@llvm.fabs.f32(float -2.5)"},
		{"float", "@llvm.copysign.f32(float 3.0, float -0.0)"},
		// (1 + 2^-23)^2 - 1: fused keeps the 2^-46 term a separate
		// multiply and add would round away.
		{"float", "@llvm.fma.f32(float 0x3FF0000020000000, float 0x3FF0000020000000, float -1.0)"},
		{"double", "@llvm.fma.f64(double 0x3FF0000000000001, double 0x3FF0000000000001, double -1.0)"},
		{"float", "@llvm.minnum.f32(float 0x7FF8000000000000, float 1.0)"},
		{"float", "@llvm.maxnum.f32(float 2.0, float 0x7FF8000000000000)"},
		{"float", "@llvm.minimum.f32(float -0.0, float 0.0)"},
		{"float", "@llvm.maximum.f32(float -0.0, float 0.0)"},
		{"float", "@llvm.maximum.f32(float 0x7FF8000000000000, float 1.0)"},
		{"float", "@llvm.floor.f32(float -2.5)"},
		{"float", "@llvm.ceil.f32(float -2.5)"},
		{"float", "@llvm.trunc.f32(float -2.5)"},
		{"float", "@llvm.rint.f32(float 2.5)"},
		{"float", "@llvm.roundeven.f32(float 3.5)"},
		{"float", "@llvm.round.f32(float 2.5)"},
		{"float", "@llvm.round.f32(float -0.5)"},
		{"float", "@llvm.sqrt.f32(float 2.0)"},
		{"double", "@llvm.sqrt.f64(double 2.0)"},
		{"float", "@llvm.ldexp.f32.i32(float 1.5, i32 3)"},
		{"<2 x float>", "@llvm.fabs.v2f32(<2 x float> <float -1.0, float 2.0>)"},
	}
	var b strings.Builder
	b.WriteString("define amdgpu_kernel void @k(ptr addrspace(1) %out) {\nentry:\n")
	slot := 0
	store := func(v, ty string) {
		fmt.Fprintf(&b, "  %%p%d = getelementptr i64, ptr addrspace(1) %%out, i32 %d\n", slot, slot)
		switch ty {
		case "i64":
			fmt.Fprintf(&b, "  store i64 %s, ptr addrspace(1) %%p%d\n", v, slot)
		case "float":
			fmt.Fprintf(&b, "  %%f%d = bitcast float %s to i32\n  %%z%d = zext i32 %%f%d to i64\n  store i64 %%z%d, ptr addrspace(1) %%p%d\n", slot, v, slot, slot, slot, slot)
		case "double":
			fmt.Fprintf(&b, "  %%f%d = bitcast double %s to i64\n  store i64 %%f%d, ptr addrspace(1) %%p%d\n", slot, v, slot, slot)
		default:
			fmt.Fprintf(&b, "  %%z%d = zext %s %s to i64\n  store i64 %%z%d, ptr addrspace(1) %%p%d\n", slot, ty, v, slot, slot)
		}
		slot++
	}
	for i, c := range cases {
		fmt.Fprintf(&b, "  %%r%d = call %s %s\n", i, c.ty, c.call)
		if elem, ok := strings.CutPrefix(c.ty, "<2 x "); ok {
			elem = strings.TrimSuffix(elem, ">")
			for j := 0; j < 2; j++ {
				fmt.Fprintf(&b, "  %%e%d.%d = extractelement %s %%r%d, i32 %d\n", i, j, c.ty, i, j)
				store(fmt.Sprintf("%%e%d.%d", i, j), elem)
			}
			continue
		}
		store(fmt.Sprintf("%%r%d", i), c.ty)
	}
	b.WriteString("  ret void\n}\n")
	src := b.String()
	path := filepath.Join(t.TempDir(), "intr.ll")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	folded, err := exec.Command("opt-22", "-S", "-mtriple=amdgcn--", "-passes=instcombine", path).CombinedOutput()
	if err != nil {
		t.Fatalf("opt-22: %v\n%s", err, folded)
	}
	if strings.Contains(string(folded), "call ") {
		t.Fatalf("opt-22 left calls unfolded; the comparison needs constants:\n%s", folded)
	}
	run := func(name string, text []byte) []uint64 {
		m, err := llvm.Import(name, text)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		noteCoverage(m)
		arg := 0
		r, err := Run(m, &Input{WorkgroupSize: [3]int{1, 1, 1}, Buffers: []BufferInput{{Arg: &arg, Count: slot}}}, Options{Denorm: DenormPreserve})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		buf := r.Buffers[len(r.Buffers)-1]
		out := make([]uint64, buf.Count)
		for i := range out {
			out[i] = buf.Element(i)[0]
		}
		return out
	}
	got, want := run("intr.ll", []byte(src)), run("folded.ll", folded)
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("result %d: interpreter %#x, opt-22 folds to %#x", i, got[i], want[i])
		}
	}
	if t.Failed() {
		t.Logf("kernel:\n%s", src)
	}
}
