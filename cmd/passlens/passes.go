package main

import (
	_ "embed"
	"fmt"
	"io"
	"strings"

	"passlens/compiler/passes"
	"passlens/compiler/target"
)

//go:generate sh -c "go run . passes --markdown > ../../docs/passes.md"

// The hand-written prose of docs/passes.md around the generated sections.
var (
	//go:embed passes_header.md
	passesHeader string
	//go:embed passes_footer.md
	passesFooter string
)

func init() {
	register(&command{
		name:    "passes",
		summary: "list the passes, their ordering constraints and each target's default pipeline",
		usage: `Usage: passlens passes [--doc | --markdown]

Lists every pass with a one-line description and the targets whose default
pipelines use it, then the ordering constraints and default pipelines.
--doc adds each pass's longer description. --markdown prints all of it as
Markdown (docs/passes.md is this output).
`,
		run: runPasses,
	})
}

func runPasses(args []string, stdout, stderr io.Writer) error {
	c := commands["passes"]
	fs := newFlags(c, stderr)
	doc := fs.Bool("doc", false, "print each pass's long description")
	md := fs.Bool("markdown", false, "print the pass documentation as Markdown (docs/passes.md)")
	pos, err := parseFlags(c, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return &usageError{c, "unexpected argument " + pos[0]}
	}
	if *md {
		_, err := io.WriteString(stdout, passesMarkdown())
		return err
	}
	fmt.Fprintln(stdout, "Passes:")
	for _, p := range passes.All {
		targets := strings.Join(target.Strings(p.Targets), ",")
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

// passesMarkdown is docs/passes.md: the header, one section per pass in
// table order, the ordering rules and default pipelines, and the footer.
func passesMarkdown() string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(passesHeader) + "\n")
	for _, p := range passes.All {
		b.WriteString("\n" + p.Markdown())
	}
	b.WriteString("\n## Ordering rules\n\nWhen both passes of a rule run, the first must come before the second.\n")
	b.WriteString("The rules are hard requirements (the later pass relies on, or would undo,\n")
	b.WriteString("the earlier one), not tuning advice: a pipeline that breaks one is rejected\n")
	b.WriteString("with the rule's reason.\n\n")
	b.WriteString("| before | after | why |\n|---|---|---|\n")
	for _, r := range passes.Order {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", r.Before, r.After, strings.ReplaceAll(r.Why, "|", `\|`))
	}
	b.WriteString("\n## Default pipelines\n\n")
	for _, t := range passes.Targets {
		fmt.Fprintf(&b, "- %s: `%s`\n", t, strings.Join(passes.DefaultPipelines[t], ","))
	}
	b.WriteString("\n" + strings.TrimSpace(passesFooter) + "\n")
	return b.String()
}
