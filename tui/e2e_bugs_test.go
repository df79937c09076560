package tui_test

import (
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"passlens/compiler/load"
	"passlens/themes"
	"passlens/tui"
	"passlens/tui/backend"
)

// The end-to-end tests in this file each reproduce one bug of issue 13 on
// the real program loop and the real compiler (wave-switch-42).

func startExplorer(t *testing.T, w, h int, opts tui.Options) *teatest.TestModel {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	m, src, err := load.File("samples/wave-switch-42", load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if opts.Target == "" {
		opts.Target = "spirv"
	}
	opts.Theme = themes.NoColorTheme()
	tm := teatest.NewTestModel(t, tui.New(backend.New(src, m), opts),
		teatest.WithInitialTermSize(w, h),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	if opts.Replay == "" {
		waitScreen(t, tm, "define void @main()")
	}
	return tm
}

func keys(tm *teatest.TestModel, ks ...string) {
	for _, k := range ks {
		tm.Send(keyMsg(k))
	}
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "ctrl+s":
		return tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}
	case "ctrl+o":
		return tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl}
	case "ctrl+e":
		return tea.KeyPressMsg{Code: 'e', Mod: tea.ModCtrl}
	case "ctrl+u":
		return tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// typeText types s into a prompt.
func typeText(tm *teatest.TestModel, s string) {
	for _, r := range s {
		tm.Send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// finalScreen quits and returns the last frame of the model.
func finalScreen(t *testing.T, tm *teatest.TestModel) string {
	t.Helper()
	time.Sleep(100 * time.Millisecond)
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*tui.Model)
	return ansi.Strip(fm.View().Content)
}

func TestBugEnterInPassListSelectsPass(t *testing.T) {
	tm := startExplorer(t, 100, 30, tui.Options{})
	// tab focuses the pass list on the current pass (slot 6); four up is sroa.
	keys(tm, "tab", "up", "up", "up", "up", "enter")
	if s := finalScreen(t, tm); !strings.Contains(s, "step 2/") || !strings.Contains(s, "sroa") {
		t.Fatalf("enter in the pass list did not select sroa:\n%s", s)
	}
}

func TestBugExpandIsInKeyMapAndRemappable(t *testing.T) {
	km := tui.DefaultKeyMap()
	if err := km.Apply(map[string][]string{"expand": {"ctrl+e"}}); err != nil {
		t.Fatalf("z (expand a collapsed run) cannot be remapped: %v", err)
	}
	tm := startExplorer(t, 100, 30, tui.Options{Keys: &km})
	// wave-switch-42 on spirv: inline is unchanged at step 1, collapsed
	// with nothing after it; eliminate-multilevel-break is alone too. Use
	// the help screen to see the binding and the list to see the effect.
	keys(tm, "?")
	waitScreen(t, tm, "ctrl+e")
	keys(tm, "esc")
	s := finalScreen(t, tm)
	if strings.Contains(s, "passlens keys") {
		t.Fatalf("help did not close:\n%s", s)
	}
}

func TestBugTreesEnterShowsBlock(t *testing.T) {
	tm := startExplorer(t, 100, 30, tui.Options{})
	keys(tm, "3")
	waitScreen(t, tm, "%switch.body")
	keys(tm, "down", "enter")
	waitScreen(t, tm, "switch.body:")
	s := finalScreen(t, tm)
	if strings.Contains(s, "no definition of") {
		t.Fatalf("enter on a tree node looked for a definition in the tree:\n%s", s)
	}
	if !strings.Contains(s, "condbr bool %isCase0") {
		t.Fatalf("enter on %%switch.body did not show its block:\n%s", s)
	}
}

func TestBugTreesCursorDoesNotScrollHiddenIR(t *testing.T) {
	tm := startExplorer(t, 80, 24, tui.Options{})
	keys(tm, "3")
	waitScreen(t, tm, "%sw.end")
	keys(tm, "down", "down", "down", "down", "1")
	time.Sleep(150 * time.Millisecond)
	s := finalScreen(t, tm)
	if !strings.Contains(s, `module "wave-switch-42.hlsl"`) {
		t.Fatalf("moving in the trees pane scrolled the IR pane:\n%s", s)
	}
}

func TestBugTreesSplitWithIROnWideTerminal(t *testing.T) {
	tm := startExplorer(t, 160, 48, tui.Options{})
	keys(tm, "3")
	waitScreen(t, tm, "%sw.end")
	keys(tm, "down")
	s := finalScreen(t, tm)
	if !strings.Contains(s, "dominator tree") || !strings.Contains(s, "condbr bool %isCase0") {
		t.Fatalf("trees pane not shown beside the block:\n%s", s)
	}
}

func TestBugTargetRefreshesAfterT(t *testing.T) {
	tm := startExplorer(t, 100, 30, tui.Options{})
	keys(tm, "6")
	waitScreen(t, tm, "OpCapability Shader")
	keys(tm, "T")
	waitScreen(t, tm, `target triple = "dxil-ms-dx"`)
	s := finalScreen(t, tm)
	if strings.Contains(s, "generating target code") {
		t.Fatalf("target pane stuck:\n%s", s)
	}
}

// gotoLine moves the IR cursor to the first line matching re with search.
func gotoLine(tm *teatest.TestModel, re string) {
	keys(tm, "/")
	typeText(tm, re)
	keys(tm, "enter")
}

func TestBugExplainShowsFullChainInPane(t *testing.T) {
	tm := startExplorer(t, 160, 48, tui.Options{})
	gotoLine(tm, "isCase0 = icmp")
	keys(tm, "e")
	waitScreen(t, tm, "load from stage input @threadID")
	s := finalScreen(t, tm)
	if strings.Contains(s, "%isCase0 is divergent: %isCase0 is divergent") {
		t.Fatalf("first clause doubled:\n%s", s)
	}
	for _, want := range []string{
		"%isCase0 is divergent: uses divergent %value.idx.1",
		"%value.idx is divergent: uses divergent %threadID.x",
		"%threadID.1 is divergent: load from stage input @threadID (SV_DispatchThreadID) which differs between lanes",
	} {
		if !strings.Contains(s, want) {
			t.Fatalf("explanation pane lacks %q:\n%s", want, s)
		}
	}
}

func TestBugExplainWithoutValue(t *testing.T) {
	tm := startExplorer(t, 100, 30, tui.Options{})
	gotoLine(tm, "^  ret")
	keys(tm, "e")
	waitScreen(t, tm, "no value under the cursor")
	s := finalScreen(t, tm)
	if strings.Contains(s, "computing uniformity") {
		t.Fatalf("stuck on computing uniformity:\n%s", s)
	}
}

func TestBugExplainOnBranchExplainsTerminator(t *testing.T) {
	tm := startExplorer(t, 160, 48, tui.Options{})
	gotoLine(tm, "condbr bool")
	keys(tm, "e")
	waitScreen(t, tm, "terminator of switch.body is divergent: uses divergent %isCase0")
	s := finalScreen(t, tm)
	if !strings.Contains(s, "%threadID.1 is divergent") {
		t.Fatalf("terminator chain incomplete:\n%s", s)
	}
	// A plain br to a block explains the terminator of its own block, not
	// the target block.
	tm = startExplorer(t, 160, 48, tui.Options{})
	gotoLine(tm, "br %sw.case0.after")
	keys(tm, "e")
	waitScreen(t, tm, "terminator of %sw.case0 is uniform")
	finalScreen(t, tm)
}

// TestReloadKeepsTheView: R reloads an edited input file and keeps the
// step (by PASS#K), the function filter and the cursor.
func TestReloadKeepsTheView(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/k.hlsl"
	orig, err := os.ReadFile("../samples/wave-switch-42.hlsl")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, orig, 0o644)
	t.Setenv("HOME", t.TempDir())
	mod, src, err := load.File(path, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	drv := backend.New(src, mod)
	tm := teatest.NewTestModel(t, tui.New(drv, tui.Options{Target: "spirv", Theme: themes.NoColorTheme()}),
		teatest.WithInitialTermSize(120, 40), teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	waitScreen(t, tm, "define void @main()")
	keys(tm, "home", "}", "}", "j", "j", "j", "R")
	waitScreen(t, tm, "is unchanged")
	edited := strings.Replace(string(orig), "sum += WaveActiveSum(10)", "sum += WaveActiveSum(11)", 1)
	if edited == string(orig) {
		t.Fatal("the sample no longer has WaveActiveSum(10)")
	}
	os.WriteFile(path, []byte(edited), 0o644)
	keys(tm, "R")
	waitScreen(t, tm, "recompiling")
	time.Sleep(time.Second)
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*tui.Model)
	st := fm.State()
	if st.Pass != "simplify" || st.Step != 3 {
		t.Fatalf("after reload at step %d %s, want step 3 simplify (the first)", st.Step, st.Pass)
	}
	s := ansi.Strip(fm.View().Content)
	if !strings.Contains(s, "WaveActiveSum(i32 11)") {
		t.Fatalf("the reloaded module is not shown:\n%s", s)
	}
}

// TestSourcePaneMapsBothWays: the source pane follows the IR cursor
// through the input's !loc positions (value names survive the passes),
// and with o the IR follows the source cursor.
func TestSourcePaneMapsBothWays(t *testing.T) {
	tm := startExplorer(t, 160, 48, tui.Options{})
	gotoLine(tm, "WaveActiveSum.1 =")
	keys(tm, "8")
	waitScreen(t, tm, "IR ↔ source")
	keys(tm, "o", "up", "up")
	s := finalScreen(t, tm)
	if !strings.Contains(s, " 14▶       sum += WaveActiveSum(1);") {
		t.Fatalf("the source cursor is not on line 14:\n%s", s)
	}
	if !strings.Contains(s, "·       sum += WaveActiveSum(10);") {
		t.Fatalf("line 16 is not marked as having IR:\n%s", s)
	}
}

// TestExplainTemporalDivergence: e on a value that is uniform in its
// loop but used outside it after a divergent exit says so, with why the
// exit is divergent.
func TestExplainTemporalDivergence(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	mod, src, err := load.File("samples/divergent-loop", load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tm := teatest.NewTestModel(t, tui.New(backend.New(src, mod), tui.Options{Target: "spirv", Theme: themes.NoColorTheme()}),
		teatest.WithInitialTermSize(160, 48), teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	waitScreen(t, tm, "define void @main()")
	keys(tm, "home")
	gotoLine(tm, "sum.next = add")
	keys(tm, "e")
	waitScreen(t, tm, "is uniform inside the cycle")
	s := finalScreen(t, tm)
	for _, want := range []string{"%sum.next is uniform inside the cycle", "divergent where it is used outside", "the cycle has a divergent exit", "terminator of loop is divergent"} {
		if !strings.Contains(s, want) {
			t.Fatalf("explanation lacks %q:\n%s", want, s)
		}
	}
}
