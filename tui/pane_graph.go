package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"passlens/themes"
)

// graphPane shows the trees (dominator, post-dominator, cycle) or the CFG
// of the current function, drawn off the UI goroutine with the analysis.
// Moving the cursor shows the selected block beside it on wide terminals
// (peek) without moving the IR pane; enter shows it in the IR pane.
type graphPane struct {
	codePane
	s    *session
	kind treeKind
	peek codePane
}

func (p *graphPane) focus() Focus {
	if p.s.view == ViewCFG {
		return FocusCFG
	}
	return FocusTrees
}

func (p *graphPane) ShortHelp() []key.Binding  { return shortHelpOf(p.s.keys, p.focus()) }
func (p *graphPane) FullHelp() [][]key.Binding { return helpOf(p.s.keys, p.focus()) }

// SetSize splits the area with the peek pane on wide terminals.
func (p *graphPane) SetSize(w, h int) {
	if p.split(w) {
		left := (w - 1) / 2
		p.setSize(left, h-1)
		p.peek.setSize(w-left-1, h-1)
		return
	}
	p.setSize(w, h-1)
}

// split reports whether the pane shows the selected block beside it: the
// trees on wide terminals (the CFG shows the instructions itself).
func (p *graphPane) split(w int) bool { return w >= 120 && p.s.view == ViewTrees }

func (p *graphPane) Update(msg tea.Msg) (pane, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, nil
	}
	s, km := p.s, p.s.keys
	if done, cmd := textKeys(s, &p.codePane, k); done {
		p.follow(true)
		return p, cmd
	}
	switch {
	case p.focus() == FocusTrees && key.Matches(k, km.TreeKind):
		p.kind = (p.kind + 1) % numTreeKinds
		p.refresh()
	case key.Matches(k, km.ShowBlock):
		return p, p.showBlock()
	}
	return p, nil
}

// refresh shows the selected tree or the CFG of the current analysis
// (already drawn off the UI goroutine).
func (p *graphPane) refresh() {
	e := p.s.currentEntry()
	switch {
	case (e == nil || !e.cfgDrawn) && p.s.view == ViewCFG:
		p.setLines([]string{p.s.spin.View() + " computing CFG…"}, nil)
	case e == nil:
		p.setLines([]string{p.s.spin.View() + " computing analyses…"}, nil)
	case p.s.view == ViewCFG:
		p.setLines(e.cfg.lines, themes.PIR)
		if p.s.overlay {
			p.marks = map[int]Mark{}
			for row, kind := range e.cfgDiv {
				p.marks[row] = p.s.divMark(kind, "")
			}
		}
	default:
		p.setLines(e.trees[p.kind].lines, nil)
	}
	p.follow(false)
}

// selectedBlock is the block of the row under the cursor.
func (p *graphPane) selectedBlock() string {
	e := p.s.currentEntry()
	if e == nil {
		return ""
	}
	t := e.trees[p.kind]
	if p.s.view == ViewCFG {
		t = e.cfg
	}
	if c := p.cursor; c >= 0 && c < len(t.blocks) {
		return t.blocks[c]
	}
	return ""
}

// follow shows the selected block in the peek pane; say also names it in
// the status bar.
func (p *graphPane) follow(say bool) {
	blk := p.selectedBlock()
	e := p.s.currentEntry()
	if blk == "" || e == nil {
		return
	}
	ir := &p.s.ir.codePane
	p.peek.setLines(ir.lines, ir.lexer)
	p.peek.marks = ir.marks
	if d := p.s.labelLine(e, blk); d >= 0 {
		p.peek.gotoLine(d)
		p.peek.off = d // the block label on the first row
		p.peek.clamp()
		if say {
			p.s.setStatus(fmt.Sprintf("block %%%s is at IR line %d (enter shows it in the IR pane)", blk, d+1), false)
		}
	}
}

// showBlock switches to the IR pane at the selected block.
func (p *graphPane) showBlock() tea.Cmd {
	s := p.s
	blk := p.selectedBlock()
	if blk == "" {
		s.setStatus("this row names no block", false)
		return nil
	}
	d := -1
	if e := s.currentEntry(); e != nil {
		d = s.labelLine(e, blk)
	}
	if d < 0 {
		s.setStatus("block %"+blk+" is not in the IR pane (f filters functions)", true)
		return nil
	}
	cmd := s.setView(ViewIR)
	s.ir.gotoLine(d)
	s.setStatus(fmt.Sprintf("block %%%s (IR line %d)", blk, d+1), false)
	return cmd
}

func (p *graphPane) View(w, h int) string {
	s := p.s
	header := " " + treeTitles[p.kind] + "  (t: next tree; enter shows the block)"
	if s.view == ViewCFG {
		header = " CFG  T/F, case: edge labels  " + themes.Marks.BackEdge + " back edge"
		if e := s.currentEntry(); e != nil && e.diffBase != "" {
			header += "  + new since " + e.diffBase
		}
		if s.overlay {
			header += "  " + themes.Marks.Divergent + " divergent"
		}
		header += "  (enter: block in the IR; D: DOT)"
	}
	body := p.view(s.st, true)
	if p.split(w) {
		sep := s.st.Border.Render(strings.TrimSuffix(strings.Repeat("│\n", p.h), "\n"))
		right := p.peek.view(s.st, false)
		if len(p.peek.lines) == 0 {
			right = s.st.Dim.Render(" move the cursor to a block to see it here")
		}
		body = lipgloss.JoinHorizontal(lipgloss.Top, block(strings.Split(body, "\n"), p.w, p.h), sep,
			block(strings.Split(right, "\n"), p.peek.w, p.h))
	}
	return paneFrame(s, header, body, w, h)
}
