package tui

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/golden"
)

// testPicture is a 6×5 picture: a red-to-blue ramp with a green row, and
// two pixels no lane wrote (a discard), an odd height (the last line has
// no lower pixels).
func testPicture() *ImageTarget {
	const w, h = 6, 5
	t := &ImageTarget{Semantic: "SV_Target0", Image: image.NewNRGBA(image.Rect(0, 0, w, h)), Written: make([]bool, w*h)}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.NRGBA{uint8(x * 51), 0, uint8(255 - x*51), 255}
			if y == 2 {
				c = color.NRGBA{0, 200, 0, 255}
			}
			t.Image.SetNRGBA(x, y, c)
			t.Written[y*w+x] = !(y == 1 && x >= 4)
		}
	}
	return t
}

// TestHalfBlocksGolden pins the half-block drawing: one line per two
// pixel rows, ▀ per column, 24-bit colours only where they change, the
// checkerboard for unwritten pixels. Regenerate with go test ./tui -update.
func TestHalfBlocksGolden(t *testing.T) {
	t.Parallel()
	lines := halfBlocks(testPicture())
	if len(lines) != 3 {
		t.Fatalf("%d lines for 5 pixel rows, want 3", len(lines))
	}
	var sb strings.Builder
	for _, l := range lines {
		fmt.Fprintf(&sb, "%q\n", l)
	}
	golden.RequireEqual(t, []byte(sb.String()))
}

// TestHalfBlocksColours decodes the drawing cell by cell: the foreground
// is the upper pixel, the background the lower one.
func TestHalfBlocksColours(t *testing.T) {
	t.Parallel()
	p := testPicture()
	for y, line := range halfBlocks(p) {
		var fg, bg string
		cells := 0
		for rest := line; rest != ""; {
			switch {
			case strings.HasPrefix(rest, "\x1b[38;2;"):
				i := strings.IndexByte(rest, 'm')
				fg, rest = rest[len("\x1b[38;2;"):i], rest[i+1:]
			case strings.HasPrefix(rest, "\x1b[48;2;"):
				i := strings.IndexByte(rest, 'm')
				bg, rest = rest[len("\x1b[48;2;"):i], rest[i+1:]
			case strings.HasPrefix(rest, "\x1b[m"):
				rest = rest[len("\x1b[m"):]
			case strings.HasPrefix(rest, "▀"):
				x := cells
				cells++
				rest = rest[len("▀"):]
				if want := cellColour(p, x, 2*y); fg != want {
					t.Errorf("cell (%d, %d): fg %s, want %s", x, y, fg, want)
				}
				if 2*y+1 < 5 {
					if want := cellColour(p, x, 2*y+1); bg != want {
						t.Errorf("cell (%d, %d): bg %s, want %s", x, y, bg, want)
					}
				}
			default:
				t.Fatalf("line %d: unexpected %q", y, rest)
			}
		}
		if cells != 6 {
			t.Errorf("line %d has %d cells", y, cells)
		}
	}
}

func cellColour(p *ImageTarget, x, y int) string {
	if !p.Written[y*6+x] {
		if (x/4+y/4)%2 == 0 {
			return "80;80;80"
		}
		return "48;48;48"
	}
	c := p.Image.NRGBAAt(x, y)
	return fmt.Sprintf("%d;%d;%d", c.R, c.G, c.B)
}

// TestHalfBlocksDegrade: on a 256-colour terminal colorprofile (as the
// bubbletea renderer does) turns the 24-bit colours into palette ones.
func TestHalfBlocksDegrade(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	w := &colorprofile.Writer{Forward: &buf, Profile: colorprofile.ANSI256}
	fmt.Fprint(w, strings.Join(halfBlocks(testPicture()), "\n"))
	out := buf.String()
	if strings.Contains(out, "38;2;") || !strings.Contains(out, "38;5;") || !strings.Contains(out, "48;5;") || strings.Count(out, "▀") != 18 {
		t.Errorf("not lowered to 256 colours: %q", out)
	}
}
