package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// textKeys handles the keys every text pane shares: moving the cursor,
// scrolling sideways and searching. It reports whether k was one.
func textKeys(s *session, p *codePane, k tea.KeyPressMsg) (bool, tea.Cmd) {
	km := s.keys
	page := max(1, p.h-1)
	switch {
	case key.Matches(k, km.Up):
		p.move(-1)
	case key.Matches(k, km.Down):
		p.move(1)
	case key.Matches(k, km.PageUp):
		p.move(-page)
	case key.Matches(k, km.PageDown):
		p.move(page)
	case key.Matches(k, km.Top):
		p.gotoLine(0)
	case key.Matches(k, km.Bottom):
		p.gotoLine(len(p.lines) - 1)
	case key.Matches(k, km.Left):
		p.xoff = max(0, p.xoff-8)
	case key.Matches(k, km.Right):
		p.xoff += 8
	case key.Matches(k, km.Search):
		return true, s.openPrompt(promptSearch, "/", "")
	case key.Matches(k, km.SearchNext):
		if !p.nextMatch(+1) {
			s.setStatus("no matches", false)
		}
	case key.Matches(k, km.SearchPrev):
		if !p.nextMatch(-1) {
			s.setStatus("no matches", false)
		}
	default:
		return false, nil
	}
	return true, nil
}

// irPane is the IR of the current snapshot: a code pane with a value
// cursor, occurrence highlights that follow a value across passes, go to
// definition, and the uniformity overlay's marks.
type irPane struct {
	codePane
	s *session
}

func (p *irPane) SetSize(w, h int)          { p.setSize(w, h-1) }
func (p *irPane) ShortHelp() []key.Binding  { return shortHelpOf(p.s.keys, FocusIR) }
func (p *irPane) FullHelp() [][]key.Binding { return helpOf(p.s.keys, FocusIR) }

func (p *irPane) Update(msg tea.Msg) (pane, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, nil
	}
	if done, cmd := textKeys(p.s, &p.codePane, k); done {
		return p, cmd
	}
	s, km := p.s, p.s.keys
	switch {
	case key.Matches(k, km.Occurrences):
		v := p.currentValue()
		if p.occ == v {
			p.occ = ""
			s.setStatus("occurrence highlight off", false)
		} else {
			p.occ = v
			s.setStatus(fmt.Sprintf("highlighting %s (%d lines); it is followed across passes", v, p.countOcc(v)), false)
		}
	case key.Matches(k, km.NextValue):
		p.nextValue()
	case key.Matches(k, km.GotoDef):
		v := p.currentValue()
		if v == "" {
			s.setStatus("no value under the cursor", false)
		} else if d := p.definitionLine(v); d >= 0 {
			p.gotoLine(d)
			s.setStatus("definition of "+v, false)
		} else {
			s.setStatus("no definition of "+v+" in view", true)
		}
	}
	return p, nil
}

func (p *irPane) countOcc(v string) int {
	n := 0
	for _, l := range p.lines {
		if strings.Contains(l, v) {
			n++
		}
	}
	return n
}

func (p *irPane) View(w, h int) string {
	s := p.s
	header := ""
	if st := s.curStep(); st != nil {
		header = fmt.Sprintf(" %s — %s", st.Pass, st.Summary)
		if st.Status == StepFailed {
			header = s.st.Failed.Render(" FAILED: " + firstLine(st.Err))
		}
	}
	if mk, ok := p.marks[p.cursor]; ok {
		header += s.st.Dim.Render("  · " + mk.Note)
	}
	return paneFrame(s, header, p.view(s.st, !s.focusList), w, h)
}

// paneFrame draws a header line over a body in w×h cells.
func paneFrame(s *session, header, body string, w, h int) string {
	return pad(s.st.Dim.Render(header), w) + "\n" + block(strings.Split(body, "\n"), w, h-1)
}

// lanesPane shows the last interpreter run: wave operations, buffers and
// per-lane outputs.
type lanesPane struct {
	codePane
	s      *session
	result *LanesResult
	img    imageView // the picture of a pixel shader (pane_image.go)
}

func (p *lanesPane) SetSize(w, h int)          { p.setSize(w, h-1) }
func (p *lanesPane) ShortHelp() []key.Binding  { return shortHelpOf(p.s.keys, FocusLanes) }
func (p *lanesPane) FullHelp() [][]key.Binding { return helpOf(p.s.keys, FocusLanes) }

func (p *lanesPane) Update(msg tea.Msg) (pane, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		if cmd, ok := p.s.imageKeys(k); ok {
			return p, cmd
		}
		_, cmd := textKeys(p.s, &p.codePane, k)
		return p, cmd
	}
	return p, nil
}

func (p *lanesPane) refresh() {
	if p.result == nil {
		p.setLines([]string{"press r to run this snapshot on a simulated wave", "", "W changes the wave size, y the reconvergence policy"}, nil)
		return
	}
	p.setLines(p.result.Lines, nil)
}

func (p *lanesPane) View(w, h int) string {
	s := p.s
	header := fmt.Sprintf(" lanes: wave %d, policy %s  (r run, W wave size, y policy, p picture)", s.waveSize, s.policyName())
	if p.img.on {
		return paneFrame(s, header, strings.Join(s.imageLines(), "\n"), w, h)
	}
	return paneFrame(s, header, p.view(s.st, true), w, h)
}

// targetPane shows the target code of the current compile, generated in a
// command when first shown and again after every compile.
type targetPane struct {
	codePane
	s       *session
	text    string
	lang    string
	lines   []string
	err     string
	forComp *Compiled // the compile the running job is for
}

func (p *targetPane) SetSize(w, h int)          { p.setSize(w, h-1) }
func (p *targetPane) ShortHelp() []key.Binding  { return shortHelpOf(p.s.keys, FocusTarget) }
func (p *targetPane) FullHelp() [][]key.Binding { return helpOf(p.s.keys, FocusTarget) }

func (p *targetPane) Update(msg tea.Msg) (pane, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		_, cmd := textKeys(p.s, &p.codePane, msg)
		return p, cmd
	case targetMsg:
		if msg.comp != p.s.comp {
			return p, nil // a compile since made it stale
		}
		p.text, p.lang, p.lines, p.err = msg.text, msg.lang, msg.lines, ""
		if msg.err != nil {
			p.err = msg.err.Error()
		}
		p.refresh()
	}
	return p, nil
}

// reset forgets the code of the previous compile.
func (p *targetPane) reset() { p.text, p.err, p.lines = "", "", nil }

func (p *targetPane) refresh() {
	switch {
	case p.err != "":
		p.setLines(strings.Split("error: "+p.err, "\n"), nil)
	case p.text == "":
		p.setLines([]string{p.s.spin.View() + " generating target code…"}, nil)
	default:
		if len(p.codePane.lines) == 0 || len(p.lines) == 0 || &p.codePane.lines[0] != &p.lines[0] {
			p.setLines(p.lines, lexerFor(p.lang))
		}
	}
}

func (p *targetPane) View(w, h int) string {
	return paneFrame(p.s, " target code ("+p.s.target+")  x export", p.view(p.s.st, true), w, h)
}

// explainPane shows why a value or a branch is divergent: the whole
// reason chain back to its source, scrollable and copyable.
type explainPane struct {
	codePane
	s       *session
	text    []string
	forKey  string
	pending string // the key waiting for its analysis
}

// SetSize sizes the pane and re-wraps the explanation to its width.
func (p *explainPane) SetSize(w, h int) {
	p.setSize(w, h-1)
	p.rewrap()
}

// setText shows an explanation, wrapped to the pane.
func (p *explainPane) setText(lines []string) {
	p.text = lines
	p.rewrap()
	p.gotoLine(0)
}

// rewrap wraps the explanation's lines to the text width (continuations
// indented), so the whole chain reads without scrolling sideways.
func (p *explainPane) rewrap() {
	if len(p.text) == 0 {
		return
	}
	width := p.w - 7 // line numbers and gutter
	if width < 20 {
		width = 20
	}
	var out []string
	for _, l := range p.text {
		indent := strings.Repeat(" ", len(l)-len(strings.TrimLeft(l, " "))+4)
		for len([]rune(l)) > width {
			r := []rune(l)
			cut := width
			for cut > width/2 && r[cut] != ' ' {
				cut--
			}
			if r[cut] != ' ' {
				cut = width
			}
			out = append(out, string(r[:cut]))
			l = indent + strings.TrimLeft(string(r[cut:]), " ")
		}
		out = append(out, l)
	}
	p.setLines(out, nil)
}
func (p *explainPane) ShortHelp() []key.Binding  { return shortHelpOf(p.s.keys, FocusExplain) }
func (p *explainPane) FullHelp() [][]key.Binding { return helpOf(p.s.keys, FocusExplain) }

func (p *explainPane) Update(msg tea.Msg) (pane, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, nil
	}
	if done, cmd := textKeys(p.s, &p.codePane, k); done {
		return p, cmd
	}
	if key.Matches(k, p.s.keys.CopyText) {
		if len(p.text) == 0 {
			p.s.setStatus("nothing to copy (e explains the value under the IR cursor)", false)
			return p, nil
		}
		p.s.setStatus(fmt.Sprintf("copied the explanation (%d lines) to the clipboard (OSC 52)", len(p.text)), false)
		return p, tea.SetClipboard(strings.Join(p.text, "\n") + "\n")
	}
	return p, nil
}

func (p *explainPane) View(w, h int) string {
	if len(p.text) == 0 && len(p.lines) == 0 {
		p.setLines([]string{"e on a line of the IR pane explains why its value (or its branch) is divergent."}, nil)
	}
	return paneFrame(p.s, " explanation  (e on an IR line explains it; Y copies)", p.view(p.s.st, true), w, h)
}
