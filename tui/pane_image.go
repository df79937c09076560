package tui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"passlens/internal/atomicfile"
)

// The lanes pane's picture view (key p): what a pixel shader draws at the
// current snapshot, as half-block cells (▀, foreground the upper pixel,
// background the lower one). The driver draws the shader over a
// full-viewport quad sized to the pane, in a command (the explorer never
// waits for it); the pictures are cached per snapshot, size and run
// settings, and the previous picture stays up while the next is drawn.
// P writes the shown render target as a PNG, c cycles the render target.

// ImageRenderer is implemented by drivers that can draw a pixel shader
// (docs/run.md, "Pictures"). RenderImage draws step's module over a
// Width × Height viewport; an error wrapping ErrNotPixelShader means the
// entry point is no pixel shader.
type ImageRenderer interface {
	RenderImage(ctx context.Context, c *Compiled, step int, o ImageOptions) (*RenderedImage, error)
}

// ErrNotPixelShader is what an ImageRenderer wraps when there is nothing
// to draw.
var ErrNotPixelShader = errors.New("not a pixel shader")

// ImageOptions configures a draw: the run settings of the lanes pane and
// the viewport in pixels.
type ImageOptions struct {
	RunOptions
	Width, Height int
}

// RenderedImage is what a draw produced: the render targets, colour
// targets first (SV_Target0, 1, …), each converted to 8 bits a channel.
type RenderedImage struct {
	Targets []ImageTarget
}

// ImageTarget is one converted render target.
type ImageTarget struct {
	Semantic string
	Note     string // how the values were mapped to 8 bits
	Image    *image.NRGBA
	// Written says which pixels a lane wrote (row-major); the others are
	// drawn as a grey checkerboard.
	Written []bool
}

// Picture sizes: the pane's width in pixels and twice its height (two
// pixels a cell), capped so a draw stays quick on the interpreter.
const (
	maxImageW = 128
	maxImageH = 96
)

// imageKey identifies a draw: a picture is drawn again only when one of
// these changes.
type imageKey struct {
	comp          *Compiled
	step          int
	width, height int
	wave          int
	policy, fn    string
	inputGen      int
}

// imageEntry is a finished draw.
type imageEntry struct {
	key   imageKey
	img   *RenderedImage
	lines [][]string // halfBlocks of each target, drawn off the UI goroutine
	err   error
}

type imageMsg imageEntry

// imageView is the lanes pane's picture state.
type imageView struct {
	on       bool
	target   int // which render target (index into RenderedImage.Targets)
	cache    *lru[imageKey, *imageEntry]
	shown    *imageEntry // the last finished draw (shown while the next runs)
	pending  imageKey    // the draw running, if busy
	busy     bool
	inputGen int // bumped when the interpreter input changes
}

// keepImages is how many pictures the explorer keeps (one per snapshot
// visited, at the current size).
const keepImages = 16

func (v *imageView) init() {
	if v.cache == nil {
		v.cache = newLRU[imageKey, *imageEntry](keepImages)
	}
}

// imageKey is the draw the pane needs now.
func (m *Model) imageKey() imageKey {
	p := m.lanesP
	w := min(max(p.w, 1), maxImageW)
	h := min(max(2*(p.h-1), 2), maxImageH)
	return imageKey{comp: m.comp, step: m.step, width: w, height: h, wave: m.waveSize,
		policy: m.policyName(), fn: m.analysisFunc(), inputGen: p.img.inputGen}
}

// ensureImage starts the draw the picture view needs, unless it is
// cached or running; nil when the view is not shown.
func (m *Model) ensureImage() tea.Cmd {
	v := &m.lanesP.img
	if !v.on || m.view != ViewLanes || m.comp == nil {
		return nil
	}
	v.init()
	k := m.imageKey()
	if e, ok := v.cache.get(k); ok {
		v.shown = e
		return nil
	}
	if v.busy && v.pending == k {
		return nil
	}
	r, ok := m.drv.(ImageRenderer)
	if !ok {
		e := &imageEntry{key: k, err: errors.New("this explorer cannot draw pictures (the driver has no renderer)")}
		v.shown = e
		return nil
	}
	ctx := m.startJob("image")
	v.pending, v.busy = k, true
	c, step := m.comp, m.step
	opts := ImageOptions{RunOptions: RunOptions{WaveSize: k.wave, Policy: k.policy, Function: k.fn}, Width: k.width, Height: k.height}
	return func() tea.Msg {
		img, err := r.RenderImage(ctx, c, step, opts)
		msg := imageMsg{key: k, img: img, err: err}
		if err == nil && img != nil {
			for i := range img.Targets {
				msg.lines = append(msg.lines, halfBlocks(&img.Targets[i]))
			}
		}
		return msg
	}
}

// imageDone stores a finished draw and shows it if it is still wanted.
func (m *Model) imageDone(msg imageMsg) tea.Cmd {
	v := &m.lanesP.img
	if v.busy && v.pending == msg.key {
		v.busy = false
		delete(m.busy, "image")
	}
	if errors.Is(msg.err, context.Canceled) {
		return nil // replaced by a newer draw
	}
	v.init()
	e := (*imageEntry)(&msg)
	v.cache.put(msg.key, e)
	if msg.key == m.imageKey() {
		v.shown = e
		if msg.err == nil && msg.img != nil {
			m.setStatus(fmt.Sprintf("drew %s: %d×%d pixels (c render target, P save PNG)", m.stepName(), msg.key.width, msg.key.height), false)
		}
	}
	m.refreshViews()
	return m.ensureImage()
}

// toggleImage turns the picture view on or off (key p).
func (m *Model) toggleImage() tea.Cmd {
	v := &m.lanesP.img
	v.on = !v.on
	m.lanesP.refresh()
	if !v.on {
		m.setStatus("lanes pane: run output (p shows the picture)", false)
		return nil
	}
	m.setStatus("lanes pane: picture of the pixel shader at this snapshot (c render target, P save PNG, p back)", false)
	return m.ensureImage()
}

// cycleImageTarget shows the next render target (key c).
func (m *Model) cycleImageTarget() {
	v := &m.lanesP.img
	n := 0
	if v.shown != nil && v.shown.img != nil {
		n = len(v.shown.img.Targets)
	}
	if n < 2 {
		m.setStatus("the shader writes one render target", false)
		return
	}
	v.target = (v.target + 1) % n
	m.setStatus("showing "+v.shown.img.Targets[v.target].Semantic, false)
}

// shownTarget is the render target the view shows, or nil.
func (v *imageView) shownTarget() *ImageTarget {
	if v.shown == nil || v.shown.img == nil || len(v.shown.img.Targets) == 0 {
		return nil
	}
	return &v.shown.img.Targets[min(v.target, len(v.shown.img.Targets)-1)]
}

// imageLines is the body of the picture view: a line on what is shown,
// then the picture.
func (m *Model) imageLines() []string {
	v := &m.lanesP.img
	e := v.shown
	want := m.imageKey()
	wait := ""
	if v.busy {
		wait = "  " + m.spin.View() + " drawing…"
	}
	switch {
	case e == nil && !v.busy:
		return []string{"the draw was cancelled; p twice draws it again"}
	case e == nil:
		return []string{"drawing the picture of this snapshot…" + wait}
	case e.err != nil:
		if errors.Is(e.err, ErrNotPixelShader) {
			return append([]string{"no picture: " + firstLine(e.err.Error()), ""}, "the picture view (p) draws pixel shaders; p returns to the run output")
		}
		// Wrapped to the pane: the located error is the point.
		text := ansi.Wrap("error: "+e.err.Error(), max(m.lanesP.w, 20), " ")
		return append([]string{fmt.Sprintf("the draw at %s failed:%s", m.stepNameOf(e.key.step), wait)}, strings.Split(text, "\n")...)
	}
	t := v.shownTarget()
	if t == nil {
		return []string{"the shader wrote no render target" + wait}
	}
	stale := ""
	if e.key != want {
		stale = fmt.Sprintf(" (from %s)", m.stepNameOf(e.key.step))
	}
	info := fmt.Sprintf("%s %d/%d, %d×%d px%s; %s%s", t.Semantic, min(v.target, len(e.img.Targets)-1)+1, len(e.img.Targets),
		e.key.width, e.key.height, stale, t.Note, wait)
	return append([]string{info}, e.lines[min(v.target, len(e.lines)-1)]...)
}

// stepNameOf is the pass name of step i.
func (m *Model) stepNameOf(i int) string {
	if m.comp != nil && i >= 0 && i < len(m.comp.Steps) {
		return m.comp.Steps[i].Pass
	}
	return "?"
}

// halfBlocks draws a picture two pixel rows a line: ▀ with the upper
// pixel as foreground and the lower as background, 24-bit SGR colours
// (bubbletea's renderer lowers them to 256 or 16 colours on terminals
// without truecolor, colorprofile). Pixels no lane wrote show a grey
// checkerboard (4×4 pixel squares). An odd last row has the terminal's
// background below.
func halfBlocks(t *ImageTarget) []string {
	b := t.Image.Bounds()
	w, h := b.Dx(), b.Dy()
	px := func(x, y int) [3]uint8 {
		if t.Written[y*w+x] {
			c := t.Image.NRGBAAt(x, y)
			return [3]uint8{c.R, c.G, c.B}
		}
		if (x/4+y/4)%2 == 0 {
			return [3]uint8{0x50, 0x50, 0x50}
		}
		return [3]uint8{0x30, 0x30, 0x30}
	}
	var lines []string
	for y := 0; y < h; y += 2 {
		var sb strings.Builder
		var lastFG, lastBG [3]uint8
		first := true
		for x := 0; x < w; x++ {
			fg := px(x, y)
			if first || fg != lastFG {
				fmt.Fprintf(&sb, "\x1b[38;2;%d;%d;%dm", fg[0], fg[1], fg[2])
			}
			if y+1 < h {
				bg := px(x, y+1)
				if first || bg != lastBG {
					fmt.Fprintf(&sb, "\x1b[48;2;%d;%d;%dm", bg[0], bg[1], bg[2])
				}
				lastBG = bg
			}
			lastFG, first = fg, false
			sb.WriteString("▀")
		}
		sb.WriteString("\x1b[m")
		lines = append(lines, sb.String())
	}
	return lines
}

// exportPNG writes the shown render target as a PNG in the working
// directory under a fresh name, <module>.<pass>[.<target>].png, adding -2,
// -3, … rather than replacing a file (key P).
func (m *Model) exportPNG() tea.Cmd {
	v := &m.lanesP.img
	t := v.shownTarget()
	if !v.on || t == nil || v.shown.err != nil {
		m.setStatus("no picture to save: p shows the picture of a pixel shader first", true)
		return nil
	}
	if m.opts.Exports != nil {
		m.setStatus("PNG export writes files: not available over SSH (use passlens run --png locally)", true)
		return nil
	}
	base := strings.TrimSuffix(filepath.Base(m.drv.Source()), filepath.Ext(m.drv.Source()))
	name := fileSafe(base) + "." + fileSafe(m.stepNameOf(v.shown.key.step))
	if v.target > 0 {
		name += "." + fileSafe(t.Semantic)
	}
	img := t.Image
	return func() tea.Msg {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			return statusMsg{"PNG export failed: " + err.Error(), true}
		}
		for i := 1; i < 1000; i++ {
			path := name + ".png"
			if i > 1 {
				path = name + "-" + strconv.Itoa(i) + ".png"
			}
			err := atomicfile.Write(path, buf.Bytes(), atomicfile.Options{})
			if err == nil {
				abs, _ := filepath.Abs(path)
				return statusMsg{fmt.Sprintf("wrote %s (%d×%d PNG)", abs, img.Bounds().Dx(), img.Bounds().Dy()), false}
			}
			if !errors.Is(err, os.ErrExist) {
				return statusMsg{"PNG export failed: " + err.Error(), true}
			}
		}
		return statusMsg{"PNG export: " + name + ".png and 998 numbered names exist", true}
	}
}

// fileSafe keeps letters, digits, '-', '_' and '.' of s (others become
// '_'), so a pass or module name is one file name component.
func fileSafe(s string) string {
	s = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, s)
	s = strings.Trim(s, ".")
	if s == "" {
		return "shader"
	}
	return s
}

// imageKeys handles the picture keys of the lanes pane; ok is false for
// other keys.
func (m *Model) imageKeys(k tea.KeyPressMsg) (tea.Cmd, bool) {
	km := m.keys
	switch {
	case key.Matches(k, km.ImageView):
		return m.toggleImage(), true
	case key.Matches(k, km.ImageTarget) && m.lanesP.img.on:
		m.cycleImageTarget()
		return nil, true
	case key.Matches(k, km.ExportPNG):
		return m.exportPNG(), true
	}
	return nil, false
}
