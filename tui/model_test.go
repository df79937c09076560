package tui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"passlens/themes"
)

// fakeDriver serves canned snapshots so the model can be tested without the
// compiler.
type fakeDriver struct {
	steps    []Step
	compiles int
	target   string
	failRun  bool
}

const fakeInput = `define void @main() compute numthreads(4, 1, 1) {
entry:
  %x = intr u32 WaveGetLaneIndex()
  %c = icmp ult u32 %x, 2
  selection_merge %end
  condbr bool %c, %then, %end
then:
  %s = intr u32 WaveActiveSum(u32 %x)
  br %end
end:
  %r = phi u32 [%s, %then], [0, %entry]
  ret
}
`

func newFake() *fakeDriver {
	changed := strings.Replace(fakeInput, "%c = icmp ult u32 %x, 2", "%c = icmp ult u32 %x, 3", 1)
	return &fakeDriver{steps: []Step{
		{Pass: "input", Summary: "the module as loaded", Status: StepInput, Text: fakeInput},
		{Pass: "inline", Summary: "inline calls", Status: StepUnchanged, Text: fakeInput, Duration: time.Millisecond},
		{Pass: "sroa", Summary: "promote allocas", Status: StepUnchanged, Text: fakeInput},
		{Pass: "simplify", Summary: "fold constants", Status: StepChanged, Text: changed},
		{Pass: "broken", Summary: "a pass that fails", Status: StepFailed, Err: "verifier: %r does not dominate its use", Text: changed},
	}}
}

func (f *fakeDriver) Source() string    { return "fake.pir" }
func (f *fakeDriver) Targets() []string { return []string{"spirv", "dxil", "sm3"} }
func (f *fakeDriver) Policies() []string {
	return []string{"maximal", "switch-separate"}
}
func (f *fakeDriver) DefaultPipeline(target string) []PassSlot {
	return []PassSlot{{"inline", true}, {"sroa", true}, {"simplify", true}, {"broken", true}}
}
func (f *fakeDriver) Compile(ctx context.Context, target string, p []PassSlot) (*Compiled, error) {
	f.compiles++
	f.target = target
	steps := []Step{f.steps[0]}
	for _, s := range p {
		if !s.Enabled {
			continue
		}
		for _, st := range f.steps[1:] {
			if st.Pass == s.Name {
				steps = append(steps, st)
			}
		}
	}
	for i := range steps {
		steps[i].Funcs = []FuncSpan{{Name: "main", Start: 0, End: strings.Count(steps[i].Text, "\n")}}
	}
	return &Compiled{Source: "fake.pir", Target: target, Steps: steps}, nil
}
func (f *fakeDriver) Analyze(ctx context.Context, c *Compiled, step int, fn string) (*Analysis, error) {
	return &Analysis{
		Func:    "main",
		Dom:     &TreeNode{Label: "%entry", Block: "entry", Children: []*TreeNode{{Label: "%then", Block: "then"}, {Label: "%end", Block: "end"}}},
		PostDom: &TreeNode{Label: "<exit>", Children: []*TreeNode{{Label: "%end", Block: "end"}}},
		Cycles:  &TreeNode{Label: "no cycles"},
		Blocks:  []string{"entry", "then", "end"}, Succs: [][]int{{1, 2}, {2}, {}},
		Divergent: map[string]DivKind{"%x": DivValue, "%c": DivValue, "%entry": DivBranch, "%r": DivValue},
		Explain: func(n string) []string {
			if n == "%c" {
				return []string{"%c is divergent: uses divergent %x", "%x is divergent: WaveGetLaneIndex (divergence source)"}
			}
			return nil
		},
		DOT: "digraph main {}\n",
	}, nil
}
func (f *fakeDriver) Run(ctx context.Context, c *Compiled, step int, o RunOptions) (*LanesResult, error) {
	if f.failRun {
		return nil, errors.New("step limit reached")
	}
	return &LanesResult{Lines: []string{fmt.Sprintf("wave %d policy %s", o.WaveSize, o.Policy), "lane 0: 1", "WaveActiveSum lanes {0,1}"}}, nil
}
func (f *fakeDriver) SetInput(path string) error { return nil }
func (f *fakeDriver) TargetCode(ctx context.Context, c *Compiled) (string, string, error) {
	return "; SPIR-V\nOpCapability Shader\n", "spvasm", nil
}

// drive runs a command chain synchronously, feeding results back, as the
// bubbletea runtime would (ticks are dropped).
func drive(t *testing.T, m *Model, cmd tea.Cmd) {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for n := 0; len(queue) > 0 && n < 200; n++ {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := c()
		switch msg := msg.(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case interface{ Tick() tea.Msg }:
		default:
			if fmt.Sprintf("%T", msg) == "spinner.TickMsg" {
				continue
			}
			_, next := m.Update(msg)
			queue = append(queue, next)
		}
	}
}

func newModel(t *testing.T, w, h int) (*Model, *fakeDriver) {
	t.Helper()
	f := newFake()
	m := New(f, Options{Target: "spirv", Theme: themes.NoColorTheme()})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	drive(t, m, m.compile())
	return m, f
}

func press(t *testing.T, m *Model, keys ...string) {
	t.Helper()
	for _, k := range keys {
		var msg tea.KeyPressMsg
		switch k {
		case "right":
			msg = tea.KeyPressMsg{Code: tea.KeyRight}
		case "left":
			msg = tea.KeyPressMsg{Code: tea.KeyLeft}
		case "enter":
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		case "esc":
			msg = tea.KeyPressMsg{Code: tea.KeyEscape}
		case "tab":
			msg = tea.KeyPressMsg{Code: tea.KeyTab}
		case "space":
			msg = tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
		case "home":
			msg = tea.KeyPressMsg{Code: tea.KeyHome}
		case "down":
			msg = tea.KeyPressMsg{Code: tea.KeyDown}
		case "up":
			msg = tea.KeyPressMsg{Code: tea.KeyUp}
		default:
			r := []rune(k)[0]
			msg = tea.KeyPressMsg{Code: r, Text: k}
		}
		_, cmd := m.Update(msg)
		drive(t, m, cmd)
	}
}

func screen(m *Model) string { return ansi.Strip(m.View().Content) }

func TestFailedStepIsSelectedAndShown(t *testing.T) {
	t.Parallel()
	m, _ := newModel(t, 100, 30)
	if m.stepName() != "broken" {
		t.Fatalf("after compile the failed step should be selected, got %q", m.stepName())
	}
	s := screen(m)
	for _, want := range []string{"FAILED: verifier: %r does not dominate its use", themes.Marks.Failed + " broken", "pass broken failed"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
}

func TestStepAndCollapsedUnchanged(t *testing.T) {
	t.Parallel()
	m, _ := newModel(t, 100, 30)
	press(t, m, "home")
	if m.step != 0 {
		t.Fatalf("home: step %d", m.step)
	}
	s := screen(m)
	if !strings.Contains(s, "inline (+1 more)") {
		t.Errorf("unchanged run not collapsed:\n%s", s)
	}
	press(t, m, "}")
	if m.stepName() != "simplify" {
		t.Fatalf("} should jump to the next changed pass, got %s", m.stepName())
	}
	press(t, m, "left")
	if m.stepName() != "sroa" {
		t.Fatalf("left: got %s", m.stepName())
	}
	press(t, m, "z")
	if s := screen(m); !strings.Contains(s, "○ sroa") || !strings.Contains(s, "○ inline") {
		t.Errorf("z should expand the run:\n%s", s)
	}
}

func TestDiffPaneShowsIntraLineChange(t *testing.T) {
	t.Parallel()
	m, _ := newModel(t, 100, 30)
	press(t, m, "home", "}", "2")
	s := screen(m)
	for _, want := range []string{"diff sroa → simplify", "+1 −1", "-  %c = icmp ult u32 %x, 2", "+  %c = icmp ult u32 %x, 3"} {
		if !strings.Contains(s, want) {
			t.Errorf("diff lacks %q:\n%s", want, s)
		}
	}
	press(t, m, "s")
	if s := screen(m); !strings.Contains(s, "│  %c = icmp ult u32 %x, 3") {
		t.Errorf("side-by-side lacks the paired line:\n%s", s)
	}
}

func TestUniformityOverlayAndExplain(t *testing.T) {
	t.Parallel()
	m, _ := newModel(t, 100, 30)
	press(t, m, "u")
	s := screen(m)
	if !strings.Contains(s, themes.Marks.Divergent+"   %x = intr u32 WaveGetLaneIndex()") {
		t.Errorf("no divergence mark on %%x:\n%s", s)
	}
	if strings.Contains(s, themes.Marks.Divergent+"   %s = intr") {
		t.Errorf("uniform %%s marked divergent:\n%s", s)
	}
	// Move to the %c line and explain it.
	m.ir.gotoLine(3)
	press(t, m, "e")
	s = screen(m)
	for _, want := range []string{"why is %c divergent?", " 1. %c is divergent: uses divergent %x", " 2. %x is divergent: WaveGetLaneIndex"} {
		if !strings.Contains(s, want) {
			t.Errorf("explanation pane lacks %q:\n%s", want, s)
		}
	}
}

func TestHelpIsGeneratedFromKeyMap(t *testing.T) {
	t.Parallel()
	m, _ := newModel(t, 100, 30)
	press(t, m, "?")
	s := screen(m)
	for _, g := range m.keys.Groups(FocusIR) {
		if !strings.Contains(s, g.Title) {
			t.Errorf("help lacks group %q", g.Title)
		}
	}
	if !strings.Contains(s, "uniformity overlay") {
		t.Errorf("help lacks a binding description:\n%s", s)
	}
	press(t, m, "esc")
	if m.showHelp {
		t.Fatal("esc should close help")
	}
}

func TestTooSmall(t *testing.T) {
	t.Parallel()
	m, _ := newModel(t, 60, 20)
	if s := screen(m); !strings.Contains(s, "terminal too small: 60×20") {
		t.Fatalf("got %q", s)
	}
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if s := screen(m); strings.Contains(s, "too small") || len(strings.Split(s, "\n")) != 24 {
		t.Fatalf("80×24 must render a full screen of 24 lines, got %d:\n%s", len(strings.Split(s, "\n")), s)
	}
}

func TestWhatIfTogglePassRecompiles(t *testing.T) {
	t.Parallel()
	m, f := newModel(t, 100, 30)
	before := f.compiles
	press(t, m, "tab", "up", "space")
	if f.compiles != before+1 {
		t.Fatalf("toggling a pass must recompile (compiles %d → %d)", before, f.compiles)
	}
	for _, s := range m.comp.Steps {
		if s.Pass == "simplify" {
			t.Fatalf("simplify was turned off but still ran")
		}
	}
	if !strings.Contains(m.rec.Script(""), "passes inline,sroa,broken") {
		t.Errorf("recording lacks the edited pipeline: %v", m.rec.Script(""))
	}
}

func TestExportAsksBeforeOverwrite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "out.spvasm")
	os.WriteFile(path, []byte("keep"), 0o644)
	m, _ := newModel(t, 100, 30)
	press(t, m, "6")
	press(t, m, "x")
	m.prompt.input.SetValue(path)
	press(t, m, "enter")
	if m.prompt.kind != promptConfirm {
		t.Fatalf("existing file: expected a confirmation prompt, got %d", m.prompt.kind)
	}
	press(t, m, "n")
	if data, _ := os.ReadFile(path); string(data) != "keep" {
		t.Fatal("file overwritten after answering n")
	}
	press(t, m, "x")
	m.prompt.input.SetValue(path)
	press(t, m, "enter", "y")
	if data, _ := os.ReadFile(path); !strings.Contains(string(data), "OpCapability Shader") {
		t.Fatalf("export after y: %q", data)
	}
	if !strings.Contains(m.status, "wrote "+path) {
		t.Errorf("status: %q", m.status)
	}
}

func TestLanesRunAndError(t *testing.T) {
	t.Parallel()
	m, f := newModel(t, 100, 30)
	press(t, m, "W", "r")
	if s := screen(m); !strings.Contains(s, "wave 64 policy maximal") || !strings.Contains(s, "WaveActiveSum lanes {0,1}") {
		t.Errorf("lanes:\n%s", s)
	}
	f.failRun = true
	press(t, m, "r")
	if !m.statusErr || !strings.Contains(m.status, "step limit reached") {
		t.Errorf("a failing run must show an error, status %q", m.status)
	}
}

func TestTreesSelectBlock(t *testing.T) {
	t.Parallel()
	m, _ := newModel(t, 100, 30)
	press(t, m, "3")
	if s := screen(m); !strings.Contains(s, "├─ %then") || !strings.Contains(s, "└─ %end") {
		t.Fatalf("tree:\n%s", s)
	}
	press(t, m, "down", "down")
	if !strings.Contains(m.status, "block %end") {
		t.Errorf("selecting a node should show its block, status %q", m.status)
	}
	press(t, m, "t")
	if s := screen(m); !strings.Contains(s, "post-dominator tree") {
		t.Errorf("t should switch to the post-dominator tree")
	}
}

func TestSearchAndOccurrences(t *testing.T) {
	t.Parallel()
	m, _ := newModel(t, 100, 30)
	press(t, m, "/")
	m.prompt.input.SetValue("WaveActiveSum")
	press(t, m, "enter")
	if m.ir.cursor != 7 {
		t.Fatalf("search moved to line %d, want 8", m.ir.cursor+1)
	}
	m.ir.gotoLine(2) // %x = ...
	press(t, m, "*")
	if m.ir.occ != "%x" {
		t.Fatalf("occurrence: %q", m.ir.occ)
	}
	press(t, m, "left")
	if m.ir.cursor != 2 {
		t.Errorf("followed value: cursor %d after stepping", m.ir.cursor)
	}
	m.ir.gotoLine(7)
	press(t, m, "w", "enter")
	if m.ir.cursor != 2 {
		t.Errorf("go to definition of %%x: line %d", m.ir.cursor+1)
	}
}
