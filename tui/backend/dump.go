package backend

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"passlens/compiler/analysis"
	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/llvm"
	"passlens/compiler/passdump"
	"passlens/compiler/spvread"
	"passlens/tui"
)

// DumpDriver is a tui.Driver over a pass log (compiler/passdump): the
// steps are the log's dumps, loaded lazily (tui.StepLoader), and analyses
// import the step's text (LLVM IR through compiler/llvm, passlens IR
// through its parser, SPIR-V through compiler/spvread, machine IR as a
// bare CFG). A step whose text does not
// import still shows as text with diffs; its analyses report why.
//
// With a Runner (passlens --run) the log is produced by running a compiler,
// and Compile re-runs it with the pipeline's enabled passes (what-if).
type DumpDriver struct {
	// Input is the interpreter input of the lanes pane (nil: defaults).
	Input *interp.Input
	// Entry names the entry point for runs ("" picks the only one).
	Entry string

	name   string
	static *passdump.Log
	path   string    // the static log's file ("" for standard input)
	stamp  time.Time // its modification time when indexed
	runner *passdump.Command
	// prog, while not nil, is the whole log being indexed in the
	// background; static is its first part until then.
	prog    *passdump.Progressive
	partial map[*tui.Compiled]bool // compiles of the first part only

	mu     sync.Mutex
	logs   map[*tui.Compiled]*passdump.Log
	order  []*tui.Compiled
	loaded map[*tui.Compiled][]int // steps whose text is held, oldest first
	mods   []modCache
}

// keepLoaded is how many step texts the driver keeps in a compile's steps.
const keepLoaded = 8

type modCache struct {
	log  *passdump.Log
	step int
	mod  *ir.Module
	err  error
}

// NewDumpDriver returns a driver over an indexed log.
func NewDumpDriver(l *passdump.Log) *DumpDriver {
	d := &DumpDriver{name: l.Name, static: l, logs: map[*tui.Compiled]*passdump.Log{}, loaded: map[*tui.Compiled][]int{}}
	if st, err := os.Stat(l.Name); err == nil && l.Name != "<stdin>" {
		d.path, d.stamp = l.Name, st.ModTime()
	}
	return d
}

// NewProgressiveDumpDriver returns a driver over a log that is still being
// indexed: compiles show its first part (tui.Progressive) until the whole
// log is ready.
func NewProgressiveDumpDriver(p *passdump.Progressive, path string) (*DumpDriver, error) {
	first := p.First
	if first == nil {
		// Small log, or no banner in its first part: wait for the whole.
		l, err := p.Wait(context.Background())
		if err != nil {
			return nil, err
		}
		return NewDumpDriver(l), nil
	}
	d := NewDumpDriver(first)
	d.prog = p
	d.partial = map[*tui.Compiled]bool{}
	if st, err := os.Stat(path); err == nil && path != "-" {
		d.path, d.stamp = path, st.ModTime()
	}
	return d, nil
}

// Partial reports whether c shows only the first part of a log still
// being indexed (tui.Progressive).
func (d *DumpDriver) Partial(c *tui.Compiled) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.partial[c]
}

// WaitComplete blocks until the whole log is indexed (tui.Progressive);
// the next Compile then shows all of it.
func (d *DumpDriver) WaitComplete(ctx context.Context) error {
	d.mu.Lock()
	p := d.prog
	d.mu.Unlock()
	if p == nil {
		return nil
	}
	_, err := p.Wait(ctx)
	return err
}

// takeWhole swaps the whole log in for its first part once it is indexed.
// It returns an error when indexing the whole log failed.
func (d *DumpDriver) takeWhole() error {
	d.mu.Lock()
	p := d.prog
	d.mu.Unlock()
	if p == nil || !p.Done() {
		return nil
	}
	l, err := p.Wait(context.Background())
	d.mu.Lock()
	defer d.mu.Unlock()
	d.prog = nil
	if err != nil {
		return err
	}
	d.static = l
	return nil
}

// reload re-indexes the static log when its file changed since it was
// indexed (R in the explorer after the compiler wrote a new log).
func (d *DumpDriver) reload() error {
	if d.path == "" {
		return nil
	}
	d.mu.Lock()
	indexing := d.prog != nil
	d.mu.Unlock()
	if indexing {
		return nil // the first index is still being built
	}
	st, err := os.Stat(d.path)
	if err != nil || st.ModTime().Equal(d.stamp) {
		return nil
	}
	l, err := passdump.Open(d.path)
	if err != nil {
		return err
	}
	d.mu.Lock()
	d.static, d.stamp = l, st.ModTime()
	d.mu.Unlock()
	return nil
}

// NewRunDriver returns a driver that runs a compiler command to get its log.
func NewRunDriver(r *passdump.Command) *DumpDriver {
	return &DumpDriver{name: r.Display(), runner: r, logs: map[*tui.Compiled]*passdump.Log{}, loaded: map[*tui.Compiled][]int{}}
}

// Source names the log (or the command).
func (d *DumpDriver) Source() string { return d.name }

// Targets: a log has one "target", its own final output.
func (d *DumpDriver) Targets() []string { return []string{"log"} }

// DefaultPipeline is the command's pass list when it can be edited (see
// passdump.Command.Pipeline); a static log has none.
func (d *DumpDriver) DefaultPipeline(string) []tui.PassSlot {
	if d.runner == nil {
		return nil
	}
	var out []tui.PassSlot
	for _, p := range d.runner.Pipeline() {
		out = append(out, tui.PassSlot{Name: p, Enabled: true})
	}
	return out
}

// Policies lists the interpreter's reconvergence policies.
func (d *DumpDriver) Policies() []string {
	var out []string
	for _, p := range interp.Policies() {
		out = append(out, p.String())
	}
	return out
}

// SetInput loads the interpreter input used by Run from a JSON file.
func (d *DumpDriver) SetInput(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	in, err := interp.ParseInput(data)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	d.Input = in
	return nil
}

// Compile returns the log's steps; with a Runner it runs the command first
// (with the enabled passes of pipeline), in the caller's goroutine, and
// cancels it with ctx.
func (d *DumpDriver) Compile(ctx context.Context, _ string, pipeline []tui.PassSlot) (*tui.Compiled, error) {
	if err := d.takeWhole(); err != nil {
		return nil, err
	}
	if err := d.reload(); err != nil {
		return nil, err
	}
	d.mu.Lock()
	l := d.static
	partial := d.prog != nil
	d.mu.Unlock()
	if d.runner != nil {
		var passes []string
		if pipeline != nil {
			passes = []string{}
			for _, p := range pipeline {
				if p.Enabled {
					passes = append(passes, p.Name)
				}
			}
		}
		var err error
		l, err = d.runner.Run(ctx, passes)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			// The tool printed no dump: its whole message is the step.
			msg := err.Error()
			return &tui.Compiled{Source: d.name, Target: "log", Steps: []tui.Step{{Pass: "(tool failed)",
				Status: tui.StepFailed, Err: msg, Text: msg, Lines: tui.SplitLines(msg)}}}, nil
		}
	}
	c := &tui.Compiled{Source: d.name, Target: "log", Steps: StepsOf(l)}
	if d.runner != nil && d.runner.Failure != "" {
		c.Steps = append(c.Steps, tui.Step{Pass: "(tool failed)", Status: tui.StepFailed, Err: d.runner.Failure,
			Text: d.runner.Failure, Lines: tui.SplitLines(d.runner.Failure)})
	}
	d.mu.Lock()
	d.logs[c] = l
	if partial {
		d.partial[c] = true
	}
	d.order = append(d.order, c)
	if len(d.order) > keepCompiles {
		old := d.order[0]
		if ol := d.logs[old]; ol != l && ol != d.static && !d.inUse(ol) {
			ol.Close()
		}
		delete(d.logs, old)
		delete(d.loaded, old)
		delete(d.partial, old)
		d.order = d.order[1:]
	}
	d.mu.Unlock()
	return c, nil
}

// inUse reports whether a kept compile still shows log l (d.mu held).
func (d *DumpDriver) inUse(l *passdump.Log) bool {
	for _, c := range d.order[1:] {
		if d.logs[c] == l {
			return true
		}
	}
	return false
}

// StepsOf lists a log's steps for the explorer, without their text.
func StepsOf(l *passdump.Log) []tui.Step {
	out := make([]tui.Step, len(l.Steps))
	// Titles repeat (a pass on a function, in every round): share them.
	titles := map[[3]string]string{}
	for i := range l.Steps {
		s := &l.Steps[i]
		key := [3]string{s.Pass, s.Scope, strconv.FormatBool(s.Before)}
		title, ok := titles[key]
		if !ok {
			title = StepTitle(s)
			titles[key] = title
		}
		st := tui.Step{Pass: title, Lang: s.Lang, Summary: stepSummary(s)}
		switch {
		case s.Failed != "":
			st.Status, st.Err = tui.StepFailed, s.Failed
		case s.Status == passdump.Input:
			st.Status = tui.StepInput
		case s.Status == passdump.Changed:
			st.Status = tui.StepChanged
		default:
			st.Status = tui.StepUnchanged
		}
		if s.Lang == passdump.LangPIR {
			st.Lang = ""
		}
		out[i] = st
	}
	return out
}

// StepTitle names a step as the pass list shows it: "SROAPass on f".
func StepTitle(s *passdump.Step) string {
	t := s.Pass
	if s.Before {
		t = "before " + t
	}
	if s.Scope != "" && s.Scope != "[module]" {
		t += " on " + s.Scope
	}
	return t
}

func stepSummary(s *passdump.Step) string {
	var parts []string
	if s.Status == passdump.Input {
		parts = append(parts, "the module before the first pass")
	}
	if s.Partial {
		parts = append(parts, "partial")
	}
	if s.Note != "" {
		parts = append(parts, s.Note)
	}
	switch len(parts) {
	case 0:
		return s.Status.String() // no allocation per step: logs have 100k+ steps
	case 1:
		return parts[0]
	}
	return strings.Join(parts, "; ")
}

func (d *DumpDriver) log(c *tui.Compiled) (*passdump.Log, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	l := d.logs[c]
	if l == nil {
		return nil, errors.New("this log is no longer loaded")
	}
	return l, nil
}

// LoadStep fills step i's text (tui.StepLoader) and drops the text of the
// steps loaded longest ago.
func (d *DumpDriver) LoadStep(c *tui.Compiled, i int) error {
	l, err := d.log(c)
	if err != nil {
		return err
	}
	if i >= len(l.Steps) {
		return nil // the "(tool failed)" step carries its text
	}
	text, funcs, err := l.Text(i)
	if err != nil {
		return err
	}
	s := &c.Steps[i]
	s.Text, s.Lines = text, tui.SplitLines(text)
	s.Funcs = s.Funcs[:0]
	for _, f := range funcs {
		s.Funcs = append(s.Funcs, tui.FuncSpan{Name: f.Name, Start: f.Start, End: f.End})
	}
	d.mu.Lock()
	held := append(d.loaded[c], i)
	for len(held) > keepLoaded {
		if j := held[0]; j != i {
			c.Steps[j].Text, c.Steps[j].Lines, c.Steps[j].Funcs = "", nil, nil
		}
		held = held[1:]
	}
	d.loaded[c] = held
	d.mu.Unlock()
	return nil
}

// StepChangedFunc reports whether step i changed function fn
// (tui.FuncStepper).
func (d *DumpDriver) StepChangedFunc(c *tui.Compiled, i int, fn string) bool {
	l, err := d.log(c)
	if err != nil || i >= len(l.Steps) {
		return true
	}
	s := &l.Steps[i]
	return s.ChangedFunc(fn)
}

// module imports step i's text (cached for the last few steps).
func (d *DumpDriver) module(l *passdump.Log, i int) (*ir.Module, error) {
	d.mu.Lock()
	for _, m := range d.mods {
		if m.log == l && m.step == i {
			d.mu.Unlock()
			return m.mod, m.err
		}
	}
	d.mu.Unlock()
	st := &l.Steps[i]
	var m *ir.Module
	var err error
	switch st.Lang {
	case passdump.LangLLVM, passdump.LangPIR, passdump.LangSPIRV:
		text, _, terr := l.Text(i)
		if terr != nil {
			return nil, terr
		}
		name := fmt.Sprintf("%s:step%d", l.Name, i)
		switch st.Lang {
		case passdump.LangLLVM:
			m, err = llvm.Import(name, []byte(text))
		case passdump.LangSPIRV:
			// Named by their ids, so the analyses name the step's lines.
			m, err = spvread.ReadWith(name, []byte(text), spvread.Options{IDNames: true})
		default:
			m, err = ir.ParseModule(name, []byte(text))
		}
		if err != nil {
			err = fmt.Errorf("unavailable: %v", strings.TrimSpace(err.Error()))
		}
	default:
		if st.Lang == passdump.LangMIR {
			err = fmt.Errorf("unavailable: %s steps have trees and a CFG but no SSA analyses or runs (no reader into passlens IR)", langName(st.Lang))
		} else {
			err = fmt.Errorf("unavailable: %s steps show text and diffs only", langName(st.Lang))
		}
	}
	d.mu.Lock()
	if len(d.mods) >= 2 {
		d.mods = d.mods[1:]
	}
	d.mods = append(d.mods, modCache{l, i, m, err})
	d.mu.Unlock()
	return m, err
}

func langName(lang string) string {
	switch lang {
	case passdump.LangSPIRV:
		return "SPIR-V"
	case passdump.LangMIR:
		return "machine IR"
	}
	return strings.ToUpper(lang)
}

// Analyze computes trees, CFG and uniformity of one function of a step;
// machine IR gets trees and the CFG from its blocks' successors.
func (d *DumpDriver) Analyze(ctx context.Context, c *tui.Compiled, step int, fn string) (*tui.Analysis, error) {
	l, err := d.log(c)
	if err != nil {
		return nil, err
	}
	if step < 0 || step >= len(l.Steps) {
		return nil, errors.New("unavailable: the tool's error message is not IR")
	}
	switch l.Steps[step].Lang {
	case passdump.LangMIR:
		return cfgAnalysis(l, step, fn, passdump.MIRCFG)
	}
	m, err := d.module(l, step)
	if err != nil && l.Steps[step].Lang == passdump.LangSPIRV {
		// SPIR-V the reader refuses still has its CFG.
		if a, cerr := cfgAnalysis(l, step, fn, passdump.SPIRVCFG); cerr == nil {
			return a, nil
		}
	}
	if err != nil {
		return nil, err
	}
	for _, f := range m.Funcs {
		if !f.IsDeclaration() && (fn == "" || f.Name() == fn) {
			return Analyze(f), nil
		}
	}
	return nil, fmt.Errorf("no function %q in this step", fn)
}

// cfgAnalysis gives machine-IR steps trees and a CFG read from
// their branches (no SSA analyses: no uniformity).
func cfgAnalysis(l *passdump.Log, step int, fn string, read func(string) (*passdump.CFG, error)) (*tui.Analysis, error) {
	if fn == "" {
		fs := l.Functions(step)
		if len(fs) == 0 {
			return nil, errors.New("no function in this step")
		}
		fn = fs[0]
	}
	text, err := l.FuncText(step, fn)
	if err != nil {
		return nil, err
	}
	if text == "" {
		return nil, fmt.Errorf("no function %q in this step", fn)
	}
	cfg, err := read(text)
	if err != nil {
		return nil, fmt.Errorf("unavailable: %v", err)
	}
	if len(cfg.Blocks) == 0 {
		return nil, fmt.Errorf("function %s has no blocks", fn)
	}
	g := &analysis.Graph{Names: cfg.Blocks, Succs: cfg.Succs}
	return AnalyzeCFG(fn, g), nil
}

// Run interprets a step's module on one dispatch (LLVM, passlens IR and
// SPIR-V steps that import).
func (d *DumpDriver) Run(ctx context.Context, c *tui.Compiled, step int, o tui.RunOptions) (*tui.LanesResult, error) {
	l, err := d.log(c)
	if err != nil {
		return nil, err
	}
	if step < 0 || step >= len(l.Steps) {
		return nil, errors.New("unavailable: the tool's error message is not IR")
	}
	m, err := d.module(l, step)
	if err != nil {
		return nil, err
	}
	// The interpreter may annotate the module: run on a copy.
	m = ir.CloneModule(m)
	pol, err := interp.ParsePolicy(o.Policy)
	if err != nil {
		return nil, err
	}
	r, err := interp.RunContext(ctx, m, d.Input, interp.Options{Entry: runEntry(m, d.Entry, o.Function), WaveSize: o.WaveSize, Policy: pol, Trace: true})
	if err != nil {
		return nil, err
	}
	var js strings.Builder
	r.WriteJSON(&js)
	return &tui.LanesResult{Lines: FormatLanes(r), JSON: js.String()}, nil
}

// TargetCode is the last step's text: what the tool produced.
func (d *DumpDriver) TargetCode(ctx context.Context, c *tui.Compiled) (string, string, error) {
	l, err := d.log(c)
	if err != nil {
		return "", "", err
	}
	n := len(l.Steps) - 1
	text, _, err := l.Text(n)
	if err != nil {
		return "", "", err
	}
	lang := l.Steps[n].Lang
	if lang == passdump.LangPIR {
		lang = "pir"
	}
	return text, lang, nil
}
