// Package replay runs replay scripts (docs/replay.md): a headless sequence
// of explorer steps — load a module, pick a target or passes, move between
// snapshots, print IR, diffs, analyses or interpreter results, export. The
// explorer records the same format. Output is byte-identical across runs:
// no timings, no addresses, no map-order dependence.
package replay

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/load"
	"passlens/compiler/passes"
	"passlens/compiler/pipeline"
	"passlens/compiler/target"
	_ "passlens/compiler/target/all" // registers the back ends
	"passlens/internal/headless"
	"passlens/internal/limits"
	"passlens/internal/termsafe"
	"passlens/internal/textdiff"
)

// Error is a script error with its location.
type Error struct {
	File string
	Line int
	Msg  string
	Text string // the offending line
}

// The script line is shown escaped (termsafe) and at most 160 bytes long.
func (e *Error) Error() string {
	text := e.Text
	if len(text) > 160 {
		text = strings.ToValidUTF8(text[:160], "") + "…"
	}
	return fmt.Sprintf("%s:%d:1: error: %s\n  %d | %s\n", termsafe.Escape(e.File), e.Line, termsafe.Escape(e.Msg), e.Line, termsafe.Escape(text))
}

// Engine holds the state a script manipulates.
type Engine struct {
	Out io.Writer
	Dir string // directory of the script: relative paths resolve here
	// WriteFile writes an export (os.WriteFile when nil; the fuzz test
	// keeps exports in memory).
	WriteFile func(name string, data []byte) error
	mod       *ir.Module
	src       *load.Source
	opts      load.Options
	target    string
	spec      string
	specSet   bool
	res       *pipeline.Result
	step      int
	fn        string
	dirty     bool
}

// Run executes a script read from r; name is used in error messages.
func Run(name string, r io.Reader, out io.Writer) error {
	return NewEngine(name, out).Run(name, r)
}

// NewEngine returns an engine for a script named name (relative paths
// resolve in its directory) printing to out.
func NewEngine(name string, out io.Writer) *Engine {
	return &Engine{Out: out, Dir: filepath.Dir(name), target: "spirv"}
}

// Run executes a script read from r; name is used in error messages.
func (e *Engine) Run(name string, r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if err := e.Exec(t); err != nil {
			return &Error{File: name, Line: n, Msg: err.Error(), Text: line}
		}
	}
	return sc.Err()
}

func (e *Engine) path(p string) string {
	if filepath.IsAbs(p) || strings.HasPrefix(p, "samples/") {
		return p
	}
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return filepath.Join(e.Dir, p)
}

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
	e.res = pipeline.Run(context.Background(), ir.CloneModule(e.mod), sp, pipeline.Options{Target: e.target, VerifyEach: true})
	e.step = len(e.res.Snapshots) - 1
	e.dirty = false
	return nil
}

func (e *Engine) snap() *pipeline.Snapshot { return e.res.Snapshots[e.step] }

// Exec runs one command line.
func (e *Engine) Exec(line string) error {
	f := strings.Fields(line)
	cmd, args := f[0], f[1:]
	need := func(n int) error {
		if len(args) < n {
			return fmt.Errorf("%s needs %d argument(s)", cmd, n)
		}
		return nil
	}
	switch cmd {
	case "load":
		if err := need(1); err != nil {
			return err
		}
		for _, a := range args[1:] {
			if v, ok := strings.CutPrefix(a, "--entry="); ok {
				e.opts.Entry = v
			}
		}
		m, src, err := load.File(e.path(args[0]), e.opts)
		if err != nil {
			return err
		}
		e.mod, e.src, e.dirty, e.res = m, src, true, nil
		fmt.Fprintf(e.Out, "loaded %s (%d functions)\n", args[0], len(m.Funcs))
	case "target":
		if err := need(1); err != nil {
			return err
		}
		if _, ok := passes.DefaultPipelines[args[0]]; !ok && args[0] != "pir" {
			return fmt.Errorf("unknown target %q", args[0])
		}
		e.target, e.dirty = args[0], true
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
		return e.move(cmd, args)
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
		if err := need(1); err != nil {
			return err
		}
		if err := e.compile(); err != nil {
			return err
		}
		text, err := e.targetText()
		if err != nil {
			return err
		}
		write := e.WriteFile
		if write == nil {
			write = func(name string, data []byte) error { return os.WriteFile(name, data, 0o644) }
		}
		if err := write(e.path(args[0]), []byte(text)); err != nil {
			return err
		}
		fmt.Fprintf(e.Out, "exported %s (%d bytes)\n", args[0], len(text))
	default:
		return fmt.Errorf("unknown command %q (see docs/replay.md)", cmd)
	}
	return nil
}

func (e *Engine) findStep(a string) (int, error) {
	if n, err := strconv.Atoi(a); err == nil {
		if n < 0 || n >= len(e.res.Snapshots) {
			return 0, fmt.Errorf("no step %d (0..%d)", n, len(e.res.Snapshots)-1)
		}
		return n, nil
	}
	// PASS or PASS#k (the k-th occurrence, 1-based).
	name, k := a, 1
	if i := strings.IndexByte(a, '#'); i >= 0 {
		name = a[:i]
		var err error
		if k, err = strconv.Atoi(a[i+1:]); err != nil || k < 1 {
			return 0, fmt.Errorf("bad occurrence in %q", a)
		}
	}
	for i, s := range e.res.Snapshots {
		if s.Pass == name {
			k--
			if k == 0 {
				return i, nil
			}
		}
	}
	return 0, fmt.Errorf("no pass %q in the pipeline", a)
}

func (e *Engine) move(cmd string, args []string) error {
	last := len(e.res.Snapshots) - 1
	switch cmd {
	case "first":
		e.step = 0
	case "last":
		e.step = last
	case "next":
		e.step = min(last, e.step+1)
	case "prev":
		e.step = max(0, e.step-1)
	case "step":
		d := 1
		if len(args) > 0 {
			n, err := strconv.Atoi(args[0])
			if err != nil {
				return fmt.Errorf("step takes a number, not %q", args[0])
			}
			d = n
		}
		e.step = max(0, min(last, e.step+d))
	case "goto":
		if len(args) == 0 {
			return fmt.Errorf("goto needs a pass name or step number")
		}
		n, err := e.findStep(args[0])
		if err != nil {
			return err
		}
		e.step = n
	}
	s := e.snap()
	status := "unchanged"
	switch {
	case s.Err != nil:
		status = "FAILED: " + s.Err.Msg
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
				status = "FAILED: " + s.Err.Msg
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

func (e *Engine) targetText() (string, error) {
	if e.res.Err != nil {
		return "", fmt.Errorf("the pipeline failed at %s: %s", e.res.Err.Pass, e.res.Err.Msg)
	}
	m, err := e.res.Final().FreshModule()
	if err != nil {
		return "", err
	}
	o, err := target.Emit(e.target, m)
	if err != nil {
		return "", err
	}
	return o.Text, nil
}

func (e *Engine) run(args []string) error {
	opts := interp.Options{Trace: true}
	var in *interp.Input
	for i := 0; i < len(args); i++ {
		a := args[i]
		val := func() (string, error) {
			if k, v, ok := strings.Cut(a, "="); ok {
				_ = k
				return v, nil
			}
			if i+1 >= len(args) {
				return "", fmt.Errorf("%s needs a value", a)
			}
			i++
			return args[i], nil
		}
		switch {
		case strings.HasPrefix(a, "--wave"):
			v, err := val()
			if err != nil {
				return err
			}
			if opts.WaveSize, err = strconv.Atoi(v); err != nil {
				return fmt.Errorf("--wave takes a number")
			}
		case strings.HasPrefix(a, "--policy"):
			v, err := val()
			if err != nil {
				return err
			}
			if opts.Policy, err = interp.ParsePolicy(v); err != nil {
				return err
			}
		case strings.HasPrefix(a, "--input"):
			v, err := val()
			if err != nil {
				return err
			}
			data, err := limits.ReadFile(e.path(v), limits.MaxModuleSize)
			if err != nil {
				return err
			}
			if in, err = interp.ParseInputFile(v, data); err != nil {
				return err
			}
		case strings.HasPrefix(a, "--entry"):
			v, err := val()
			if err != nil {
				return err
			}
			opts.Entry = v
		default:
			return fmt.Errorf("run: unknown option %q", a)
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
	return r.WriteJSON(e.Out)
}
