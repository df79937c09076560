package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/charmbracelet/x/term"

	"passlens/compiler/ir"
	"passlens/compiler/load"
	"passlens/compiler/passes"
	"passlens/compiler/pipeline"
	"passlens/compiler/target"
	_ "passlens/compiler/target/all" // registers the back ends (and sm3-lower)
	"passlens/internal/atomicfile"
	"passlens/internal/diag"
	"passlens/internal/headless"
)

func init() {
	register(&command{
		name:    "compile",
		summary: "compile a module through a pipeline and print or write the result",
		usage: `Usage: passlens compile FILE|samples/NAME [flags]

Runs FILE through a pass pipeline and prints the target code (or IR).

Flags:
  --target T          spirv, dxil, sm3, pir or amdgcn-ll (default pir: the IR after --passes;
                      amdgcn-ll: that IR as LLVM IR for opt-22 -mtriple=amdgcn--)
  --passes SPEC       pipeline, e.g. inline,sroa,simplify (default: the target's pipeline;
                      none for pir and amdgcn-ll)
  --emit KIND         asm (readable target code), bin (binary, SPIR-V only) or pir (the final IR);
                      default bin when OUT ends in .spv, asm otherwise
  -o OUT              write to OUT (replacing it) instead of standard output; written
                      atomically, never through a symbolic link, never over the input;
                      binary output is never written to a terminal
  --entry NAME        HLSL entry point (default main)
  -D NAME[=VAL], -I DIR   HLSL preprocessor definitions and include directories
  -enable-16bit-types     HLSL: dxc's 16-bit mode (without it half and min16* are 32-bit);
                          with it half, float16_t, int16_t and uint16_t are 16-bit
` + profileHelp + `  --verify-each       run the IR verifier after every pass (default true)
  --print-after-all   print the IR after every pass (*** IR Dump After <pass> ***)
  --print-changed[=diff]  print the IR (or a diff) after passes that changed it
  --print-after=PASS  print the IR after the named pass(es), comma-separated
  --filter-func=F     restrict the printing to function F
  --time-passes       print wall time and allocations of every phase and pass to standard error
  --dot-cfg DIR       write the CFG after the input and every changed pass into DIR as
                      Graphviz DOT with instructions, edge labels, divergence and what changed
`,
		run: runCompile,
	})
}

// optionalValueFlag is a flag usable as --x or --x=value.
type optionalValueFlag struct {
	set   bool
	value string
}

func (f *optionalValueFlag) String() string   { return f.value }
func (f *optionalValueFlag) IsBoolFlag() bool { return true }
func (f *optionalValueFlag) Set(v string) error {
	f.set = true
	if v != "true" {
		f.value = v
	}
	return nil
}

// pipelineSpec resolves --passes / --target into a spec.
func pipelineSpec(c *command, passesFlag string, tgt target.Name) (pipeline.Spec, error) {
	text := passesFlag
	if text == "" && tgt != target.PIR {
		text = strings.Join(passes.DefaultPipelines[tgt], ",")
	}
	spec, err := pipeline.Parse(text)
	if err != nil {
		return spec, &usageError{c, err.Error()}
	}
	return spec, nil
}

func runCompile(args []string, stdout, stderr io.Writer) error {
	c := commands["compile"]
	fs := newFlags(c, stderr)
	tgt := fs.String("target", string(target.PIR), "")
	spec := fs.String("passes", "", "")
	emit := fs.String("emit", "", "")
	out := fs.String("o", "", "")
	entry := fs.String("entry", "", "")
	verifyEach := fs.Bool("verify-each", true, "")
	afterAll := fs.Bool("print-after-all", false, "")
	after := fs.String("print-after", "", "")
	filter := fs.String("filter-func", "", "")
	timePasses := fs.Bool("time-passes", false, "")
	dotCfg := fs.String("dot-cfg", "", "")
	var changed optionalValueFlag
	fs.Var(&changed, "print-changed", "")
	var defs, incs multiFlag
	fs.Var(&defs, "D", "")
	fs.Var(&incs, "I", "")
	half := fs.Bool("enable-16bit-types", false, "")
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
	tg := target.Name(*tgt)
	if !slices.Contains(compileTargets, tg) {
		return &usageError{c, fmt.Sprintf("unknown target %q (want %s)", *tgt, strings.Join(target.Strings(compileTargets), ", "))}
	}
	switch *emit {
	case "", "asm", "bin", "pir":
	default:
		return &usageError{c, fmt.Sprintf("unknown --emit %q (want asm, bin or pir)", *emit)}
	}
	if *emit == "" && strings.EqualFold(filepath.Ext(*out), ".spv") {
		// As glslangValidator and dxc: a .spv output is a binary module.
		*emit = "bin"
	}
	if *emit == "bin" && tg != target.SPIRV {
		return &usageError{c, fmt.Sprintf("--emit=bin: target %s has no binary form (only spirv has)", *tgt)}
	}
	if *out != "" && *out != "-" && atomicfile.SameFile(*out, pos[0]) {
		return &usageError{c, fmt.Sprintf("-o %s names the input file", *out)}
	}
	if *emit == "bin" && (*out == "" || *out == "-") && isTerminal(stdout) {
		return &usageError{c, "refusing to write binary SPIR-V to a terminal (use -o FILE.spv or redirect standard output)"}
	}
	if changed.set && changed.value != "" && changed.value != "diff" {
		return &usageError{c, fmt.Sprintf("--print-changed takes no value or =diff, not %q", changed.value)}
	}
	sp, err := pipelineSpec(c, *spec, tg)
	if err != nil {
		return err
	}
	pipeTarget := tg
	if tg == target.AMDGCNLL {
		pipeTarget = target.PIR
	}
	var tm *passTimer
	if *timePasses {
		tm = &passTimer{}
		defer tm.print(stderr)
	}
	var src *load.Source
	if err := tm.phase("read", func() (err error) { src, err = load.Read(pos[0]); return err }); err != nil {
		return err
	}
	var m *ir.Module
	if err := tm.phase("frontend ("+src.Kind+")", func() (err error) {
		m, err = load.Module(src, load.Options{Entry: *entry, Defines: defs, IncludeDirs: incs, Enable16BitTypes: *half, Profile: prof, SM1Textures: tg == target.SM3})
		return err
	}); err != nil {
		return err
	}
	res := tm.pipeline(func(o pipeline.Options) *pipeline.Result {
		return pipeline.Run(context.Background(), m, sp, o)
	}, pipeline.Options{Target: pipeTarget, VerifyEach: *verifyEach})
	dump := headless.DumpMode{AfterAll: *afterAll, Changed: changed.set && changed.value == "", Diff: changed.value == "diff", After: *after, Func: *filter}
	if dump.Active() {
		headless.Dumps(stdout, res, dump)
	}
	if *dotCfg != "" {
		if err := writeDotCFG(*dotCfg, res, *filter, stderr); err != nil {
			return err
		}
	}
	if res.Err != nil {
		return diag.Step(src, m, res.Err)
	}
	if dump.Active() && pipeTarget != target.PIR && *emit != "pir" {
		// The back end's own stages (SIR for sm3) follow the IR passes.
		o, err := target.Emit(tg, m)
		if err != nil {
			// The IR dumps are printed; the back end's failure is still
			// the command's (located, exit 1), never dropped.
			return diag.Emit(src, tg, err)
		}
		headless.DumpStages(stdout, o.Stages, dump)
	}
	if dump.Active() && *out == "" {
		return nil
	}
	final := m
	var text string
	var bin []byte
	switch {
	case *emit == "pir" || tg == target.PIR:
		tm.phase("print IR", func() error { text = final.String(); return nil })
	default:
		var o *target.Output
		if err := tm.phase("emit ("+*tgt+")", func() (err error) { o, err = target.Emit(tg, final); return err }); err != nil {
			return diag.Emit(src, tg, err)
		}
		text, bin = o.Text, o.Binary
		if *emit == "bin" {
			if bin == nil {
				return fmt.Errorf("passlens: target %s has no binary form (use --emit=asm)", *tgt)
			}
		} else {
			bin = nil
		}
	}
	return tm.phase("write output", func() error { return writeOutput(*out, stdout, text, bin) })
}

// compileTargets are the values of compile --target.
var compileTargets = []target.Name{target.PIR, target.SPIRV, target.DXIL, target.SM3, target.AMDGCNLL}

// writeOutput writes the result to standard output, or atomically to path
// (replacing a file there: naming it with -o is the user's say-so).
func writeOutput(path string, stdout io.Writer, text string, bin []byte) error {
	data := []byte(text)
	if bin != nil {
		data = bin
	}
	if path == "" || path == "-" {
		_, err := stdout.Write(data)
		return err
	}
	if err := atomicfile.Write(path, data, atomicfile.Options{Replace: true}); err != nil {
		return fmt.Errorf("passlens: %v", err)
	}
	return nil
}

// isTerminal reports whether w is a terminal (binary output must not go
// there).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// selectPipeline is --passes / --target / --after of analyze and run: the
// spec to run (the target's default pipeline unless --passes is given),
// cut after the last occurrence of PASS when after is set.
func selectPipeline(c *command, passesFlag string, tgt target.Name, after string) (pipeline.Spec, error) {
	if tgt != target.PIR && !validTarget(tgt) {
		return pipeline.Spec{}, &usageError{c, fmt.Sprintf("unknown target %q (want pir, %s)", tgt, strings.Join(target.Strings(passes.Targets), ", "))}
	}
	sp, err := pipelineSpec(c, passesFlag, tgt)
	if err != nil || after == "" {
		return sp, err
	}
	n := -1
	for i, st := range sp.Steps {
		if st.Name == after {
			n = i
		}
	}
	if n < 0 {
		if len(sp.Steps) == 0 {
			return sp, &usageError{c, fmt.Sprintf("--after %s: no pipeline (give --target or --passes)", after)}
		}
		return sp, &usageError{c, fmt.Sprintf("--after %s: no such pass in the pipeline %s", after, sp)}
	}
	sp.Steps = sp.Steps[:n+1]
	return sp, nil
}
