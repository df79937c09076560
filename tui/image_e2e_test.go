package tui_test

import (
	"context"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"passlens/compiler/load"
	"passlens/themes"
	"passlens/tui"
	"passlens/tui/backend"
)

// syncRun runs a command chain to the end on this goroutine, feeding each
// message back to the model as the bubbletea runtime would (spinner ticks
// are dropped), so a test sees the state after every job finished.
func syncRun(t *testing.T, m *tui.Model, cmd tea.Cmd) {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for n := 0; len(queue) > 0; n++ {
		if n > 10000 {
			t.Fatal("the command chain does not end")
		}
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
			if strings.HasSuffix(fmt.Sprintf("%T", msg), "TickMsg") {
				continue
			}
			_, next := m.Update(msg)
			queue = append(queue, next)
		}
	}
}

func pressKeys(t *testing.T, m *tui.Model, keys ...tea.KeyPressMsg) {
	t.Helper()
	for _, k := range keys {
		_, cmd := m.Update(k)
		syncRun(t, m, cmd)
	}
}

func char(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }

// imageModel opens a sample in the explorer on the real compiler, in the
// lanes pane, 100×30.
func imageModel(t *testing.T, sample string, maxSteps int) (*tui.Model, *backend.Driver) {
	t.Helper()
	mod, src, err := load.File(sample, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	drv := backend.New(src, mod)
	drv.MaxRunSteps = maxSteps
	m := tui.New(drv, tui.Options{Target: "spirv", Theme: themes.NoColorTheme()})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	syncRun(t, m, m.Init())
	pressKeys(t, m, char('5'))
	return m, drv
}

// TestPictureViewSteps: p in the lanes pane draws the pixel sample at the
// current snapshot; stepping through every pass keeps the picture the one
// of the snapshot shown, drawn as the driver draws it, and (the passes
// preserving what the shader computes) the same picture at every step.
func TestPictureViewSteps(t *testing.T) {
	t.Parallel()
	m, drv := imageModel(t, "samples/pixel-image", 0)
	pressKeys(t, m, char('p'))
	step, img, err, on := m.ShownImage()
	if !on || err != nil || img == nil || step != m.Step() {
		t.Fatalf("after p: on %v, step %d (current %d), err %v", on, step, m.Step(), err)
	}

	first := img.Targets[0].Image
	pressKeys(t, m, tea.KeyPressMsg{Code: tea.KeyHome})
	for i := 0; ; i++ {
		step, img, err, _ := m.ShownImage()
		if err != nil || img == nil || step != m.Step() {
			t.Fatalf("step %d: the picture is from step %d (err %v)", m.Step(), step, err)
		}
		want, err := drv.RenderImage(context.Background(), m.Comp(), m.Step(), m.ImageOptionsNow())
		if err != nil {
			t.Fatal(err)
		}
		got := img.Targets[0]
		if !equalPix(got.Image.Pix, want.Targets[0].Image.Pix) {
			t.Fatalf("step %d: shown picture differs from the driver's draw", m.Step())
		}
		if !equalPix(got.Image.Pix, first.Pix) {
			t.Errorf("step %d (%s) draws a different picture than the last step", m.Step(), m.Comp().Steps[m.Step()].Pass)
		}
		// The screen shows the picture's half-block lines.
		content := m.View().Content
		for _, l := range tui.HalfBlocks(&got)[:3] {
			if !strings.Contains(content, strings.TrimSuffix(l, "\x1b[m")) {
				t.Fatalf("step %d: the screen lacks the picture", m.Step())
			}
		}
		if !strings.Contains(ansi.Strip(content), "SV_Target") {
			t.Fatalf("step %d: no picture header:\n%s", m.Step(), ansi.Strip(content))
		}
		if m.Step() == len(m.Comp().Steps)-1 {
			if i < 3 {
				t.Fatalf("only %d steps", i)
			}
			break
		}
		pressKeys(t, m, tea.KeyPressMsg{Code: tea.KeyRight})
	}
	// p goes back to the run output.
	pressKeys(t, m, char('p'))
	if _, _, _, on := m.ShownImage(); on || strings.Contains(m.View().Content, "▀") {
		t.Error("p did not return to the run output")
	}
}

func equalPix(a, b []uint8) bool { return string(a) == string(b) }

// TestPictureViewErrors: a compute shader has no picture; a draw that
// fails (the step limit) shows the located error in the pane, and the
// explorer keeps working.
func TestPictureViewErrors(t *testing.T) {
	t.Parallel()
	m, _ := imageModel(t, "samples/wave-switch-42", 0)
	pressKeys(t, m, char('p'))
	if s := ansi.Strip(m.View().Content); !strings.Contains(s, "no picture: ") || !strings.Contains(s, "compute shader") {
		t.Errorf("compute sample:\n%s", s)
	}
	m, _ = imageModel(t, "samples/pixel-image", 50)
	pressKeys(t, m, char('p'))
	s := ansi.Strip(m.View().Content)
	if !strings.Contains(s, "the draw at") || !strings.Contains(s, "error: interp: @main") || !strings.Contains(s, "step limit exceeded") {
		t.Errorf("failing draw:\n%s", s)
	}
	pressKeys(t, m, tea.KeyPressMsg{Code: tea.KeyLeft}, char('p'), char('1'))
	if s := ansi.Strip(m.View().Content); !strings.Contains(s, "define") {
		t.Errorf("the explorer stopped working after a failed draw:\n%s", s)
	}
}

// TestPictureExportPNG: P writes the shown picture under a fresh name in
// the working directory (never replacing a file) and says where; the PNG
// holds the shown pixels.
func TestPictureExportPNG(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	m, _ := imageModel(t, "samples/pixel-image", 0)
	pressKeys(t, m, char('p'))
	_, img, _, _ := m.ShownImage()
	pass := m.Comp().Steps[m.Step()].Pass
	first := filepath.Join(dir, "pixel-image."+pass+".png")
	if err := os.WriteFile(first, []byte("the user's file"), 0o644); err != nil {
		t.Fatal(err)
	}
	pressKeys(t, m, char('P'))
	second := filepath.Join(dir, "pixel-image."+pass+"-2.png")
	if s := ansi.Strip(m.View().Content); !strings.Contains(s, "wrote "+second) {
		t.Fatalf("status does not name %s:\n%s", second, s)
	}
	if data, _ := os.ReadFile(first); string(data) != "the user's file" {
		t.Error("the export replaced an existing file")
	}
	f, err := os.Open(second)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	want := img.Targets[0].Image
	if p.Bounds() != want.Bounds() {
		t.Fatalf("PNG %v, picture %v", p.Bounds(), want.Bounds())
	}
	for y := 0; y < want.Bounds().Dy(); y++ {
		for x := 0; x < want.Bounds().Dx(); x++ {
			r, g, b, a := p.At(x, y).RGBA()
			w := want.NRGBAAt(x, y)
			if uint8(r>>8) != w.R || uint8(g>>8) != w.G || uint8(b>>8) != w.B || uint8(a>>8) != w.A {
				t.Fatalf("pixel (%d, %d) differs", x, y)
			}
		}
	}
}
