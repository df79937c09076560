package main

import (
	"errors"
	"io"
)

func init() {
	register(&command{
		name:    "explore",
		summary: "open the interactive explorer (the default)",
		usage: `Usage: passlens [explore] [FILE|samples/NAME] [--target spirv|dxil|sm3] [--passes SPEC]
`,
		run: runExplore,
	})
}

func runExplore(args []string, stdout, stderr io.Writer) error {
	return errors.New("passlens: the explorer is not built yet")
}
