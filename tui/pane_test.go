package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// Component tests: each pane on its own — keys routed to its Update, its
// state, and its View at a given size.

func keyOf(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	}
	return tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
}

func TestPassListPane(t *testing.T) {
	t.Parallel()
	m, f := newModel(t, 100, 30)
	m.focusList = true
	p := m.list
	p.sel = 3
	p.Update(keyOf("up"))
	p.Update(keyOf("up"))
	if p.sel != 1 {
		t.Fatalf("sel %d after two ups from 3", p.sel)
	}
	_, cmd := p.Update(keyOf("enter"))
	drive(t, m, cmd)
	if m.step != 2 || m.curStep().Pass != "sroa" {
		t.Fatalf("enter selected step %d", m.step)
	}
	before := f.compiles
	_, cmd = p.Update(keyOf("space"))
	drive(t, m, cmd)
	if f.compiles != before+1 || m.pipeline[1].Enabled {
		t.Fatalf("space must turn sroa off and recompile")
	}
	v := ansi.Strip(p.View(26, 10))
	if !strings.Contains(v, "⊘ sroa") || len(strings.Split(v, "\n")) != 10 {
		t.Fatalf("pipeline view:\n%s", v)
	}
	if got := p.FullHelp(); len(got) == 0 || !strings.Contains(got[0][6].Help().Desc, "show the selected pass") {
		t.Fatalf("help: %v", got)
	}
}

func TestDiffPane(t *testing.T) {
	t.Parallel()
	m, _ := newModel(t, 100, 30)
	press(t, m, "home", "}", "2")
	p := m.diff
	if p.current() == nil {
		t.Fatal("no diff computed")
	}
	p.Update(keyOf("s"))
	if !p.side {
		t.Fatal("s must switch to side by side")
	}
	_, cmd := p.Update(keyOf("b"))
	drive(t, m, cmd)
	if p.base != 0 || p.key() != [2]int{0, m.step} {
		t.Fatalf("b must diff against the input, key %v", p.key())
	}
	if v := ansi.Strip(p.View(70, 12)); !strings.Contains(v, "diff input → simplify") || len(strings.Split(v, "\n")) != 12 {
		t.Fatalf("diff view:\n%s", v)
	}
}

func TestGraphPane(t *testing.T) {
	t.Parallel()
	m, _ := newModel(t, 160, 40)
	press(t, m, "3")
	p := m.graph
	p.Update(keyOf("down"))
	if b := p.selectedBlock(); b != "then" {
		t.Fatalf("selected %q", b)
	}
	if m.ir.cursor != 0 {
		t.Fatalf("moving in the tree moved the IR cursor to %d", m.ir.cursor)
	}
	if v := ansi.Strip(p.View(120, 20)); !strings.Contains(v, "then:") {
		t.Fatalf("the peek pane does not show the block:\n%s", v)
	}
	_, cmd := p.Update(keyOf("enter"))
	drive(t, m, cmd)
	if m.view != ViewIR || strings.TrimSpace(m.ir.lines[m.ir.cursor]) != "then:" {
		t.Fatalf("enter must show the block in the IR pane (view %d, line %q)", m.view, m.ir.lines[m.ir.cursor])
	}
	press(t, m, "3", "t")
	if p.kind != treePostDom {
		t.Fatalf("t: kind %d", p.kind)
	}
}

func TestExplainPane(t *testing.T) {
	t.Parallel()
	m, _ := newModel(t, 100, 30)
	m.ir.gotoLine(3) // %c = icmp
	press(t, m, "e")
	p := m.expl
	if m.view != ViewExplain || p.forKey != "%c" || len(p.text) < 3 {
		t.Fatalf("explanation: view %d, for %q, %d lines", m.view, p.forKey, len(p.text))
	}
	_, cmd := p.Update(keyOf("Y"))
	if cmd == nil || !strings.Contains(m.status, "copied the explanation") {
		t.Fatalf("Y must copy: %q", m.status)
	}
	press(t, m, "1")
	m.ir.gotoLine(8) // br %end
	press(t, m, "e")
	if p.forKey != "terminator %then" {
		t.Fatalf("e on a br explains %q", p.forKey)
	}
	press(t, m, "1")
	m.ir.gotoLine(len(m.ir.lines) - 1) // }
	press(t, m, "e")
	if !strings.Contains(m.status, "no value under the cursor") {
		t.Fatalf("status %q", m.status)
	}
}

func TestTargetPaneRefreshesAfterTargetChange(t *testing.T) {
	t.Parallel()
	m, f := newModel(t, 100, 30)
	press(t, m, "6")
	if !strings.Contains(screen(m), "OpCapability Shader") {
		t.Fatal("no target code")
	}
	press(t, m, "T")
	if f.target != "dxil" || strings.Contains(screen(m), "generating target code") || m.tgt.forComp != m.comp {
		t.Fatalf("after T the target pane must show the new compile's code:\n%s", screen(m))
	}
}

func TestZoomHidesPassList(t *testing.T) {
	t.Parallel()
	m, _ := newModel(t, 80, 24)
	press(t, m, "Z")
	s := screen(m)
	if strings.Contains(s, "Passes") || m.ir.w != 80 {
		t.Fatalf("Z must hide the pass list (ir width %d):\n%s", m.ir.w, s)
	}
	press(t, m, "tab")
	if m.focusList {
		t.Fatal("tab must not focus a hidden list")
	}
	press(t, m, "Z")
	if !strings.Contains(screen(m), "Passes") {
		t.Fatal("Z again shows the list")
	}
}

// TestAnalysesBounded: stepping through many snapshots with the trees
// shown keeps at most keepAnalyses analyses (least recently used out).
func TestAnalysesBounded(t *testing.T) {
	t.Parallel()
	m, f := newModel(t, 100, 30)
	for i := 0; i < 12; i++ { // a longer pipeline: the fake repeats passes
		f.steps = append(f.steps, Step{Pass: "simplify", Status: StepChanged, Text: f.steps[3].Text})
	}
	p := m.drv.DefaultPipeline("spirv")
	for i := 0; i < 12; i++ {
		p = append(p, PassSlot{Name: "sroa", Enabled: true})
	}
	m.pipeline = p
	drive(t, m, m.compile())
	press(t, m, "3", "home")
	for i := 0; i < len(m.comp.Steps); i++ {
		press(t, m, "right")
	}
	if n := len(m.analyses.m); n == 0 || n > keepAnalyses || len(m.analyses.order) != n {
		t.Fatalf("%d analyses kept after %d steps (bound %d)", n, len(m.comp.Steps), keepAnalyses)
	}
	if m.currentEntry() == nil {
		t.Fatal("the current step's analysis was evicted")
	}
}
