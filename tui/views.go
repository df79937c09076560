package tui

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

func ansiTruncate(s string, w int) string { return ansi.Truncate(s, w, "…") }

// pad makes s exactly w cells wide.
func pad(s string, w int) string {
	n := lipgloss.Width(s)
	if n > w {
		return ansiTruncate(s, w)
	}
	return s + strings.Repeat(" ", w-n)
}

// block pads lines to a w×h rectangle.
func block(lines []string, w, h int) string {
	out := make([]string, h)
	for i := 0; i < h; i++ {
		if i < len(lines) {
			out[i] = pad(lines[i], w)
		} else {
			out[i] = strings.Repeat(" ", w)
		}
	}
	return strings.Join(out, "\n")
}

func fmtDur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d > 0:
		return fmt.Sprintf("%dµs", d.Microseconds())
	}
	return ""
}

// cfgLayers assigns each reachable block the length of the longest
// forward-edge path from the entry.
func cfgLayers(a *Analysis) [][]int {
	n := len(a.Blocks)
	if n == 0 {
		return nil
	}
	indeg := make([]int, n)
	for b := 0; b < n; b++ {
		for _, s := range a.Succs[b] {
			if !a.BackEdges[[2]int{b, s}] {
				indeg[s]++
			}
		}
	}
	layer := make([]int, n)
	queue := []int{}
	for b := 0; b < n; b++ {
		if indeg[b] == 0 {
			queue = append(queue, b)
		}
	}
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		for _, s := range a.Succs[b] {
			if a.BackEdges[[2]int{b, s}] {
				continue
			}
			if layer[b]+1 > layer[s] {
				layer[s] = layer[b] + 1
			}
			indeg[s]--
			if indeg[s] == 0 {
				queue = append(queue, s)
			}
		}
	}
	byLayer := map[int][]int{}
	maxL := 0
	for b := 0; b < n; b++ {
		byLayer[layer[b]] = append(byLayer[layer[b]], b)
		maxL = max(maxL, layer[b])
	}
	var out [][]int
	for l := 0; l <= maxL; l++ {
		if bs := byLayer[l]; len(bs) > 0 {
			sort.Ints(bs)
			out = append(out, bs)
		}
	}
	return out
}

// helpView draws the help overlay from the KeyMap, in as many columns as
// fit, filled in order.
func (m *Model) helpView() string {
	groups := m.keys.Groups(m.focus())
	ncol := max(2, min(3, m.w/34))
	colW := (m.w - 2*(ncol-1)) / ncol
	var all [][]string
	total := 0
	for _, g := range groups {
		lines := []string{m.st.HelpTitle.Render(g.Title)}
		for _, b := range g.Bindings {
			h := b.Help()
			lines = append(lines, pad(m.st.HelpKey.Render(fmt.Sprintf(" %-7s", h.Key))+" "+m.st.HelpDesc.Render(h.Desc), colW))
		}
		all = append(all, lines)
		total += len(lines)
	}
	per := (total + ncol - 1) / ncol
	cols := make([][]string, ncol)
	c := 0
	for _, g := range all {
		if c < ncol-1 && len(cols[c]) > 0 && len(cols[c])+len(g) > per+2 {
			c++
		}
		cols[c] = append(cols[c], g...)
	}
	height := 0
	for _, col := range cols {
		height = max(height, len(col))
	}
	var parts []string
	for i, col := range cols {
		if i > 0 {
			parts = append(parts, "  ")
		}
		parts = append(parts, block(col, colW, height))
	}
	body := strings.Split(lipgloss.JoinHorizontal(lipgloss.Top, parts...), "\n")
	if m.opts.Exports == nil {
		// Over SSH the path would be the server's, and sessions do not read it.
		body = append(body, "", m.st.Dim.Render("Keys can be remapped in "+ConfigPath()))
	} else {
		body = append(body, m.st.Dim.Render("Over SSH, exports are not written on the server: x offers the text to your terminal's clipboard (OSC 52)."))
	}
	room := m.h - 1
	m.helpOff = max(0, min(m.helpOff, len(body)-room))
	more := ""
	if len(body) > room {
		more = fmt.Sprintf("  ↑/↓ scroll (%d–%d of %d)", m.helpOff+1, min(len(body), m.helpOff+room), len(body))
	}
	title := m.st.Title.Render("passlens keys") + m.st.Dim.Render("  in the "+m.focus().String()+" (tab or 1-8 change focus)  ? or esc closes"+more)
	lines := append([]string{title}, body[m.helpOff:]...)
	return block(lines, m.w, m.h)
}
