package tui_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"passlens/internal/replay"
	"passlens/tui"
)

// recordSession drives the explorer with keys, saves the session with
// ctrl+s into dir and returns the script path and the explorer's state.
func recordSession(t *testing.T, dir string, ks []string) (string, tui.SessionState) {
	t.Helper()
	tm := startExplorer(t, 120, 40, tui.Options{ModulePath: "samples/wave-switch-42"})
	keys(tm, ks...)
	waitScreen(t, tm, "buffer @value")
	path := filepath.Join(dir, "session.replay")
	keys(tm, "ctrl+s")
	keys(tm, "ctrl+u") // clear the default name
	for range 40 {
		tm.Send(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	typeText(tm, path)
	keys(tm, "enter")
	waitScreen(t, tm, "wrote ")
	time.Sleep(100 * time.Millisecond)
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*tui.Model)
	return path, fm.State()
}

// replayInExplorer plays script in a fresh explorer and returns its state
// once the run it ends with has finished.
func replayInExplorer(t *testing.T, path string) (tui.SessionState, string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tm := startExplorer(t, 120, 40, tui.Options{Replay: string(data), ReplayName: path, ModulePath: "samples/wave-switch-42"})
	waitScreen(t, tm, "buffer @value")
	time.Sleep(200 * time.Millisecond)
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*tui.Model)
	return fm.State(), ansi.Strip(fm.View().Content)
}

// TestRecordReplayEqual records sessions with the real program loop,
// then replays each headless (passlens replay's engine) and in a new
// explorer, and requires the same place and bit-identical run results.
func TestRecordReplayEqual(t *testing.T) {
	for _, tc := range []struct {
		name string
		keys []string
		want string // in the run JSON
	}{
		// The sample's point: its bundled input gives 42 42 40 40 with
		// separate switch cases, wave of 4.
		{"wave-switch-42", []string{"W", "W", "y", "r"}, `"data": [42, 42, 40, 40]`},
		// simplify runs twice: goto must land on the second (simplify#2).
		{"second-simplify", []string{"home", ":", "s", "i", "m", "p", "enter", "end", "3", "W", "r"}, `"data": [`},
		// A what-if pipeline, another target, a function filter.
		{"what-if", []string{"T", "tab", "up", "space", "tab", "f", "m", "a", "i", "n", "enter", "5", "r"}, `"data": [`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path, rec := recordSession(t, dir, tc.keys)
			if !strings.Contains(rec.RunJSON, tc.want) {
				t.Fatalf("the explorer's run lacks %s:\n%s", tc.want, rec.RunJSON)
			}
			script, _ := os.ReadFile(path)
			t.Logf("recorded:\n%s", script)

			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var out bytes.Buffer
			e, err := replay.Play(path, f, &out)
			if err != nil {
				t.Fatalf("headless replay: %v\n%s", err, out.String())
			}
			hs, err := e.State()
			if err != nil {
				t.Fatal(err)
			}
			if hs.Target != rec.Target || hs.Passes != rec.Passes || hs.Step != rec.Step || hs.Pass != rec.Pass || hs.Function != rec.Function {
				t.Errorf("headless replay ended at %+v,\nthe session at target %s passes %s step %d %s fn %q", hs, rec.Target, rec.Passes, rec.Step, rec.Pass, rec.Function)
			}
			if hs.RunJSON != rec.RunJSON {
				t.Errorf("headless run differs:\n--- session\n%s\n--- replay\n%s", rec.RunJSON, hs.RunJSON)
			}

			got, screen := replayInExplorer(t, path)
			got.View, rec.View = "", "" // the run shows the lanes in both; see below
			if got != rec {
				t.Errorf("explorer replay ended at\n%+v\nthe session at\n%+v\n%s", got, rec, screen)
			}
		})
	}
}

// TestReplayUnknownCommandLocated: an unknown command is an error with
// file:line:col headless and in the explorer, before anything runs.
func TestReplayUnknownCommandLocated(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.replay")
	os.WriteFile(path, []byte("load samples/wave-switch-42\n  goto sroa\n   frobnicate 3\n"), 0o644)
	f, _ := os.Open(path)
	defer f.Close()
	err := replay.Run(path, f, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), path+":3:4: error: unknown command \"frobnicate\"") {
		t.Fatalf("headless: %v", err)
	}
	tm := startExplorer(t, 120, 40, tui.Options{Replay: "load samples/wave-switch-42\n  goto sroa\n   frobnicate 3\n", ReplayName: path})
	waitScreen(t, tm, "bad.replay:3:4")
	s := finalScreen(t, tm)
	if !strings.Contains(s, "unknown command") || strings.Contains(s, "step 2/") {
		t.Fatalf("explorer: the error is not shown, or the script ran before it:\n%s", s)
	}
}
