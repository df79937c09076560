package backend

import (
	"context"
	"strings"
	"testing"

	"passlens/compiler/load"
	"passlens/compiler/sir"
	"passlens/tui"
)

func compileSample(t *testing.T, name, tgt string) (*Driver, *tui.Compiled) {
	t.Helper()
	m, src, err := load.File("samples/"+name, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := New(src, m)
	c, err := d.Compile(context.Background(), tgt, d.DefaultPipeline(tgt))
	if err != nil {
		t.Fatal(err)
	}
	return d, c
}

// The SM3 back end's SIR stages follow the IR passes as explorer steps:
// each is valid SIR in the text format (it parses, validates and prints
// back identically), statuses follow the text, and the register
// assignment stage names an SM3 register for every register.
func TestSIRStagesAreSteps(t *testing.T) {
	d, c := compileSample(t, "pixel", "sm3")
	nIR := len(d.DefaultPipeline("sm3")) + 1
	if len(c.Steps) <= nIR {
		t.Fatalf("%d steps, want the %d IR snapshots and SIR stages", len(c.Steps), nIR)
	}
	var names []string
	for i, s := range c.Steps {
		if (i >= nIR) != s.Backend {
			t.Errorf("step %d (%s): Backend=%v", i, s.Pass, s.Backend)
		}
		if s.Status == tui.StepFailed {
			t.Fatalf("step %s failed: %s", s.Pass, s.Err)
		}
		if i >= nIR {
			names = append(names, s.Pass)
		}
	}
	want := "sir-lower sir-fold sir-copy-prop sir-cse sir-dce sir-optimize sir-regalloc"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("back-end steps %q, want %q", got, want)
	}
	for i := nIR; i < len(c.Steps); i++ {
		s := c.Steps[i]
		if s.Lang != "sir" || s.Summary == "" {
			t.Errorf("%s: lang %q summary %q", s.Pass, s.Lang, s.Summary)
		}
		wantStatus := tui.StepChanged
		if i > nIR && s.Text == c.Steps[i-1].Text {
			wantStatus = tui.StepUnchanged
		}
		if s.Status != wantStatus {
			t.Errorf("%s: status %v, want %v", s.Pass, s.Status, wantStatus)
		}
		if s.Pass == "sir-regalloc" {
			for _, l := range s.Lines {
				if strings.HasPrefix(strings.TrimSpace(l), "reg ") && !strings.Contains(l, " ; ") {
					t.Errorf("regalloc: register without an SM3 register: %s", l)
				}
			}
			continue
		}
		f, err := sir.Parse(s.Text)
		if err != nil {
			t.Fatalf("%s: SIR text does not parse: %v\n%s", s.Pass, err, s.Text)
		}
		if err := sir.Validate(f); err != nil {
			t.Errorf("%s: invalid SIR: %v", s.Pass, err)
		}
		if f.String() != s.Text {
			t.Errorf("%s: print(parse(text)) differs from text", s.Pass)
		}
	}
	// The optimizations shrink the function.
	if first, last := c.Steps[nIR], c.Steps[len(c.Steps)-2]; len(last.Lines) >= len(first.Lines) {
		t.Errorf("sir-optimize has %d lines, sir-lower %d", len(last.Lines), len(first.Lines))
	}
	// Analyses and runs refuse back-end steps with a reason; IR steps work.
	if _, err := d.Analyze(context.Background(), c, nIR, ""); err == nil || !strings.Contains(err.Error(), "back-end stage") {
		t.Errorf("Analyze on a SIR step: %v", err)
	}
	if _, err := d.Run(context.Background(), c, nIR+1, tui.RunOptions{WaveSize: 4, Policy: "maximal"}); err == nil || !strings.Contains(err.Error(), "back-end stage") {
		t.Errorf("Run on a SIR step: %v", err)
	}
	if _, err := d.Analyze(context.Background(), c, nIR-1, ""); err != nil {
		t.Errorf("Analyze on the last IR step: %v", err)
	}
	text, lang, err := d.TargetCode(context.Background(), c)
	if err != nil || lang != "sm3" || !strings.Contains(text, "ps_3_0") {
		t.Errorf("TargetCode: lang %q err %v\n%s", lang, err, text)
	}
}

// Targets without back-end stages end with the last pass; a module the
// back end cannot express still compiles, and the target pane says why.
func TestNoStagesAndBackEndErrors(t *testing.T) {
	d, c := compileSample(t, "wave-switch-42", "spirv")
	if n := len(d.DefaultPipeline("spirv")) + 1; len(c.Steps) != n {
		t.Errorf("spirv: %d steps, want %d", len(c.Steps), n)
	}
	d, c = compileSample(t, "wave-switch-42", "sm3")
	for _, s := range c.Steps {
		if s.Backend {
			t.Errorf("sm3 on a compute shader produced back-end step %s", s.Pass)
		}
	}
	if c.Steps[len(c.Steps)-1].Status != tui.StepFailed {
		text, _, err := d.TargetCode(context.Background(), c)
		if err != nil || !strings.HasPrefix(text, "; ") {
			t.Errorf("TargetCode for an inexpressible module: %v\n%.200s", err, text)
		}
	}
}

// A long session does not keep every pipeline it ran: old compiles are
// released (and say so), the newest stay usable.
func TestOldCompilesReleased(t *testing.T) {
	d, first := compileSample(t, "pixel", "spirv")
	var last *tui.Compiled
	for i := 0; i < keepCompiles+2; i++ {
		c, err := d.Compile(context.Background(), "spirv", d.DefaultPipeline("spirv"))
		if err != nil {
			t.Fatal(err)
		}
		last = c
	}
	if len(d.results) != keepCompiles {
		t.Errorf("driver keeps %d compiles, want %d", len(d.results), keepCompiles)
	}
	if _, err := d.Analyze(context.Background(), first, 1, ""); err == nil {
		t.Error("the first compile is still kept")
	}
	if _, err := d.Analyze(context.Background(), last, 1, ""); err != nil {
		t.Errorf("newest compile: %v", err)
	}
}

// A failed pass gives the explorer one clean message: located in the
// user's file, without "pass X failed:" (the explorer adds that once).
func TestFailedStepMessageLocated(t *testing.T) {
	_, c := compileSample(t, "wave-divergent", "sm3")
	var failed *tui.Step
	for i := range c.Steps {
		if c.Steps[i].Status == tui.StepFailed {
			failed = &c.Steps[i]
		}
	}
	if failed == nil {
		t.Fatal("sm3 on a wave shader did not fail")
	}
	first := strings.SplitN(failed.Err, "\n", 2)[0]
	want := "samples/wave-divergent.hlsl:8:15: wave operation WaveGetLaneIndex is not available"
	if !strings.HasPrefix(first, want) || strings.Contains(failed.Err, "failed") || strings.Contains(failed.Err, "sm3-lower:") {
		t.Errorf("step error %q, want it to start with %q and not repeat the pass", failed.Err, want)
	}
}
