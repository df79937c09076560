package serve

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	bm "charm.land/wish/v2/bubbletea"
	"github.com/charmbracelet/colorprofile"

	"passlens/internal/guard"
	"passlens/themes"
)

// shutdownMsg tells a session's model that the server is shutting down.
type shutdownMsg struct{}

// crashMsg tells a session's model that its driver panicked.
type crashMsg struct{}

// newProgram builds the bubbletea program of one session: its own model,
// its own window size, and a colour profile suited to the client. A panic
// here ends this session only.
func (s *Server) newProgram(sess ssh.Session) (prog *tea.Program) {
	s.mu.Lock()
	ls := s.live[sess]
	closing := s.closing
	s.mu.Unlock()
	if ls == nil || closing {
		return nil
	}
	defer guard.Handle("starting the session", func(e *guard.Error) {
		ls.info.setCrash(e)
		s.log.Error("session panic", "session", ls.info.id, "panic", e.Error(), "stack", e.Stack)
		prog = nil
	})
	if s.testHook != nil {
		s.testHook(sess)
	}
	pty, _, _ := sess.Pty()
	env := append(sess.Environ(), "TERM="+pty.Term)
	m := newSessionModel(s, ls, themeFor(env))
	w, h := clampWindow(pty.Window.Width, pty.Window.Height)
	if w != pty.Window.Width || h != pty.Window.Height {
		// An allocated PTY is read back by the program: shrink it too.
		_ = pty.Resize(w, h)
	}
	opts := append(bm.MakeOptions(sess),
		tea.WithColorProfile(sessionProfile(env)),
		tea.WithContext(sess.Context()),
		// The server handles its own signals; a session must not.
		tea.WithoutSignalHandler(),
		// The renderer allocates width x height cells: the client's
		// requested size must not choose the server's memory.
		tea.WithWindowSize(w, h),
		tea.WithFilter(sessionFilter),
	)
	prog = tea.NewProgram(m, opts...)
	ls.prog.set(prog)
	return prog
}

// maxWindowWidth and maxWindowHeight bound the terminal size a client may
// claim (in its PTY request or a window change): the renderer keeps a cell
// buffer of width x height, so 10000x10000 would be 10^8 cells per
// session. Larger sizes are clamped; the client just sees a smaller screen.
const (
	maxWindowWidth  = 1000
	maxWindowHeight = 500
)

// clampWindow bounds a client's window size to the maximum (and to at
// least 1x1).
func clampWindow(w, h int) (int, int) {
	return min(max(w, 1), maxWindowWidth), min(max(h, 1), maxWindowHeight)
}

// sessionFilter sees every message before the program does: window sizes
// are clamped (the renderer resizes its buffer from them) and, as
// bubbletea's ssh middleware does, suspending is turned into resuming
// (there is no shell to suspend to).
func sessionFilter(_ tea.Model, msg tea.Msg) tea.Msg {
	switch m := msg.(type) {
	case tea.WindowSizeMsg:
		m.Width, m.Height = clampWindow(m.Width, m.Height)
		return m
	case tea.SuspendMsg:
		return tea.ResumeMsg{}
	}
	return msg
}

// sessionProfile picks the colour profile for an SSH client: 256 colours,
// unless its TERM/COLORTERM claims truecolor, or it asks for no colour
// (NO_COLOR, TERM=dumb).
func sessionProfile(env []string) colorprofile.Profile {
	switch p := colorprofile.Env(env); {
	case p == colorprofile.TrueColor:
		return colorprofile.TrueColor
	case p <= colorprofile.ASCII:
		return colorprofile.ASCII
	}
	return colorprofile.ANSI256
}

// themeFor picks the explorer theme from the client's environment:
// PASSLENS_THEME if set and known, no-color under NO_COLOR, otherwise dark
// (the server cannot query a remote terminal's background before the
// program starts).
func themeFor(env []string) *themes.Theme {
	get := func(k string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if v, ok := strings.CutPrefix(env[i], k+"="); ok {
				return v
			}
		}
		return ""
	}
	if t, ok := themes.ByName(get("PASSLENS_THEME")); ok && get("PASSLENS_THEME") != "" {
		return t
	}
	if get("NO_COLOR") != "" {
		return themes.NoColorTheme()
	}
	return themes.Dark()
}
