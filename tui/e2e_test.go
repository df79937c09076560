package tui_test

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"passlens/compiler/load"
	"passlens/samples"
	"passlens/themes"
	"passlens/tui"
	"passlens/tui/backend"
)

func realModel(t *testing.T, sample string) *tui.Model {
	t.Helper()
	m, src, err := load.File(sample, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tui.New(backend.New(src, m), tui.Options{Target: "spirv", Theme: themes.NoColorTheme()})
}

// TestExplorerEndToEnd runs the real program loop on the real compiler:
// it waits for the first frame, steps, opens help and quits.
func TestExplorerEndToEnd(t *testing.T) {
	t.Parallel()
	tm := teatest.NewTestModel(t, realModel(t, "samples/divergent-loop"),
		teatest.WithInitialTermSize(100, 30),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	waitScreen(t, tm, "define void @main()")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyHome})
	waitScreen(t, tm, "loaded")
	tm.Send(tea.KeyPressMsg{Code: '?', Text: "?"})
	waitScreen(t, tm, "Moving")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	tm.Send(tea.KeyPressMsg{Code: '3', Text: "3"})
	waitScreen(t, tm, "└─")
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	tm.WaitFinished(t, teatest.WithFinalTimeout(60*time.Second))
}

func waitScreen(t *testing.T, tm *teatest.TestModel, want string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains([]byte(ansi.Strip(string(b))), []byte(want))
	}, teatest.WithDuration(60*time.Second), teatest.WithCheckInterval(20*time.Millisecond)) // a bound for hangs, not a timing assumption
}

// TestGoldenScreens pins the main views at 80×24 and 160×48 (no colour, so
// the goldens are readable text). Regenerate with: go test ./tui -update
func TestGoldenScreens(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("goldens are recorded on linux")
	}
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		for _, v := range []struct{ name, keys string }{
			{"ir", ""}, {"input", "\x00home"}, {"diff", "\x00home}2"}, {"trees", "3"}, {"cfg", "4"}, {"help", "?"},
			{"trees-selected", "3j"}, {"lanes", "WWyr"}, {"target", "6"}, {"explain", "/isCase0 = icmp\x00entere"},
			{"pipeline", "\x00tab"}, {"zoom", "Z"}, {"list-help", "\x00tab?"}, {"source", "/WaveActiveSum.1 =\x00enter8"},
		} {
			name := filepath.Join(strings.ReplaceAll(t.Name(), "/", "_"), v.name)
			t.Run(name+"_"+itoa(size[0])+"x"+itoa(size[1]), func(t *testing.T) {
				t.Setenv("HOME", t.TempDir())
				t.Setenv("XDG_CONFIG_HOME", "/xdg")
				// The keys start background work (a diff, the trees); the
				// screen is compared only once none is left, which the
				// status bar shows ("… (esc cancels)" while busy). A
				// screen taken too early is retaken with a longer pause,
				// so a slow machine changes the run time, not the result.
				var screen string
				for pause := 150 * time.Millisecond; ; pause *= 2 {
					m := realModel(t, "samples/wave-switch-42")
					tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(size[0], size[1]))
					waitScreen(t, tm, "define void @main()")
					for _, k := range splitKeys(v.keys) {
						tm.Send(k)
					}
					time.Sleep(pause)
					tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
					fm := tm.FinalModel(t, teatest.WithFinalTimeout(60*time.Second)).(*tui.Model)
					screen = stripTimes(ansi.Strip(fm.View().Content))
					if !strings.Contains(screen, "(esc cancels)") {
						break
					}
					if pause > 30*time.Second {
						t.Fatalf("still busy after a %v pause:\n%s", pause, screen)
					}
				}
				golden.RequireEqual(t, []byte(screen))
			})
		}
	}
}

func itoa(n int) string {
	return string(rune('0'+n/100%10)) + string(rune('0'+n/10%10)) + string(rune('0'+n%10))
}

func splitKeys(s string) []tea.Msg {
	var out []tea.Msg
	for s != "" {
		if strings.HasPrefix(s, "\x00home") {
			out = append(out, tea.KeyPressMsg{Code: tea.KeyHome})
			s = s[len("\x00home"):]
			continue
		}
		if strings.HasPrefix(s, "\x00enter") {
			out = append(out, tea.KeyPressMsg{Code: tea.KeyEnter})
			s = s[len("\x00enter"):]
			continue
		}
		if strings.HasPrefix(s, "\x00tab") {
			out = append(out, tea.KeyPressMsg{Code: tea.KeyTab})
			s = s[len("\x00tab"):]
			continue
		}
		r := rune(s[0])
		out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
		s = s[1:]
	}
	return out
}

var timeRE = regexp.MustCompile(`[0-9.]+(µs|ms|s) `)

// stripTimes blanks pass timings, which vary run to run.
func stripTimes(s string) string {
	return timeRE.ReplaceAllStringFunc(s, func(m string) string {
		return strings.Repeat(" ", len([]rune(m)))
	})
}

// BenchmarkFirstFrame measures start to first frame on the default sample:
// load, compile through the default pipeline, render (target: ≤ 150 ms).
func BenchmarkFirstFrame(b *testing.B) {
	for i := 0; i < b.N; i++ {
		m, src, err := load.File("samples/"+samples.Default, load.Options{})
		if err != nil {
			b.Fatal(err)
		}
		drv := backend.New(src, m)
		model := tui.New(drv, tui.Options{Target: "spirv", Theme: themes.Dark()})
		model.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
		c, err := drv.Compile(context.Background(), "spirv", drv.DefaultPipeline("spirv"))
		if err != nil {
			b.Fatal(err)
		}
		model.Update(tui.CompiledForTest(c))
		if v := model.View(); !strings.Contains(v.Content, "main") {
			b.Fatal("first frame lacks the IR")
		}
	}
}
