package passes

import (
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/target"
)

// passCase is one table-driven before/after test: the input IR, the passes
// to run (by name, in order), and the expected IR text after them.
type passCase struct {
	name   string
	passes string // comma-separated pass names
	target target.Name
	in     string
	want   string
	// run, when set, executes the module with the interpreter before and
	// after the passes and requires bit-identical results.
	run *interp.Input
}

// trimIR normalizes IR text written in Go source: leading tabs (the Go
// indentation) go, as do trailing spaces and leading/trailing blank lines.
// IR itself indents with spaces only.
func trimIR(s string) string {
	lines := strings.Split(strings.Trim(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(strings.TrimLeft(l, "\t"), " \t")
	}
	return strings.Join(lines, "\n") + "\n"
}

func parseIR(t *testing.T, name, src string) *ir.Module {
	t.Helper()
	m, err := ir.ParseModule(name, []byte(trimIR(src)))
	if err != nil {
		t.Fatalf("parse %s: %v", name, err)
	}
	if err := ir.Verify(m); err != nil {
		t.Fatalf("input of %s does not verify: %v\n%s", name, err, m)
	}
	return m
}

// runPasses runs the named passes, verifying after each one and checking
// that each pass reports a change exactly when the text changed.
func runPasses(t *testing.T, m *ir.Module, names string, tgt target.Name) {
	t.Helper()
	for _, n := range strings.Split(names, ",") {
		p := Lookup(strings.TrimSpace(n))
		if p == nil {
			t.Fatalf("unknown pass %q", n)
		}
		before := m.String()
		changed, err := p.Run(m, &Context{Target: tgt})
		if err != nil {
			t.Fatalf("%s: %v\n%s", p.Name, err, before)
		}
		after := m.String()
		if verr := ir.Verify(m); verr != nil {
			t.Fatalf("%s: output does not verify: %v\ninput:\n%s\noutput:\n%s", p.Name, verr, before, after)
		}
		if changed != (before != after) {
			t.Errorf("%s reported changed=%v, but the text %s", p.Name, changed, map[bool]string{true: "changed", false: "did not change"}[before != after])
		}
		// Print → parse → print must be the identity on pass output too.
		m2, err := ir.ParseModule("reparse", []byte(after))
		if err != nil {
			t.Fatalf("%s: output does not parse back: %v\n%s", p.Name, err, after)
		}
		if m2.String() != after {
			t.Fatalf("%s: output does not round-trip through the parser", p.Name)
		}
	}
}

func runCases(t *testing.T, cases []passCase) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := parseIR(t, tc.name, tc.in)
			var before *interp.Result
			if tc.run != nil {
				before = mustRun(t, m, tc.run)
			}
			runPasses(t, m, tc.passes, tc.target)
			got := m.String()
			if tc.want == "" {
				t.Errorf("no expectation; got:\n%s", got)
			} else if want := trimIR(tc.want); got != want {
				t.Errorf("after %s:\n--- got ---\n%s--- want ---\n%s", tc.passes, got, want)
			}
			if tc.run != nil {
				after := mustRun(t, m, tc.run)
				if ok, diff := before.Equal(after); !ok {
					t.Errorf("results differ after %s: %s", tc.passes, diff)
				}
			}
		})
	}
}

func mustRun(t *testing.T, m *ir.Module, in *interp.Input) *interp.Result {
	t.Helper()
	// Run a private copy: the interpreter must not see later mutations.
	c, err := ir.ParseModule("run", []byte(m.String()))
	if err != nil {
		t.Fatal(err)
	}
	res, err := interp.Run(c, in, interp.Options{WaveSize: 4})
	if err != nil {
		t.Fatalf("interp: %v\n%s", err, m)
	}
	return res
}
