package dxil

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"passlens/compiler/ir/irtest"
	"passlens/compiler/pipeline"
	"passlens/compiler/target"
)

// TestDXILRandomModules runs random valid modules through the dxil pipeline
// and the back end: Emit must never hit an internal error (a recovered
// panic), and every output it produces must be vector-free LLVM that
// llvm-as-22 and opt-22 accept. Errors for constructs DXIL cannot express
// (a vector surviving in a signature, an intrinsic without a DXIL
// operation) are allowed but counted.
func TestDXILRandomModules(t *testing.T) {
	t.Parallel()
	spec, err := pipeline.Default(target.DXIL)
	if err != nil {
		t.Fatal(err)
	}
	const n = 40
	ok, rejected := 0, map[string]int{}
	for seed := int64(1); seed <= n; seed++ {
		m := irtest.RandomModule(seed, irtest.RandomOptions{PlainNames: true})
		if res := pipeline.Run(context.Background(), m, spec, pipeline.Options{}); res.Err != nil {
			rejected["pipeline"]++
			continue
		}
		out, err := Emit(m)
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Errorf("seed %d: %v", seed, err)
			}
			rejected[reason(err)]++
			t.Logf("seed %d: %v", seed, err)
			continue
		}
		name := fmt.Sprintf("random-%d", seed)
		checkScalar(t, name, out.Text)
		checkLLVM(t, name, out.Text)
		ok++
	}
	t.Logf("%d/%d random modules emitted and verified; rejected: %v", ok, n, rejected)
}

func reason(err error) string {
	msg := err.Error()
	for _, r := range []string{"vector value survived", "vector constant", "parameter", "no DXIL operation", "no DXIL overload", "initializer"} {
		if strings.Contains(msg, r) {
			return r
		}
	}
	return msg
}
