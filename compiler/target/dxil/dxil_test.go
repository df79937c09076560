package dxil

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"passlens/compiler/ir"
	"passlens/compiler/load"
	"passlens/compiler/pipeline"
	"passlens/compiler/target"
	"passlens/internal/testtool/llvmverify"
	"passlens/samples"
)

// runDXIL runs the default dxil pipeline over m and emits it.
func runDXIL(t *testing.T, name string, m *ir.Module) string {
	t.Helper()
	spec, err := pipeline.Default(target.DXIL)
	if err != nil {
		t.Fatal(err)
	}
	res := pipeline.Run(context.Background(), m, spec, pipeline.Options{VerifyEach: true})
	if res.Err != nil {
		t.Fatalf("%s: dxil pipeline: %v", name, res.Err)
	}
	out, err := target.Emit(target.DXIL, m)
	if err != nil {
		t.Fatalf("%s: emit: %v", name, err)
	}
	if out.Lang != "llvm" || out.Ext != ".ll" {
		t.Errorf("%s: output kind %q %q", name, out.Lang, out.Ext)
	}
	return out.Text
}

// checkLLVM checks the text as llvm-as-22 does: LLVM's parser and IR
// verifier (what opt-22 -passes=verify runs too, so one of them is
// enough; llvmverify's test shows the helper agrees with llvm-as-22).
func checkLLVM(t *testing.T, name, text string) {
	t.Helper()
	if err := llvmverify.Text(t, name+".ll", text); err != nil {
		t.Errorf("%s: llvm-as-22 rejects the output: %v\n%s", name, err, text)
	}
}

var vectorType = regexp.MustCompile(`<\d+ x `)

// checkScalar asserts that no line of the text mentions a vector type.
func checkScalar(t *testing.T, name, text string) {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if vectorType.MatchString(l) {
			t.Errorf("%s:%d: vector type in DXIL output: %s", name, i+1, l)
		}
	}
}

// TestSamples emits every sample that loads and checks the text with
// llvm-as-22 and opt-22. Samples whose HLSL front end or lowering is not
// available are skipped; any other load error fails.
func TestDXILSamples(t *testing.T) {
	t.Parallel()
	n := 0
	for _, s := range samples.All() {
		m, _, err := load.File(s.File, load.Options{})
		if err != nil {
			// Only a missing HLSL lowering is a reason to skip; a
			// sample the front end rejects is a real failure.
			if msg := err.Error(); strings.Contains(msg, "not available") || strings.Contains(msg, "not implemented") {
				t.Logf("%s: skipped: %v", s.File, err)
				continue
			}
			t.Errorf("%s: load: %v", s.File, err)
			continue
		}
		text := runDXIL(t, s.File, m)
		checkScalar(t, s.File, text)
		checkLLVM(t, s.Name, text)
		if !strings.Contains(text, "target triple = \"dxil-ms-dx\"") {
			t.Errorf("%s: no dxil triple", s.File)
		}
		n++
	}
	t.Logf("%d samples emitted and verified", n)
}

// seed loads one of the testdata/*.pir versions of the seed examples and
// emits it.
func seed(t *testing.T, name string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", name+".pir"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := ir.ParseModule(name+".pir", src)
	if err != nil {
		t.Fatal(err)
	}
	text := runDXIL(t, name, m)
	checkScalar(t, name, text)
	checkLLVM(t, name, text)
	return text
}

// count counts the instruction lines of text matching re.
func count(text, re string) int {
	return len(regexp.MustCompile(`(?m)^\s+.*`+re).FindAllString(text, -1))
}

func want(t *testing.T, name, text, re string, n int) {
	t.Helper()
	if got := count(text, re); got != n {
		t.Errorf("%s: %d lines match %q, want %d\n%s", name, got, re, n, text)
	}
}

// The seed's "DXIL OP CallInst example": four scalar Sin then four scalar
// Cos dx.op calls, declared once.
func TestDXILSeedCosSin(t *testing.T) {
	t.Parallel()
	text := seed(t, "cos-sin")
	want(t, "cos-sin", text, `= call float @dx\.op\.unary\.f32\(i32 13, float %`, 4)
	want(t, "cos-sin", text, `= call float @dx\.op\.unary\.f32\(i32 12, float %`, 4)
	if !strings.Contains(text, "declare float @dx.op.unary.f32(i32, float)") {
		t.Errorf("no dx.op.unary.f32 declaration:\n%s", text)
	}
	if !regexp.MustCompile(`define void @main\(\) #(\d+) \{`).MatchString(text) {
		t.Errorf("entry is not a plain define void @main() with its attribute group:\n%s", text)
	}
}

// "Example 3 add and mul": per-element fadd and fmul.
func TestDXILSeedAddMul(t *testing.T) {
	t.Parallel()
	text := seed(t, "add-mul")
	want(t, "add-mul", text, `= fadd float `, 8)
	want(t, "add-mul", text, `= fmul float `, 4)
}

// "BitCast": asfloat is a per-element bitcast i32 -> float, the value
// conversion a per-element sitofp.
func TestDXILSeedBitcast(t *testing.T) {
	t.Parallel()
	text := seed(t, "bitcast")
	want(t, "bitcast", text, `= bitcast i32 %\S+ to float`, 4)
	want(t, "bitcast", text, `= sitofp i32 %\S+ to float`, 4)
	want(t, "bitcast", text, `= bitcast`, 4)
}

// "Store example": six scalar float stores into the groupshared array,
// the thread id read with dx.op.threadId, the barrier as dx.op.barrier
// (GroupMemoryBarrierWithGroupSync: TGSM fence | sync = 9).
func TestDXILSeedGroupsharedStore(t *testing.T) {
	t.Parallel()
	text := seed(t, "groupshared-store")
	want(t, "groupshared-store", text, `store float \S+, ptr addrspace\(3\) %`, 6)
	want(t, "groupshared-store", text, `call i32 @dx\.op\.threadId\.i32\(i32 93, i32 0\)`, 1)
	want(t, "groupshared-store", text, `call void @dx\.op\.barrier\(i32 80, i32 9\)`, 1)
	if strings.Contains(text, "@tid") {
		t.Errorf("SV_DispatchThreadID global survived:\n%s", text)
	}
}

// Emit leaves its input untouched (it works on a clone).
func TestDXILEmitDoesNotModifyInput(t *testing.T) {
	t.Parallel()
	src, _ := os.ReadFile("testdata/cos-sin.pir")
	m, err := ir.ParseModule("cos-sin.pir", src)
	if err != nil {
		t.Fatal(err)
	}
	runDXIL(t, "cos-sin", m)
	before := m.String()
	if _, err := Emit(m); err != nil {
		t.Fatal(err)
	}
	if m.String() != before {
		t.Errorf("Emit modified its input")
	}
}

// A vector value that survived the pipeline is an error naming the
// instruction, not silently emitted.
func TestDXILVectorValueIsAnError(t *testing.T) {
	t.Parallel()
	src, _ := os.ReadFile("testdata/add-mul.pir")
	m, err := ir.ParseModule("add-mul.pir", src)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Emit(m) // no pipeline: the vector load of @x comes first
	if err == nil || !strings.Contains(err.Error(), "%x = load") || !strings.Contains(err.Error(), "vector value survived") {
		t.Errorf("error %v, want one naming the vector load of @x", err)
	}
}

// Intrinsics without a DXIL operation fail with a clear error.
func TestDXILUnknownIntrinsic(t *testing.T) {
	t.Parallel()
	src := `module "m"
@a = global uniform f32 kind "cbuffer"
@out = global output f32 semantic "SV_Target0"
define void @main() pixel {
entry:
  %a = load ptr<uniform, f32> @a
  %r = intr f32 smoothstep(f32 %a, f32 %a, f32 %a)
  store f32 %r, ptr<output, f32> @out
  ret
}
`
	m, err := ir.ParseModule("m.pir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	// An instruction from HLSL carries its source position; the error
	// names it.
	for _, in := range m.Funcs[0].Blocks[0].Instrs {
		if in.Op == ir.OpIntrinsic {
			in.Loc = ir.Loc{Line: 7, Col: 12}
		}
	}
	_, err = Emit(m)
	if err == nil || !strings.Contains(err.Error(), "smoothstep") || !strings.Contains(err.Error(), "m:7:12: @main: %r = intr f32 smoothstep") ||
		!strings.Contains(err.Error(), "scalarize pass expands it") {
		t.Errorf("error %v, want one naming smoothstep, its position and the scalarize pass", err)
	}
}

// The intrinsic mapping: opcode numbers from DXIL's OpCode enum.
func TestDXILIntrinsicMapping(t *testing.T) {
	t.Parallel()
	src := `module "m"
@a = global uniform f32 kind "cbuffer"
@u = global uniform u32 kind "cbuffer"
@i = global uniform i32 kind "cbuffer"
@out = global storage [? x f32] binding 0, 0 kind "RWStructuredBuffer"
@outu = global storage [? x u32] binding 1, 0 kind "RWStructuredBuffer"
@gi = global input u32 semantic "SV_GroupIndex"
define void @main() compute numthreads(64, 1, 1) {
entry:
  %a = load ptr<uniform, f32> @a
  %u = load ptr<uniform, u32> @u
  %i = load ptr<uniform, i32> @i
  %gi = load ptr<input, u32> @gi
  %sq = intr f32 sqrt(f32 %a)
  %mx = intr f32 max(f32 %sq, f32 %a)
  %mn = intr f32 min(f32 %mx, f32 %a)
  %cl = intr f32 clamp(f32 %mn, f32 %a, f32 %sq)
  %lp = intr f32 lerp(f32 %cl, f32 %a, f32 %sq)
  %ws = intr u32 WaveActiveSum(u32 %u)
  %wi = intr i32 WaveActiveMax(i32 %i)
  %li = intr u32 WaveGetLaneIndex()
  %p = access ptr<storage, [? x f32]> @out, u32 %gi
  store f32 %lp, ptr<storage, f32> %p
  %s1 = add u32 %ws, %li
  %wc = bitcast i32 %wi to u32
  %s2 = add u32 %s1, %wc
  %q = access ptr<storage, [? x u32]> @outu, u32 %gi
  store u32 %s2, ptr<storage, u32> %q
  ret
}
`
	m, err := ir.ParseModule("m.pir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	text := runDXIL(t, "mapping", m)
	checkLLVM(t, "mapping", text)
	for _, w := range []string{
		"call float @dx.op.unary.f32(i32 24, float %a)",
		"call float @dx.op.binary.f32(i32 35, float %sq, float %a)",
		"call float @dx.op.binary.f32(i32 36, float %mx, float %a)",
		"call i32 @dx.op.waveActiveOp.i32(i32 119, i32 %u, i8 0, i8 1)",
		"call i32 @dx.op.waveActiveOp.i32(i32 119, i32 %i, i8 3, i8 0)",
		"call i32 @dx.op.waveGetLaneIndex(i32 111)",
		"call i32 @dx.op.flattenedThreadIdInGroup.i32(i32 96)",
		"fsub float %a, %cl",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("missing %q in\n%s", w, text)
		}
	}
}

// The seed's library function `export float4 fn(float4 a)` (a module
// without entry points keeps its functions): scalarize flattens the
// signature as DXC's SROA_Parameter_HLSL does — four scalar parameters,
// the result returned as a struct of four floats (calls are covered by
// TestDXILAllIntrinsicsDifferential).
func TestDXILSeedLibraryFunction(t *testing.T) {
	t.Parallel()
	text := seed(t, "library")
	for _, w := range []string{
		"%fn.ret = type { float, float, float, float }",
		"define %fn.ret @fn(float %a.x, float %a.y, float %a.z, float %a.w) {",
		"ret %fn.ret %retval",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("missing %q in\n%s", w, text)
		}
	}
	want(t, "library", text, `= call float @dx\.op\.unary\.f32\(i32 13, float %`, 4)
	want(t, "library", text, `= call float @dx\.op\.unary\.f32\(i32 12, float %`, 4)
}

// An external function (a declaration, which inline cannot remove) with
// vector parameters and a vector result gets a scalar signature: four
// float parameters and a struct result read with extractvalue.
func TestDXILDeclarationSignature(t *testing.T) {
	t.Parallel()
	src := `module "m"
@a = global uniform <4 x f32> kind "cbuffer"
@out = global output <4 x f32> semantic "SV_Target0"
declare <4 x f32> @ext(<4 x f32> %v, f32 %k)
define void @main() pixel {
entry:
  %a = load ptr<uniform, <4 x f32>> @a
  %r = call <4 x f32> @ext(<4 x f32> %a, f32 2.0)
  %s = fadd <4 x f32> %r, %a
  store <4 x f32> %s, ptr<output, <4 x f32>> @out
  ret
}
`
	m, err := ir.ParseModule("m.pir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	text := runDXIL(t, "declaration", m)
	checkScalar(t, "declaration", text)
	checkLLVM(t, "declaration", text)
	for _, w := range []string{
		"declare %ext.ret @ext(float, float, float, float, float)",
		"%ext.ret = type { float, float, float, float }",
		"= call %ext.ret @ext(float %a.x_1, float %a.y_1, float %a.z_1, float %a.w_1, float 2.0e+00)",
		"= extractvalue %ext.ret %r, 3",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("missing %q in\n%s", w, text)
		}
	}
}
