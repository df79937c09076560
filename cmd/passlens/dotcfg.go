package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"passlens/compiler/pipeline"
	"passlens/tui"
	"passlens/tui/backend"
)

// writeDotCFG writes the CFG of every function after the input and after
// every pass that changed the IR into dir, as Graphviz DOT with the
// instructions, edge labels, divergence and the blocks and edges the pass
// added (LLVM's -print-changed=dot-cfg in spirit): NN-PASS.FUNC.dot.
func writeDotCFG(dir string, res *pipeline.Result, fn string, stderr io.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("passlens: --dot-cfg: %v", err)
	}
	prev := map[string]*tui.Analysis{}
	n := 0
	for i, s := range res.Snapshots {
		if s.Err != nil || (i > 0 && !s.Changed) {
			continue
		}
		m, err := s.Module()
		if err != nil {
			return fmt.Errorf("passlens: --dot-cfg: snapshot %d (%s): %v", i, s.Pass, err)
		}
		step := backend.StepOf(s)
		for _, f := range m.Funcs {
			if f.IsDeclaration() || (fn != "" && f.Name() != fn) {
				continue
			}
			a := backend.Analyze(f)
			name := fmt.Sprintf("%02d-%s.%s.dot", i, fileSafe(step.Pass), fileSafe(f.Name()))
			text := tui.CFGDOT(a, prev[f.Name()], step.Lines, step.Funcs)
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				return fmt.Errorf("passlens: --dot-cfg: %v", err)
			}
			prev[f.Name()] = a
			n++
		}
	}
	fmt.Fprintf(stderr, "passlens: wrote %d DOT files to %s\n", n, dir)
	return nil
}

// fileSafe keeps a pass or function name usable as a file name.
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, s)
}
