package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"passlens/compiler/ir"
	"passlens/compiler/load"
	"passlens/compiler/passes"
	"passlens/compiler/pipeline"
	"passlens/compiler/target"
	_ "passlens/compiler/target/all" // registers the back ends
	"passlens/internal/headless"
)

func init() {
	register(&command{
		name:    "compile",
		summary: "compile a module through a pipeline and print or write the result",
		usage: `Usage: passlens compile FILE|samples/NAME [flags]

Runs FILE through a pass pipeline and prints the target code (or IR).

Flags:
  --target T          spirv, dxil, sm3 or pir (default pir: the IR after --passes)
  --passes SPEC       pipeline, e.g. inline,sroa,simplify (default: the target's pipeline; none for pir)
  --emit KIND         asm (readable target code), bin (binary, SPIR-V only) or pir (the final IR)
  -o OUT              write to OUT instead of standard output
  --entry NAME        HLSL entry point (default main)
  -D NAME[=VAL], -I DIR   HLSL preprocessor definitions and include directories
  --verify-each       run the IR verifier after every pass (default true)
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
func pipelineSpec(c *command, passesFlag, tgt string) (pipeline.Spec, error) {
	text := passesFlag
	if text == "" && tgt != "pir" {
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
	tgt := fs.String("target", "pir", "")
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
	pos, err := parseFlags(c, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return &usageError{c, "expected one input file"}
	}
	if *tgt != "pir" && !validTarget(*tgt) {
		return &usageError{c, fmt.Sprintf("unknown target %q (want spirv, dxil, sm3 or pir)", *tgt)}
	}
	switch *emit {
	case "", "asm", "bin", "pir":
	default:
		return &usageError{c, fmt.Sprintf("unknown --emit %q (want asm, bin or pir)", *emit)}
	}
	if changed.set && changed.value != "" && changed.value != "diff" {
		return &usageError{c, fmt.Sprintf("--print-changed takes no value or =diff, not %q", changed.value)}
	}
	sp, err := pipelineSpec(c, *spec, *tgt)
	if err != nil {
		return err
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
		m, err = load.Module(src, load.Options{Entry: *entry, Defines: defs, IncludeDirs: incs})
		return err
	}); err != nil {
		return err
	}
	res := tm.pipeline(func(o pipeline.Options) *pipeline.Result {
		return pipeline.Run(context.Background(), m, sp, o)
	}, pipeline.Options{Target: *tgt, VerifyEach: *verifyEach})
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
		return stepFailure(res.Err)
	}
	if dump.Active() && *tgt != "pir" && *emit != "pir" {
		// The back end's own stages (SIR for sm3) follow the IR passes.
		if o, err := target.Emit(*tgt, m); err == nil {
			headless.DumpStages(stdout, o.Stages, dump)
		}
	}
	if dump.Active() && *out == "" {
		return nil
	}
	final := m
	var text string
	var bin []byte
	switch {
	case *emit == "pir" || *tgt == "pir":
		tm.phase("print IR", func() error { text = final.String(); return nil })
	default:
		var o *target.Output
		if err := tm.phase("emit ("+*tgt+")", func() (err error) { o, err = target.Emit(*tgt, final); return err }); err != nil {
			return fmt.Errorf("passlens: %v", err)
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

func writeOutput(path string, stdout io.Writer, text string, bin []byte) error {
	data := []byte(text)
	if bin != nil {
		data = bin
	}
	if path == "" || path == "-" {
		_, err := stdout.Write(data)
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("passlens: %v", err)
	}
	return nil
}

// stepFailure describes a failed pipeline step with the whole underlying
// message (every verifier problem, not just the first line).
func stepFailure(e *pipeline.StepError) error {
	msg := fmt.Sprintf("passlens: pass %s failed (%s): %s", e.Pass, e.Kind, e.Msg)
	if e.Err != nil {
		if full := strings.TrimSpace(e.Err.Error()); full != e.Msg {
			msg += "\n" + full
		}
	}
	return fmt.Errorf("%s", msg)
}
