package dxil

import (
	"regexp"
	"strings"
	"testing"

	"passlens/compiler/load"
)

// TestComponentStores: the HLSL lowering test whose threads each write
// one component of shared vectors (G[t.x] = ...) becomes a GEP to the
// component and a scalar store; nothing reads groupshared memory before
// the barrier (a read-modify-write of the whole vector would, and would
// let threads undo each other's writes). llvm-as-22 and opt-22 accept it.
func TestComponentStores(t *testing.T) {
	t.Parallel()
	const path = "../../hlsl/lower/testdata/lower/exec/components.hlsl"
	m, _, err := load.File(path, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := runDXIL(t, "components", m)
	checkLLVM(t, "components", text)
	before, _, ok := strings.Cut(text, "@dx.op.barrier(")
	if !ok {
		t.Fatalf("no barrier:\n%s", text)
	}
	if strings.Contains(before, "load i32, ptr addrspace(3)") {
		t.Errorf("groupshared memory is read before the barrier (a read-modify-write):\n%s", before)
	}
	re := regexp.MustCompile(`(%\S+) = getelementptr \[4 x i32\], ptr addrspace\(3\) @G, i32 0, i32 %\S+\n\s+store i32 %\S+, ptr addrspace\(3\) (%\S+)\n`)
	if sm := re.FindStringSubmatch(before); sm == nil || sm[1] != sm[2] {
		t.Errorf("no scalar store through a GEP to a component of @G:\n%s", before)
	}
}
