package offload

import (
	"strings"
	"testing"
)

func TestParseTestFile(t *testing.T) {
	src := `#--- source.hlsl
RWStructuredBuffer<float> Out : register(u1);
[numthreads(1,1,1)] void main() {}
//--- pipeline.yaml
---
Shaders:
  - Stage: Compute
    Entry: main
    DispatchGroupCount: [ 2, 1, 1 ]
Buffers:
  - Name: In
    Format: Float32
    Stride: 4
    Data: [ nan, -inf, -0x1.e7d42cp-127, -0, 0x3F800000,
            2.5, ] # comment
  - Name: Out
    Format: Int32
    FillSize: 8
    FillValue: -1
  - Name: Vals
    Format: UInt32
    Data:
      [ 1, 0xffffffff ]
Results:
  - Result: T
    Rule: BufferFloatULP
    ULPT: 2
    DenormMode: Any
    Actual: Out
    Expected: In
DescriptorSets:
  - Resources:
    - Name: Out
      Kind: RWStructuredBuffer
      DirectXBinding:
        Register: 1
        Space: 2
      VulkanBinding: { Binding: 1 }
# RUN: split-file %s %t
# RUN: %dxc_target -T cs_6_5 -E main -D N=4 -Zpr -enable-16bit-types -Fo %t.o %t/source.hlsl
# XFAIL: Clang && !Vulkan
# REQUIRES: Half, Int16
`
	tst, err := Parse("x.test", src)
	if err != nil {
		t.Fatal(err)
	}
	if tst.PipelineErr != nil {
		t.Fatal(tst.PipelineErr)
	}
	if len(tst.Order) != 2 || !strings.Contains(tst.Sections["source.hlsl"], "numthreads") {
		t.Errorf("sections %v", tst.Order)
	}
	r := tst.Runs
	if len(r) != 1 || r[0].Profile != "cs_6_5" || r[0].Entry != "main" || strings.Join(r[0].Defines, ",") != "N=4" || !r[0].RowMaj || !r[0].Half || r[0].Source != "source.hlsl" {
		t.Errorf("runs %+v", r)
	}
	if len(tst.XFail) != 1 || len(tst.Requires) != 1 {
		t.Errorf("directives %v %v", tst.XFail, tst.Requires)
	}
	p := tst.Pipeline
	if len(p.Shaders) != 1 || p.Shaders[0].Groups != [3]int{2, 1, 1} {
		t.Errorf("shaders %+v", p.Shaders)
	}
	in := p.Buffer("In")
	if len(in.Data) != 6 || in.Data[1] != 0xFF800000 || in.Data[2] != 0x8079f50b || in.Data[3] != 0x80000000 || in.Data[4] != 0x3F800000 || in.Data[5] != 0x40200000 || !isNaN(in.Data[0], 32) {
		t.Errorf("In data %x", in.Data)
	}
	if out := p.Buffer("Out"); !out.Fill || len(out.Data) != 2 || out.Data[0] != 0xFFFFFFFF {
		t.Errorf("Out %+v", out)
	}
	if v := p.Buffer("Vals"); len(v.Data) != 2 || v.Data[1] != 0xFFFFFFFF {
		t.Errorf("Vals %+v", v)
	}
	if len(p.Results) != 1 || p.Results[0].ULPT != 2 || p.Results[0].DenormMode != "Any" {
		t.Errorf("results %+v", p.Results)
	}
	if len(p.Resources) != 1 || p.Resources[0].Register != 1 || p.Resources[0].Space != 2 {
		t.Errorf("resources %+v", p.Resources)
	}
}

func TestEval(t *testing.T) {
	has := func(s string) bool { return s == "DirectX" || s == "DXC" }
	for expr, want := range map[string]bool{
		"Clang": false, "DirectX": true, "Clang && !Vulkan": false, "DXC && !Vulkan": true,
		"Metal || DirectX": true, "!(Vulkan || Metal)": true, "Intel-Gen-Current && DirectX": false,
	} {
		if got := Eval(expr, has); got != want {
			t.Errorf("%s = %v, want %v", expr, got, want)
		}
	}
}

func TestCompareRules(t *testing.T) {
	nan, inf := uint64(0x7FC00000), uint64(0x7F800000)
	cases := []struct {
		r        Result
		a, e     []uint64
		wantPass bool
	}{
		{Result{Rule: "BufferExact"}, []uint64{1, 2}, []uint64{1, 2}, true},
		{Result{Rule: "BufferExact"}, []uint64{1, 3}, []uint64{1, 2}, false},
		{Result{Rule: "BufferFloatULP", ULPT: 1}, []uint64{0x3F800001, nan}, []uint64{0x3F800000, 0xFFC00000}, true},
		{Result{Rule: "BufferFloatULP", ULPT: 1}, []uint64{0x3F800002}, []uint64{0x3F800000}, false},
		{Result{Rule: "BufferFloatULP"}, []uint64{0x80000000}, []uint64{0}, true}, // -0 vs +0
		{Result{Rule: "BufferFloatULP"}, []uint64{0}, []uint64{0x00000005}, true}, // denormal, Any
		{Result{Rule: "BufferFloatULP", DenormMode: "Preserve"}, []uint64{0}, []uint64{5}, false},
		{Result{Rule: "BufferFloatEpsilon", Epsilon: 0.01}, []uint64{0x3F800000, inf}, []uint64{0x3F7FF972, inf}, true}, // 1.0 vs 0.9999
		{Result{Rule: "BufferFloatEpsilon", Epsilon: 0.01}, []uint64{0x3F800000}, []uint64{0x3F000000}, false},
		{Result{Rule: "BufferExact"}, []uint64{1}, []uint64{1, 2}, false},
	}
	for i, c := range cases {
		d := Compare(c.r, c.a, c.e, 32, true)
		if (d == "") != c.wantPass {
			t.Errorf("case %d (%s): %q", i, c.r.Rule, d)
		}
	}
}
