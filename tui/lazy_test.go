package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"passlens/themes"
)

// lazyDriver is the fake driver with steps whose text comes through
// StepLoader, and per-function changes through FuncStepper.
type lazyDriver struct {
	*fakeDriver
	texts   []string
	changed map[int]string // step → the one function it changed
	loads   int
}

func (d *lazyDriver) LoadStep(c *Compiled, i int) error {
	d.loads++
	c.Steps[i].Text = d.texts[i]
	c.Steps[i].Lines = SplitLines(d.texts[i])
	return nil
}

func (d *lazyDriver) StepChangedFunc(c *Compiled, i int, fn string) bool { return d.changed[i] == fn }

func TestLazyStepsAndFunctionView(t *testing.T) {
	t.Parallel()
	f := newFake()
	d := &lazyDriver{fakeDriver: f, changed: map[int]string{1: "g", 3: "main"}}
	c := &Compiled{Source: "log", Target: "log"}
	for i, s := range f.steps {
		d.texts = append(d.texts, s.Text)
		st := s
		st.Text, st.Lines = "", nil
		if i == 1 {
			st.Status = StepChanged
		}
		c.Steps = append(c.Steps, st)
	}
	m := New(d, Options{Target: "spirv"})
	m.Update(CompiledForTest(c))
	m.gotoStep(0)
	if s := m.curStep(); s == nil || !strings.Contains(s.Text, "WaveGetLaneIndex") {
		t.Fatalf("step 0 not loaded through the driver")
	}
	// Without a function selected, step 1 (which changed @g) is next.
	m.gotoChanged(1)
	if m.step != 1 {
		t.Fatalf("next changed: step %d, want 1", m.step)
	}
	// With @main selected, step 1 did not change it: skipped.
	m.fn = "main"
	m.gotoStep(0)
	m.gotoChanged(1)
	if m.step != 3 {
		t.Fatalf("next changed for @main: step %d, want 3", m.step)
	}
	if m.statusFor(1) != StepUnchanged || m.statusFor(3) != StepChanged {
		t.Fatalf("statusFor: %v %v", m.statusFor(1), m.statusFor(3))
	}
	rows := m.list.rows()
	if len(rows) >= len(c.Steps) {
		t.Fatalf("unchanged steps for @main not collapsed: %v", rows)
	}
}

// TestUnavailableAnalysis: an analysis that cannot exist for a step
// ("unavailable: …") is kept and shown in the trees and CFG panes.
func TestUnavailableAnalysis(t *testing.T) {
	t.Parallel()
	m := New(newFake(), Options{Target: "spirv"})
	m.Update(CompiledForTest(&Compiled{Steps: newFake().steps}))
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	m.setView(ViewTrees)
	key := fmt.Sprintf("%d/%s", m.step, m.analysisFunc())
	m.Update(analysisMsg{key: key, err: errors.New("unavailable: step.ll:3:5: unsupported thing")})
	if a := m.currentAnalysis(); a == nil || a.Dom.Label != "unavailable: step.ll:3:5: unsupported thing" {
		t.Fatalf("analysis %+v", a)
	}
	if !strings.Contains(strings.Join(m.graph.lines, "\n"), "unavailable: step.ll:3:5") {
		t.Fatalf("trees pane: %q", m.graph.lines)
	}
	m.setView(ViewCFG)
	if !strings.Contains(strings.Join(m.graph.lines, "\n"), "unavailable: step.ll:3:5") {
		t.Fatalf("CFG pane: %q", m.graph.lines)
	}
	// A cancelled analysis is not kept.
	m.Update(analysisMsg{key: "9/x", err: errors.New("context canceled")})
	if _, ok := m.analyses.get("9/x"); ok {
		t.Fatal("cancelled analysis kept")
	}
}

// progFake is a Progressive driver: its Compile returns the first three
// steps until ready is closed, all six after.
type progFake struct {
	*fakeDriver
	ready   chan struct{}
	partial map[*Compiled]bool
}

func newProgFake() *progFake {
	f := newFake()
	f.steps = nil
	for i, p := range []string{"input", "a", "b", "c", "d", "e"} {
		st := Step{Pass: p, Status: StepChanged, Text: fakeInput + strings.Repeat(";\n", i)}
		if i == 0 {
			st.Status = StepInput
		}
		f.steps = append(f.steps, st)
	}
	return &progFake{fakeDriver: f, ready: make(chan struct{}), partial: map[*Compiled]bool{}}
}

func (p *progFake) Compile(ctx context.Context, target string, _ []PassSlot) (*Compiled, error) {
	steps := p.steps
	partial := false
	select {
	case <-p.ready:
	default:
		steps, partial = steps[:3], true
	}
	c := &Compiled{Source: "fake.log", Target: target, Steps: append([]Step(nil), steps...)}
	p.partial[c] = partial
	return c, nil
}

func (p *progFake) Partial(c *Compiled) bool { return p.partial[c] }

func (p *progFake) WaitComplete(ctx context.Context) error {
	select {
	case <-p.ready:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// A Progressive driver's first part is drawn at once; when the rest is
// indexed, the explorer swaps in the whole step list: on the new last step
// if the user was on the first part's last step, else on the same step.
func TestProgressiveStepsGrow(t *testing.T) {
	t.Parallel()
	for _, moved := range []bool{false, true} {
		p := newProgFake()
		m := New(p, Options{Target: "log", Theme: themes.NoColorTheme()})
		m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
		_, next := m.Update(m.compile()())
		if len(m.comp.Steps) != 3 || m.step != 2 || !m.partial {
			t.Fatalf("first part: %d steps, step %d, partial %v", len(m.comp.Steps), m.step, m.partial)
		}
		if !strings.Contains(screen(m), "indexing the rest in the background (3 steps so far)") {
			t.Fatalf("no indexing status:\n%s", screen(m))
		}
		if moved {
			press(t, m, "left") // to step 1, "a"
		}
		close(p.ready)
		drive(t, m, next)
		if len(m.comp.Steps) != 6 || m.partial {
			t.Fatalf("after indexing: %d steps, partial %v", len(m.comp.Steps), m.partial)
		}
		want := 5
		if moved {
			want = 1
		}
		if m.step != want {
			t.Errorf("moved=%v: on step %d after the swap, want %d", moved, m.step, want)
		}
		if !strings.Contains(screen(m), "all 6 steps indexed") {
			t.Errorf("no completion status:\n%s", screen(m))
		}
	}
}

// A replay given at start waits for the whole step list: its goto may name
// a step past the first part.
func TestProgressiveReplayWaitsForTheWhole(t *testing.T) {
	t.Parallel()
	p := newProgFake()
	m := New(p, Options{Target: "log", Theme: themes.NoColorTheme(), Replay: "goto c\n", ReplayName: "r.passlens"})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	_, next := m.Update(m.compile()())
	if m.step != 2 {
		t.Fatalf("replayed on the first part: step %d", m.step)
	}
	close(p.ready)
	drive(t, m, next)
	if m.step != 3 || m.comp.Steps[m.step].Pass != "c" {
		t.Fatalf("after the whole list: step %d", m.step)
	}
}
