package main

import (
	"bytes"
	"fmt"
	"io"

	"passlens/internal/limits"
	"passlens/internal/replay"
)

func init() {
	register(&command{
		name:    "replay",
		summary: "run a replay script (a scripted sequence of explorer steps; see docs/replay.md)",
		usage: `Usage: passlens replay SCRIPT

Runs SCRIPT headless and prints what each command shows. The output is
byte-identical across runs, so scripts can be compared in CI. The explorer
records this format with ctrl+s and plays it with ctrl+o or --replay.
`,
		run: runReplay,
	})
}

func runReplay(args []string, stdout, stderr io.Writer) error {
	c := commands["replay"]
	fs := newFlags(c, stderr)
	pos, err := parseFlags(c, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return &usageError{c, "expected one script"}
	}
	data, err := limits.ReadFile(pos[0], limits.MaxModuleSize)
	if err != nil {
		return fmt.Errorf("passlens: %v", err)
	}
	return replay.Run(pos[0], bytes.NewReader(data), stdout)
}
