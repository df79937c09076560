package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"passlens/compiler/interp"
	"passlens/compiler/load"
	"passlens/compiler/pipeline"
	"passlens/compiler/target"
	"passlens/internal/diag"
	"passlens/internal/limits"
)

func init() {
	register(&command{
		name:    "run",
		summary: "run a module on the SIMT interpreter and print the outputs as JSON",
		usage: `Usage: passlens run FILE [flags]

Runs FILE's entry point on simulated waves and prints buffers, render-target
pixels and per-lane outputs as JSON (format: docs/run.md).

  --entry E        entry point (default: the only one)
  -enable-16bit-types  HLSL: dxc's 16-bit mode (without it half and min16* are 32-bit);
                       with it half, float16_t, int16_t and uint16_t are 16-bit
` + profileHelp + `  --input in.json  buffers, textures, samplers, uniforms, dispatch size, pixels,
                   kernel arguments (default: zero-filled buffers, one group)
  --workgroup-size X[,Y[,Z]]
                   compute work-group size, overriding numthreads and the input's
                   workgroup_size (LLVM kernels: default !reqd_work_group_size, else 64)
  --wave N         lanes per wave, 4..64 (default: the entry's [WaveSize(n)], else 32)
  --policy P       reconvergence policy: maximal or switch-separate (default maximal)
  --denorm D       float32 denormals: ftz (flushed, D3D's rule; default) or preserve
  --passes SPEC    run these passes first
  --target T       run the target's default pipeline first
  --after PASS     with --target/--passes: stop after PASS
  --trace          include every wave operation and the lanes that took part
  --png FILE       pixel shaders: draw the entry point over a full-viewport quad and
                   write render target --rt as a PNG instead of printing JSON
                   (conversion to 8 bits: docs/run.md, "Pictures"); an embedded
                   sample uses its bundled input unless --input is given
  --size WxH       with --png: the viewport in pixels, 1..512 a side
                   (default: the input's rect, else 64x64)
  --rt N           with --png: which render target, 0 = SV_Target0 (default 0)
`,
		run: runRun,
	})
}

func runRun(args []string, stdout, stderr io.Writer) error {
	c := commands["run"]
	fs := newFlags(c, stderr)
	entry := fs.String("entry", "", "")
	half := fs.Bool("enable-16bit-types", false, "")
	input := fs.String("input", "", "")
	wave := fs.Int("wave", 0, "")
	policy := fs.String("policy", "maximal", "")
	denorm := fs.String("denorm", "ftz", "")
	spec := fs.String("passes", "", "")
	tgt := fs.String("target", string(target.PIR), "")
	after := fs.String("after", "", "")
	trace := fs.Bool("trace", false, "")
	wgs := fs.String("workgroup-size", "", "")
	pngOut := fs.String("png", "", "")
	size := fs.String("size", "", "")
	rt := fs.Int("rt", 0, "")
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
	pol, err := interp.ParsePolicy(*policy)
	if err != nil {
		return &usageError{c, err.Error()}
	}
	dn, err := interp.ParseDenorm(*denorm)
	if err != nil {
		return &usageError{c, err.Error()}
	}
	if *wave != 0 && *wave < interp.MinWaveSize || *wave > interp.MaxWaveSize || *wave&(*wave-1) != 0 {
		return &usageError{c, fmt.Sprintf("--wave %d: want a power of two from %d to %d", *wave, interp.MinWaveSize, interp.MaxWaveSize)}
	}
	var pic *pictureFlags
	if *pngOut != "" || *size != "" || *rt != 0 {
		if pic, err = parsePictureFlags(c, *pngOut, *size, *rt, pos[0]); err != nil {
			return err
		}
	}
	sp, err := selectPipeline(c, *spec, target.Name(*tgt), *after)
	if err != nil {
		return err
	}
	var in *interp.Input
	if *input != "" {
		data, err := limits.ReadFile(*input, limits.MaxModuleSize)
		if err != nil {
			return fmt.Errorf("passlens: %v", err)
		}
		if in, err = interp.ParseInputFile(*input, data); err != nil {
			return fmt.Errorf("passlens: %v", err)
		}
	}
	if *wgs != "" {
		size, err := parseSize3(*wgs)
		if err != nil {
			return &usageError{c, "--workgroup-size " + *wgs + ": " + err.Error()}
		}
		if in == nil {
			in = &interp.Input{}
		}
		in.WorkgroupSize = size
	}
	m, src, err := load.File(pos[0], load.Options{Entry: *entry, Enable16BitTypes: *half, Profile: prof, SM1Textures: *tgt == string(target.SM3)})
	if err != nil {
		return err
	}
	if len(sp.Steps) > 0 {
		res := pipeline.Run(context.Background(), m, sp, pipeline.Options{Target: target.Name(*tgt), VerifyEach: true})
		if res.Err != nil {
			return diag.Step(src, m, res.Err)
		}
	}
	opts := interp.Options{Entry: *entry, WaveSize: *wave, Policy: pol, Trace: *trace, Denorm: dn}
	if pic != nil {
		if in == nil && src.Input != nil {
			// An embedded sample's bundled input, as the explorer uses it.
			if in, err = interp.ParseInputFile(src.Path+".json", src.Input); err != nil {
				return fmt.Errorf("passlens: %v", err)
			}
		}
		return writePicture(src, m, in, opts, pic)
	}
	r, err := interp.Run(m, in, opts)
	if err != nil {
		return interpFailure(src, err)
	}
	return r.WriteJSON(stdout)
}

// interpFailure locates an interpreter error in the user's file: at the
// instruction's source position when it has one (HLSL and LLVM input), else at the
// file.
func interpFailure(src *load.Source, err error) error {
	var ie *interp.Error
	if errors.As(err, &ie) && ie.Loc.Line > 0 && (src.Kind == "hlsl" || src.Kind == "ll") {
		text := strings.Replace(err.Error(), fmt.Sprintf(" (line %d:%d)", ie.Loc.Line, ie.Loc.Col), "", 1)
		return fmt.Errorf("%s:%d:%d: %s", src.Path, ie.Loc.Line, ie.Loc.Col, text)
	}
	return fmt.Errorf("%s: %v", src.Path, err)
}

// parseSize3 reads "X", "X,Y" or "X,Y,Z" (each 1 to 1024; missing ones
// are 1).
func parseSize3(s string) ([3]int, error) {
	out := [3]int{1, 1, 1}
	parts := strings.Split(s, ",")
	if len(parts) > 3 {
		return out, fmt.Errorf("give at most three sizes")
	}
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 || n > 1024 {
			return out, fmt.Errorf("%q is not a size from 1 to 1024", p)
		}
		out[i] = n
	}
	if out[0]*out[1]*out[2] > 1024 {
		return out, fmt.Errorf("more than 1024 threads")
	}
	return out, nil
}
