package uniformity

import "passlens/compiler/ir"

// Test-only access for the external test package (uniformity oracle tests).

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
