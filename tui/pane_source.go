package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2/lexers"

	"passlens/themes"
)

// sourcePane shows the source (HLSL, LLVM IR or passlens IR) beside the
// IR with the lines mapped both ways through the input module's !loc
// positions: a value keeps its name, and so its source line, through the
// passes. The IR side has the cursor by default and the source follows;
// o moves the cursor to the source side, and the IR follows.
type sourcePane struct {
	codePane
	s          *session
	loaded     bool
	valueLines map[string]int // "FUNC/%x" → source line (1-based)
	sourceSide bool
	note       string
}

func (p *sourcePane) ShortHelp() []key.Binding  { return shortHelpOf(p.s.keys, FocusSource) }
func (p *sourcePane) FullHelp() [][]key.Binding { return helpOf(p.s.keys, FocusSource) }

func (p *sourcePane) SetSize(w, h int) {
	p.setSize(w-(w-1)/2-1, h-1)
}

// load reads the source once (drivers that implement SourceMapper).
func (p *sourcePane) load() {
	if p.loaded {
		return
	}
	p.loaded = true
	sm, ok := p.s.drv.(SourceMapper)
	if !ok {
		p.note = "this session has no source to show"
		p.codePane.setLines([]string{p.note}, nil)
		return
	}
	text, lang := sm.SourceText()
	p.valueLines = sm.ValueLines()
	lexer := themes.PIR
	switch lang {
	case "hlsl":
		lexer = lexers.Get("hlsl")
	case "ll":
		lexer = lexers.Get("llvm")
	}
	p.codePane.setLines(SplitLines(text), lexer)
	if len(p.valueLines) == 0 {
		p.note = "the module has no source positions (!loc)"
	}
}

// reload forgets the source (after R reloaded the input).
func (p *sourcePane) reload() { p.loaded = false }

// funcAt is the function holding IR pane line i.
func (p *sourcePane) funcAt(i int) string {
	s := p.s
	if s.fn != "" {
		return s.fn
	}
	if st := s.curStep(); st != nil {
		for _, f := range st.Funcs {
			if i >= f.Start && i < f.End {
				return f.Name
			}
		}
	}
	return ""
}

// definedAt is the value IR line i defines ("" for none).
func definedAt(line string) string {
	t := strings.TrimSpace(line)
	if strings.HasPrefix(t, "%") {
		if eq := strings.Index(t, " = "); eq > 0 {
			return t[:eq]
		}
	}
	return ""
}

// srcLineOf maps IR line i to a source line (1-based; 0 for none): the
// line of the value it defines, else of the nearest value defined above
// it in the same block.
func (p *sourcePane) srcLineOf(i int) int {
	ir := &p.s.ir.codePane
	fn := p.funcAt(i)
	for j := i; j >= 0 && j < len(ir.lines); j-- {
		l := ir.lines[j]
		if v := definedAt(l); v != "" {
			if n, ok := p.valueLines[fn+"/"+v]; ok {
				return n
			}
		}
		if j < i && (strings.HasSuffix(l, ":") && !strings.HasPrefix(l, " ") || strings.HasPrefix(l, "define ")) {
			break
		}
	}
	return 0
}

// irLineOf maps source line n to the first IR line whose value comes from
// it (-1 for none).
func (p *sourcePane) irLineOf(n int) int {
	ir := &p.s.ir.codePane
	for i, l := range ir.lines {
		if v := definedAt(l); v != "" && p.valueLines[p.funcAt(i)+"/"+v] == n {
			return i
		}
	}
	return -1
}

// sync moves the passive side to the active side's line and marks the
// source lines the current IR has code for.
func (p *sourcePane) sync() {
	ir := &p.s.ir.codePane
	p.marks = map[int]Mark{}
	for i, l := range ir.lines {
		if v := definedAt(l); v != "" {
			if n, ok := p.valueLines[p.funcAt(i)+"/"+v]; ok && n-1 < len(p.codePane.lines) {
				p.marks[n-1] = Mark{Symbol: "·", Style: p.s.st.Dim}
			}
		}
	}
	if p.sourceSide {
		if i := p.irLineOf(p.cursor + 1); i >= 0 {
			ir.gotoLine(i)
		}
	} else if n := p.srcLineOf(ir.cursor); n > 0 {
		p.gotoLine(n - 1)
	}
	cur := p.cursor
	if n := p.srcLineOf(ir.cursor); n > 0 {
		cur = n - 1
	}
	p.marks[cur] = Mark{Symbol: "▶", Style: p.s.st.Accent, Note: fmt.Sprintf("source line %d", cur+1)}
}

func (p *sourcePane) Update(msg tea.Msg) (pane, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, nil
	}
	p.load()
	if key.Matches(k, p.s.keys.SourceSide) {
		p.sourceSide = !p.sourceSide
		if p.sourceSide {
			p.s.setStatus("the cursor is on the source; the IR follows (o returns to the IR)", false)
		} else {
			p.s.setStatus("the cursor is on the IR; the source follows", false)
		}
		p.sync()
		return p, nil
	}
	target := &p.s.ir.codePane
	if p.sourceSide {
		target = &p.codePane
	}
	done, cmd := textKeys(p.s, target, k)
	if done {
		p.sync()
	}
	return p, cmd
}

func (p *sourcePane) View(w, h int) string {
	s := p.s
	p.load()
	p.sync()
	left := (w - 1) / 2
	ir := s.ir.codePane
	ir.w, ir.h = left, h-1
	ir.clamp()
	irView := ir.view(s.st, !p.sourceSide)
	srcView := p.view(s.st, p.sourceSide)
	sep := s.st.Border.Render(strings.TrimSuffix(strings.Repeat("│\n", h-1), "\n"))
	header := " IR ↔ source (· has IR here, ▶ the cursor's line; o switches sides)"
	if p.note != "" {
		header += "  " + p.note
	}
	body := lipgloss.JoinHorizontal(lipgloss.Top, block(strings.Split(irView, "\n"), left, h-1), sep,
		block(strings.Split(srcView, "\n"), w-left-1, h-1))
	return paneFrame(s, header, body, w, h)
}
