package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// promptPane is the one-line prompt in the status bar: a search, a pass
// or function name, a file to export to or a script to play, and the
// overwrite question. While open it receives every key; enter submits
// (the root takes the answer at once, so keys typed after enter act on
// its result), esc closes it.
type promptPane struct {
	s     *session
	input textinput.Model
	kind  promptKind
	// The export waiting for an overwrite answer (promptConfirm).
	pendingPath, pendingText string
	submitted                *promptAnswer
}

// promptAnswer is a submitted prompt.
type promptAnswer struct {
	kind  promptKind
	value string
}

// answer returns and clears the submitted answer (nil for none).
func (p *promptPane) answer() *promptAnswer {
	a := p.submitted
	p.submitted = nil
	return a
}

func newPromptPane(s *session) *promptPane { return &promptPane{s: s, input: textinput.New()} }

func (p *promptPane) open() bool { return p.kind != promptNone }

func (p *promptPane) SetSize(w, h int) { p.input.SetWidth(max(10, w-len(p.input.Prompt)-2)) }

func (p *promptPane) ShortHelp() []key.Binding {
	return []key.Binding{key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "submit")),
		key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close"))}
}
func (p *promptPane) FullHelp() [][]key.Binding { return [][]key.Binding{p.ShortHelp()} }

// start opens the prompt with a label and a default value.
func (p *promptPane) start(kind promptKind, label, value string) tea.Cmd {
	p.kind = kind
	p.input.Prompt = label
	p.input.SetValue(value)
	p.input.CursorEnd()
	p.input.SetWidth(max(10, p.s.w-len(label)-2))
	return p.input.Focus()
}

// confirm asks before overwriting path with text.
func (p *promptPane) confirm(path, text string) {
	p.pendingPath, p.pendingText = path, text
	p.kind = promptConfirm
	p.input.Prompt = path + " exists. Overwrite? (y/n) "
	p.input.SetValue("")
}

func (p *promptPane) close() {
	p.kind = promptNone
	p.input.Blur()
}

func (p *promptPane) Update(msg tea.Msg) (pane, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		var cmd tea.Cmd
		p.input, cmd = p.input.Update(msg)
		return p, cmd
	}
	switch k.String() {
	case "esc":
		p.close()
		return p, nil
	case "enter":
		kind, val := p.kind, strings.TrimSpace(p.input.Value())
		p.close()
		if kind == promptConfirm {
			return p, nil
		}
		p.submitted = &promptAnswer{kind, val}
		return p, nil
	}
	if p.kind == promptConfirm {
		switch k.String() {
		case "y", "Y":
			p.kind = promptNone
			return p, p.s.writeFile(p.pendingPath, p.pendingText, true)
		case "n", "N":
			p.kind = promptNone
			p.s.setStatus("not overwritten", false)
		}
		return p, nil
	}
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(k)
	return p, cmd
}

func (p *promptPane) View(w, h int) string { return p.input.View() }
