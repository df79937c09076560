// Package uniformity computes which values and terminators of a function
// may differ between the lanes of a wave (LLVM's uniformity analysis, with
// a reason for every divergent value), on top of the CFG analyses of
// package analysis (dominator tree, cycle hierarchy). docs/analyses.md
// describes the model and the algorithm; uniformity.go is the entry point.
package uniformity
