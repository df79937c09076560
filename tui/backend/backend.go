// Package backend implements tui.Driver over the real compiler: pipeline
// runs with snapshots, analyses, the interpreter and the back ends. The
// explorer, the SSH server and tests share it.
package backend

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/load"
	"passlens/compiler/passes"
	"passlens/compiler/pipeline"
	"passlens/compiler/target"
	_ "passlens/compiler/target/all" // registers the back ends
	"passlens/internal/diag"
	"passlens/internal/limits"
	"passlens/tui"
)

// Driver is a tui.Driver for one loaded module.
type Driver struct {
	src   *load.Source
	mod   *ir.Module // the input module; never mutated (each compile clones)
	Entry string
	// MaxRunSteps caps interpreter work per run (0: the interpreter default).
	MaxRunSteps int
	// NoAllocStats turns off the per-pass allocation figures. Measuring
	// them reads runtime.MemStats, which stops the world twice per pass;
	// in the SSH server, while another session's huge compile keeps the
	// collector busy, that made a small compile 20-30× slower
	// (tui/serve's TestHeavyCompileIsolation), so the server sets it.
	NoAllocStats bool
	// Input is the interpreter input (nil: defaults).
	Input *interp.Input
	// LoadOptions are the options the module was loaded with (Reload
	// uses them again).
	LoadOptions load.Options

	remote RemoteCompile // NewRemote: compiles run elsewhere; mod is nil

	mu      sync.Mutex
	results map[*tui.Compiled]*compiled
	order   []*tui.Compiled // compiles in results, oldest first
}

// keepCompiles is how many compiles the driver keeps for analyses, runs
// and target code.
const keepCompiles = 4

// compiled is what the driver keeps of one Compile: the pipeline's
// snapshots and the back end's output (emitted once, in the command that
// compiled, so the target pane and the back-end steps never block).
type compiled struct {
	res    *pipeline.Result
	out    *target.Output
	outErr error
}

// New returns a driver for a module loaded from src.
// A sample's shipped input (samples/NAME.json) becomes the default
// interpreter input.
func New(src *load.Source, m *ir.Module) *Driver {
	d := &Driver{src: src, mod: m, results: map[*tui.Compiled]*compiled{}}
	if src.Input != nil {
		if in, err := interp.ParseInput(src.Input); err == nil {
			d.Input = in
		}
	}
	return d
}

// BundledInput is the interpreter input shipped with a sample (nil for
// none); recorded replay scripts carry it inline.
func (d *Driver) BundledInput() []byte { return d.src.Input }

// Reload re-reads the input file and, when its text changed, loads it
// for the next Compile; a load error keeps the module as it was.
// Embedded samples never change.
func (d *Driver) Reload() (bool, error) {
	if d.remote != nil {
		return false, nil // loaded elsewhere (NewRemote): nothing to re-read here
	}
	d.mu.Lock()
	src := d.src
	d.mu.Unlock()
	data, err := limits.ReadFile(src.Name, limits.MaxModuleSize)
	if err != nil {
		if strings.HasPrefix(src.Name, "samples/") {
			return false, nil // an embedded sample
		}
		return false, err
	}
	if string(data) == string(src.Text) {
		return false, nil
	}
	m, nsrc, err := load.File(src.Name, d.LoadOptions)
	if err != nil {
		return false, err
	}
	d.mu.Lock()
	d.mod, d.src = m, nsrc
	d.mu.Unlock()
	return true, nil
}

// SourceText is the loaded file's text and kind (hlsl, ll, pir or
// spvasm); a binary SPIR-V module has no text to show.
func (d *Driver) SourceText() (string, string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.src.Kind == "spv" {
		return fmt.Sprintf("; %s is a binary SPIR-V module (%d words): the IR pane shows it as read;\n; spirv-dis %s shows its assembly", d.src.Name, len(d.src.Text)/4, d.src.Name), "spvasm"
	}
	return string(d.src.Text), d.src.Kind
}

// ValueLines maps "FUNC/%x" to the source line of each instruction of the
// input module that has a position (!loc).
func (d *Driver) ValueLines() map[string]int {
	d.mu.Lock()
	mod := d.mod
	d.mu.Unlock()
	out := map[string]int{}
	if mod == nil {
		return out // NewRemote: the module was never loaded here
	}
	for _, f := range mod.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.HasResult() && in.Loc.Line > 0 {
					out[f.Name()+"/"+in.Ref()] = int(in.Loc.Line)
				}
			}
		}
	}
	return out
}

// SourceBytes is the size of the module's source text.
func (d *Driver) SourceBytes() int { return len(d.src.Text) }

// Source names the module as the user gave it.
func (d *Driver) Source() string { return d.src.Name }

// Targets lists the targets with default pipelines.
func (d *Driver) Targets() []string { return target.Strings(passes.Targets) }

// SetInput loads the interpreter input used by Run from a JSON file.
func (d *Driver) SetInput(path string) error {
	data, err := limits.ReadFile(path, limits.MaxModuleSize)
	if err != nil {
		return err
	}
	in, err := interp.ParseInputFile(path, data)
	if err != nil {
		return err
	}
	d.Input = in
	return nil
}

// SetInputJSON sets the interpreter input from JSON text (a replay
// script's inline input).
func (d *Driver) SetInputJSON(data []byte) error {
	in, err := interp.ParseInput(data)
	if err != nil {
		return fmt.Errorf("input: %v", err)
	}
	d.Input = in
	return nil
}

// Policies lists the interpreter's reconvergence policies.
func (d *Driver) Policies() []string {
	var out []string
	for _, p := range interp.Policies() {
		out = append(out, p.String())
	}
	return out
}

// DefaultPipeline returns the target's default pipeline; passes that are
// not registered (yet) are listed disabled so the pipeline still runs.
func (d *Driver) DefaultPipeline(t string) []tui.PassSlot {
	var out []tui.PassSlot
	for _, n := range passes.DefaultPipelines[target.Name(t)] {
		name := n
		if i := strings.IndexByte(n, '<'); i >= 0 {
			name = n[:i]
		}
		out = append(out, tui.PassSlot{Name: n, Enabled: passes.Lookup(name) != nil})
	}
	return out
}

// Spec turns slots into a pipeline spec (disabled slots are left out).
func Spec(slots []tui.PassSlot) (pipeline.Spec, error) {
	return pipeline.Parse(enabledNames(slots))
}

// Outcome is what one compile produced: the pipeline's snapshots, the
// located message of a failed step, and the back end's output (or why
// there is none). CompileModule computes it in process; the SSH server's
// compile worker computes it in a child process and sends it back
// (NewRemote).
type Outcome struct {
	Res *pipeline.Result
	// StepMsgs holds, per snapshot, the message of a failed step located
	// in the user's file (diag.StepMessage); "" for the others.
	StepMsgs []string
	Out      *target.Output
	OutErr   error
}

// RemoteCompile compiles the driver's module for target tgt with the
// pipeline spec (the enabled passes, comma-separated) somewhere else: the
// SSH server runs it in a child process (tui/serve/worker.go).
type RemoteCompile func(ctx context.Context, tgt, spec string) (*Outcome, error)

// NewRemote returns a driver for src that never loads the module itself:
// every Compile calls compile, which loads and compiles it elsewhere.
// Analyses, runs and target code work on the returned snapshots as they do
// in process (the snapshots are printed IR, parsed back on demand).
func NewRemote(src *load.Source, compile RemoteCompile) *Driver {
	d := New(src, nil)
	d.remote = compile
	return d
}

// CompileModule runs spec on work, which it mutates (Driver.Compile passes
// a clone of its module; the SSH server's compile worker, which loads the
// module for this one compile, passes the module itself and so holds one
// copy of it, not two), and the target's back end on the final snapshot.
// The error is the cancellation of ctx (a step that fails is in the
// Outcome).
func CompileModule(ctx context.Context, src *load.Source, work *ir.Module, tgt target.Name, spec pipeline.Spec, allocStats bool) (*Outcome, error) {
	res := pipeline.Run(ctx, work, spec, pipeline.Options{Target: tgt, VerifyEach: true, MeasureAllocs: allocStats})
	if res.Err != nil && res.Err.Kind == pipeline.KindCancelled {
		return nil, res.Err
	}
	o := &Outcome{Res: res, StepMsgs: make([]string, len(res.Snapshots))}
	for i, s := range res.Snapshots {
		if s.Err != nil && src != nil {
			// One message, located in the user's file (the explorer
			// prefixes "pass X failed:").
			o.StepMsgs[i] = diag.StepMessage(src, nil, s.Err)
		}
	}
	if res.Err == nil {
		if m, err := res.Final().FreshModule(); err != nil {
			o.OutErr = err
		} else {
			o.Out, o.OutErr = diag.EmitSnapshot(src, tgt, m, work)
		}
	}
	return o, nil
}

// Compile runs the pipeline on a clone of the input module (or has the
// remote compiler run it, for a driver made by NewRemote).
func (d *Driver) Compile(ctx context.Context, tgt string, slots []tui.PassSlot) (*tui.Compiled, error) {
	spec, err := Spec(slots)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	mod := d.mod
	d.mu.Unlock()
	var o *Outcome
	if d.remote != nil {
		o, err = d.remote(ctx, tgt, enabledNames(slots))
	} else {
		o, err = CompileModule(ctx, d.src, ir.CloneModule(mod), target.Name(tgt), spec, !d.NoAllocStats)
	}
	if err != nil {
		return nil, err
	}
	res := o.Res
	c := &tui.Compiled{Source: d.src.Name, Target: tgt}
	parts := partLines{}
	for i, s := range res.Snapshots {
		c.Steps = append(c.Steps, parts.step(s))
		if i < len(o.StepMsgs) && o.StepMsgs[i] != "" {
			c.Steps[len(c.Steps)-1].Err = o.StepMsgs[i]
		}
	}
	kept := &compiled{res: res, out: o.Out, outErr: o.OutErr}
	if res.Err == nil && kept.out != nil {
		c.Steps = append(c.Steps, StageSteps(kept.out.Stages)...)
	}
	d.mu.Lock()
	d.results[c] = kept
	// Keep the few most recent compiles only: the explorer works on the
	// current one, and a long session (what-if edits, target switches,
	// SSH) must not keep every pipeline it ever ran.
	d.order = append(d.order, c)
	if len(d.order) > keepCompiles {
		delete(d.results, d.order[0])
		d.order = d.order[1:]
	}
	d.mu.Unlock()
	return c, nil
}

// enabledNames is the pipeline spec text of the enabled slots.
func enabledNames(slots []tui.PassSlot) string {
	var names []string
	for _, s := range slots {
		if s.Enabled {
			names = append(names, s.Name)
		}
	}
	return strings.Join(names, ",")
}

// KeptBytes estimates the memory the driver and c keep for one compile:
// the text of every distinct snapshot part (parts shared between
// snapshots count once), a string header per line of every step, the
// back end's output. Modules a snapshot parsed for the explorer are not
// counted (analyses parse one function privately; runs parse a private
// copy and drop it). The SSH server's per-session memory cap is accounted
// with it. 0 if c is not kept.
func (d *Driver) KeptBytes(c *tui.Compiled) int64 {
	d.mu.Lock()
	k := d.results[c]
	d.mu.Unlock()
	if k == nil {
		return 0
	}
	const lineHeader = 16 // a string header in Step.Lines
	var n int64
	seen := map[*pipeline.Part]bool{}
	part := func(p *pipeline.Part) {
		if p != nil && !seen[p] {
			seen[p] = true
			n += int64(len(p.Text))
		}
	}
	for _, s := range k.res.Snapshots {
		part(s.Header)
		for _, f := range s.Funcs {
			part(f)
		}
	}
	for _, st := range c.Steps {
		n += int64(len(st.Lines))*lineHeader + int64(len(st.Text))
	}
	if k.out != nil {
		n += int64(len(k.out.Text) + len(k.out.Binary))
	}
	return n
}

// Release drops what the driver keeps of c (snapshots, parsed modules,
// back-end output): later Analyze, Run and TargetCode calls on c fail with
// "no such snapshot". The SSH server releases a session's older compiles
// when the session is over its memory cap.
func (d *Driver) Release(c *tui.Compiled) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.results, c)
	for i, o := range d.order {
		if o == c {
			d.order = append(d.order[:i], d.order[i+1:]...)
			break
		}
	}
}

// StageSteps turns a back end's intermediate forms (SIR for SM3) into
// explorer steps that follow the IR passes. They have text and diffs but
// no analyses or interpreter runs (those work on the passlens IR).
func StageSteps(stages []target.Stage) []tui.Step {
	var out []tui.Step
	prev := ""
	for i, s := range stages {
		st := tui.Step{Pass: s.Name, Summary: s.Summary, Text: s.Text, Lang: s.Lang, Backend: true, Duration: s.Duration}
		st.Lines = tui.SplitLines(s.Text)
		if i == 0 || s.Text != prev {
			st.Status = tui.StepChanged
		} else {
			st.Status = tui.StepUnchanged
		}
		prev = s.Text
		out = append(out, st)
	}
	return out
}

// StepOf converts a pipeline snapshot to the explorer's step.
func StepOf(s *pipeline.Snapshot) tui.Step {
	return partLines{}.step(s)
}

// partLines caches the lines of each snapshot part (a function's or the
// header's text), so that the steps of one compile share them: a part a
// pass did not change is split once, and its lines point into the part's
// text, which the snapshots already share. The steps carry no joined
// Text (Step.Lines is the whole module), which on a 50k-line module saves
// one full copy of the module per step.
type partLines map[*pipeline.Part][]string

func (pl partLines) of(p *pipeline.Part) []string {
	if l, ok := pl[p]; ok {
		return l
	}
	l := strings.Split(p.Text, "\n")
	pl[p] = l
	return l
}

// step converts a snapshot to a step whose Lines share the cached parts.
func (pl partLines) step(s *pipeline.Snapshot) tui.Step {
	st := tui.Step{Pass: s.Pass, Duration: s.Duration, Allocs: s.AllocBytes}
	header := s.Header != nil && s.Header.Text != "" // as Snapshot.Text joins
	n := 0
	if header {
		n += len(pl.of(s.Header))
	}
	for _, f := range s.Funcs {
		n += len(pl.of(f))
	}
	lines := make([]string, 0, max(n, 1))
	if header {
		lines = append(lines, pl.of(s.Header)...)
	}
	for _, f := range s.Funcs {
		lines = append(lines, pl.of(f)...)
	}
	// As tui.SplitLines of the parts joined by newlines: one trailing
	// newline ends the last line rather than starting an empty one.
	if k := len(lines); k > 1 && lines[k-1] == "" {
		lines = lines[:k-1]
	} else if k == 0 {
		lines = append(lines, "")
	}
	st.Lines = lines
	if s.Option != "" {
		st.Pass += "<" + s.Option + ">"
	}
	switch {
	case s.Err != nil:
		st.Status = tui.StepFailed
		st.Err = s.Err.Error()
	case s.Pass == "input":
		st.Status = tui.StepInput
		st.Summary = "the module as loaded"
	case s.Changed:
		st.Status = tui.StepChanged
	default:
		st.Status = tui.StepUnchanged
	}
	if p := passes.Lookup(s.Pass); p != nil {
		st.Summary = p.Summary
	}
	if s.Skipped {
		st.Summary = "(turned off)"
	}
	// Function spans, in lines of Text.
	line := 0
	if s.Header != nil {
		line = strings.Count(s.Header.Text, "\n") + 1
	}
	for _, f := range s.Funcs {
		n := strings.Count(f.Text, "\n")
		st.Funcs = append(st.Funcs, tui.FuncSpan{Name: f.Name, Start: line, End: line + n})
		line += n + 1
	}
	return st
}

func (d *Driver) snapshot(c *tui.Compiled, step int) (*pipeline.Snapshot, error) {
	d.mu.Lock()
	k := d.results[c]
	d.mu.Unlock()
	if k == nil || step < 0 || step >= len(c.Steps) {
		return nil, errors.New("no such snapshot")
	}
	if step >= len(k.res.Snapshots) {
		return nil, fmt.Errorf("%s is a back-end stage (%s text): analyses and runs work on the passlens IR snapshots before it", c.Steps[step].Pass, c.Steps[step].Lang)
	}
	return k.res.Snapshots[step], nil
}

// Module returns the (shared, read-only) module of a step.
func (d *Driver) Module(c *tui.Compiled, step int) (*ir.Module, error) {
	s, err := d.snapshot(c, step)
	if err != nil {
		return nil, err
	}
	return s.Module()
}

// Analyze computes the trees, CFG and uniformity of one function.
func (d *Driver) Analyze(ctx context.Context, c *tui.Compiled, step int, fn string) (*tui.Analysis, error) {
	// A private parse, not the snapshot's cached module: the analysis
	// (its explanations refer to the IR) then holds the only reference,
	// and the explorer's bounded cache of analyses bounds the memory; the
	// cached module would stay for every step ever analyzed. Only the
	// function's part is parsed (the others as declarations): on a large
	// module the analysis would otherwise keep the whole module alive.
	s, err := d.snapshot(c, step)
	if err != nil {
		return nil, err
	}
	m, err := s.FuncModule(fn)
	if err != nil {
		return nil, err
	}
	var f *ir.Function
	for _, g := range m.Funcs {
		if !g.IsDeclaration() && (fn == "" || g.Name() == fn) {
			f = g
			break
		}
	}
	if f == nil {
		return nil, fmt.Errorf("no function %q in this snapshot", fn)
	}
	return Analyze(f), nil
}

// runSetup gives a fresh copy of a step's module to run and the
// interpreter options for it (Run, RenderImage).
func (d *Driver) runSetup(c *tui.Compiled, step int, function string, wave int, policy string) (*ir.Module, interp.Options, error) {
	s, err := d.snapshot(c, step)
	if err != nil {
		return nil, interp.Options{}, err
	}
	m, err := s.FreshModule()
	if err != nil {
		return nil, interp.Options{}, err
	}
	pol, err := interp.ParsePolicy(policy)
	if err != nil {
		return nil, interp.Options{}, err
	}
	return m, interp.Options{Entry: runEntry(m, d.Entry, function), WaveSize: wave, Policy: pol, MaxSteps: d.MaxRunSteps}, nil
}

// Run interprets a step's module on one dispatch.
func (d *Driver) Run(ctx context.Context, c *tui.Compiled, step int, o tui.RunOptions) (*tui.LanesResult, error) {
	m, opts, err := d.runSetup(c, step, o.Function, o.WaveSize, o.Policy)
	if err != nil {
		return nil, err
	}
	opts.Trace = true
	r, err := interp.RunContext(ctx, m, d.Input, opts)
	if err != nil {
		return nil, err
	}
	var js strings.Builder
	r.WriteJSON(&js)
	return &tui.LanesResult{Lines: FormatLanes(r), JSON: js.String()}, nil
}

// runEntry is the entry point a run uses: the chosen one, else the
// function the explorer shows when it is an entry point (one kernel of an
// .ll module with several), else "" (the module's only one).
func runEntry(m *ir.Module, chosen, shown string) string {
	if chosen != "" {
		return chosen
	}
	if f := m.Func(shown); f != nil && f.Entry != nil {
		return shown
	}
	return ""
}

// TargetCode emits the final snapshot's code for the compile's target.
func (d *Driver) TargetCode(ctx context.Context, c *tui.Compiled) (string, string, error) {
	d.mu.Lock()
	k := d.results[c]
	d.mu.Unlock()
	if k == nil {
		return "", "", errors.New("nothing compiled")
	}
	if k.res.Err != nil {
		return "", "", fmt.Errorf("the pipeline failed at %s; no target code", k.res.Err.Pass)
	}
	if k.outErr != nil {
		// The back end cannot express this module: say why and show the
		// final IR.
		m, err := k.res.Final().Module()
		if err != nil {
			return "", "", err
		}
		return "; " + k.outErr.Error() + "\n; the final IR of the " + c.Target + " pipeline follows\n" + m.String(), "pir", nil
	}
	return k.out.Text, k.out.Lang, nil
}

// TargetBinary is the binary form of the target code (a SPIR-V module)
// and its file extension; an error when the target has none.
func (d *Driver) TargetBinary(c *tui.Compiled) ([]byte, string, error) {
	d.mu.Lock()
	k := d.results[c]
	d.mu.Unlock()
	if k == nil || k.res.Err != nil || k.outErr != nil || k.out == nil || len(k.out.Binary) == 0 {
		return nil, "", errors.New("the " + c.Target + " target has no binary form here")
	}
	return k.out.Binary, k.out.BinExt, nil
}

// FormatLanes renders per-lane outputs, buffers and wave-op participation
// (the seed's thread tables) for the lanes pane.
func FormatLanes(r *interp.Result) []string {
	var out []string
	out = append(out, fmt.Sprintf("entry %s, wave size %d, policy %s, %d steps", r.Entry, r.WaveSize, r.Policy, r.Steps))
	if len(r.WaveOps) > 0 {
		out = append(out, "", "wave operations (lanes that took part → result per lane):")
		for _, w := range r.WaveOps {
			var res []string
			for i, l := range w.Lanes {
				if i < len(w.Results) && w.Type != nil && w.Type != ir.Void {
					res = append(res, fmt.Sprintf("%d:%s", l, interp.FormatValue(w.Type, w.Results[i])))
				}
			}
			line := fmt.Sprintf("  #%-3d %-20s %%%s  lanes %s", w.Seq, w.Name, w.Block, laneList(w.Lanes))
			if len(res) > 0 {
				line += "  → " + strings.Join(res, " ")
			}
			out = append(out, line)
		}
	}
	for _, b := range r.Buffers {
		if b.IsArg {
			out = append(out, "", fmt.Sprintf("argument %%%s (%d × %s):", ir.QuoteName(b.Name), b.Count, b.Elem))
		} else {
			out = append(out, "", fmt.Sprintf("buffer @%s (%d × %s):", b.Name, b.Count, b.Elem))
		}
		n := min(b.Count, 64)
		var vals []string
		for i := 0; i < n; i++ {
			vals = append(vals, interp.FormatValue(b.Elem, b.Element(i)))
		}
		for i := 0; i < len(vals); i += 8 {
			out = append(out, fmt.Sprintf("  [%3d] %s", i, strings.Join(vals[i:min(i+8, len(vals))], "  ")))
		}
		if b.Count > n {
			out = append(out, fmt.Sprintf("  … %d more", b.Count-n))
		}
	}
	out = append(out, formatQuads(r)...) // quads.go
	if len(r.Lanes) > 0 && len(r.Lanes[0].Outputs) > 0 {
		out = append(out, "", "per-lane outputs:")
		for i, l := range r.Lanes {
			if i >= 64 {
				out = append(out, fmt.Sprintf("  … %d more lanes", len(r.Lanes)-i))
				break
			}
			var vs []string
			for _, o := range l.Outputs {
				vs = append(vs, o.Name+"="+interp.FormatValue(o.Type, o.Cells))
			}
			kill := ""
			if l.Killed {
				kill = " (discarded)"
			}
			if l.Helper {
				kill = " (helper)"
			}
			out = append(out, fmt.Sprintf("  lane %2d (wave %d lane %2d)%s  %s", l.Index, l.Wave, l.WaveLane, kill, strings.Join(vs, "  ")))
		}
	}
	return out
}

// laneList prints ascending lanes compactly: {0-3,6}.
func laneList(ls []int) string {
	sort.Ints(ls)
	var parts []string
	for i := 0; i < len(ls); {
		j := i
		for j+1 < len(ls) && ls[j+1] == ls[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", ls[i], ls[j]))
		} else {
			parts = append(parts, fmt.Sprint(ls[i]))
		}
		i = j + 1
	}
	return "{" + strings.Join(parts, ",") + "}"
}
