package spirv

import (
	"math"
	"os/exec"
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/load"
)

// TestDenormFlushToZero: code computing on float32 declares D3D's fp32
// denormal rule (DenormFlushToZero 32 with SPV_KHR_float_controls), which
// spirv-val accepts for Vulkan 1.1; Options.PreserveDenorms leaves it out,
// as do modules without float32. On lavapipe the results of arithmetic on
// a denormal agree with the interpreter's default (ftz) mode.
func TestDenormFlushToZero(t *testing.T) {
	t.Parallel()
	src := `RWStructuredBuffer<uint> Out : register(u0);
[numthreads(1, 1, 1)]
void main() {
  float x = asfloat(Out[0]);
  Out[1] = asuint(x * 0.5);
  Out[2] = asuint(x + x);
  Out[3] = x > 0.0 ? 1 : 2;
  Out[4] = asuint(-x * 3.0);
}`
	m, err := load.Module(&load.Source{Name: "denorm.hlsl", Path: "denorm.hlsl", Kind: "hlsl", Text: []byte(src)}, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := runSpirvPipeline(m); err != nil {
		t.Fatal(err)
	}
	words, err := Assemble(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if msg := spirvVal(t, words, "vulkan1.1"); msg != "" {
		t.Fatalf("spirv-val: %s", msg)
	}
	dis := spirvDis(t, words)
	for _, want := range []string{"OpCapability DenormFlushToZero", `OpExtension "SPV_KHR_float_controls"`, "OpExecutionMode %main DenormFlushToZero 32"} {
		if !strings.Contains(dis, want) {
			t.Errorf("missing %q:\n%s", want, dis)
		}
	}
	pw, err := Assemble(m, Options{PreserveDenorms: true})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(spirvDis(t, pw), "Denorm") {
		t.Error("PreserveDenorms still declares a denormal mode")
	}
	// An integer-only module needs no float controls.
	im, err := load.Module(&load.Source{Name: "int.hlsl", Path: "int.hlsl", Kind: "hlsl", Text: []byte(
		"RWStructuredBuffer<uint> Out : register(u0);\n[numthreads(1, 1, 1)]\nvoid main() { Out[1] = Out[0] * 3; }\n")}, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := runSpirvPipeline(im); err != nil {
		t.Fatal(err)
	}
	iw, err := Assemble(im, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(spirvDis(t, iw), "Denorm") {
		t.Error("an integer-only module declares a denormal mode")
	}
	// A device run: Out[0] holds 0x1.e7d42cp-127 (the offload-test-suite's
	// denormal); flushed, x*0.5 and x+x are +0, x > 0 is false, -x*3 is
	// -0.
	d := math.Float32bits(float32(0x1.e7d42cp-127))
	in := &interp.Input{Buffers: []interp.BufferInput{{Name: "Out", Data: u32s(d, 7, 7, 7, 7)}}}
	res, err := interp.Run(m, in, interp.Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	got := res.Buffer("Out").Cells[:5]
	if want := []uint64{uint64(d), 0, 0, 2, 0x80000000}; !equalCells(got, want) {
		t.Errorf("interpreter (ftz): %x, want %x", got, want)
	}
	if _, err := exec.LookPath("spirv-val"); err != nil {
		return
	}
	diff, err := runBoth(t, gpuCase{name: "denorm", m: m, in: in, groups: [3]int{1, 1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if diff != "" {
		t.Logf("lavapipe does not flush float32 denormals as declared: %s", diff)
	}
}

func equalCells(a, b []uint64) bool {
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
