// Package fixedbugs holds regression inputs, like the Go repository's
// test/fixedbugs: every file in testdata (.hlsl, .pir or .ll) reproduces a
// bug that was fixed, and its test compiles it through the default pipeline
// of every target (passes.Targets), with the verifier after each pass, and
// emits it. The package has no code; its test does the work.
//
// For each file and target the test requires:
//
//   - the pipeline and the back end succeed, or fail with an error that
//     contains the text a "fixedbugs: <target> rejects "<text>"" line of the
//     file names (a target that lacks a feature must say so, never panic);
//   - the output passes the target's external validator where there is one
//     (spirv-val for spirv; for dxil the llvm-as-22 check, which
//     internal/testtool/llvmverify runs without a process per module);
//   - when the module runs in the interpreter (with <name>.json beside it as
//     input, if present), every snapshot computes the input's results, and
//     a "fixedbugs: buffer <name> = <ints>" line pins those results to the
//     values the bug report gives.
//
// Adding a regression is adding a file whose comment says which bug it
// reproduces (commit, issue) and what the right behaviour is.
package fixedbugs
