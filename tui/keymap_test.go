package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// universe is every key a person can plausibly press.
func universe() []tea.KeyPressMsg {
	var out []tea.KeyPressMsg
	for r := rune(0x21); r < 0x7f; r++ {
		out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	for _, c := range []rune{tea.KeyEnter, tea.KeyTab, tea.KeyEscape, tea.KeyUp, tea.KeyDown, tea.KeyLeft, tea.KeyRight,
		tea.KeyHome, tea.KeyEnd, tea.KeyPgUp, tea.KeyPgDown, tea.KeyBackspace, tea.KeyDelete, tea.KeyInsert} {
		out = append(out, tea.KeyPressMsg{Code: c})
	}
	out = append(out, tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
	for r := 'a'; r <= 'z'; r++ {
		if r == 'c' || r == 'z' {
			continue // ctrl+c quits (Quit has it); ctrl+z suspends in the runtime
		}
		out = append(out, tea.KeyPressMsg{Code: r, Mod: tea.ModCtrl})
	}
	out = append(out, tea.KeyPressMsg{Code: tea.KeyLeft, Mod: tea.ModCtrl}, tea.KeyPressMsg{Code: tea.KeyRight, Mod: tea.ModCtrl})
	return out
}

// focusKeys bring a new model into each focus.
var focusKeys = map[Focus][]string{
	FocusList: {"tab"}, FocusIR: {}, FocusDiff: {"2"}, FocusTrees: {"3"}, FocusCFG: {"4"},
	FocusLanes: {"5"}, FocusTarget: {"6"}, FocusExplain: {"7"}, FocusSource: {"8"},
}

// TestEveryHandledKeyIsInTheKeyMap presses every key in every focus on a
// fresh explorer: a key that changes anything (the screen, or returns a
// command) must be one of that focus's bindings, so `?` lists it and the
// config file can remap it.
func TestEveryHandledKeyIsInTheKeyMap(t *testing.T) {
	t.Parallel()
	km := DefaultKeyMap()
	for f := Focus(0); f < numFocus; f++ {
		active := km.Active(f)
		for _, k := range universe() {
			m, _ := newModel(t, 100, 30)
			press(t, m, focusKeys[f]...)
			if m.focus() != f {
				t.Fatalf("could not focus the %s", f)
			}
			before := fingerprint(m)
			_, cmd := m.Update(k)
			after := fingerprint(m)
			if before == after && cmd == nil {
				continue
			}
			if !key.Matches(k, active...) {
				t.Errorf("%s: key %q is handled but not in the KeyMap", f, k.String())
			}
		}
	}
}

// TestNoBindingShadowed: no key is bound to two actions in any focus, by
// default and after a remap; a remap that would shadow is refused.
func TestNoBindingShadowed(t *testing.T) {
	t.Parallel()
	km := DefaultKeyMap()
	if err := km.Shadowed(); err != nil {
		t.Fatal(err)
	}
	// enter means three things in three focuses; remapping one is fine.
	if err := km.Apply(map[string][]string{"show-block": {"o"}}); err != nil {
		t.Fatalf("remapping show-block: %v", err)
	}
	km = DefaultKeyMap()
	if err := km.Apply(map[string][]string{"tree-kind": {"n"}}); err == nil {
		t.Fatal("t→n shadows search-next in the trees pane but was accepted")
	}
	km = DefaultKeyMap()
	if err := km.Apply(map[string][]string{"expand": {"q"}}); err == nil {
		t.Fatal("expand on q shadows quit but was accepted")
	}
}

// TestHelpListsTheFocusedPane: `?` shows the focused pane's keys and the
// global ones, generated from the KeyMap.
func TestHelpListsTheFocusedPane(t *testing.T) {
	t.Parallel()
	for f, want := range map[Focus]string{FocusList: "show the selected pass", FocusTrees: "dominator / post-dominator / cycle tree", FocusDiff: "unified / side-by-side diff"} {
		m, _ := newModel(t, 160, 48)
		press(t, m, focusKeys[f]...)
		press(t, m, "?")
		s := screen(m)
		if !strings.Contains(s, want) || !strings.Contains(s, "next pass") {
			t.Errorf("%s help lacks %q:\n%s", f, want, s)
		}
	}
}

// fingerprint is the screen and the state a key can change without
// changing the screen.
func fingerprint(m *Model) string {
	return screen(m) + fmt.Sprint(m.list.expanded, m.hideList, m.overlay, m.waveSize, m.policy, m.diff.side, m.diff.base,
		m.diff.off, m.graph.kind, m.mouse, m.step, m.view, m.focusList, m.list.sel, m.prompt.kind, m.showHelp, m.fn,
		m.ir.cursor, m.ir.off, m.ir.xoff, m.ir.valueIdx, m.ir.occ, m.graph.cursor, m.graph.xoff, m.tgt.cursor,
		m.lanesP.cursor, m.expl.cursor, m.src.cursor, m.src.sourceSide, m.status, m.st.Theme.Name, specOf(m.pipeline), m.target)
}

// A config can never make the explorer impossible to leave.
func TestConfigKeepsQuit(t *testing.T) {
	t.Parallel()
	for _, remap := range []map[string][]string{
		{"quit": {}},
		{"quit": nil},
		{"cancel": {}},
		{"help": {}},
		{"run-lanes": {"ctrl+c"}},
	} {
		k := DefaultKeyMap()
		if err := k.Apply(remap); err == nil {
			t.Errorf("Apply(%v) accepted", remap)
		}
	}
	k := DefaultKeyMap()
	if err := k.Apply(map[string][]string{"quit": {"Q"}}); err != nil {
		t.Fatal(err)
	}
	if keys := k.Quit.Keys(); !slices.Contains(keys, "ctrl+c") || !slices.Contains(keys, "Q") || slices.Contains(keys, "q") {
		t.Errorf("quit remapped to Q has keys %v, want Q and ctrl+c", keys)
	}
}

// The config file is read with the shared bound: a link to /dev/zero is an
// error naming the file, not an endless read.
func TestLoadConfigRefusesDevices(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "config.json")
	if err := os.Symlink("/dev/zero", p); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadConfig(p); err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("LoadConfig(link to /dev/zero) = %v", err)
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(`{"keys":{"quit":[]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := LoadConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	k := DefaultKeyMap()
	if err := k.Apply(c.Keys); err == nil || !strings.Contains(err.Error(), "quit") {
		t.Fatalf(`{"keys":{"quit":[]}} applied: %v`, err)
	}
}
