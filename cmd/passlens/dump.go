package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"passlens/compiler/passdump"
	"passlens/internal/textdiff"
	"passlens/tui"
	"passlens/tui/backend"
)

func init() {
	register(&command{
		name:    "dump",
		summary: "read a compiler's pass log (opt/clang/llc -print-after-all, spirv-opt --print-all) and print its steps",
		usage: `Usage: passlens dump FILE|- [flags]

Reads a pass log — LLVM's -print-after-all / -print-changed / -print-module-scope
(new and legacy pass manager, llc's machine IR), spirv-opt --print-all, or
passlens compile --print-after-all — and prints every step as the whole module
after that pass (function-level dumps merged into the module), in passlens's
dump format (which passlens reads back). "-" reads standard input.
See docs/pass-dumps.md.

Flags:
  --steps              list the steps (number, status, language, pass) instead of printing them
  --print-changed[=diff]  only steps that changed the module (or their diff); others noted "omitted"
  --only-pass P        only steps of pass P (comma-separated; "SROAPass" or "SROAPass on f")
  --function F         print only function F; with --print-changed, steps that did not change F are omitted
  --step N             print only step N
  --time-steps         print nothing; measure indexing, the first frame's step and
                       step latency to standard error (bench/passdump.sh)
`,
		run: runDump,
	})
}

func runDump(args []string, stdout, stderr io.Writer) error {
	c := commands["dump"]
	fs := newFlags(c, stderr)
	list := fs.Bool("steps", false, "")
	only := fs.String("only-pass", "", "")
	fn := fs.String("function", "", "")
	stepN := fs.Int("step", -1, "")
	timeSteps := fs.Bool("time-steps", false, "")
	var changed optionalValueFlag
	fs.Var(&changed, "print-changed", "")
	pos, err := parseFlags(c, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return &usageError{c, "expected one log file (or - for standard input)"}
	}
	if changed.set && changed.value != "" && changed.value != "diff" {
		return &usageError{c, fmt.Sprintf("--print-changed takes no value or =diff, not %q", changed.value)}
	}
	start := time.Now()
	l, err := passdump.Open(pos[0])
	if err != nil {
		return fmt.Errorf("passlens: %v", err)
	}
	defer l.Close()
	if *timeSteps {
		return timeDump(stderr, l, time.Since(start))
	}
	if *stepN >= len(l.Steps) {
		return fmt.Errorf("passlens: %s: no step %d (the log has %d steps, 0..%d)", pos[0], *stepN, len(l.Steps), len(l.Steps)-1)
	}
	*fn = strings.TrimPrefix(*fn, "@")
	return printDump(stdout, l, dumpOptions{list: *list, only: *only, fn: *fn, step: *stepN,
		changed: changed.set, diff: changed.value == "diff"})
}

type dumpOptions struct {
	list, changed, diff bool
	only, fn            string
	step                int
}

func (o dumpOptions) wants(s *passdump.Step) bool {
	if o.only == "" {
		return true
	}
	for _, p := range strings.Split(o.only, ",") {
		p = strings.TrimSpace(p)
		if p == s.Pass || p == backend.StepTitle(s) {
			return true
		}
	}
	return false
}

// printDump prints the steps of l in passlens's dump format:
//
//	*** IR Dump After <pass> [on <scope>] ***
//
// followed by the step's module (or function); the first step of a log
// that starts with the input is printed as "*** IR Dump At Start ***".
func printDump(w io.Writer, l *passdump.Log, o dumpOptions) error {
	if o.list {
		for i := range l.Steps {
			s := &l.Steps[i]
			if !o.wants(s) || (o.step >= 0 && i != o.step) {
				continue
			}
			status := s.Status.String()
			if o.fn != "" && s.Status == passdump.Changed && !s.ChangedFunc(o.fn) {
				status = "unchanged"
			}
			if s.Partial {
				status += ", partial"
			}
			fmt.Fprintf(w, "%5d  %-9s %-6s %s\n", i, status, s.Lang, backend.StepTitle(s))
		}
		return nil
	}
	text := func(i int) (string, error) {
		if o.fn != "" {
			return l.FuncText(i, o.fn)
		}
		t, _, err := l.Text(i)
		return t, err
	}
	prev := -1 // the previous step of the same language, for diffs
	for i := range l.Steps {
		s := &l.Steps[i]
		base := prev
		if i > 0 && l.Steps[i-1].Lang == s.Lang {
			base = i - 1
		}
		prev = i
		if !o.wants(s) || (o.step >= 0 && i != o.step) {
			continue
		}
		banner := "*** IR Dump After " + backend.StepTitle(s)
		if s.Before {
			banner = "*** IR Dump Before " + strings.TrimPrefix(backend.StepTitle(s), "before ")
		}
		if s.Status == passdump.Input {
			banner = "*** IR Dump At Start"
		}
		switch s.Lang {
		case passdump.LangMIR:
			banner = "# " + banner
		case passdump.LangLLVM, passdump.LangPIR, passdump.LangSPIRV:
		default:
			// A passlens back-end stage: "*** SIR Dump After sir-dce".
			banner = "*** " + strings.ToUpper(s.Lang) + " Dump After " + backend.StepTitle(s)
		}
		unchanged := s.Status == passdump.Unchanged ||
			(o.fn != "" && s.Status == passdump.Changed && !s.ChangedFunc(o.fn))
		if (o.changed || o.diff) && unchanged {
			fmt.Fprintf(w, "%s omitted because no change ***\n", banner)
			continue
		}
		cur, err := text(i)
		if err != nil {
			return fmt.Errorf("passlens: %v", err)
		}
		if o.diff && base >= 0 && s.Status != passdump.Input {
			old, err := text(base)
			if err != nil {
				return fmt.Errorf("passlens: %v", err)
			}
			fmt.Fprintf(w, "%s ***\n", banner)
			io.WriteString(w, textdiff.Compute(old, cur).Unified())
			continue
		}
		if s.Lang == passdump.LangMIR {
			fmt.Fprintf(w, "%s ***:\n%s\n", banner, strings.TrimRight(cur, "\n"))
			continue
		}
		fmt.Fprintf(w, "%s ***\n%s\n", banner, strings.TrimRight(cur, "\n"))
	}
	return nil
}

// dumpDriver returns the explorer's driver for a pass log (--dump FILE, a
// file whose content is a log) or a live command (--run 'CMD'); nil when
// the explorer should load a module as usual.
func dumpDriver(arg, dumpFlag, runFlag string) (tui.Driver, error) {
	switch {
	case runFlag != "":
		cmd, err := passdump.ParseCommand(runFlag)
		if err != nil {
			return nil, fmt.Errorf("passlens: --run: %v", err)
		}
		return backend.NewRunDriver(cmd), nil
	case dumpFlag != "":
		arg = dumpFlag
	case arg == "" || arg == "-" || !passdump.SniffFile(arg):
		if arg != "-" {
			return nil, nil
		}
	}
	// The explorer draws the log's first part while the rest is indexed
	// (a 500 MB log takes about a second of CPU to index).
	p, err := passdump.OpenProgressive(arg, passdump.DefaultFirstPart)
	if err != nil {
		return nil, fmt.Errorf("passlens: %v", err)
	}
	d, err := backend.NewProgressiveDumpDriver(p, arg)
	if err != nil {
		return nil, fmt.Errorf("passlens: %v", err)
	}
	return d, nil
}

// timeDump measures what the explorer does with a log: the index (already
// built, in indexed), composing and splitting the last step (the first
// frame), and stepping: composing and splitting 200 steps spread over the
// log, as pressing → on them does (each step once, so no cache answers).
func timeDump(w io.Writer, l *passdump.Log, indexed time.Duration) error {
	t0 := time.Now()
	text, _, err := l.Text(len(l.Steps) - 1)
	if err != nil {
		return fmt.Errorf("passlens: %v", err)
	}
	tui.SplitLines(text)
	first := time.Since(t0)
	n := min(200, len(l.Steps))
	var lat []time.Duration
	for k := 0; k < n; k++ {
		i := k * (len(l.Steps) - 1) / max(1, n-1)
		t := time.Now()
		text, _, err := l.Text(i)
		if err != nil {
			return fmt.Errorf("passlens: %v", err)
		}
		tui.SplitLines(text)
		lat = append(lat, time.Since(t))
	}
	sort.Slice(lat, func(a, b int) bool { return lat[a] < lat[b] })
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
	fmt.Fprintf(w, "log %.0f MB, %d steps (%s)\n", float64(l.Size())/(1<<20), len(l.Steps), l.Format)
	fmt.Fprintf(w, "index %s\nfirst frame step %s (index + first step %s)\n", ms(indexed), ms(first), ms(indexed+first))
	fmt.Fprintf(w, "step latency over %d steps: median %s, p99 %s, max %s\n", n, ms(lat[len(lat)/2]), ms(lat[len(lat)*99/100]), ms(lat[len(lat)-1]))
	return nil
}
