package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"passlens/internal/textdiff"
	"passlens/themes"
)

// diffPane shows the diff from a base snapshot (the previous one, the
// input, or a pinned step) to the current one, unified or side by side.
// Diffs are computed in a command and kept for the last few pairs.
type diffPane struct {
	s     *session
	diffs *lru[[2]int, *textdiff.Diff]
	base  int // -1: previous snapshot; otherwise a fixed step
	side  bool
	off   int
	w, h  int
}

func newDiffPane(s *session) *diffPane {
	return &diffPane{s: s, diffs: newLRU[[2]int, *textdiff.Diff](keepDiffs), base: -1}
}

func (p *diffPane) SetSize(w, h int)          { p.w, p.h = w, h }
func (p *diffPane) ShortHelp() []key.Binding  { return shortHelpOf(p.s.keys, FocusDiff) }
func (p *diffPane) FullHelp() [][]key.Binding { return helpOf(p.s.keys, FocusDiff) }

func (p *diffPane) Update(msg tea.Msg) (pane, tea.Cmd) {
	switch msg := msg.(type) {
	case diffMsg:
		p.diffs.put(msg.key, msg.d)
	case tea.KeyPressMsg:
		s, km := p.s, p.s.keys
		page := max(1, p.h-2)
		switch {
		case key.Matches(msg, km.Up):
			p.scroll(-1)
		case key.Matches(msg, km.Down):
			p.scroll(1)
		case key.Matches(msg, km.PageUp):
			p.scroll(-page)
		case key.Matches(msg, km.PageDown):
			p.scroll(page)
		case key.Matches(msg, km.Top):
			p.off = 0
		case key.Matches(msg, km.Bottom):
			p.scroll(1 << 30)
		case key.Matches(msg, km.Left), key.Matches(msg, km.Right):
			// The diff wraps nothing sideways; lines are clipped.
		case key.Matches(msg, km.DiffMode):
			p.side = !p.side
		case key.Matches(msg, km.NextChange):
			p.nextChange()
		case key.Matches(msg, km.DiffBase):
			if p.base < 0 {
				p.base = 0
				s.setStatus("diff against the input snapshot", false)
			} else {
				p.base = -1
				s.setStatus("diff against the previous snapshot", false)
			}
			return p, s.showStep()
		case key.Matches(msg, km.PinBase):
			p.base = s.step
			s.setStatus(fmt.Sprintf("diffing against step %d (%s); b returns to the previous snapshot", s.step, s.stepName()), false)
			return p, s.showStep()
		}
	}
	return p, nil
}

func (p *diffPane) key() [2]int {
	s := p.s
	base := s.step - 1
	if p.base >= 0 && p.base != s.step {
		base = p.base
	}
	if base < 0 {
		base = 0
	}
	return [2]int{base, s.step}
}

func (p *diffPane) current() *textdiff.Diff {
	d, _ := p.diffs.get(p.key())
	return d
}

// ensure starts computing the current pair's diff unless it is cached.
func (p *diffPane) ensure() tea.Cmd {
	s := p.s
	if s.comp == nil {
		return nil
	}
	k := p.key()
	p.off = 0
	if _, ok := p.diffs.get(k); ok {
		return nil
	}
	s.loadStep(k[0])
	s.loadStep(k[1])
	a, b := s.comp.Steps[k[0]], s.comp.Steps[k[1]]
	s.startJob("diff")
	return func() tea.Msg { return diffMsg{k, textdiff.ComputeLines(a.lines(), b.lines())} }
}

func (p *diffPane) scroll(d int) {
	if dd := p.current(); dd != nil {
		p.off = max(0, min(len(dd.Rows)-1, p.off+d))
	}
}

func (p *diffPane) nextChange() {
	d := p.current()
	if d == nil {
		return
	}
	for _, h := range d.Hunks {
		if h > p.off {
			p.off = h
			return
		}
	}
	if len(d.Hunks) > 0 {
		p.off = d.Hunks[0]
		p.s.setStatus("wrapped to the first change", false)
	}
}

// View renders the cached diff (unified or side by side); intra-line
// changes are computed only for the rows on screen.
func (p *diffPane) View(w, h int) string {
	s := p.s
	if s.comp == nil {
		return block(nil, w, h)
	}
	st := s.st
	k := p.key()
	d := p.current()
	header := fmt.Sprintf(" diff %s → %s", s.comp.Steps[k[0]].Pass, s.comp.Steps[k[1]].Pass)
	if d == nil {
		return paneFrame(s, header, " "+s.spin.View()+" computing diff…", w, h)
	}
	header += st.Dim.Render(fmt.Sprintf("  +%d −%d  (s side-by-side, c next change, b base)", d.Added, d.Removed))
	if len(d.Rows) == 0 {
		return paneFrame(s, header, st.Dim.Render(" no change"), w, h)
	}
	var lines []string
	for i := p.off; i < len(d.Rows) && len(lines) < h-1; i++ {
		r := d.Rows[i]
		if !p.side {
			lines = append(lines, p.line(d, i, w))
			continue
		}
		// Side by side: deletions on the left paired with additions on the right.
		half := (w - 1) / 2
		switch r.Kind {
		case textdiff.Hunk:
			lines = append(lines, st.Accent.Render(pad(r.Text, w)))
		case textdiff.Same:
			lines = append(lines, pad(p.text(d, i, half), half)+st.Border.Render("│")+pad(p.text(d, i, half), half))
		case textdiff.Del:
			right := ""
			if r.Pair >= 0 {
				right = p.text(d, r.Pair, half)
			}
			lines = append(lines, pad(p.text(d, i, half), half)+st.Border.Render("│")+pad(right, half))
		case textdiff.Add:
			if r.Pair < 0 {
				lines = append(lines, strings.Repeat(" ", half)+st.Border.Render("│")+pad(p.text(d, i, half), half))
			}
		}
	}
	return paneFrame(s, header, strings.Join(lines, "\n"), w, h)
}

func (p *diffPane) line(d *textdiff.Diff, i, w int) string {
	st := p.s.st
	r := d.Rows[i]
	switch r.Kind {
	case textdiff.Hunk:
		return st.Accent.Render(r.Text)
	case textdiff.Same:
		return " " + p.text(d, i, w-1)
	case textdiff.Add:
		return st.DiffAdd.Render("+") + p.text(d, i, w-1)
	case textdiff.Del:
		return st.DiffDel.Render("-") + p.text(d, i, w-1)
	}
	return ""
}

// text renders a row's text with the intra-line changes emphasized.
func (p *diffPane) text(d *textdiff.Diff, i, w int) string {
	st := p.s.st
	r := d.Rows[i]
	base, em := st.Dim, st.Dim
	switch r.Kind {
	case textdiff.Add:
		base, em = st.DiffAdd, st.DiffAddEm
	case textdiff.Del:
		base, em = st.DiffDel, st.DiffDelEm
	case textdiff.Same:
		lexer := themes.PIR
		if s := p.s.curStep(); s != nil {
			lexer = lexerFor(s.Lang)
		}
		return ansiTruncate(st.highlight(lexer, r.Text), w)
	}
	var sb strings.Builder
	pos := 0
	for _, c := range d.Changed(i) {
		if c.Start > pos {
			sb.WriteString(base.Render(r.Text[pos:c.Start]))
		}
		sb.WriteString(em.Render(r.Text[c.Start:c.End]))
		pos = c.End
	}
	if pos < len(r.Text) {
		sb.WriteString(base.Render(r.Text[pos:]))
	}
	return ansiTruncate(sb.String(), w)
}
