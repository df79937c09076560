package interp

import (
	"errors"
	"passlens/compiler/ir/irtest"
	"strings"
	"testing"
)

// TestIRRandomModules runs the random valid modules of ir.RandomModule
// (structured and unstructured CFGs, every instruction kind) on every entry
// point under both policies: a run may fail with a located *Error (step
// limit, divergent barrier, unreachable, ...) but never crash, and it is
// deterministic.
func TestIRRandomModules(t *testing.T) {
	t.Parallel()
	n := 120
	if testing.Short() {
		n = 30
	}
	kinds := map[string]int{}
	for seed := int64(0); seed < int64(n); seed++ {
		m := irtest.RandomModule(seed, irtest.RandomOptions{Unstructured: seed%2 == 1})
		noteCoverage(m)
		for _, ep := range m.EntryPoints() {
			for _, p := range Policies() {
				opts := Options{Entry: ep.Name(), WaveSize: 8, Policy: p, MaxSteps: 20000, Trace: true}
				in := &Input{Rect: &Rect{Width: 4, Height: 3}, VertexCount: 5}
				r1, err1 := Run(m, in, opts)
				r2, err2 := Run(m, in, opts)
				if err1 != nil {
					if strings.Contains(err1.Error(), "internal error") {
						t.Fatalf("seed %d @%s %s: %v\n%s", seed, ep.Name(), p, err1, m)
					}
					var e *Error
					if !errors.As(err1, &e) {
						t.Fatalf("seed %d: error is not an *Error: %v", seed, err1)
					}
					if err2 == nil || err1.Error() != err2.Error() {
						t.Fatalf("seed %d: nondeterministic errors %v / %v", seed, err1, err2)
					}
					kinds[sentinelName(err1)]++
					continue
				}
				kinds["ok"]++
				if err2 != nil {
					t.Fatalf("seed %d: second run failed: %v", seed, err2)
				}
				if ok, diff := r1.Equal(r2); !ok {
					t.Fatalf("seed %d @%s %s: nondeterministic: %s", seed, ep.Name(), p, diff)
				}
			}
		}
	}
	t.Logf("outcomes: %v", kinds)
}

func sentinelName(err error) string {
	for _, s := range []error{ErrStepLimit, ErrDivergentBarrier, ErrUnsupported, ErrUndefined, ErrReadOnly, ErrInput, ErrMalformed} {
		if errors.Is(err, s) {
			return s.Error()
		}
	}
	return "other: " + err.Error()
}
