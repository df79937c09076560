// Package hostile holds the hostile-input table test: every input path of
// passlens (HLSL with its preprocessor, .pir, .ll, interpreter input JSON,
// replay scripts) fed inputs built to hurt — deep nesting, long chains,
// unbounded reads, huge sizes, control bytes — each of which must end,
// within the budget of 10 s and 1 GiB for an input of at most 4 MiB, in a
// located error or a verified result. The package has no code of its own;
// the test is in hostile_test.go.
package hostile
