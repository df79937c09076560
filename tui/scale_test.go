package tui_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"sort"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"passlens/compiler/load"
	"passlens/themes"
	"passlens/tui"
	"passlens/tui/backend"
)

// TestScaleKeyLatency measures, in process, how long the UI goroutine
// spends on each key (Update + View) on a large module given by
// PASSLENS_SCALE_FILE (bench/hlslgen output), in every pane. Commands are
// run synchronously between keys (they are off the UI goroutine in the
// real program), so the numbers are the UI's own cost.
func TestScaleKeyLatency(t *testing.T) {
	file := os.Getenv("PASSLENS_SCALE_FILE")
	if file == "" {
		t.Skip("set PASSLENS_SCALE_FILE to a large HLSL file (bench/hlslgen)")
	}
	mod, src, err := load.File(file, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	drv := backend.New(src, mod)
	m := tui.New(drv, tui.Options{Target: "spirv", Theme: themes.Dark()})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	c, err := drv.Compile(context.Background(), "spirv", drv.DefaultPipeline("spirv"))
	if err != nil {
		t.Fatal(err)
	}
	run := func(cmd tea.Cmd) {
		queue := []tea.Cmd{cmd}
		for len(queue) > 0 {
			c := queue[0]
			queue = queue[1:]
			if c == nil {
				continue
			}
			switch msg := c().(type) {
			case nil:
			case tea.BatchMsg:
				queue = append(queue, msg...)
			default:
				if _, tick := msg.(interface{ Tick() tea.Msg }); tick {
					continue
				}
				if fmtType(msg) == "spinner.TickMsg" {
					continue
				}
				start := time.Now()
				_, next := m.Update(msg)
				m.View()
				t.Logf("    message %s: %v", fmtType(msg), time.Since(start))
				queue = append(queue, next)
			}
		}
	}
	run(func() tea.Msg { return tui.CompiledForTest(c) })
	for _, pane := range []struct {
		name string
		open rune
		keys []tea.KeyPressMsg
	}{
		{"ir", '1', lr(4)},
		{"diff", '2', lr(4)},
		{"trees", '3', append(lr(4), down(4)...)},
		{"cfg", '4', append(lr(4), down(4)...)},
		{"target", '6', down(4)},
		{"source", '8', down(4)},
		{"explanation", '7', down(4)},
	} {
		var times []time.Duration
		for i, k := range append([]tea.KeyPressMsg{{Code: pane.open, Text: string(pane.open)}}, pane.keys...) {
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			_, cmd := m.Update(k)
			mid := time.Since(start)
			m.View()
			d := time.Since(start)
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			if d > 50*time.Millisecond {
				t.Logf("  slow key: Update %v, View %v, %d GCs during it, %d MiB allocated", mid, d-mid, after.NumGC-before.NumGC, (after.TotalAlloc-before.TotalAlloc)>>20)
			}
			if i > 0 {
				times = append(times, d)
			}
			t.Logf("%s key %s: %v", pane.name, k.String(), d)
			run(cmd)
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		t.Logf("%s: live heap after the pane %d MiB (sys %d MiB)", pane.name, ms.HeapAlloc>>20, ms.Sys>>20)
		sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
		t.Logf("%s: max key %v", pane.name, times[len(times)-1])
		// The goal of issue 13: every key answers within 50 ms.
		if worst := times[len(times)-1]; worst > 50*time.Millisecond {
			t.Errorf("%s: a key took %v on the UI goroutine (goal ≤ 50 ms)", pane.name, worst)
		}
	}
	// PASSLENS_SCALE_HEAPPROFILE names a file for the heap profile after
	// every pane was opened (go tool pprof -sample_index=inuse_space).
	if path := os.Getenv("PASSLENS_SCALE_HEAPPROFILE"); path != "" {
		runtime.GC()
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := pprof.WriteHeapProfile(f); err != nil {
			t.Fatal(err)
		}
	}
	runtime.KeepAlive(m)
}

func lr(n int) []tea.KeyPressMsg {
	var out []tea.KeyPressMsg
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			out = append(out, tea.KeyPressMsg{Code: tea.KeyLeft})
		} else {
			out = append(out, tea.KeyPressMsg{Code: tea.KeyRight})
		}
	}
	return out
}

func down(n int) []tea.KeyPressMsg {
	var out []tea.KeyPressMsg
	for i := 0; i < n; i++ {
		out = append(out, tea.KeyPressMsg{Code: tea.KeyDown})
	}
	return out
}

func fmtType(v any) string {
	return fmt.Sprintf("%T", v)
}
