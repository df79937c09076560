package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"passlens/themes"
)

// passList is the pass list: the compile's steps with their status and
// time (runs of unchanged passes collapsed), and with focus the editable
// what-if pipeline.
type passList struct {
	s        *session
	sel      int // selected pipeline slot (what-if editing)
	expanded map[int]bool
	w, h     int
}

func newPassList(s *session) *passList { return &passList{s: s, expanded: map[int]bool{}} }

func (p *passList) SetSize(w, h int)          { p.w, p.h = w, h }
func (p *passList) ShortHelp() []key.Binding  { return shortHelpOf(p.s.keys, FocusList) }
func (p *passList) FullHelp() [][]key.Binding { return helpOf(p.s.keys, FocusList) }

// Update handles the pass list's keys (it has focus).
func (p *passList) Update(msg tea.Msg) (pane, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, nil
	}
	s, km := p.s, p.s.keys
	n := len(s.pipeline)
	page := max(1, p.h-2)
	switch {
	case key.Matches(k, km.Up):
		p.sel = max(0, p.sel-1)
	case key.Matches(k, km.Down):
		p.sel = max(0, min(n-1, p.sel+1))
	case key.Matches(k, km.PageUp):
		p.sel = max(0, p.sel-page)
	case key.Matches(k, km.PageDown):
		p.sel = max(0, min(n-1, p.sel+page))
	case key.Matches(k, km.Top):
		p.sel = 0
	case key.Matches(k, km.Bottom):
		p.sel = max(0, n-1)
	case key.Matches(k, km.SelectPass):
		if p.sel >= 0 && p.sel < n && !s.pipeline[p.sel].Enabled {
			s.setStatus(s.pipeline[p.sel].Name+" is turned off (space turns it on)", false)
			return p, nil
		}
		return p, s.gotoStep(s.stepOfSlot(p.sel))
	case key.Matches(k, km.TogglePass):
		if p.sel >= 0 && p.sel < n {
			s.pipeline[p.sel].Enabled = !s.pipeline[p.sel].Enabled
			s.rec.Passes(specOf(s.pipeline))
			return p, s.compile()
		}
	case key.Matches(k, km.MoveUp), key.Matches(k, km.MoveDown):
		d := 1
		if key.Matches(k, km.MoveUp) {
			d = -1
		}
		j := p.sel + d
		if j < 0 || j >= n {
			return p, nil
		}
		s.pipeline[p.sel], s.pipeline[j] = s.pipeline[j], s.pipeline[p.sel]
		p.sel = j
		s.rec.Passes(specOf(s.pipeline))
		return p, s.compile()
	}
	return p, nil
}

// listRow is one row of the pass list: a step, or a collapsed run of
// unchanged steps (as Go's ssa.html merges identical phases).
type listRow struct {
	first, last int
}

func (p *passList) rows() []listRow {
	var rows []listRow
	s := p.s
	if s.comp == nil {
		return rows
	}
	st := s.comp.Steps
	for i := 0; i < len(st); {
		j := i
		if s.statusFor(i) == StepUnchanged {
			for j+1 < len(st) && s.statusFor(j+1) == StepUnchanged {
				j++
			}
		}
		collapsed := j > i && !(s.step >= i && s.step <= j && p.expanded[s.step])
		if j > i && !collapsed {
			for k := i; k <= j; k++ {
				rows = append(rows, listRow{k, k})
			}
		} else {
			rows = append(rows, listRow{i, j})
		}
		i = j + 1
	}
	return rows
}

// View draws the pipeline with each pass's status and time. With focus it
// shows the editable what-if pipeline (disabled passes too).
func (p *passList) View(w, h int) string {
	s, st := p.s, p.s.st
	var lines []string
	head := " Passes"
	if s.focusList {
		head = " Pipeline (space off/on, J/K move)"
	}
	lines = append(lines, st.Title.Render(pad(head, w)))
	if s.comp == nil {
		lines = append(lines, " "+s.spin.View()+" compiling…")
		return block(lines, w, h)
	}
	if s.focusList {
		start := max(0, p.sel-(h-2))
		for i := start; i < len(s.pipeline) && len(lines) < h; i++ {
			slot := s.pipeline[i]
			mark := themes.Marks.Changed
			style := st.Bold
			if !slot.Enabled {
				mark, style = "⊘", st.Dim
			}
			line := fmt.Sprintf(" %s %s", mark, slot.Name)
			if i == p.sel {
				line = st.Selected.Render(pad(line, w))
			} else {
				line = style.Render(line)
			}
			lines = append(lines, line)
		}
		return block(lines, w, h)
	}
	rows := p.rows()
	// Keep the current step visible.
	cur := 0
	for i, r := range rows {
		if s.step >= r.first && s.step <= r.last {
			cur = i
		}
	}
	avail := h - 1
	start := 0
	if cur >= avail {
		start = cur - avail + 1
	}
	for i := start; i < len(rows) && len(lines) < h; i++ {
		r := rows[i]
		step := s.comp.Steps[r.first]
		var mark string
		var style lipgloss.Style
		switch s.statusFor(r.first) {
		case StepInput:
			mark, style = themes.Marks.Input, st.Accent
		case StepChanged:
			mark, style = themes.Marks.Changed, st.Changed
		case StepUnchanged:
			mark, style = themes.Marks.Unchanged, st.Unchanged
		case StepFailed:
			mark, style = themes.Marks.Failed, st.Failed
		}
		name := step.Pass
		if r.last > r.first {
			name = fmt.Sprintf("%s (+%d more)", step.Pass, r.last-r.first)
		}
		// A fixed-width time column, so names never shift with the timing.
		dur := fmtDur(step.Duration)
		dur = strings.Repeat(" ", max(0, 5-lipgloss.Width(dur))) + dur
		left := fmt.Sprintf(" %s %s", mark, name)
		line := pad(left, w-lipgloss.Width(dur)-2) + " " + dur + " "
		if i == cur {
			lines = append(lines, st.Selected.Render(pad(ansi.Strip(line), w)))
		} else {
			lines = append(lines, style.Render(line))
		}
	}
	return block(lines, w, h)
}
