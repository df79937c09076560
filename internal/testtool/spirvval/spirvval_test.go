package spirvval

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"passlens/internal/testtool"
)

// assemble turns SPIR-V assembly into words with spirv-as.
func assemble(t *testing.T, asm string) []uint32 {
	t.Helper()
	as := testtool.Require(t, "spirv-as", "spirv-tools")
	dir := t.TempDir()
	src, bin := filepath.Join(dir, "m.spvasm"), filepath.Join(dir, "m.spv")
	if err := os.WriteFile(src, []byte(asm), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(as, "--target-env", "spv1.3", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("spirv-as: %v\n%s", err, out)
	}
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return w
}

const header = `OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%bool = OpTypeBool
%fn = OpTypeFunction %void
%c = OpConstantTrue %bool
%main = OpFunction %void None %fn
`

// The helper must agree with spirv-val: a valid module, one whose control
// flow breaks the structured rules (a conditional branch without a merge
// that is not a loop exit), one with a bad header, and a bad environment.
func TestAgreesWithSpirvVal(t *testing.T) {
	if why := Available(); why != "" {
		testtool.Unavailable(t, "spirvval helper: "+why)
	}
	val := testtool.Require(t, "spirv-val", "spirv-tools")
	v, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	valid := assemble(t, header+"%e = OpLabel\nOpReturn\nOpFunctionEnd\n")
	unstructured := assemble(t, header+"%e = OpLabel\nOpBranchConditional %c %a %b\n%a = OpLabel\nOpReturn\n%b = OpLabel\nOpReturn\nOpFunctionEnd\n")
	badMagic := append([]uint32{0x12345678}, valid[1:]...)
	dir := t.TempDir()
	for name, words := range map[string][]uint32{"valid": valid, "unstructured": unstructured, "magic": badMagic, "empty": {}} {
		got, ioErr := v.Check(words, "vulkan1.1")
		if ioErr != nil {
			t.Fatal(ioErr)
		}
		f := filepath.Join(dir, name+".spv")
		b := make([]byte, 4*len(words))
		for i, w := range words {
			binary.LittleEndian.PutUint32(b[4*i:], w)
		}
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
		out, valErr := exec.Command(val, "--target-env", "vulkan1.1", f).CombinedOutput()
		if (got == nil) != (valErr == nil) {
			t.Errorf("%s: helper says %v, spirv-val says %v: %s", name, got, valErr, out)
		}
		if (name == "valid") != (got == nil) {
			t.Errorf("%s: helper says %v", name, got)
		}
	}
	if err, _ := v.Check(valid, "vulkan9"); err == nil || !strings.Contains(err.Error(), "unknown target environment") {
		t.Errorf("bad environment: %v", err)
	}
	for i := 0; i < 50; i++ {
		if msg := Words(t, valid, "vulkan1.1"); msg != "" {
			t.Fatal(msg)
		}
	}
}
