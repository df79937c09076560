package uniformity

import "passlens/compiler/ir"

// Test-only options and access for the external test package (uniformity
// oracle tests and benchmarks). The options set fields of uniformityConfig
// that production callers leave at their defaults.

// WithReferenceAlgorithm runs a literal transcription of LLVM's
// GenericUniformityAnalysisImpl instead of the fast engine: a LIFO
// worklist, and every divergent branch propagated in full. It is the test
// oracle for the fast engine and takes quadratic time on dense divergence.
// Reasons are not recorded (Reason reports Kind DivSource with Source
// "reference").
func WithReferenceAlgorithm() UniformityOption {
	return func(c *uniformityConfig) { c.reference = runReference }
}

// WithoutPruning disables branch skipping and pruned propagation in the
// fast engine (for tests and measurements).
func WithoutPruning() UniformityOption {
	return func(c *uniformityConfig) { c.noPrune = true }
}

// WithoutJumps disables the dominator-subtree jumps of the fast engine's
// propagation (for tests and measurements).
func WithoutJumps() UniformityOption {
	return func(c *uniformityConfig) { c.noJumps = true }
}

// withAllExits makes both engines analyse the exits of every cycle with a
// divergent exit (tests).
func withAllExits() UniformityOption {
	return func(c *uniformityConfig) { c.allExits = true }
}

// withStepBudget sets the fast engine's step budget (tests).
func withStepBudget(n int) UniformityOption {
	return func(c *uniformityConfig) { c.stepBudget = n }
}

// withBranchOrder selects the branch order of the fast engine (tests).
func withBranchOrder(o branchOrder) UniformityOption {
	return func(c *uniformityConfig) { c.order = o }
}

// WithAllExitsForTest exposes withAllExits.
var WithAllExitsForTest = withAllExits

// WithBranchesUpstreamFirstForTest propagates divergent branches upstream
// first (withBranchOrder(branchesUpstreamFirst)).
func WithBranchesUpstreamFirstForTest() UniformityOption {
	return withBranchOrder(branchesUpstreamFirst)
}

// WithStepBudgetForTest exposes withStepBudget.
var WithStepBudgetForTest = withStepBudget

// DivergentForTest lists the values and the blocks of the terminators
// marked divergent, read straight from the result arrays.
func DivergentForTest(u *UniformityInfo) (vals []ir.Value, terms []*ir.Block) {
	for id, d := range u.res.div {
		if d {
			vals = append(vals, u.p.vals[id])
		}
	}
	for b, d := range u.res.divTerm {
		if d {
			terms = append(terms, u.CFG.Blocks[b])
		}
	}
	return vals, terms
}
