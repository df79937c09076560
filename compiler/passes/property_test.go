package passes

import (
	"fmt"
	"passlens/compiler/ir/irtest"
	"testing"

	"passlens/compiler/target"
)

// TestPassesOnRandomModules runs each of inline, sroa, simplify and
// scalarize, and their dxil sequence, over random valid modules: the output
// must verify, round-trip through the parser, and the pass must report
// "changed" exactly when the text changed.
func TestPassesOnRandomModules(t *testing.T) {
	t.Parallel()
	seeds := 100
	if testing.Short() {
		seeds = 25
	}
	sequences := []string{"inline", "sroa", "simplify", "scalarize", "inline,sroa,simplify,scalarize,simplify"}
	for seed := 0; seed < seeds; seed++ {
		opts := irtest.RandomOptions{Unstructured: seed%3 == 0, PlainNames: seed%2 == 0}
		for _, seq := range sequences {
			t.Run(fmt.Sprintf("seed%d/%s", seed, seq), func(t *testing.T) {
				m := irtest.RandomModule(int64(seed), opts)
				runPasses(t, m, seq, target.DXIL)
			})
		}
	}
}
