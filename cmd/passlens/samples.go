package main

import (
	"fmt"
	"io"

	"passlens/samples"
)

func init() {
	register(&command{
		name:    "samples",
		summary: "list the embedded sample shaders",
		usage: `Usage: passlens samples [NAME]

Lists the embedded samples; with NAME prints that sample's source.
Any command that takes a FILE also accepts samples/NAME.
`,
		run: runSamples,
	})
}

func runSamples(args []string, stdout, stderr io.Writer) error {
	c := commands["samples"]
	fs := newFlags(c, stderr)
	pos, err := parseFlags(c, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return &usageError{c, "at most one sample name"}
	}
	if len(pos) == 1 {
		s, ok := samples.Lookup(pos[0])
		if !ok {
			return fmt.Errorf("passlens: no sample named %q (see 'passlens samples')", pos[0])
		}
		_, err := stdout.Write(s.Source)
		return err
	}
	// Shorten descriptions only for a person at a terminal; a pipe or a
	// file gets them whole.
	short := isTerminal(stdout)
	for _, s := range samples.All() {
		sum := s.Summary
		if r := []rune(sum); short && len(r) > 72 {
			sum = string(r[:71]) + "…"
		}
		fmt.Fprintf(stdout, "samples/%-20s %s\n", s.Name, sum)
	}
	return nil
}
