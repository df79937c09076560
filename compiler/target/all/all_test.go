package all

import (
	"slices"
	"testing"

	"passlens/compiler/passes"
	"passlens/compiler/target"
)

// Every target with a default pipeline has a back end linked in (a missing
// import once left `compile --target dxil` without one).
func TestEveryPipelineTargetHasABackEnd(t *testing.T) {
	names := target.Names()
	for _, tg := range passes.Targets {
		if !slices.Contains(names, tg) {
			t.Errorf("target %q has a default pipeline but no registered back end (have %v)", tg, names)
		}
	}
}
