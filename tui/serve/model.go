package serve

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"passlens/internal/guard"
	"passlens/internal/termsafe"
	"passlens/samples"
	"passlens/themes"
	"passlens/tui"
	"passlens/tui/backend"
)

// PickerTitle heads the module picker every session starts in.
const PickerTitle = "passlens — choose a module"

// maxExport bounds one OSC 52 export: terminals cap clipboard sequences
// and a huge one would stall the session's output.
const maxExport = 1 << 20

// pickerItem is one line of the module picker.
type pickerItem struct {
	ref     moduleRef
	summary string
}

// loadedMsg carries the result of opening a module.
type loadedMsg struct {
	ref  moduleRef
	drv  tui.Driver
	size int // source bytes (the compile budget's heavy-slot size)
	err  error
}

// sessionModel is the root model of one SSH session: a module picker
// until a module is open, then the explorer. It confines panics in its
// own and the explorer's Update/View to the session (the session ends
// with a message) and turns explorer exports into OSC 52 clipboard
// sequences sent to the client.
type sessionModel struct {
	s     *Server
	ls    *liveSession
	theme *themes.Theme

	w, h    int
	items   []pickerItem
	sel     int
	off     int
	status  string
	isErr   bool
	loading string
	typing  bool
	tool    bool // the prompt takes a tool command line (tools.go)
	input   textinput.Model

	exp     *tui.Model
	exports []string // texts to offer to the client after this Update
}

func newSessionModel(s *Server, ls *liveSession, th *themes.Theme) *sessionModel {
	m := &sessionModel{s: s, ls: ls, theme: th}
	for _, sm := range samples.All() {
		m.items = append(m.items, pickerItem{ref: moduleRef{sample: sm.Name}, summary: sm.Summary})
	}
	for _, p := range listModules(s.cfg.ModulesDir) {
		m.items = append(m.items, pickerItem{ref: moduleRef{path: p}})
	}
	m.input = textinput.New()
	m.input.Prompt = "module path: "
	m.input.CharLimit = 1024
	return m
}

// Init does nothing until the user picks a module.
func (m *sessionModel) Init() tea.Cmd { return nil }

// Update handles a message, ending the session on a panic.
func (m *sessionModel) Update(msg tea.Msg) (model tea.Model, cmd tea.Cmd) {
	defer guard.Handle("the session's update", func(e *guard.Error) {
		m.crash(e)
		model, cmd = m, tea.Quit
	})
	if m.s.testUpdateHook != nil {
		m.s.testUpdateHook(msg)
	}
	switch msg := msg.(type) {
	case shutdownMsg, crashMsg:
		return m, tea.Quit
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	}
	if m.exp != nil {
		_, cmd = m.exp.Update(msg)
		return m, m.withExports(cmd)
	}
	return m, m.updatePicker(msg)
}

// View renders the picker or the explorer, ending the session on a panic.
func (m *sessionModel) View() (v tea.View) {
	defer guard.Handle("the session's view", func(e *guard.Error) {
		m.crash(e)
		v = tea.NewView(e.Error() + "; closing this session")
		m.ls.prog.send(crashMsg{})
	})
	if m.exp != nil {
		return m.exp.View()
	}
	v = tea.NewView(m.pickerView())
	v.AltScreen = true
	return v
}

func (m *sessionModel) crash(e *guard.Error) {
	m.ls.info.setCrash(e)
	m.s.log.Error("session panic", "session", m.ls.info.id, "panic", e.Error(), "stack", e.Stack)
}

// export is the explorer's Options.Exports: the text is queued and offered
// to the client's clipboard (OSC 52) by withExports; nothing is written on
// the server.
func (m *sessionModel) export(name, text string) error {
	if len(text) > maxExport {
		return fmt.Errorf("%s is too large to offer over SSH (%d bytes; the limit is %d)", name, len(text), maxExport)
	}
	m.exports = append(m.exports, text)
	return nil
}

func (m *sessionModel) withExports(cmd tea.Cmd) tea.Cmd {
	if len(m.exports) == 0 {
		return cmd
	}
	cmds := []tea.Cmd{cmd}
	for _, t := range m.exports {
		cmds = append(cmds, tea.SetClipboard(t))
	}
	m.exports = nil
	return tea.Batch(cmds...)
}

func (m *sessionModel) updatePicker(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case loadedMsg:
		m.loading = ""
		if msg.err != nil {
			m.status, m.isErr = msg.err.Error(), true
			return nil
		}
		return m.openExplorer(msg.drv, msg.size)
	case tea.KeyPressMsg:
		if m.loading != "" {
			if msg.String() == "ctrl+c" {
				return tea.Quit
			}
			return nil
		}
		if m.typing {
			switch msg.String() {
			case "enter":
				m.typing = false
				m.input.Blur()
				val := strings.TrimSpace(m.input.Value())
				if val == "" {
					return nil
				}
				if m.tool {
					return m.runTool(val)
				}
				return m.open(moduleRef{path: val})
			case "esc":
				m.typing = false
				m.input.Blur()
				return nil
			case "ctrl+c":
				return tea.Quit
			}
			var cmd tea.Cmd
			m.input, cmd = m.input.Update(msg)
			return cmd
		}
		switch msg.String() {
		case "q", "ctrl+c", "esc":
			return tea.Quit
		case "up", "k":
			m.sel = max(0, m.sel-1)
		case "down", "j":
			m.sel = min(len(m.items)-1, m.sel+1)
		case "home", "g":
			m.sel = 0
		case "end", "G":
			m.sel = len(m.items) - 1
		case "enter":
			if m.sel >= 0 && m.sel < len(m.items) {
				return m.open(m.items[m.sel].ref)
			}
		case "t":
			tools := m.s.allowedTools()
			if len(tools) == 0 {
				m.status, m.isErr = "this server runs no external tools", true
				return nil
			}
			m.typing, m.tool = true, true
			m.input.Prompt = "run (" + strings.Join(tools, ", ") + "): "
			val := tools[0] + " "
			if m.sel >= 0 && m.sel < len(m.items) && m.items[m.sel].ref.path != "" {
				val += m.items[m.sel].ref.path
			}
			m.input.SetValue(val)
			m.input.CursorEnd()
			m.status, m.isErr = "", false
			return m.input.Focus()
		case "o", "/":
			m.typing, m.tool = true, false
			m.input.Prompt = "module path: "
			m.input.SetValue("")
			m.status, m.isErr = "", false
			return m.input.Focus()
		}
	}
	return nil
}

// open loads ref off the event loop.
func (m *sessionModel) open(ref moduleRef) tea.Cmd {
	m.loading = ref.String()
	m.status, m.isErr = "loading "+ref.String()+"…", false
	s, ctx := m.s, m.ls.context()
	return func() tea.Msg {
		drv, err := s.openModuleCtx(ctx, ref)
		if err != nil {
			return loadedMsg{ref: ref, err: err}
		}
		return loadedMsg{ref: ref, drv: drv, size: drv.SourceBytes()}
	}
}

// runTool checks a tool command line and opens the explorer on the log
// of its run (the explorer's first Compile runs it, under the session's
// compile budget).
func (m *sessionModel) runTool(line string) tea.Cmd {
	cmd, err := m.s.toolCommand(m.ls, line)
	if err != nil {
		m.status, m.isErr = err.Error(), true
		return nil
	}
	m.s.log.Info("tool command", "session", m.ls.info.id, "argv", strings.Join(cmd.Argv, " "))
	return func() tea.Msg {
		return loadedMsg{ref: moduleRef{path: line}, drv: backend.NewRunDriver(cmd)}
	}
}

// openExplorer hands the session over to a new explorer on drv.
func (m *sessionModel) openExplorer(drv tui.Driver, size int) tea.Cmd {
	m.s.log.Info("module opened", "session", m.ls.info.id, "module", drv.Source())
	m.exp = tui.New(wrapDriver(m.s, m.ls, drv, size), tui.Options{Theme: m.theme, Exports: m.export})
	cmds := []tea.Cmd{m.exp.Init()}
	if m.w > 0 {
		_, c := m.exp.Update(tea.WindowSizeMsg{Width: m.w, Height: m.h})
		cmds = append(cmds, c)
	}
	return tea.Batch(cmds...)
}

func (m *sessionModel) pickerView() string {
	title := lipgloss.NewStyle().Bold(true).Foreground(m.theme.Pal.Accent)
	dim := lipgloss.NewStyle().Foreground(m.theme.Pal.Dim)
	selStyle := lipgloss.NewStyle().Reverse(true)
	errStyle := lipgloss.NewStyle().Foreground(m.theme.Pal.ErrorFg)
	w := max(m.w, 20)
	var b strings.Builder
	b.WriteString(title.Render(PickerTitle) + "\n")
	b.WriteString(dim.Render(truncate(m.helpLine(), w)) + "\n\n")
	rows := max(1, m.h-6)
	if m.sel < m.off {
		m.off = m.sel
	}
	if m.sel >= m.off+rows {
		m.off = m.sel - rows + 1
	}
	for i := m.off; i < len(m.items) && i < m.off+rows; i++ {
		it := m.items[i]
		line := fmt.Sprintf("  %-28s %s", it.ref.String(), it.summary)
		line = truncate(line, w)
		if i == m.sel {
			line = selStyle.Render(line)
		}
		b.WriteString(line + "\n")
	}
	if len(m.items) == 0 {
		b.WriteString(dim.Render("  (no modules)") + "\n")
	}
	b.WriteString("\n")
	switch {
	case m.typing:
		b.WriteString(m.input.View())
	case m.status != "" && m.isErr:
		b.WriteString(errStyle.Render(truncate(firstLine(m.status), w)))
	case m.status != "":
		b.WriteString(dim.Render(truncate(m.status, w)))
	}
	return b.String()
}

// helpLine is the picker's key help; `t` only when tools are allowed.
func (m *sessionModel) helpLine() string {
	if len(m.s.allowedTools()) > 0 {
		return "↑/↓ move · enter open · o type a path in the modules directory · t run a tool · q quit"
	}
	return "↑/↓ move · enter open · o type a path in the modules directory · q quit"
}

// truncate cuts s to w columns. It also escapes control bytes: module
// names and typed paths come from the server's files and the client.
func truncate(s string, w int) string {
	s = termsafe.Escape(s)
	if lipgloss.Width(s) <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && lipgloss.Width(string(r)) > w-1 {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
