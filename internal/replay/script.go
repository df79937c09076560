package replay

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"passlens/compiler/hlsl"
)

// Command is one parsed script line.
type Command struct {
	Name string
	Args []string
	Line int    // 1-based line of the command
	Col  int    // 1-based column of the command word
	Text string // the whole line, for error messages
	// Raw is the text after the command word (for inline JSON arguments,
	// which may contain spaces).
	Raw string
}

// Errorf returns an error located at the command (file:line:col).
func (c Command) Errorf(file, format string, args ...any) *Error {
	return &Error{File: file, Line: c.Line, Col: c.Col, Msg: fmt.Sprintf(format, args...), Text: c.Text}
}

// commandSpec describes a command: its argument count range (max -1:
// any) and whether the explorer can play it.
type commandSpec struct{ min, max int }

var commands = map[string]commandSpec{
	"load":     {1, 2},
	"target":   {1, 1},
	"passes":   {1, -1},
	"first":    {0, 0},
	"last":     {0, 0},
	"next":     {0, 0},
	"prev":     {0, 0},
	"step":     {0, 1},
	"goto":     {1, -1}, // pass names of legacy pass-manager logs have spaces
	"function": {0, 1},
	"print":    {0, 1},
	"diff":     {0, 1},
	"analyze":  {0, 1},
	"explain":  {1, 1},
	"input":    {1, -1},
	"run":      {0, -1},
	"export":   {1, 2}, // [--force] FILE
	"view":     {1, 1},
}

// Views are the explorer panes a `view` command can show.
var Views = []string{"ir", "diff", "trees", "cfg", "lanes", "target", "explain", "source"}

// Parse splits a script into commands. Unknown commands and wrong argument
// counts are errors located at file:line:col, found before anything runs.
func Parse(file, text string) ([]Command, error) {
	var out []Command
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		col := strings.Index(line, t) + 1
		f := strings.Fields(t)
		c := Command{Name: f[0], Args: f[1:], Line: n + 1, Col: col, Text: line}
		c.Raw = strings.TrimSpace(t[len(f[0]):])
		spec, ok := commands[c.Name]
		if !ok {
			return nil, c.Errorf(file, "unknown command %q (see docs/replay.md)", c.Name)
		}
		if c.Name == "input" && strings.HasPrefix(c.Raw, "{") {
			if !json.Valid([]byte(c.Raw)) {
				return nil, c.Errorf(file, "input: inline JSON is not valid")
			}
		} else if len(c.Args) < spec.min || spec.max >= 0 && len(c.Args) > spec.max {
			return nil, c.Errorf(file, "%s takes %s", c.Name, argCount(spec))
		}
		if c.Name == "view" && !contains(Views, c.Args[0]) {
			return nil, c.Errorf(file, "view: unknown pane %q (want %s)", c.Args[0], strings.Join(Views, ", "))
		}
		out = append(out, c)
	}
	return out, nil
}

func argCount(s commandSpec) string {
	switch {
	case s.min == s.max && s.min == 0:
		return "no arguments"
	case s.min == s.max:
		return fmt.Sprintf("%d argument(s)", s.min)
	case s.max < 0:
		return fmt.Sprintf("at least %d argument(s)", s.min)
	}
	return fmt.Sprintf("%d to %d arguments", s.min, s.max)
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// LoadArgs parses `load FILE [--entry=E] [--profile=P]`; LoadProfile
// returns the profile.
func LoadArgs(args []string) (path, entry string, err error) {
	path = args[0]
	for _, a := range args[1:] {
		if v, ok := strings.CutPrefix(a, "--entry="); ok {
			entry = v
			continue
		}
		if v, ok := strings.CutPrefix(a, "--profile="); ok {
			if _, err := hlsl.ParseProfile(v); err != nil {
				return "", "", fmt.Errorf("load: --profile: %v", err)
			}
			continue
		}
		return "", "", fmt.Errorf("load: unknown option %q (want --entry=NAME or --profile=P)", a)
	}
	return path, entry, nil
}

// LoadProfile returns the HLSL profile (dxc's -T) of a `load` command that
// LoadArgs accepted: the zero Profile when it names none.
func LoadProfile(args []string) hlsl.Profile {
	var p hlsl.Profile
	for _, a := range args[1:] {
		if v, ok := strings.CutPrefix(a, "--profile="); ok {
			p, _ = hlsl.ParseProfile(v)
		}
	}
	return p
}

// RunArgs are the options of a `run` command.
type RunArgs struct {
	Wave   int    // 0: the interpreter's default
	Policy string // "": the default
	Input  string // a file path, "" for the current input
	Entry  string
}

// ParseRun parses `run [--wave N] [--policy P] [--input FILE] [--entry E]`
// (each also as --flag=value).
func ParseRun(args []string) (RunArgs, error) {
	var r RunArgs
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, v, hasV := strings.Cut(a, "=")
		if !hasV {
			if i+1 >= len(args) {
				return r, fmt.Errorf("run: %s needs a value", a)
			}
			i++
			v = args[i]
		}
		switch name {
		case "--wave":
			n, err := strconv.Atoi(v)
			if err != nil || n <= 0 {
				return r, fmt.Errorf("run: --wave takes a positive number, not %q", v)
			}
			r.Wave = n
		case "--policy":
			r.Policy = v
		case "--input":
			r.Input = v
		case "--entry":
			r.Entry = v
		default:
			return r, fmt.Errorf("run: unknown option %q", name)
		}
	}
	return r, nil
}

// Move resolves a navigation command (first, last, next, prev, step N,
// goto PASS[#K]|N) against the snapshot names, from step cur. The
// explorer and the headless engine share it, so a script lands on the
// same snapshot in both.
func Move(c Command, cur int, passes []string) (int, error) {
	last := len(passes) - 1
	switch c.Name {
	case "first":
		return 0, nil
	case "last":
		return last, nil
	case "next":
		return min(last, cur+1), nil
	case "prev":
		return max(0, cur-1), nil
	case "step":
		d := 1
		if len(c.Args) > 0 {
			n, err := strconv.Atoi(c.Args[0])
			if err != nil {
				return cur, fmt.Errorf("step takes a number, not %q", c.Args[0])
			}
			d = n
		}
		return max(0, min(last, cur+d)), nil
	case "goto":
		return FindStep(strings.Join(c.Args, " "), passes)
	}
	return cur, fmt.Errorf("%s is not a move", c.Name)
}

// FindStep resolves N (a snapshot number) or PASS[#K] (the K-th snapshot
// of PASS, 1-based; default the first).
func FindStep(a string, passes []string) (int, error) {
	if n, err := strconv.Atoi(a); err == nil {
		if n < 0 || n >= len(passes) {
			return 0, fmt.Errorf("no step %d (0..%d)", n, len(passes)-1)
		}
		return n, nil
	}
	name, k := a, 1
	if i := strings.IndexByte(a, '#'); i >= 0 {
		name = a[:i]
		var err error
		if k, err = strconv.Atoi(a[i+1:]); err != nil || k < 1 {
			return 0, fmt.Errorf("bad occurrence in %q (want PASS#K, K ≥ 1)", a)
		}
	}
	for i, p := range passes {
		if p == name {
			k--
			if k == 0 {
				return i, nil
			}
		}
	}
	return 0, fmt.Errorf("no pass %q in the pipeline", a)
}

// StepRef names snapshot i as `PASS#K` (K only when PASS occurs more than
// once before or at i), the form goto resolves back to i.
func StepRef(i int, passes []string) string {
	k, total := 0, 0
	for j, p := range passes {
		if p == passes[i] {
			total++
			if j <= i {
				k++
			}
		}
	}
	if total > 1 {
		return fmt.Sprintf("%s#%d", passes[i], k)
	}
	return passes[i]
}

// Recorder builds a script from an explorer session. Paths are kept
// absolute and written relative to the script's directory when saved, so
// a script replays from wherever it is run.
type Recorder struct {
	lines []recLine
}

type recLine struct {
	cmd  string
	path string // absolute path argument (made relative on save)
	rest string // text after the path
}

// NewRecorder starts a script that loads module (a file path or
// samples/NAME) with an optional entry point and HLSL profile (dxc's -T;
// "" for none), for target and pipeline.
func NewRecorder(module, entry, profile, target, passes string) *Recorder {
	r := &Recorder{}
	rest := ""
	if entry != "" {
		rest = " --entry=" + entry
	}
	if profile != "" {
		rest += " --profile=" + profile
	}
	r.add(recLine{cmd: "load", path: absPath(module), rest: rest})
	r.add(recLine{cmd: "target " + target})
	r.add(recLine{cmd: "passes " + passes})
	return r
}

func absPath(p string) string {
	if strings.HasPrefix(p, "samples/") || filepath.IsAbs(p) {
		return p
	}
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

func (r *Recorder) add(l recLine) { r.lines = append(r.lines, l) }

// replaceLast replaces the last line when it starts with prefix (so a
// burst of moves or toggles records as one line), else appends.
func (r *Recorder) replaceLast(prefix string, l recLine) {
	if n := len(r.lines); n > 0 && strings.HasPrefix(r.lines[n-1].cmd, prefix) {
		r.lines[n-1] = l
		return
	}
	r.add(l)
}

// Target records a target change with the pipeline it brought.
func (r *Recorder) Target(target, passes string) {
	r.add(recLine{cmd: "target " + target})
	r.add(recLine{cmd: "passes " + passes})
}

// Passes records a what-if pipeline.
func (r *Recorder) Passes(spec string) { r.replaceLast("passes ", recLine{cmd: "passes " + spec}) }

// Goto records a move to a snapshot (see StepRef).
func (r *Recorder) Goto(ref string) { r.replaceLast("goto ", recLine{cmd: "goto " + ref}) }

// Function records the function filter ("" for all).
func (r *Recorder) Function(fn string) {
	if fn == "" {
		fn = "*"
	}
	r.add(recLine{cmd: "function " + fn})
}

// View records the pane shown.
func (r *Recorder) View(name string) { r.replaceLast("view ", recLine{cmd: "view " + name}) }

// InputFile records interpreter input loaded from a file.
func (r *Recorder) InputFile(path string) { r.add(recLine{cmd: "input", path: absPath(path)}) }

// InputJSON records interpreter input inline (compacted to one line).
func (r *Recorder) InputJSON(data []byte) error {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	r.add(recLine{cmd: "input " + string(b)})
	return nil
}

// Run records an interpreter run.
func (r *Recorder) Run(wave int, policy string) {
	r.add(recLine{cmd: fmt.Sprintf("run --wave %d --policy %s", wave, policy)})
}

// Explain records an explanation request.
func (r *Recorder) Explain(name string) { r.add(recLine{cmd: "explain " + name}) }

// Export records an export of the target code.
func (r *Recorder) Export(path string) { r.add(recLine{cmd: "export", path: absPath(path)}) }

// Script renders the script for a file in dir.
func (r *Recorder) Script(dir string) string {
	var sb strings.Builder
	sb.WriteString("# passlens replay script recorded by the explorer (docs/replay.md)\n")
	for _, l := range r.lines {
		sb.WriteString(l.cmd)
		if l.path != "" {
			p := l.path
			if filepath.IsAbs(p) && dir != "" {
				if ad, err := filepath.Abs(dir); err == nil {
					if rel, err := filepath.Rel(ad, p); err == nil {
						p = rel
					}
				}
			}
			sb.WriteString(" " + p)
		}
		sb.WriteString(l.rest + "\n")
	}
	return sb.String()
}
