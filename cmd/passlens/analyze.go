package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"passlens/compiler/load"
	"passlens/compiler/pipeline"
	"passlens/internal/headless"
)

func init() {
	register(&command{
		name:    "analyze",
		summary: "print dominator, post-dominator and cycle trees and uniformity like opt-22's print<...> passes",
		usage: `Usage: passlens analyze [--print=KINDS] [--explain=VALUE] [--passes SPEC] [--filter-func=F] FILE

Prints, per function, in the shapes of
  opt-22 -mtriple=amdgcn-- -passes='print<domtree>,print<postdomtree>,print<cycles>,print<uniformity>'
with the same block and value names, so the outputs compare as sets.

  --print=KINDS     comma-separated: domtree, postdomtree, cycles, uniformity (default all)
  --explain=VALUE   say why VALUE (e.g. %x) is divergent, as a chain back to its source
  --passes SPEC     analyze the module after running these passes
  --filter-func=F   only function F
`,
		run: runAnalyze,
	})
}

func runAnalyze(args []string, stdout, stderr io.Writer) error {
	c := commands["analyze"]
	fs := newFlags(c, stderr)
	kinds := fs.String("print", strings.Join(headless.AnalysisKinds, ","), "")
	explain := fs.String("explain", "", "")
	spec := fs.String("passes", "", "")
	filter := fs.String("filter-func", "", "")
	entry := fs.String("entry", "", "")
	pos, err := parseFlags(c, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return &usageError{c, "expected one input file"}
	}
	for _, k := range strings.Split(*kinds, ",") {
		if !validKind(k) {
			return &usageError{c, fmt.Sprintf("unknown analysis %q (want %s)", k, strings.Join(headless.AnalysisKinds, ", "))}
		}
	}
	m, _, err := load.File(pos[0], load.Options{Entry: *entry})
	if err != nil {
		return err
	}
	if *spec != "" {
		sp, err := pipeline.Parse(*spec)
		if err != nil {
			return &usageError{c, err.Error()}
		}
		res := pipeline.Run(context.Background(), m, sp, pipeline.Options{VerifyEach: true})
		if res.Err != nil {
			return stepFailure(res.Err)
		}
	}
	if *explain != "" {
		return headless.Explain(stdout, m, *filter, *explain)
	}
	return headless.Analyze(stdout, m, strings.Split(*kinds, ","), *filter)
}

func validKind(k string) bool {
	for _, x := range headless.AnalysisKinds {
		if x == k {
			return true
		}
	}
	return false
}
