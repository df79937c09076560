package interp

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"passlens/compiler/ir"
)

// Coverage bookkeeping: every module a test runs through runCovered adds
// its opcodes and intrinsics here, and TestMain checks (on a full run)
// that every opcode and every intrinsic of ir/intrinsics.go was executed
// by some test.
var (
	covMu     sync.Mutex
	covOps    = map[ir.Op]bool{}
	covIntrin = map[string]bool{}
)

func noteCoverage(m *ir.Module) {
	covMu.Lock()
	defer covMu.Unlock()
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				covOps[in.Op] = true
				if in.Intr != nil {
					covIntrin[in.Intr.Name] = true
				}
			}
		}
	}
}

// unsupportedIntrinsics are AMDGPU intrinsics the interpreter reports as
// unsupported (their lane-permutation semantics are not modelled).
var unsupportedIntrinsics = map[string]bool{
	"llvm.amdgcn.permlane16": true, "llvm.amdgcn.permlanex16": true, "llvm.amdgcn.ds.swizzle": true,
	"llvm.amdgcn.mov.dpp": true, "llvm.amdgcn.update.dpp": true, "llvm.amdgcn.interp.p1": true,
	"llvm.amdgcn.interp.p2": true, "llvm.amdgcn.interp.mov": true,
}

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if code == 0 && flag.Lookup("test.run").Value.String() == "" {
		var missing []string
		for op := ir.Op(1); op.String() != "op?"; op++ {
			if !covOps[op] {
				missing = append(missing, "op "+op.String())
			}
		}
		for _, it := range ir.Intrinsics() {
			if !covIntrin[it.Name] && !unsupportedIntrinsics[it.Name] {
				missing = append(missing, "intrinsic "+it.Name)
			}
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			fmt.Fprintf(os.Stderr, "FAIL: not exercised by any test: %s\n", strings.Join(missing, ", "))
			code = 1
		}
	}
	os.Exit(code)
}
