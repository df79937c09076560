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
	loaded     bool           // loaded or loading
	valueLines map[string]int // "FUNC/%x" → source line (1-based)
	sourceSide bool
	note       string

	// The mapping for the IR lines shown (mapFor): each IR line's own
	// source line (0: none), the first IR line of each source line, and
	// the source lines that have IR. Built once per step.
	mapFor  []string
	irToSrc []int
	srcToIR map[int]int
	hasIR   map[int]bool
}

// sourceMsg carries the source, read and indexed off the UI goroutine.
type sourceMsg struct {
	lines      []string
	lang       string
	valueLines map[string]int
	note       string
}

func (p *sourcePane) ShortHelp() []key.Binding  { return shortHelpOf(p.s.keys, FocusSource) }
func (p *sourcePane) FullHelp() [][]key.Binding { return helpOf(p.s.keys, FocusSource) }

func (p *sourcePane) SetSize(w, h int) {
	p.setSize(w-(w-1)/2-1, h-1)
}

// load starts reading the source in a command (once; drivers that
// implement SourceMapper).
func (p *sourcePane) load() tea.Cmd {
	if p.loaded {
		return nil
	}
	p.loaded = true
	sm, ok := p.s.drv.(SourceMapper)
	if !ok {
		p.note = "this session has no source to show"
		p.codePane.setLines([]string{p.note}, nil)
		return nil
	}
	p.codePane.setLines([]string{p.s.spin.View() + " reading the source…"}, nil)
	return func() tea.Msg {
		text, lang := sm.SourceText()
		vl := sm.ValueLines()
		note := ""
		if len(vl) == 0 {
			note = "the module has no source positions (!loc)"
		}
		return sourceMsg{SplitLines(text), lang, vl, note}
	}
}

// loaded shows the source read by load.
func (p *sourcePane) setSource(msg sourceMsg) {
	lexer := themes.PIR
	switch msg.lang {
	case "hlsl":
		lexer = lexers.Get("hlsl")
	case "ll":
		lexer = lexers.Get("llvm")
	case "spvasm":
		lexer = themes.SPIRVAsm
	}
	p.valueLines, p.note, p.mapFor = msg.valueLines, msg.note, nil
	p.codePane.setLines(msg.lines, lexer)
}

// mapping builds the IR↔source maps for the IR lines shown, once per step.
func (p *sourcePane) mapping() {
	ir := p.s.ir.codePane.lines
	if p.valueLines == nil || (len(ir) > 0 && len(p.mapFor) == len(ir) && &p.mapFor[0] == &ir[0]) {
		return
	}
	p.mapFor = ir
	p.irToSrc = make([]int, len(ir))
	p.srcToIR = map[int]int{}
	p.hasIR = map[int]bool{}
	for i, l := range ir {
		if v := definedAt(l); v != "" {
			if n, ok := p.valueLines[p.funcAt(i)+"/"+v]; ok {
				p.irToSrc[i] = n
				p.hasIR[n] = true
				if _, seen := p.srcToIR[n]; !seen {
					p.srcToIR[n] = i
				}
			}
		}
	}
}

// reload forgets the source (after R reloaded the input).
func (p *sourcePane) reload() { p.loaded, p.valueLines, p.mapFor = false, nil, nil }

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
	p.mapping()
	ir := &p.s.ir.codePane
	for j := i; j >= 0 && j < len(p.irToSrc); j-- {
		if n := p.irToSrc[j]; n > 0 {
			return n
		}
		if l := ir.lines[j]; j < i && (strings.HasSuffix(l, ":") && !strings.HasPrefix(l, " ") || strings.HasPrefix(l, "define ")) {
			break
		}
	}
	return 0
}

// irLineOf maps source line n to the first IR line whose value comes from
// it (-1 for none).
func (p *sourcePane) irLineOf(n int) int {
	p.mapping()
	if i, ok := p.srcToIR[n]; ok {
		return i
	}
	return -1
}

// sync moves the passive side to the active side's line and marks the
// source lines the current IR has code for.
func (p *sourcePane) sync() {
	ir := &p.s.ir.codePane
	p.mapping()
	p.marks = map[int]Mark{}
	// Only the visible source lines need marks.
	for n := p.off + 1; n <= p.off+p.h+1; n++ {
		if p.hasIR[n] {
			p.marks[n-1] = Mark{Symbol: "·", Style: p.s.st.Dim}
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
	if m, ok := msg.(sourceMsg); ok {
		p.setSource(m)
		return p, nil
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || p.valueLines == nil {
		return p, nil
	}
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
	if p.valueLines != nil {
		p.sync()
	}
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
