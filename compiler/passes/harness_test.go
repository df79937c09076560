package passes

import (
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/target"
)

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

// caseAfter loads the case file testdata/<pass>/<name>.pir and runs the
// passes seq over it (runPasses), for a test's assertions about the output
// that a .want.pir file does not state as such (what must be gone, a
// type). TestPassCases checks the case's runs and expected outputs.
func caseAfter(t *testing.T, name, seq string) *ir.Module {
	t.Helper()
	m := cfLoad(t, name)
	runPasses(t, m, seq, "")
	return m
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
