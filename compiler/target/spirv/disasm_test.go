package spirv

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestDisassembleLiterals assembles constants whose spelling is tricky
// (denormals, infinities, NaNs, -0, large and small magnitudes, negative
// and 64-bit integers, name clashes) with spirv-as and requires
// Disassemble to print exactly what spirv-dis prints.
func TestDisassembleLiterals(t *testing.T) {
	t.Parallel()
	as := needTool(t, "spirv-as")
	src := `OpCapability Shader
OpCapability Int64
OpCapability Float64
OpMemoryModel Logical GLSL450
OpName %clash "uint"
%clash = OpTypeFloat 16
%float = OpTypeFloat 32
%double = OpTypeFloat 64
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%long = OpTypeInt 64 1
%a = OpConstant %float 0.1
%b = OpConstant %float -1.5
%c = OpConstant %float 1e20
%d = OpConstant %float 1e-20
%e = OpConstant %float 0x1p+128
%f = OpConstant %float -0x1.8p+128
%g = OpConstant %float -0
%h = OpConstant %float 123456789
%i = OpConstant %int -5
%j = OpConstant %uint 4294967295
%k = OpConstant %float 1.17549435e-38
%l = OpConstant %float 1.4e-45
%m = OpConstant %float 3
%n = OpConstant %float 0x1.000002p+128
%o = OpConstant %long -9000000000
%p = OpConstant %double 0.1
%q = OpConstant %double 4.9e-324
%r = OpConstant %uint 0
%s = OpConstant %uint 0
%t = OpConstant %clash 0x1p+0
%u = OpConstant %float 1e9
%v = OpConstant %float 1e-5
`
	dir := t.TempDir()
	in, out := filepath.Join(dir, "c.spvasm"), filepath.Join(dir, "c.spv")
	if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command(as, "--target-env", "vulkan1.1", "-o", out, in).CombinedOutput(); err != nil {
		t.Fatalf("spirv-as: %v\n%s", err, msg)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	words, err := Words(b)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Disassemble(words)
	if err != nil {
		t.Fatal(err)
	}
	if want := spirvDis(t, words); got != want {
		t.Fatalf("Disassemble differs from spirv-dis:\n%s", firstDiff(got, want))
	}
}

// TestDecodeErrors checks that malformed binaries are rejected.
func TestDecodeErrors(t *testing.T) {
	t.Parallel()
	for _, w := range [][]uint32{
		nil,
		{1, 2, 3, 4, 5},
		{Magic, Version13, 0, 1, 0, 5<<16 | OpCapability},
		{Magic, Version13, 0, 1, 0, 0},
	} {
		if _, err := Disassemble(w); err == nil {
			t.Errorf("Disassemble(%x) succeeded", w)
		}
	}
	if _, err := Disassemble([]uint32{Magic, Version13, 0, 1, 0, 2<<16 | 9999, 0}); err == nil {
		t.Error("unknown opcode accepted")
	}
}
