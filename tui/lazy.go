package tui

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// Optional Driver extensions for pass logs (tui/backend's DumpDriver). A
// log of hundreds of MB cannot keep every step's text in memory, and its
// steps say which functions they changed; drivers that implement these
// interfaces get both without the Driver interface changing.

// StepLoader is implemented by drivers whose steps carry no text until
// they are shown. LoadStep fills c.Steps[i].Text, Lines and Funcs; it is
// called on the UI thread, so it must be fast (one ReadAt-composed
// snapshot), and it may clear the text of steps loaded long ago.
type StepLoader interface {
	LoadStep(c *Compiled, i int) error
}

// FuncStepper is implemented by drivers that know which functions a step
// changed. With a function selected (the function filter), steps that did
// not change it count as unchanged: collapsed in the pass list and skipped
// by next/previous changed.
type FuncStepper interface {
	StepChangedFunc(c *Compiled, i int, fn string) bool
}

// BinaryTarget is implemented by drivers whose target code also has a
// binary form (a SPIR-V module): the export (x) writes it when the file
// name has that form's extension, the text otherwise.
type BinaryTarget interface {
	TargetBinary(c *Compiled) (data []byte, ext string, err error)
}

// Progressive is implemented by drivers whose Compile may return only the
// first part of a long input (a pass log of hundreds of MB) while the rest
// is indexed in the background: the explorer draws the first part at once,
// waits with WaitComplete off the UI goroutine, then compiles again and
// swaps in the whole step list, keeping the place (or going to the new
// last step when the user was on the last one).
type Progressive interface {
	Partial(c *Compiled) bool
	WaitComplete(ctx context.Context) error
}

// isPartial reports whether c is the first part of a Progressive driver's
// input.
func (m *Model) isPartial(c *Compiled) bool {
	p, ok := m.drv.(Progressive)
	return ok && p.Partial(c)
}

// completeMsg says a Progressive driver has its whole input.
type completeMsg struct{ err error }

// awaitComplete starts waiting for the rest of a partial compile.
func (m *Model) awaitComplete(c *Compiled) tea.Cmd {
	if !m.isPartial(c) {
		m.partial = false
		return nil
	}
	m.partial = true
	p := m.drv.(Progressive)
	// Not a cancellable job: esc would leave the list partial for good.
	return func() tea.Msg { return completeMsg{p.WaitComplete(context.Background())} }
}

// onComplete recompiles once the whole input is there.
func (m *Model) onComplete(msg completeMsg) tea.Cmd {
	if msg.err != nil {
		m.setStatus("indexing: "+msg.err.Error(), true)
		return nil
	}
	return m.compile()
}

// loadStep makes sure step i has its text (StepLoader drivers).
func (m *Model) loadStep(i int) {
	if m.comp == nil || i < 0 || i >= len(m.comp.Steps) {
		return
	}
	s := &m.comp.Steps[i]
	if s.Lines != nil || s.Text != "" {
		return
	}
	if l, ok := m.drv.(StepLoader); ok {
		if err := l.LoadStep(m.comp, i); err != nil {
			s.Text = "; " + err.Error() + "\n"
			s.Lines = SplitLines(s.Text)
		}
	}
}

// statusFor is a step's status as the pass list and next-changed see it:
// with a function selected and a FuncStepper driver, a changed step that
// did not change that function is unchanged.
func (m *Model) statusFor(i int) StepStatus {
	s := m.comp.Steps[i].Status
	if s != StepChanged || m.fn == "" {
		return s
	}
	if fs, ok := m.drv.(FuncStepper); ok && !fs.StepChangedFunc(m.comp, i, m.fn) {
		return StepUnchanged
	}
	return s
}

// noteUnavailable keeps an analysis error that will not go away for this
// step ("unavailable: the step does not import: …") as the step's analysis,
// so that the trees and CFG panes say why instead of waiting.
func (m *Model) noteUnavailable(key string, err error) {
	msg := err.Error()
	if !strings.HasPrefix(msg, "unavailable: ") {
		return
	}
	n := &TreeNode{Label: msg}
	e := newAnalysisEntry(&Analysis{Dom: n, PostDom: n, Cycles: n}, nil, nil)
	e.setCFG(cfgDrawing{cfg: treeLines{lines: []string{msg}, blocks: []string{""}}})
	m.analyses.put(key, e)
	m.refreshViews()
}
