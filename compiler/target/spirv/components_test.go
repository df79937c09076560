package spirv

import (
	"regexp"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/load"
)

// TestComponentStoresOnDevice compiles the component-store shader of the
// HLSL lowering tests (every thread writes its own component of a
// groupshared vector, a buffer vector and rows and elements of a
// column-major matrix in a buffer): the SPIR-V must address the component
// (OpAccessChain to a scalar pointer, then OpStore) rather than store the
// whole vector, pass spirv-val, and compute on lavapipe what the
// interpreter computes, which is the values D3D and Vulkan give:
// G = (10, 11, 12, 13), not (0, 0, 0, 13).
func TestComponentStoresOnDevice(t *testing.T) {
	t.Parallel()
	const path = "../../hlsl/lower/testdata/lower/exec/components.hlsl"
	m, _, err := load.File(path, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := runSpirvPipeline(m); err != nil {
		t.Fatal(err)
	}
	res, err := interp.Run(m, nil, interp.Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	if got := interp.FormatValue(res.Buffer("Out").Elem, res.Buffer("Out").Element(0)); got != "<10, 11, 12, 13>" {
		t.Errorf("after the spirv pipeline, Out[0] = %s, want <10, 11, 12, 13>", got)
	}
	words, err := Assemble(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if msg := spirvVal(t, words, "vulkan1.1"); msg != "" {
		t.Fatalf("spirv-val: %s", msg)
	}
	dis := spirvDis(t, words)
	for _, re := range []string{
		`OpAccessChain %_ptr_Workgroup_uint %G %`,
		`OpAccessChain %_ptr_StorageBuffer_float %M %uint_0 %int_0 %int_[0-3] %`,
	} {
		if !regexp.MustCompile(re).MatchString(dis) {
			t.Errorf("no component access matching %q:\n%s", re, dis)
		}
	}
	diff, err := runBoth(t, gpuCase{name: "components", m: m, in: &interp.Input{}, groups: [3]int{1, 1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if diff != "" {
		t.Errorf("lavapipe and the interpreter differ: %s", diff)
	}
}
