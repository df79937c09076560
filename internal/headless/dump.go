// Package headless prints what the explorer shows, as text, for the CLI
// (`compile --print-*`, `analyze`) and replay scripts. Output never includes
// timings or addresses, so it is byte-identical across runs.
package headless

import (
	"fmt"
	"io"
	"strings"

	"passlens/compiler/pipeline"
	"passlens/compiler/target"
	"passlens/internal/textdiff"
)

// DumpMode selects which snapshots are printed, after LLVM's options.
type DumpMode struct {
	AfterAll bool   // --print-after-all
	Changed  bool   // --print-changed
	Diff     bool   // --print-changed=diff
	After    string // --print-after=PASS (may be repeated: comma-separated)
	Func     string // --filter-func=F: only this function
}

// Active reports whether any dump was requested.
func (d DumpMode) Active() bool { return d.AfterAll || d.Changed || d.Diff || d.After != "" }

// SnapshotText is the printed snapshot, restricted to one function if fn
// is set ("" if the function does not exist in it).
func SnapshotText(s *pipeline.Snapshot, fn string) string {
	if fn == "" {
		return s.Text()
	}
	if p := s.Func(fn); p != nil {
		return p.Text
	}
	return ""
}

func wants(after string, pass string) bool {
	for _, p := range strings.Split(after, ",") {
		if strings.TrimSpace(p) == pass {
			return true
		}
	}
	return false
}

// Dumps prints the snapshots of res as LLVM's -print-after-all,
// -print-changed[=diff] and -print-after do:
//
//	*** IR Dump After <pass> ***
//
// followed by the module (or the filtered function). With Changed, the
// input is printed first ("*** IR Dump At Start ***") and passes that
// changed nothing are noted "omitted because no change".
func Dumps(w io.Writer, res *pipeline.Result, d DumpMode) {
	suffix := ""
	if d.Func != "" {
		suffix = " on @" + d.Func
	}
	snaps := res.Snapshots
	for i, s := range snaps {
		if i == 0 {
			if d.Changed || d.Diff {
				fmt.Fprintf(w, "*** IR Dump At Start%s ***\n%s\n", suffix, strings.TrimRight(SnapshotText(s, d.Func), "\n"))
			}
			continue
		}
		name := s.Pass
		if s.Option != "" {
			name += "<" + s.Option + ">"
		}
		changed := SnapshotText(s, d.Func) != SnapshotText(snaps[i-1], d.Func)
		switch {
		case s.Err != nil:
			fmt.Fprintf(w, "*** IR Dump After %s%s FAILED: %s ***\n", name, suffix, s.Err.Msg)
			if d.AfterAll || d.Changed || d.Diff || wants(d.After, s.Pass) {
				fmt.Fprintln(w, strings.TrimRight(SnapshotText(s, d.Func), "\n"))
			}
		case d.AfterAll || wants(d.After, s.Pass):
			fmt.Fprintf(w, "*** IR Dump After %s%s ***\n%s\n", name, suffix, strings.TrimRight(SnapshotText(s, d.Func), "\n"))
		case (d.Changed || d.Diff) && !changed:
			fmt.Fprintf(w, "*** IR Dump After %s%s omitted because no change ***\n", name, suffix)
		case d.Diff:
			fmt.Fprintf(w, "*** IR Dump After %s%s ***\n", name, suffix)
			io.WriteString(w, textdiff.Compute(SnapshotText(snaps[i-1], d.Func), SnapshotText(s, d.Func)).Unified())
		case d.Changed:
			fmt.Fprintf(w, "*** IR Dump After %s%s ***\n%s\n", name, suffix, strings.TrimRight(SnapshotText(s, d.Func), "\n"))
		}
	}
}

// DumpStages prints a back end's intermediate forms (SIR for SM3) after the
// IR dumps, in the same style: "*** SIR Dump After sir-lower ***".
// With --print-changed, unchanged stages are noted as omitted; with
// --print-after, only the named stages print. --filter-func does not apply
// (a back end compiles one entry point).
func DumpStages(w io.Writer, stages []target.Stage, d DumpMode) {
	for i, s := range stages {
		kind := strings.ToUpper(s.Lang)
		changed := i == 0 || s.Text != stages[i-1].Text
		switch {
		case d.AfterAll || wants(d.After, s.Name):
			fmt.Fprintf(w, "*** %s Dump After %s ***\n%s\n", kind, s.Name, strings.TrimRight(s.Text, "\n"))
		case d.After != "":
		case !changed:
			fmt.Fprintf(w, "*** %s Dump After %s omitted because no change ***\n", kind, s.Name)
		case d.Diff && i > 0:
			fmt.Fprintf(w, "*** %s Dump After %s ***\n", kind, s.Name)
			io.WriteString(w, textdiff.Compute(stages[i-1].Text, s.Text).Unified())
		default:
			fmt.Fprintf(w, "*** %s Dump After %s ***\n%s\n", kind, s.Name, strings.TrimRight(s.Text, "\n"))
		}
	}
}
