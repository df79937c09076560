package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"passlens/compiler/interp"
	"passlens/compiler/load"
	"passlens/compiler/pipeline"
)

func init() {
	register(&command{
		name:    "run",
		summary: "run a module on the SIMT interpreter and print the outputs as JSON",
		usage: `Usage: passlens run FILE [flags]

Runs FILE's entry point on simulated waves and prints buffers, render-target
pixels and per-lane outputs as JSON (format: docs/run.md).

  --entry E        entry point (default: the only one)
  --input in.json  buffers, uniforms, dispatch size, pixels (default: zero-filled buffers, one group)
  --wave N         lanes per wave, 4..64 (default 32)
  --policy P       reconvergence policy: maximal or switch-separate (default maximal)
  --denorm D       float32 denormals: ftz (flushed, D3D's rule; default) or preserve
  --passes SPEC    run these passes first
  --target T       run the target's default pipeline first
  --after PASS     with --target/--passes: stop after PASS
  --trace          include every wave operation and the lanes that took part
`,
		run: runRun,
	})
}

func runRun(args []string, stdout, stderr io.Writer) error {
	c := commands["run"]
	fs := newFlags(c, stderr)
	entry := fs.String("entry", "", "")
	input := fs.String("input", "", "")
	wave := fs.Int("wave", interp.DefaultWaveSize, "")
	policy := fs.String("policy", "maximal", "")
	denorm := fs.String("denorm", "ftz", "")
	spec := fs.String("passes", "", "")
	tgt := fs.String("target", "pir", "")
	after := fs.String("after", "", "")
	trace := fs.Bool("trace", false, "")
	pos, err := parseFlags(c, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return &usageError{c, "expected one input file"}
	}
	pol, err := interp.ParsePolicy(*policy)
	if err != nil {
		return &usageError{c, err.Error()}
	}
	dn, err := interp.ParseDenorm(*denorm)
	if err != nil {
		return &usageError{c, err.Error()}
	}
	if *wave < interp.MinWaveSize || *wave > interp.MaxWaveSize || *wave&(*wave-1) != 0 {
		return &usageError{c, fmt.Sprintf("--wave %d: want a power of two from %d to %d", *wave, interp.MinWaveSize, interp.MaxWaveSize)}
	}
	if *tgt != "pir" && !validTarget(*tgt) {
		return &usageError{c, fmt.Sprintf("unknown target %q", *tgt)}
	}
	var in *interp.Input
	if *input != "" {
		data, err := os.ReadFile(*input)
		if err != nil {
			return fmt.Errorf("passlens: %v", err)
		}
		if in, err = interp.ParseInput(data); err != nil {
			return fmt.Errorf("passlens: %s: %v", *input, err)
		}
	}
	m, _, err := load.File(pos[0], load.Options{Entry: *entry})
	if err != nil {
		return err
	}
	sp, err := pipelineSpec(c, *spec, *tgt)
	if err != nil {
		return err
	}
	if *after != "" {
		n := -1
		for i, st := range sp.Steps {
			if st.Name == *after {
				n = i
			}
		}
		if n < 0 {
			return &usageError{c, fmt.Sprintf("--after %s: no such pass in the pipeline %s", *after, sp)}
		}
		sp.Steps = sp.Steps[:n+1]
	}
	if len(sp.Steps) > 0 {
		res := pipeline.Run(context.Background(), m, sp, pipeline.Options{Target: *tgt, VerifyEach: true})
		if res.Err != nil {
			return stepFailure(res.Err)
		}
	}
	r, err := interp.Run(m, in, interp.Options{Entry: *entry, WaveSize: *wave, Policy: pol, Trace: *trace, Denorm: dn})
	if err != nil {
		return fmt.Errorf("passlens: %v", err)
	}
	return r.WriteJSON(stdout)
}
