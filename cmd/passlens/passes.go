package main

import (
	"fmt"
	"io"
	"strings"

	"passlens/compiler/passes"
)

func init() {
	register(&command{
		name:    "passes",
		summary: "list the passes, their ordering constraints and each target's default pipeline",
		usage: `Usage: passlens passes [--doc]

Lists every pass with a one-line description and the targets whose default
pipelines use it, then the ordering constraints and default pipelines.
--doc adds each pass's longer description.
`,
		run: runPasses,
	})
}

func runPasses(args []string, stdout, stderr io.Writer) error {
	c := commands["passes"]
	fs := newFlags(c, stderr)
	doc := fs.Bool("doc", false, "print each pass's long description")
	pos, err := parseFlags(c, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return &usageError{c, "unexpected argument " + pos[0]}
	}
	fmt.Fprintln(stdout, "Passes:")
	for _, p := range passes.All {
		targets := strings.Join(p.Targets, ",")
		if targets == "" {
			targets = "-"
		}
		fmt.Fprintf(stdout, "  %-28s %-14s %s\n", p.Name, targets, p.Summary)
		if *doc && p.Doc != "" {
			for _, l := range strings.Split(strings.TrimSpace(p.Doc), "\n") {
				fmt.Fprintf(stdout, "      %s\n", l)
			}
		}
	}
	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout, "Ordering constraints (when both run, the first must come before the second):")
	for _, r := range passes.Order {
		fmt.Fprintf(stdout, "  %s before %s: %s\n", r.Before, r.After, r.Why)
	}
	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout, "Default pipelines:")
	for _, t := range passes.Targets {
		fmt.Fprintf(stdout, "  %-6s %s\n", t, strings.Join(passes.DefaultPipelines[t], ","))
	}
	return nil
}
