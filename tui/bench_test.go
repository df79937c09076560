package tui

import (
	"context"
	"fmt"
	"math/rand"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"passlens/compiler/ir/irtest"
	"passlens/internal/textdiff"
	"passlens/themes"
)

// bigSteps builds snapshots of a module with about n instructions: the
// text of a random module, then variants in which a share of lines change,
// as a pass pipeline would produce.
func bigSteps(n int) []Step {
	var mods []string
	total := 0
	for seed := int64(1); total < n; seed++ {
		m := irtest.RandomModule(seed, irtest.RandomOptions{Funcs: 4, Blocks: 40, Instrs: 12})
		txt := m.String()
		total += strings.Count(txt, "\n  ")
		mods = append(mods, txt)
	}
	base := strings.Join(mods, "\n")
	lines := strings.Split(base, "\n")
	rng := rand.New(rand.NewSource(7))
	steps := []Step{{Pass: "input", Status: StepInput, Text: base, Lines: lines}}
	prev := lines
	for p, share := range []float64{0, 0.02, 0.10, 0, 0.30, 0.01} {
		next := append([]string(nil), prev...)
		for i := range next {
			if strings.HasPrefix(next[i], "  %") && rng.Float64() < share {
				next[i] += " ; changed"
			}
		}
		st := StepChanged
		if share == 0 {
			st = StepUnchanged
		}
		steps = append(steps, Step{Pass: fmt.Sprintf("pass%d", p), Status: st, Text: strings.Join(next, "\n"), Lines: next})
		prev = next
	}
	return steps
}

type bigDriver struct{ fakeDriver }

func (b *bigDriver) Compile(ctx context.Context, target string, p []PassSlot) (*Compiled, error) {
	return &Compiled{Source: "big.pir", Target: target, Steps: b.steps}, nil
}

func (b *bigDriver) DefaultPipeline(string) []PassSlot { return nil }

// BenchmarkStepFrame measures one frame of stepping to the next pass on a
// module of 100k instructions: the key press, the pane update and View.
// It reports the p99 frame time (target: ≤ 16 ms).
func BenchmarkStepFrame(b *testing.B) {
	steps := bigSteps(100_000)
	d := &bigDriver{}
	d.steps = steps
	m := New(d, Options{Target: "spirv", Theme: themes.Dark()})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	m.Update(compiledMsg{c: &Compiled{Steps: steps}})
	// Warm up: visit every snapshot once, as a user's first pass through
	// the pipeline does (the first frame is measured separately).
	for range steps {
		m.Update(tea.KeyPressMsg{Code: tea.KeyLeft})
		_ = m.View()
	}
	runtime.GC()
	var frames []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		var k tea.KeyPressMsg
		if m.step == len(steps)-1 {
			k = tea.KeyPressMsg{Code: tea.KeyHome}
		} else {
			k = tea.KeyPressMsg{Code: tea.KeyRight}
		}
		m.Update(k)
		_ = m.View()
		frames = append(frames, time.Since(t0))
	}
	b.StopTimer()
	reportPercentiles(b, frames)
}

// BenchmarkScrollFrame measures scrolling a page in the IR pane with
// highlighting on the 100k-instruction module.
func BenchmarkScrollFrame(b *testing.B) {
	steps := bigSteps(100_000)
	d := &bigDriver{}
	d.steps = steps
	m := New(d, Options{Target: "spirv", Theme: themes.Dark()})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	m.Update(compiledMsg{c: &Compiled{Steps: steps}})
	var frames []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		m.Update(tea.KeyPressMsg{Code: tea.KeyPgDown})
		_ = m.View()
		frames = append(frames, time.Since(t0))
	}
	b.StopTimer()
	reportPercentiles(b, frames)
}

// BenchmarkDiff100k measures the diff of two 100k-instruction snapshots
// (30% of instruction lines changed), computed once per pair and cached by
// the explorer (target: ≤ 50 ms).
func BenchmarkDiff100k(b *testing.B) {
	steps := bigSteps(100_000)
	a, c := steps[4].Text, steps[5].Text
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d := textdiff.Compute(a, c)
		if d.Added == 0 {
			b.Fatal("no change found")
		}
	}
}

// BenchmarkSnapshotsMemory reports the heap held by the explorer with every
// snapshot of the 100k-instruction module loaded.
func BenchmarkSnapshotsMemory(b *testing.B) {
	for i := 0; i < b.N; i++ {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		steps := bigSteps(100_000)
		d := &bigDriver{}
		d.steps = steps
		m := New(d, Options{Target: "spirv", Theme: themes.Dark()})
		m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
		m.Update(compiledMsg{c: &Compiled{Steps: steps}})
		_ = m.View()
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapInuse-before.HeapInuse)/(1<<20), "MiB-heap")
		runtime.KeepAlive(m)
	}
}

func reportPercentiles(b *testing.B, frames []time.Duration) {
	if len(frames) == 0 {
		return
	}
	sort.Slice(frames, func(i, j int) bool { return frames[i] < frames[j] })
	p := func(q float64) float64 {
		return float64(frames[min(len(frames)-1, int(q*float64(len(frames))))].Microseconds()) / 1000
	}
	b.ReportMetric(p(0.50), "p50-ms")
	b.ReportMetric(p(0.99), "p99-ms")
}
