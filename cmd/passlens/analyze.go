package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"passlens/compiler/load"
	"passlens/compiler/pipeline"
	"passlens/compiler/target"
	"passlens/internal/diag"
	"passlens/internal/headless"
)

func init() {
	register(&command{
		name:    "analyze",
		summary: "print dominator, post-dominator and cycle trees and uniformity like opt-22's print<...> passes",
		usage: `Usage: passlens analyze [--print=KINDS] [--explain=VALUE] [--target T] [--passes SPEC] [--after PASS] [--filter-func=F] FILE

Prints, per function, in the shapes of
  opt-22 -mtriple=amdgcn-- -passes='print<domtree>,print<postdomtree>,print<cycles>,print<uniformity>'
with the same block and value names, so the outputs compare as sets. On .ll
input (without --target/--passes) instructions and arguments print in LLVM
syntax, as written in the file, so the output diffs against opt's line by line.

  --print=KINDS     comma-separated: domtree, postdomtree, cycles, uniformity (default all)
  --explain=VALUE   say why VALUE (e.g. %x) is divergent, as a chain back to its source
  --target T        analyze the module after T's default pipeline (spirv, dxil, sm3),
                    i.e. the explorer's final snapshot; default pir: the input module
  --passes SPEC     analyze the module after running these passes instead
  --after PASS      with --target or --passes: stop after (the last run of) PASS
  --entry NAME      HLSL entry point (default main)
  -enable-16bit-types  HLSL: dxc's 16-bit mode (without it half and min16* are 32-bit);
                       with it half, float16_t, int16_t and uint16_t are 16-bit
` + profileHelp + `  --filter-func=F   only function F
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
	half := fs.Bool("enable-16bit-types", false, "")
	tgt := fs.String("target", string(target.PIR), "")
	after := fs.String("after", "", "")
	profName := profileFlag(fs)
	pos, err := parseFlags(c, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return &usageError{c, "expected one input file"}
	}
	prof, err := resolveProfile(c, fs, *profName, tgt)
	if err != nil {
		return err
	}
	for _, k := range strings.Split(*kinds, ",") {
		if !validKind(k) {
			return &usageError{c, fmt.Sprintf("unknown analysis %q (want %s)", k, strings.Join(headless.AnalysisKinds, ", "))}
		}
	}
	sp, err := selectPipeline(c, *spec, target.Name(*tgt), *after)
	if err != nil {
		return err
	}
	// Build only what the requested analyses read: without --explain and
	// passes, dominator, post-dominator and cycle trees need the blocks
	// and terminators alone (load.Options.CFGOnly, docs/cli.md).
	cfgOnly := *explain == "" && len(sp.Steps) == 0 && cfgKindsOnly(strings.Split(*kinds, ","))
	if cfgOnly && os.Getenv("GOGC") == "" {
		// The CFG-only module is small (~70 MB live at most on a
		// 100k-block file, most of it the file and the terminators), so
		// the collector's default headroom of 100% is most of the peak:
		// collecting at 50% costs ~0.2 s of CPU there and keeps the
		// process below opt-22's peak (BENCHMARKS.md).
		debug.SetGCPercent(50)
	}
	m, src, err := load.File(pos[0], load.Options{Entry: *entry, Enable16BitTypes: *half, Profile: prof, SM1Textures: *tgt == string(target.SM3), CFGOnly: cfgOnly})
	if err != nil {
		return err
	}
	if len(sp.Steps) > 0 {
		res := pipeline.Run(context.Background(), m, sp, pipeline.Options{Target: target.Name(*tgt), VerifyEach: true})
		if res.Err != nil {
			return diag.Step(src, m, res.Err)
		}
	}
	if *explain != "" {
		err := headless.Explain(stdout, m, *filter, *explain)
		if err != nil && len(sp.Steps) == 0 && src.Kind == "hlsl" {
			// The explorer shows the module after the target's pipeline;
			// names such as %isCase0 only exist there.
			return fmt.Errorf("%v\n(analyze looks at the input module; the explorer's final snapshot is --target spirv, dxil or sm3)", err)
		}
		return err
	}
	lst := src.Listing
	if len(sp.Steps) > 0 {
		lst = nil // the passes changed the module: print passlens text
	}
	return headless.AnalyzeListing(stdout, m, lst, strings.Split(*kinds, ","), *filter)
}

func validKind(k string) bool {
	for _, x := range headless.AnalysisKinds {
		if x == k {
			return true
		}
	}
	return false
}

// cfgKindsOnly reports whether every analysis in kinds reads only the CFG
// (blocks and terminators): domtree, postdomtree and cycles do;
// uniformity needs every instruction and the LLVM listing.
func cfgKindsOnly(kinds []string) bool {
	for _, k := range kinds {
		if k != "domtree" && k != "postdomtree" && k != "cycles" {
			return false
		}
	}
	return true
}
