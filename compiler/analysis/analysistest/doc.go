// Package analysistest is test support for compiler/analysis: random CFGs
// of several shapes and their LLVM IR form for opt-22 (randcfg.go), naive
// reference implementations of the analyses used as oracles (naive.go),
// the parser of opt-22's print<domtree>/print<postdomtree>/print<cycles>
// output and set comparisons against passlens's results (optparse.go), and
// a small reader of the CFG of .ll files (graphll.go). No production
// package imports it (the deadcode gate in .ci/run checks this).
package analysistest
