package uniformity_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"passlens/compiler/analysis/analysistest"
	"passlens/compiler/analysis/uniformity"
	"passlens/compiler/analysis/uniformity/uniformitytest"
	"passlens/compiler/ir"
)

// randomValueFuncs generates count decorated random functions of every
// shape with 1..maxBlocks blocks.
func randomValueFuncs(seed uint64, count, maxBlocks int, vo uniformitytest.ValueOptions) []*uniformitytest.ValueFunc {
	rng := rand.New(rand.NewPCG(seed, 0x756e69))
	shapes := []analysistest.Shape{analysistest.ShapeMixed, analysistest.ShapeMixed, analysistest.ShapeReducible, analysistest.ShapeIrreducible, analysistest.ShapeIrreducible, analysistest.ShapeLocal, analysistest.ShapeNested}
	out := make([]*uniformitytest.ValueFunc, count)
	for i := range out {
		n := 1 + rng.IntN(maxBlocks)
		f := analysistest.RandomFunc(rng, fmt.Sprintf("f%d", i), analysistest.RandOptions{Blocks: n, Shape: shapes[rng.IntN(len(shapes))]})
		o := vo
		if o.DivergentCond == 0 && rng.IntN(3) == 0 {
			o.DivergentCond, o.UniformCond = 0.7, 0.1 // dense divergence
		}
		out[i] = uniformitytest.DecorateFunc(rng, f, o)
	}
	return out
}

// resultKeys renders the parts of a result that must agree between the
// engines, as sorted strings.
func resultKeys(u *uniformity.UniformityInfo) []string {
	var ks []string
	vals, terms := uniformity.DivergentForTest(u)
	for _, v := range vals {
		ks = append(ks, "value "+valueKey(v))
	}
	for _, b := range terms {
		ks = append(ks, "term "+b.Name())
	}
	for _, c := range u.AssumedDivergentCycles() {
		ks = append(ks, "assumed "+u.CycleString(c))
	}
	for _, c := range u.DivergentExitCycles() {
		ks = append(ks, "exit "+u.CycleString(c))
	}
	// Whether a cycle's exits are analysed when the cycle is also assumed
	// divergent depends on LLVM's worklist order; only compare the others.
	assumed := u.AssumedDivergentCycles()
	for _, t := range u.TemporalDivergence() {
		if slices.ContainsFunc(assumed, func(a int) bool { return u.Cycles.ContainsCycle(a, t.Cycle) }) {
			continue
		}
		ks = append(ks, fmt.Sprintf("temporal %s -> %s in %s", t.Value.Name(), ir.InstrString(t.User), u.CycleString(t.Cycle)))
	}
	slices.Sort(ks)
	return slices.Compact(ks)
}

func diffKeys(want, got []string) []string {
	var d []string
	for _, k := range want {
		if _, ok := slices.BinarySearch(got, k); !ok {
			d = append(d, "missing "+k)
		}
	}
	for _, k := range got {
		if _, ok := slices.BinarySearch(want, k); !ok {
			d = append(d, "unexpected "+k)
		}
	}
	return d
}

// TestUniformityFastMatchesReference checks the fast engine (with and
// without pruning, in both branch orders) against the literal transcription
// of LLVM's algorithm on thousands of random functions.
func TestUniformityFastMatchesReference(t *testing.T) {
	count := 3000
	if testing.Short() {
		count = 500
	}
	fs := randomValueFuncs(1, count, 40, uniformitytest.ValueOptions{})
	m := ir.NewModule("rand")
	var stats uniformity.UniformityStats
	for _, vf := range fs {
		f := vf.BuildIR(m)
		ref := resultKeys(uniformity.Uniformity(f, uniformity.WithReferenceAlgorithm()))
		for _, cfg := range []struct {
			name string
			opts []uniformity.UniformityOption
		}{
			{"fast", nil},
			{"fast-noprune", []uniformity.UniformityOption{uniformity.WithoutPruning()}},
			{"fast-nojumps", []uniformity.UniformityOption{uniformity.WithoutJumps()}},
			{"fast-plain", []uniformity.UniformityOption{uniformity.WithoutJumps(), uniformity.WithoutPruning()}},
			{"fast-upstream", []uniformity.UniformityOption{uniformity.WithBranchesUpstreamFirstForTest()}},
		} {
			u := uniformity.Uniformity(f, cfg.opts...)
			if cfg.name == "fast" {
				stats.Branches += u.Stats.Branches
				stats.Skipped += u.Stats.Skipped
				stats.Pruned += u.Stats.Pruned
				stats.Fallbacks += u.Stats.Fallbacks
			}
			if d := diffKeys(ref, resultKeys(u)); len(d) > 0 {
				var sb []byte
				sb = fmt.Appendf(sb, "%s differs from the reference on %s:\n", cfg.name, f.Name())
				for _, x := range d {
					sb = fmt.Appendf(sb, "  %s\n", x)
				}
				sb = fmt.Appendf(sb, "%s", f.String())
				t.Fatal(string(sb))
			}
		}
	}
	t.Logf("%d functions; fast engine: %d divergent branches, %d skipped, %d pruned, %d fallbacks",
		len(fs), stats.Branches, stats.Skipped, stats.Pruned, stats.Fallbacks)
}

func valueKey(v ir.Value) string {
	if in, ok := v.(*ir.Instr); ok {
		return ir.InstrString(in)
	}
	return v.Ref()
}

// TestUniformityStepBudget checks what the step budget gives up: with a
// budget of one step, values, terminators and assumed-divergent cycles are
// unchanged, and the only cycles with divergent exit that can be missing
// are inside cycles assumed divergent.
func TestUniformityStepBudget(t *testing.T) {
	fs := randomValueFuncs(7, 800, 40, uniformitytest.ValueOptions{})
	m := ir.NewModule("budget")
	spent, missing := 0, 0
	for _, vf := range fs {
		f := vf.BuildIR(m)
		exact := uniformity.Uniformity(f)
		cheap := uniformity.Uniformity(f, uniformity.WithStepBudgetForTest(1))
		if cheap.Stats.BudgetSpent {
			spent++
		}
		strip := func(ks []string) []string {
			return slices.DeleteFunc(slices.Clone(ks), func(k string) bool {
				return strings.HasPrefix(k, "exit ") || strings.HasPrefix(k, "temporal ")
			})
		}
		if d := diffKeys(strip(resultKeys(exact)), strip(resultKeys(cheap))); len(d) > 0 {
			t.Fatalf("%s: values differ under the step budget: %v", f.Name(), d)
		}
		ex := map[int]bool{}
		for _, c := range cheap.DivergentExitCycles() {
			ex[c] = true
		}
		for _, c := range exact.DivergentExitCycles() {
			if ex[c] {
				continue
			}
			missing++
			inside := slices.ContainsFunc(exact.AssumedDivergentCycles(), func(a int) bool { return exact.Cycles.ContainsCycle(a, c) })
			if !inside {
				t.Fatalf("%s: budget lost the divergent exit of %s, which is not inside a cycle assumed divergent", f.Name(), exact.CycleString(c))
			}
		}
		for c := range ex {
			if !slices.Contains(exact.DivergentExitCycles(), c) {
				t.Fatalf("%s: budget added a divergent exit to %s", f.Name(), exact.CycleString(c))
			}
		}
	}
	t.Logf("%d functions, budget spent in %d, %d divergent exits of nested cycles not reported", len(fs), spent, missing)
}
