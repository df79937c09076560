// Package replay runs replay scripts (docs/replay.md): a headless sequence
// of explorer steps — load a module, pick a target or passes, move between
// snapshots, print IR, diffs, analyses or interpreter results, export. The
// explorer records the same format. Output is byte-identical across runs:
// no timings, no addresses, no map-order dependence.
package replay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/load"
	"passlens/compiler/passdump"
	"passlens/compiler/passes"
	"passlens/compiler/pipeline"
	"passlens/compiler/target"
	_ "passlens/compiler/target/all" // registers the back ends
	"passlens/internal/atomicfile"
	"passlens/internal/diag"
	"passlens/internal/headless"
	"passlens/internal/limits"
	"passlens/internal/termsafe"
	"passlens/internal/textdiff"
)

// Error is a script error with its location.
type Error struct {
	File      string
	Line, Col int
	Msg       string
	Text      string // the offending line
}

// The script line is shown escaped (termsafe) and at most 160 bytes long.
func (e *Error) Error() string {
	col := max(1, e.Col)
	text := e.Text
	if len(text) > 160 {
		text = strings.ToValidUTF8(text[:160], "") + "…"
	}
	gutter := fmt.Sprintf("  %d | ", e.Line)
	return fmt.Sprintf("%s:%d:%d: error: %s\n%s%s\n%s^\n", termsafe.Escape(e.File), e.Line, col, termsafe.Escape(e.Msg), gutter, termsafe.Escape(text),
		strings.Repeat(" ", len(gutter)+min(col, 161)-1))
}

// Short is the error on one line (file:line:col: msg), for a status bar.
func (e *Error) Short() string {
	return fmt.Sprintf("%s:%d:%d: %s", termsafe.Escape(e.File), e.Line, max(1, e.Col), termsafe.Escape(e.Msg))
}

// Engine holds the state a script manipulates.
type Engine struct {
	Out io.Writer
	Dir string // directory of the script: relative paths resolve here
	// WriteFile writes an export (atomicfile.Write when nil; the fuzz
	// test keeps exports in memory).
	WriteFile func(name string, data []byte) error
	mod       *ir.Module
	src       *load.Source
	opts      load.Options
	target    target.Name
	spec      string
	specSet   bool
	res       *pipeline.Result
	final     *ir.Module // the module res ran on (source positions kept, for located back-end errors)
	step      int
	fn        string
	dirty     bool
	dump      *dumpReplay // a loaded pass log (dump.go); nil for a module
	// input is the interpreter input: a sample's bundled input once
	// loaded, replaced by `input` commands.
	input   *interp.Input
	lastRun string
}

// Run executes a script read from r; name is used in error messages. The
// whole script is parsed first, so an unknown command is reported before
// anything runs.
func Run(name string, r io.Reader, out io.Writer) error {
	return NewEngine(name, out).Run(name, r)
}

// NewEngine returns an engine for a script named name (relative paths
// resolve in its directory) printing to out.
func NewEngine(name string, out io.Writer) *Engine {
	return &Engine{Out: out, Dir: filepath.Dir(name), target: target.SPIRV}
}

// Run parses the whole script read from r (at most limits.MaxModuleSize
// bytes) and then plays it; name is used in error messages.
func (e *Engine) Run(name string, r io.Reader) error {
	data, err := io.ReadAll(io.LimitReader(r, limits.MaxModuleSize+1))
	if err != nil {
		return err
	}
	if len(data) > limits.MaxModuleSize {
		return fmt.Errorf("%s: larger than %d bytes", name, limits.MaxModuleSize)
	}
	cmds, err := Parse(name, string(data))
	if err != nil {
		return err
	}
	for _, c := range cmds {
		if err := e.Do(c); err != nil {
			return c.Errorf(name, "%v", err)
		}
	}
	return nil
}

// Play is Run returning the engine, whose State is where the script ended.
func Play(name string, r io.Reader, out io.Writer) (*Engine, error) {
	e := NewEngine(name, out)
	return e, e.Run(name, r)
}

// State is where a script left the engine.
type State struct {
	Target, Passes string
	Step           int
	Pass           string
	Function       string
	// RunJSON is the result of the last run command ("" for none).
	RunJSON string
}

// State reports the engine's place (after compiling if needed).
func (e *Engine) State() (State, error) {
	if err := e.compile(); err != nil {
		return State{}, err
	}
	spec := e.spec
	if !e.specSet {
		spec = strings.Join(passes.DefaultPipelines[e.target], ",")
	}
	return State{Target: string(e.target), Passes: spec, Step: e.step, Pass: e.passNames()[e.step], Function: e.fn, RunJSON: e.lastRun}, nil
}

// Resolve resolves a script path: absolute as is, else relative to the
// script's directory when it exists there, else to the current directory;
// samples/NAME names an embedded sample unless such a file exists.
func Resolve(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	if dir != "" {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			return filepath.Join(dir, p)
		}
	}
	return p
}

func (e *Engine) path(p string) string { return Resolve(e.Dir, p) }

// compile (re)runs the pipeline if anything changed since the last run.
func (e *Engine) compile() error {
	if e.mod == nil {
		return fmt.Errorf("no module loaded (use: load FILE)")
	}
	if !e.dirty && e.res != nil {
		return nil
	}
	spec := e.spec
	if !e.specSet {
		spec = strings.Join(passes.DefaultPipelines[e.target], ",")
	}
	sp, err := pipeline.Parse(spec)
	if err != nil {
		return err
	}
	e.final = ir.CloneModule(e.mod)
	e.res = pipeline.Run(context.Background(), e.final, sp, pipeline.Options{Target: e.target, VerifyEach: true})
	e.step = len(e.res.Snapshots) - 1
	e.dirty = false
	return nil
}

func (e *Engine) snap() *pipeline.Snapshot { return e.res.Snapshots[e.step] }

// Exec parses and runs one command line.
func (e *Engine) Exec(line string) error {
	cmds, err := Parse("-", line)
	if err != nil {
		return err
	}
	for _, c := range cmds {
		if err := e.Do(c); err != nil {
			return err
		}
	}
	return nil
}

// Do runs one parsed command.
func (e *Engine) Do(c Command) error {
	cmd, args := c.Name, c.Args
	need := func(n int) error {
		if len(args) < n {
			return fmt.Errorf("%s needs %d argument(s)", cmd, n)
		}
		return nil
	}
	if e.dump != nil && cmd != "load" {
		if handled, err := e.execDump(cmd, args); handled {
			return err
		}
	}
	switch cmd {
	case "load":
		path, entry, err := LoadArgs(args)
		if err != nil {
			return err
		}
		e.opts.Entry = entry
		e.opts.Profile = LoadProfile(args)
		if passdump.SniffFile(e.path(path)) {
			return e.loadDump(e.path(path), path)
		}
		m, src, err := load.File(e.path(path), e.opts)
		if err != nil {
			return err
		}
		if e.dump != nil {
			e.dump.log.Close()
			e.dump = nil
		}
		e.mod, e.src, e.dirty, e.res = m, src, true, nil
		e.input = nil
		if src.Input != nil {
			if e.input, err = interp.ParseInput(src.Input); err != nil {
				return fmt.Errorf("the bundled input of %s: %v", path, err)
			}
		}
		fmt.Fprintf(e.Out, "loaded %s (%d functions)\n", path, len(m.Funcs))
	case "input":
		data, name := []byte(c.Raw), "input"
		if !strings.HasPrefix(c.Raw, "{") {
			var err error
			name = args[0]
			if data, err = limits.ReadFile(e.path(name), limits.MaxModuleSize); err != nil {
				return err
			}
		}
		in, err := interp.ParseInputFile(name, data)
		if err != nil {
			return fmt.Errorf("input: %v", err)
		}
		e.input = in
	case "view":
		// The explorer shows the pane; headless there is nothing to show.
	case "target":
		if err := need(1); err != nil {
			return err
		}
		tgt := target.Name(args[0])
		if _, ok := passes.DefaultPipelines[tgt]; !ok && tgt != target.PIR {
			return fmt.Errorf("unknown target %q", args[0])
		}
		e.target, e.dirty = tgt, true
	case "passes":
		if err := need(1); err != nil {
			return err
		}
		if _, err := pipeline.Parse(strings.Join(args, "")); err != nil {
			return err
		}
		e.spec, e.specSet, e.dirty = strings.Join(args, ""), true, true
	case "goto", "step", "first", "last", "next", "prev":
		if err := e.compile(); err != nil {
			return err
		}
		return e.move(c)
	case "function":
		e.fn = ""
		if len(args) > 0 && args[0] != "*" {
			e.fn = strings.TrimPrefix(args[0], "@")
		}
	case "print":
		if err := e.compile(); err != nil {
			return err
		}
		what := "ir"
		if len(args) > 0 {
			what = args[0]
		}
		return e.print(what)
	case "diff":
		if err := e.compile(); err != nil {
			return err
		}
		base := e.step - 1
		if len(args) > 0 {
			switch args[0] {
			case "input":
				base = 0
			case "prev":
			default:
				n, err := e.findStep(args[0])
				if err != nil {
					return err
				}
				base = n
			}
		}
		if base < 0 {
			base = 0
		}
		a := headless.SnapshotText(e.res.Snapshots[base], e.fn)
		b := headless.SnapshotText(e.snap(), e.fn)
		d := textdiff.Compute(a, b)
		fmt.Fprintf(e.Out, "--- %s\n+++ %s\n", e.res.Snapshots[base].Pass, e.snap().Pass)
		io.WriteString(e.Out, d.Unified())
	case "analyze":
		if err := e.compile(); err != nil {
			return err
		}
		m, err := e.snap().Module()
		if err != nil {
			return err
		}
		kinds := "domtree,postdomtree,cycles,uniformity"
		if len(args) > 0 {
			kinds = args[0]
		}
		return headless.Analyze(e.Out, m, strings.Split(kinds, ","), e.fn)
	case "explain":
		if err := need(1); err != nil {
			return err
		}
		if err := e.compile(); err != nil {
			return err
		}
		m, err := e.snap().Module()
		if err != nil {
			return err
		}
		return headless.Explain(e.Out, m, e.fn, args[0])
	case "run":
		if err := e.compile(); err != nil {
			return err
		}
		return e.run(args)
	case "export":
		// export [--force] FILE: relative to the current directory (not
		// the script's: a script in a read-only checkout still exports
		// where it is run); an existing FILE is replaced only with --force.
		force := len(args) > 0 && args[0] == "--force"
		if force {
			args = args[1:]
		}
		if err := need(1); err != nil {
			return err
		}
		if err := e.compile(); err != nil {
			return err
		}
		data, err := e.targetData(args[0])
		if err != nil {
			return err
		}
		if e.src != nil && atomicfile.SameFile(args[0], e.src.Path) {
			return fmt.Errorf("export %s: that is the loaded input file", args[0])
		}
		write := e.WriteFile
		if write == nil {
			write = func(name string, data []byte) error {
				return atomicfile.Write(name, data, atomicfile.Options{Replace: force})
			}
		}
		if err := write(args[0], data); err != nil {
			if errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("%s exists (export --force %s replaces it)", args[0], args[0])
			}
			return err
		}
		fmt.Fprintf(e.Out, "exported %s (%d bytes)\n", args[0], len(data))
	default:
		return fmt.Errorf("unknown command %q (see docs/replay.md)", cmd)
	}
	return nil
}

// passNames lists the snapshots' pass names as the explorer shows them
// (with the pass option: switch-to-if<all>).
func (e *Engine) passNames() []string {
	out := make([]string, len(e.res.Snapshots))
	for i, s := range e.res.Snapshots {
		out[i] = s.Pass
		if s.Option != "" {
			out[i] += "<" + s.Option + ">"
		}
	}
	return out
}

func (e *Engine) findStep(a string) (int, error) { return FindStep(a, e.passNames()) }

func (e *Engine) move(c Command) error {
	last := len(e.res.Snapshots) - 1
	n, err := Move(c, e.step, e.passNames())
	if err != nil {
		return err
	}
	e.step = n
	s := e.snap()
	status := "unchanged"
	switch {
	case s.Err != nil:
		status = "FAILED: " + e.failure(s.Err)
	case e.step == 0:
		status = "input"
	case s.Changed:
		status = "changed"
	}
	fmt.Fprintf(e.Out, "at step %d/%d: %s (%s)\n", e.step, last, s.Pass, status)
	return nil
}

func (e *Engine) print(what string) error {
	switch what {
	case "ir":
		fmt.Fprintf(e.Out, "*** IR after %s ***\n", e.snap().Pass)
		io.WriteString(e.Out, strings.TrimRight(headless.SnapshotText(e.snap(), e.fn), "\n")+"\n")
	case "passes":
		for i, s := range e.res.Snapshots {
			status := "unchanged"
			switch {
			case s.Err != nil:
				status = "FAILED: " + e.failure(s.Err)
			case i == 0:
				status = "input"
			case s.Skipped:
				status = "off"
			case s.Changed:
				status = "changed"
			}
			cur := " "
			if i == e.step {
				cur = ">"
			}
			fmt.Fprintf(e.Out, "%s %2d %-28s %s\n", cur, i, s.Pass, status)
		}
	case "target":
		text, err := e.targetText()
		if err != nil {
			return err
		}
		io.WriteString(e.Out, text)
	default:
		return fmt.Errorf("print what? ir, passes or target, not %q", what)
	}
	return nil
}

// failure is the first line of a failed step's message, located in the
// loaded file (internal/diag) and without repeating the pass name.
func (e *Engine) failure(se *pipeline.StepError) string {
	if e.src == nil {
		return se.Msg
	}
	msg := diag.StepMessage(e.src, nil, se)
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i] + " …"
	}
	return msg
}

// targetData is what export writes to file: the binary module when the
// target has one and file ends in its binary extension (.spv), else the
// text.
func (e *Engine) targetData(file string) ([]byte, error) {
	if e.res.Err != nil {
		return nil, fmt.Errorf("the pipeline failed at %s: %s", e.res.Err.Pass, e.failure(e.res.Err))
	}
	m, err := e.res.Final().FreshModule()
	if err != nil {
		return nil, err
	}
	o, err := diag.EmitSnapshot(e.src, e.target, m, e.final)
	if err != nil {
		return nil, err
	}
	if o.Binary != nil && o.BinExt != "" && strings.EqualFold(filepath.Ext(file), o.BinExt) {
		return o.Binary, nil
	}
	return []byte(o.Text), nil
}

func (e *Engine) targetText() (string, error) {
	if e.res.Err != nil {
		return "", fmt.Errorf("the pipeline failed at %s: %s", e.res.Err.Pass, e.failure(e.res.Err))
	}
	m, err := e.res.Final().FreshModule()
	if err != nil {
		return "", err
	}
	o, err := diag.EmitSnapshot(e.src, e.target, m, e.final)
	if err != nil {
		return "", err
	}
	return o.Text, nil
}

func (e *Engine) run(args []string) error {
	ra, err := ParseRun(args)
	if err != nil {
		return err
	}
	opts := interp.Options{Trace: true, WaveSize: ra.Wave, Entry: ra.Entry}
	if ra.Entry == "" {
		opts.Entry = e.opts.Entry
	}
	if ra.Policy != "" {
		if opts.Policy, err = interp.ParsePolicy(ra.Policy); err != nil {
			return err
		}
	}
	in := e.input
	if ra.Input != "" {
		data, err := limits.ReadFile(e.path(ra.Input), limits.MaxModuleSize)
		if err != nil {
			return err
		}
		if in, err = interp.ParseInputFile(ra.Input, data); err != nil {
			return err
		}
	}
	m, err := e.snap().FreshModule()
	if err != nil {
		return err
	}
	r, err := interp.Run(m, in, opts)
	if err != nil {
		return err
	}
	var sb strings.Builder
	if err := r.WriteJSON(&sb); err != nil {
		return err
	}
	e.lastRun = sb.String()
	_, err = io.WriteString(e.Out, e.lastRun)
	return err
}
