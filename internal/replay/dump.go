package replay

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"passlens/compiler/ir"
	"passlens/compiler/llvm"
	"passlens/compiler/passdump"
	"passlens/compiler/spvread"
	"passlens/internal/headless"
	"passlens/internal/textdiff"
)

// dumpReplay is the state of a script that loaded a pass log
// (compiler/passdump) instead of a module: the steps are the log's dumps;
// target and passes do not apply; analyze imports the step's text.
type dumpReplay struct {
	log  *passdump.Log
	step int
}

// loadDump replaces the engine's module with a pass log.
func (e *Engine) loadDump(path, shown string) error {
	l, err := passdump.Open(path)
	if err != nil {
		return err
	}
	if e.dump != nil {
		e.dump.log.Close()
	}
	e.dump = &dumpReplay{log: l, step: len(l.Steps) - 1}
	e.mod, e.src, e.res, e.final = nil, nil, nil, nil
	fmt.Fprintf(e.Out, "loaded %s (pass log, %s, %d steps)\n", shown, l.Format, len(l.Steps))
	return nil
}

func (d *dumpReplay) title(i int) string {
	s := &d.log.Steps[i]
	t := s.Pass
	if s.Before {
		t = "before " + t
	}
	if s.Scope != "" && s.Scope != "[module]" {
		t += " on " + s.Scope
	}
	return t
}

func (d *dumpReplay) find(a string) (int, error) {
	if n, err := strconv.Atoi(a); err == nil {
		if n < 0 || n >= len(d.log.Steps) {
			return 0, fmt.Errorf("no step %d (0..%d)", n, len(d.log.Steps)-1)
		}
		return n, nil
	}
	name, k := a, 1
	if i := strings.LastIndexByte(a, '#'); i >= 0 {
		if n, err := strconv.Atoi(a[i+1:]); err == nil && n >= 1 {
			name, k = a[:i], n
		}
	}
	for i, s := range d.log.Steps {
		if s.Pass == name || d.title(i) == name {
			k--
			if k == 0 {
				return i, nil
			}
		}
	}
	return 0, fmt.Errorf("no pass %q in the log", a)
}

func (d *dumpReplay) text(i int, fn string) (string, error) {
	if fn != "" {
		return d.log.FuncText(i, fn)
	}
	t, _, err := d.log.Text(i)
	return t, err
}

// execDump runs the commands that work on a loaded log; handled is false
// for commands that do not depend on it.
func (e *Engine) execDump(cmd string, args []string) (handled bool, err error) {
	d := e.dump
	last := len(d.log.Steps) - 1
	switch cmd {
	case "goto", "step", "first", "last", "next", "prev":
		switch cmd {
		case "first":
			d.step = 0
		case "last":
			d.step = last
		case "next":
			d.step = min(last, d.step+1)
		case "prev":
			d.step = max(0, d.step-1)
		case "step":
			n := 1
			if len(args) > 0 {
				if n, err = strconv.Atoi(args[0]); err != nil {
					return true, fmt.Errorf("step takes a number, not %q", args[0])
				}
			}
			d.step = max(0, min(last, d.step+n))
		case "goto":
			if len(args) == 0 {
				return true, fmt.Errorf("goto needs a pass name or step number")
			}
			if d.step, err = d.find(strings.Join(args, " ")); err != nil {
				return true, err
			}
		}
		s := &d.log.Steps[d.step]
		status := s.Status.String()
		if s.Partial {
			status += ", partial"
		}
		fmt.Fprintf(e.Out, "at step %d/%d: %s (%s)\n", d.step, last, d.title(d.step), status)
		return true, nil
	case "print":
		what := "ir"
		if len(args) > 0 {
			what = args[0]
		}
		switch what {
		case "ir":
			t, err := d.text(d.step, e.fn)
			if err != nil {
				return true, err
			}
			fmt.Fprintf(e.Out, "*** IR after %s ***\n", d.title(d.step))
			io.WriteString(e.Out, strings.TrimRight(t, "\n")+"\n")
		case "passes":
			for i := range d.log.Steps {
				cur := " "
				if i == d.step {
					cur = ">"
				}
				fmt.Fprintf(e.Out, "%s %2d %-40s %s\n", cur, i, d.title(i), d.log.Steps[i].Status)
			}
		default:
			return true, fmt.Errorf("print what? ir or passes (a pass log has no target), not %q", what)
		}
		return true, nil
	case "diff":
		base := d.step - 1
		if len(args) > 0 {
			switch args[0] {
			case "input":
				base = 0
			case "prev":
			default:
				if base, err = d.find(args[0]); err != nil {
					return true, err
				}
			}
		}
		base = max(base, 0)
		a, err := d.text(base, e.fn)
		if err != nil {
			return true, err
		}
		b, err := d.text(d.step, e.fn)
		if err != nil {
			return true, err
		}
		fmt.Fprintf(e.Out, "--- %s\n+++ %s\n", d.title(base), d.title(d.step))
		io.WriteString(e.Out, textdiff.Compute(a, b).Unified())
		return true, nil
	case "analyze", "explain":
		m, err := d.module()
		if err != nil {
			return true, err
		}
		if cmd == "explain" {
			if len(args) == 0 {
				return true, fmt.Errorf("explain needs 1 argument(s)")
			}
			return true, headless.Explain(e.Out, m, e.fn, args[0])
		}
		kinds := "domtree,postdomtree,cycles,uniformity"
		if len(args) > 0 {
			kinds = args[0]
		}
		return true, headless.Analyze(e.Out, m, strings.Split(kinds, ","), e.fn)
	case "target":
		// The explorer records "target log" for a pass log.
		if len(args) == 1 && args[0] == "log" {
			return true, nil
		}
		return true, fmt.Errorf("target does not apply to a pass log (load a module instead)")
	case "passes":
		// Recorded by the explorer (a live command's pass list): a script
		// cannot re-run the tool, so the log's steps stay as they are.
		return true, nil
	case "run", "export":
		return true, fmt.Errorf("%s does not apply to a pass log (load a module instead)", cmd)
	}
	return false, nil
}

// module imports the current step's text.
func (d *dumpReplay) module() (*ir.Module, error) {
	s := &d.log.Steps[d.step]
	text, _, err := d.log.Text(d.step)
	if err != nil {
		return nil, err
	}
	name := fmt.Sprintf("%s:step%d", d.log.Name, d.step)
	var m *ir.Module
	switch s.Lang {
	case passdump.LangLLVM:
		m, err = llvm.Import(name, []byte(text))
	case passdump.LangPIR:
		m, err = ir.ParseModule(name, []byte(text))
	case passdump.LangSPIRV:
		m, err = spvread.ReadWith(name, []byte(text), spvread.Options{IDNames: true})
	default:
		return nil, fmt.Errorf("unavailable: %s steps have no analyses", s.Lang)
	}
	if err != nil {
		return nil, fmt.Errorf("unavailable: %v", strings.TrimSpace(err.Error()))
	}
	return m, nil
}
