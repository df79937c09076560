package tui

import (
	"context"
	"errors"
	"image"
	"image/color"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"passlens/themes"
)

// imageFake draws a picture per step: a flat colour that depends on the
// step (as if every pass changed the output), two render targets, and an
// error at the step named failAt.
type imageFake struct {
	*fakeDriver
	calls  int
	failAt string
	sizes  [][2]int
}

func stepColour(step int) color.NRGBA { return color.NRGBA{uint8(40 * step), 100, 200, 255} }

func (f *imageFake) RenderImage(ctx context.Context, c *Compiled, step int, o ImageOptions) (*RenderedImage, error) {
	f.calls++
	f.sizes = append(f.sizes, [2]int{o.Width, o.Height})
	if c.Steps[step].Pass == f.failAt {
		return nil, errors.New("shader.hlsl:7:3: interp: step limit exceeded")
	}
	out := &RenderedImage{}
	for k, sem := range []string{"SV_Target0", "SV_Target1"} {
		t := ImageTarget{Semantic: sem, Note: "float", Image: image.NewNRGBA(image.Rect(0, 0, o.Width, o.Height)), Written: make([]bool, o.Width*o.Height)}
		col := stepColour(step)
		col.G += uint8(k)
		for i := range t.Written {
			t.Written[i] = true
			t.Image.SetNRGBA(i%o.Width, i/o.Width, col)
		}
		out.Targets = append(out.Targets, t)
	}
	return out, nil
}

func newImageModel(t *testing.T) (*Model, *imageFake) {
	t.Helper()
	f := &imageFake{fakeDriver: newFake(), failAt: "sroa"}
	m := New(f, Options{Target: "spirv", Theme: themes.NoColorTheme()})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	drive(t, m, m.compile())
	press(t, m, "5")
	return m, f
}

// shownColour is the colour of the picture's first pixel on the screen's
// first picture line ("" when none).
func shownColour(m *Model) string {
	c := m.View().Content
	i := strings.Index(c, "\x1b[38;2;")
	if i < 0 {
		return ""
	}
	j := strings.IndexByte(c[i:], 'm')
	return c[i+len("\x1b[38;2;") : i+j]
}

// TestPictureFollowsSteps: the picture is the current snapshot's; while
// the next is drawn the previous stays up, marked with its pass; visited
// snapshots come from the cache; a failed draw shows its error and the
// explorer goes on; c cycles the render targets; a resize draws again at
// the new size.
func TestPictureFollowsSteps(t *testing.T) {
	t.Parallel()
	m, f := newImageModel(t)
	if f.calls != 0 {
		t.Fatal("a picture was drawn before p")
	}
	press(t, m, "p")
	last := m.step
	if f.calls != 1 || shownColour(m) != "160;100;200" { // step 4 (broken)
		t.Fatalf("after p: %d draws, colour %q", f.calls, shownColour(m))
	}
	// The previous picture stays while the next one is drawn.
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyLeft})
	if got := screen(m); shownColour(m) != "160;100;200" || !strings.Contains(got, "(from broken)") || !strings.Contains(got, "drawing…") {
		t.Errorf("while drawing step %d: colour %q\n%s", m.step, shownColour(m), got)
	}
	drive(t, m, cmd)
	if shownColour(m) != "120;100;200" || strings.Contains(screen(m), "(from") {
		t.Errorf("step %d (simplify) shows colour %q", m.step, shownColour(m))
	}
	// sroa: the draw fails; the error is shown, located.
	press(t, m, "left")
	if s := screen(m); !strings.Contains(s, "the draw at sroa failed") || !strings.Contains(s, "error: shader.hlsl:7:3: interp: step limit exceeded") {
		t.Errorf("failed draw:\n%s", s)
	}
	press(t, m, "left")
	if shownColour(m) != "40;100;200" {
		t.Errorf("after a failed draw the next step shows %q", shownColour(m))
	}
	calls := f.calls
	for m.step < last {
		press(t, m, "right")
	}
	if f.calls != calls {
		t.Errorf("revisiting snapshots drew %d pictures again (cache)", f.calls-calls)
	}
	press(t, m, "c")
	if shownColour(m) != "160;101;200" || !strings.Contains(screen(m), "SV_Target1 2/2") {
		t.Errorf("c: colour %q\n%s", shownColour(m), screen(m))
	}
	press(t, m, "c")
	if shownColour(m) != "160;100;200" {
		t.Errorf("c twice: colour %q", shownColour(m))
	}
	_, cmd = m.Update(tea.WindowSizeMsg{Width: 90, Height: 26})
	drive(t, m, cmd)
	if s := f.sizes[len(f.sizes)-1]; s[0] != m.lanesP.w || s[1] != 2*(m.lanesP.h-1) {
		t.Errorf("after a resize the picture is %v, the pane %dx%d", s, m.lanesP.w, m.lanesP.h)
	}
	// p returns to the run output; the explorer still works.
	press(t, m, "p", "1")
	if strings.Contains(m.View().Content, "▀") || !strings.Contains(screen(m), "define void @main()") {
		t.Errorf("after p 1:\n%s", screen(m))
	}
}
