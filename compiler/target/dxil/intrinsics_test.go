package dxil

import (
	"context"
	"math"
	"os"
	"regexp"
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/load"
	"passlens/compiler/pipeline"
	"passlens/compiler/target"
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
	res := pipeline.Run(context.Background(), m, sp, pipeline.Options{Target: target.DXIL, VerifyEach: true})
	if res.Err != nil {
		t.Fatalf("pipeline %s: %v", spec, res.Err)
	}
}

// TestDXILAllIntrinsicsDifferential runs the every-intrinsic shader through the
// dxil pipeline: the interpreter's results after the pipeline must be
// bit-identical to the results before (the scalarize expansions perform
// the interpreter's operations in its order), no vector value or vector
// intrinsic may remain in the IR, and the emitted text must pass
// llvm-as-22 and opt-22 -passes=verify with no vector type in it. It runs
// twice: with the default pipeline (helpers inlined) and without inline,
// so the helpers' vector signatures go through scalarize's flattening and
// the calls are executed by the interpreter.
func TestDXILAllIntrinsicsDifferential(t *testing.T) {
	t.Parallel()
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
			for _, w := range wantDXOps {
				if !strings.Contains(out.Text, w) {
					t.Errorf("no %q in the output", w)
				}
			}
			if strings.Contains(spec, "inline") {
				return
			}
			for _, w := range []*regexp.Regexp{
				regexp.MustCompile(`(?m)^%mix4\.ret = type \{ float, float, float, float \}$`),
				regexp.MustCompile(`(?m)^define %mix4\.ret @mix4\(float %a\.x, float %a\.y, float %a\.z, float %a\.w, float %b\.x, float %b\.y, float %b\.z, float %b\.w, float %t\)`),
				regexp.MustCompile(`(?m)^define %rot\.ret @rot\(float %a\)`),
				regexp.MustCompile(`(?m)^define %orient\.ret @orient\(float %a\.x, float %a\.y, float %a\.z, float %b\.x, float %b\.y, float %b\.z, ptr addrspace\(5\) %len, ptr addrspace\(5\) %ab\)`),
				regexp.MustCompile(`getelementptr \[2 x float\], ptr addrspace\(5\) %ab, i32 0, i32 1`),
				regexp.MustCompile(`= call %mix4\.ret @mix4\(`),
			} {
				if !w.MatchString(out.Text) {
					t.Errorf("no match for %s in the output", w)
				}
			}
		})
	}
}

// wantDXOps are the dx.op calls (DXIL opcodes, DxilConstants.h) the
// every-intrinsic shader must produce: each primitive intrinsic of the
// mapping in docs/dxil.md.
var wantDXOps = []string{
	"@dx.op.unary.f32(i32 6,", "@dx.op.unary.f32(i32 7,", "@dx.op.isSpecialFloat.f32(i32 8,", "@dx.op.isSpecialFloat.f32(i32 9,",
	"@dx.op.unary.f32(i32 12,", "@dx.op.unary.f32(i32 13,", "@dx.op.unary.f32(i32 14,", "@dx.op.unary.f32(i32 15,",
	"@dx.op.unary.f32(i32 16,", "@dx.op.unary.f32(i32 17,", "@dx.op.unary.f32(i32 18,", "@dx.op.unary.f32(i32 19,",
	"@dx.op.unary.f32(i32 20,", "@dx.op.unary.f32(i32 21,", "@dx.op.unary.f32(i32 22,", "@dx.op.unary.f32(i32 23,",
	"@dx.op.unary.f32(i32 24,", "@dx.op.unary.f32(i32 25,", "@dx.op.unary.f32(i32 26,", "@dx.op.unary.f32(i32 27,",
	"@dx.op.unary.f32(i32 28,", "@dx.op.unary.f32(i32 29,", "@dx.op.unary.i32(i32 30,", "@dx.op.unaryBits.i32(i32 31,",
	"@dx.op.unaryBits.i32(i32 32,", "@dx.op.unaryBits.i32(i32 33,", "@dx.op.unaryBits.i32(i32 34,",
	"@dx.op.binary.f32(i32 35,", "@dx.op.binary.f32(i32 36,", "@dx.op.binary.i32(i32 37,", "@dx.op.binary.i32(i32 38,",
	"@dx.op.binary.i32(i32 39,", "@dx.op.binary.i32(i32 40,", "@dx.op.tertiary.f32(i32 46,", "@dx.op.tertiary.i32(i32 48,",
	"@dx.op.tertiary.i32(i32 49,",
	"@dx.op.barrier(i32 80, i32 2)", "@dx.op.barrier(i32 80, i32 3)", "@dx.op.barrier(i32 80, i32 8)",
	"@dx.op.barrier(i32 80, i32 9)", "@dx.op.barrier(i32 80, i32 10)", "@dx.op.barrier(i32 80, i32 11)",
	"@dx.op.threadId.i32(i32 93, i32 0)", "@dx.op.flattenedThreadIdInGroup.i32(i32 96)",
	"@dx.op.waveIsFirstLane(i32 110)", "@dx.op.waveGetLaneIndex(i32 111)", "@dx.op.waveGetLaneCount(i32 112)",
	"@dx.op.waveAnyTrue(i32 113,", "@dx.op.waveAllTrue(i32 114,", "@dx.op.waveActiveAllEqual.i32(i32 115,",
	"@dx.op.waveActiveBallot(i32 116,", "@dx.op.waveReadLaneAt.i32(i32 117,", "@dx.op.waveReadLaneFirst.i32(i32 118,",
	"@dx.op.waveActiveOp.i32(i32 119,", "@dx.op.waveActiveOp.f32(i32 119,", "@dx.op.waveActiveBit.i32(i32 120,",
	"@dx.op.wavePrefixOp.i32(i32 121,", "@dx.op.wavePrefixOp.f32(i32 121,",
	"@dx.op.legacyF32ToF16(i32 130,", "@dx.op.legacyF16ToF32(i32 131,",
	"@dx.op.dot2AddHalf.f32(i32 162,", "@dx.op.dot4AddPacked.i32(i32 163,", "@dx.op.dot4AddPacked.i32(i32 164,",
	"@dx.op.waveAllOp(i32 135,", "@dx.op.wavePrefixOp(i32 136,",
	"@dx.op.unary.f32(i32 83,", "@dx.op.unary.f32(i32 84,", "@dx.op.unary.f32(i32 85,", "@dx.op.unary.f32(i32 86,",
	"@dx.op.quadOp.f32(i32 123,", "@dx.op.quadOp.i32(i32 123,", "@dx.op.quadReadLaneAt.f32(i32 122,",
	"@dx.op.quadVote.i1(i32 222,",
	"atomicrmw add ptr addrspace(3)", "atomicrmw min ptr addrspace(3)", "atomicrmw umax ptr addrspace(1)",
	"atomicrmw and ptr", "atomicrmw or ptr", "atomicrmw xor ptr", "atomicrmw xchg ptr", "cmpxchg ptr addrspace(1)",
}

// issueIntrinsics is the intrinsic list of the HLSL frontend issue (issue
// 3) plus the atomics; TestDXILAllIntrinsicsCoverage checks that the shader
// calls each, and every HLSL intrinsic of the IR's table.
var issueIntrinsics = strings.Fields(`abs acos all any asfloat asin asint asuint atan atan2 ceil clamp cos
	cosh countbits cross degrees determinant distance dot exp exp2 firstbithigh firstbitlow floor fmod frac
	isinf isnan ldexp length lerp log log10 log2 mad max min modf mul normalize pow radians rcp reflect
	refract reversebits round rsqrt saturate sign sin sincos sinh smoothstep sqrt step tan tanh trunc
	InterlockedAdd InterlockedMin InterlockedMax InterlockedAnd InterlockedOr InterlockedXor
	InterlockedExchange InterlockedCompareExchange InterlockedCompareStore`)

// TestDXILAllIntrinsicsCoverage: the every-intrinsic shader really calls every
// intrinsic of the issue's list and of the IR's intrinsic table (wave
// operations, barriers, f16tof32, ...), so the differential and
// verification test above covers them all.
func TestDXILAllIntrinsicsCoverage(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("testdata/all-intrinsics.hlsl")
	if err != nil {
		t.Fatal(err)
	}
	names := append([]string(nil), issueIntrinsics...)
	for _, it := range ir.Intrinsics() {
		if !strings.Contains(it.Name, ".") { // not llvm.*, sm3.*, dx.op.*
			names = append(names, it.Name)
		}
	}
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			continue
		}
		seen[n] = true
		if !regexp.MustCompile(`\b` + n + `\(`).Match(src) {
			t.Errorf("testdata/all-intrinsics.hlsl does not call %s", n)
		}
	}
	t.Logf("%d intrinsic names covered", len(seen))
}

// checkNoVectorValues asserts that no instruction of m produces or takes a
// vector or matrix value and no function signature has one. The one
// allowed exception is WaveActiveBallot's uint4 (produced whole from a
// bool, and read with extractvalue): the back end types it as DXIL's
// %dx.types.fouri32 struct.
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
				if isBallot(in) {
					continue
				}
				bad := in.HasResult() && in.Type().Kind != ir.KPointer && hasVector(in.Type())
				for _, a := range in.Args {
					ai, _ := a.(*ir.Instr)
					bad = bad || a.Type().Kind != ir.KPointer && hasVector(a.Type()) && !(in.Op == ir.OpExtractValue && ai != nil && isBallot(ai))
				}
				if bad && n < 20 {
					t.Errorf("@%s: vector value left: %s", f.Name(), ir.InstrString(in))
					n++
				}
			}
		}
	}
}

func isBallot(in *ir.Instr) bool {
	return in.Op == ir.OpIntrinsic && in.Intr != nil && in.Intr.Name == "WaveActiveBallot"
}
