package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// pane is the shape of every part of the explorer's screen (after
// soft-serve's pkg/ui/common.Component): it handles the messages routed to
// it, draws itself into the size it was given, and names its own key
// bindings for the help overlay. The root Model keeps the layout, the
// focus, the routing of keys (global bindings first, then the focused
// pane's) and the jobs; panes reach the shared session (the compile, the
// current step, the analyses, styles and keys) through their session
// pointer, as soft-serve's components reach common.Common.
type pane interface {
	// Update handles a key routed to the pane (it has focus) or a message
	// the root forwards.
	Update(msg tea.Msg) (pane, tea.Cmd)
	// View draws the pane's header line and body in w×h cells.
	View(w, h int) string
	SetSize(w, h int)
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
}

// session is what panes share: the root model. Panes read it and call its
// methods for work that crosses panes (moving to a step, starting a job).
type session = Model

// helpOf turns a focus's key groups into FullHelp columns.
func helpOf(km KeyMap, f Focus) [][]key.Binding {
	var out [][]key.Binding
	for _, g := range km.Pane(f) {
		out = append(out, g.Bindings)
	}
	return out
}

// shortHelpOf is the focus's most useful keys (the last group's).
func shortHelpOf(km KeyMap, f Focus) []key.Binding {
	gs := km.Pane(f)
	return gs[len(gs)-1].Bindings
}

// focusedPane is the pane that receives non-global keys.
func (m *Model) focusedPane() pane {
	switch m.focus() {
	case FocusList:
		return m.list
	case FocusDiff:
		return m.diff
	case FocusTrees, FocusCFG:
		return m.graph
	case FocusLanes:
		return m.lanesP
	case FocusTarget:
		return m.tgt
	case FocusExplain:
		return m.expl
	case FocusSource:
		return m.src
	}
	return m.ir
}

// mainPane is the pane drawn in the main area.
func (m *Model) mainPane() pane {
	switch m.view {
	case ViewDiff:
		return m.diff
	case ViewTrees, ViewCFG:
		return m.graph
	case ViewLanes:
		return m.lanesP
	case ViewTarget:
		return m.tgt
	case ViewExplain:
		return m.expl
	case ViewSource:
		return m.src
	}
	return m.ir
}
