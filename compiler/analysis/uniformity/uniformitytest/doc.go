// Package uniformitytest is test support for compiler/analysis/uniformity:
// random functions with uniform and divergent values, as LLVM IR for
// opt-22 and as passlens IR (uniformity_gen.go), and the parser of opt-22's
// print<uniformity> output with the set comparison against passlens's
// results (uniformity_opt.go). No production package imports it.
package uniformitytest
