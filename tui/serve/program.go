package serve

import (
	"fmt"
	"runtime/debug"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	bm "charm.land/wish/v2/bubbletea"
	"github.com/charmbracelet/colorprofile"

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
	defer func() {
		if r := recover(); r != nil {
			ls.info.setCrash(r)
			s.log.Error("session panic", "session", ls.info.id, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			prog = nil
		}
	}()
	if s.testHook != nil {
		s.testHook(sess)
	}
	pty, _, _ := sess.Pty()
	env := append(sess.Environ(), "TERM="+pty.Term)
	m := newSessionModel(s, ls, themeFor(env))
	opts := append(bm.MakeOptions(sess),
		tea.WithColorProfile(sessionProfile(env)),
		tea.WithContext(sess.Context()),
		// The server handles its own signals; a session must not.
		tea.WithoutSignalHandler(),
	)
	prog = tea.NewProgram(m, opts...)
	ls.prog.set(prog)
	return prog
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
