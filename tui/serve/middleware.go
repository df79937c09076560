package serve

import (
	"context"
	"fmt"
	"net"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	gossh "golang.org/x/crypto/ssh"

	"passlens/internal/guard"
)

// sessionInfo is what the middlewares of one session share.
type sessionInfo struct {
	id          int64
	user        string
	fingerprint string
	remote      string

	mu    sync.Mutex
	crash string // non-empty once the session panicked
}

func (i *sessionInfo) setCrash(e *guard.Error) {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.crash == "" {
		i.crash = e.Error()
	}
}

func (i *sessionInfo) crashed() string {
	i.mu.Lock()
	defer i.mu.Unlock()
	return i.crash
}

// atomicProgram holds a session's program once it exists.
type atomicProgram struct {
	mu sync.Mutex
	p  *tea.Program
}

func (a *atomicProgram) set(p *tea.Program) {
	a.mu.Lock()
	a.p = p
	a.mu.Unlock()
}

// send delivers msg without blocking the caller (the program may not have
// started its event loop yet; its context ends with the connection).
func (a *atomicProgram) send(msg tea.Msg) {
	a.mu.Lock()
	p := a.p
	a.mu.Unlock()
	if p != nil {
		go p.Send(msg)
	}
}

// liveSession is the server's handle on one session.
type liveSession struct {
	info *sessionInfo
	prog atomicProgram

	mu      sync.Mutex
	cleanup []func() // run when the session ends (tool run directories)
	ctx     context.Context
	cancel  context.CancelFunc
	ended   bool
}

// context is cancelled when the session ends: the session's compile
// workers are killed then (workerclient.go).
func (ls *liveSession) context() context.Context {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.ctx == nil {
		ls.ctx, ls.cancel = context.WithCancel(context.Background())
		if ls.ended {
			ls.cancel()
		}
	}
	return ls.ctx
}

// atEnd registers f to run when the session ends.
func (ls *liveSession) atEnd(f func()) {
	ls.mu.Lock()
	ls.cleanup = append(ls.cleanup, f)
	ls.mu.Unlock()
}

// end runs the registered cleanups once.
func (ls *liveSession) end() {
	ls.mu.Lock()
	fs := ls.cleanup
	ls.cleanup = nil
	ls.ended = true
	if ls.cancel != nil {
		ls.cancel()
	}
	ls.mu.Unlock()
	for _, f := range fs {
		f()
	}
}

func fingerprint(k ssh.PublicKey) string {
	if k == nil {
		return "none"
	}
	return gossh.FingerprintSHA256(k)
}

func remoteOf(a net.Addr) string {
	if a == nil {
		return "unknown"
	}
	return a.String()
}

// checkKey is the public-key handler: the key must be in the authorized
// keys file, which is re-read on every attempt so removing a key takes
// effect without a restart.
func (s *Server) checkKey(ctx ssh.Context, key ssh.PublicKey) bool {
	keys, _, err := readAuthorizedKeys(s.akeys)
	if err != nil {
		s.log.Error("refused", "reason", "cannot read authorized keys", "err", err, "user", ctx.User(), "remote", remoteOf(ctx.RemoteAddr()))
		return false
	}
	if authorized(keys, key) {
		return true
	}
	s.log.Warn("refused", "reason", "public key not authorized", "user", ctx.User(), "remote", remoteOf(ctx.RemoteAddr()), "key", fingerprint(key))
	return false
}

// connFailed logs handshakes that did not end in a login (wrong keys,
// password or keyboard-interactive attempts, scanners).
func (s *Server) connFailed(conn net.Conn, err error) {
	s.log.Warn("refused", "reason", "handshake failed", "remote", remoteOf(conn.RemoteAddr()), "err", err)
}

// refuseChannel rejects every channel type but "session": no local port
// forwarding (direct-tcpip), no agent or X11 channels.
func (s *Server) refuseChannel(_ *ssh.Server, conn *gossh.ServerConn, ch gossh.NewChannel, _ ssh.Context) {
	s.log.Warn("refused", "reason", "channel type not allowed", "channel", ch.ChannelType(), "user", conn.User(), "remote", remoteOf(conn.RemoteAddr()))
	_ = ch.Reject(gossh.Prohibited, "passlens serve does not allow "+ch.ChannelType()+" channels")
}

// refuseRequest answers every global request with a refusal: in particular
// tcpip-forward (remote port forwarding).
func (s *Server) refuseRequest(ctx ssh.Context, _ *ssh.Server, req *gossh.Request) (bool, []byte) {
	switch req.Type {
	case "keepalive@openssh.com", "no-more-sessions@openssh.com", "hostkeys-prove-00@openssh.com":
	default:
		s.log.Warn("refused", "reason", "global request not allowed", "request", req.Type, "user", ctx.User(), "remote", remoteOf(ctx.RemoteAddr()))
	}
	return false, nil
}

// checkSessionRequest allows shells and exec requests (the latter are
// answered with a message by refuseCommands) and refuses subsystems such
// as sftp.
func (s *Server) checkSessionRequest(sess ssh.Session, typ string) bool {
	if typ == "shell" || typ == "exec" {
		return true
	}
	s.log.Warn("refused", "reason", "session request not allowed", "request", typ, "user", sess.User(), "remote", remoteOf(sess.RemoteAddr()))
	return false
}

// session is the outermost middleware: it enforces the session limit and
// refuses new sessions during shutdown, logs the start and end of every
// session, and tells the user why a session ended when it was not by
// their choice (a crash or a server shutdown).
func (s *Server) session(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		info := &sessionInfo{user: sess.User(), fingerprint: fingerprint(sess.PublicKey()), remote: remoteOf(sess.RemoteAddr())}
		ls := &liveSession{info: info}
		s.mu.Lock()
		switch {
		case s.closing:
			s.mu.Unlock()
			wish.Errorf(sess, "passlens: server shutting down\r\n")
			_ = sess.Exit(1)
			return
		case len(s.sessions) >= s.cfg.MaxSessions:
			s.mu.Unlock()
			s.log.Warn("refused", "reason", "session limit", "limit", s.cfg.MaxSessions, "user", info.user, "remote", info.remote, "key", info.fingerprint)
			wish.Errorf(sess, "server busy: %d sessions\r\n", s.cfg.MaxSessions)
			_ = sess.Exit(1)
			return
		}
		info.id = s.nextID.Add(1)
		s.sessions[info.id] = ls
		s.live[sess] = ls
		s.mu.Unlock()

		start := time.Now()
		pty, _, _ := sess.Pty()
		s.log.Info("session start", "session", info.id, "user", info.user, "remote", info.remote, "key", info.fingerprint,
			"term", pty.Term, "size", fmt.Sprintf("%dx%d", pty.Window.Width, pty.Window.Height))
		defer ls.end()
		defer func() {
			// Tell the user first: Shutdown closes the connections as soon
			// as the last session is deregistered.
			s.mu.Lock()
			closing := s.closing
			s.mu.Unlock()
			how := "closed"
			if c := info.crashed(); c != "" {
				how = "crashed"
				wish.Errorf(sess, "\r\npasslens: this session hit an internal error and was closed (the server keeps running): %s\r\n", c)
				_ = sess.Exit(1)
			} else if closing {
				how = "server shutdown"
				wish.Errorf(sess, "\r\npasslens: server shutting down\r\n")
				_ = sess.Exit(1)
			}
			s.log.Info("session end", "session", info.id, "user", info.user, "key", info.fingerprint, "end", how, "duration", time.Since(start).Round(time.Millisecond))
			s.mu.Lock()
			delete(s.sessions, info.id)
			delete(s.live, sess)
			if s.closing && len(s.sessions) == 0 {
				close(s.drained)
			}
			s.mu.Unlock()
		}()
		// A panic in the inner handlers ends this session only.
		defer guard.Handle("the SSH session", func(e *guard.Error) {
			info.setCrash(e)
			s.log.Error("session panic", "session", info.id, "panic", e.Error(), "stack", e.Stack)
		})
		next(sess)
	}
}

// refuseCommands answers sessions that ask for a command (ssh host CMD)
// with a message and exit status 1: the server runs the explorer only.
func (s *Server) refuseCommands(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		if len(sess.Command()) > 0 || sess.RawCommand() != "" {
			s.log.Warn("refused", "reason", "command requested", "command", sess.RawCommand(), "user", sess.User(), "remote", remoteOf(sess.RemoteAddr()), "key", fingerprint(sess.PublicKey()))
			wish.Errorf(sess, "passlens serve runs the explorer only; commands are not allowed (connect with: ssh -t -p PORT HOST)\r\n")
			_ = sess.Exit(1)
			return
		}
		next(sess)
	}
}

// requirePTY explains to clients without a terminal why they are turned
// away (activeterm, inside it, is the backstop).
func (s *Server) requirePTY(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		if _, _, ok := sess.Pty(); !ok {
			s.log.Warn("refused", "reason", "no PTY", "user", sess.User(), "remote", remoteOf(sess.RemoteAddr()), "key", fingerprint(sess.PublicKey()))
			wish.Errorf(sess, "passlens serve needs a terminal: connect with ssh -t (no PTY was requested)\r\n")
			_ = sess.Exit(1)
			return
		}
		next(sess)
	}
}
