// Package serve runs the passlens explorer over SSH (`passlens serve`):
// public-key logins only, one explorer per session with its own state,
// modules limited to the embedded samples and one operator-chosen
// directory, and limits on sessions, idle time and interpreter work. It is
// built on charm.land/wish and its bubbletea middleware.
package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/log/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/activeterm"
	bm "charm.land/wish/v2/bubbletea"
	"charm.land/wish/v2/recover"
	gossh "golang.org/x/crypto/ssh"
)

// Defaults for Config fields left zero.
const (
	DefaultListen      = "127.0.0.1:2222"
	DefaultMaxSessions = 16
	DefaultIdleTimeout = 15 * time.Minute
	DefaultMaxRunSteps = 1_000_000
	// handshakeTimeout bounds how long an unauthenticated connection may
	// hold a slot.
	handshakeTimeout = 30 * time.Second
)

// Config configures a Server.
type Config struct {
	Listen             string // host:port (DefaultListen if empty)
	HostKeyPath        string // ed25519 host key, created if missing (DefaultHostKeyPath if empty)
	AuthorizedKeysPath string // OpenSSH authorized_keys (DefaultAuthorizedKeysPath if empty)
	ModulesDir         string // directory of loadable modules ("" = samples only)
	MaxSessions        int    // concurrent sessions (DefaultMaxSessions if 0)
	IdleTimeout        time.Duration
	MaxRunSteps        int           // interpreter steps per run (DefaultMaxRunSteps if 0)
	CompileTimeout     time.Duration // one compile of one session (DefaultCompileTimeout if 0)
	SessionMemory      int64         // memory cap per session in bytes (DefaultSessionMemory if 0; memory.go)
	AllowTools         []string      // external tools sessions may run (none if empty; tools.go)
	Log                io.Writer     // structured log lines (os.Stderr if nil)
}

// Server is a running (or ready) passlens SSH server.
type Server struct {
	cfg   Config
	log   *log.Logger
	srv   *ssh.Server
	akeys string

	mu        sync.Mutex
	sessions  map[int64]*liveSession
	live      map[ssh.Session]*liveSession
	closing   bool
	listeners []net.Listener // listeners passed to Serve, closed by Shutdown
	drained   chan struct{}  // closed when closing and no session is left
	nextID    atomic.Int64
	heavy     chan struct{}     // the heavy-work slot (budget.go)
	tools     map[string]string // allowed tool name → path (tools.go)

	// heavyInProcess keeps heavy loads and compiles in the server's
	// process, as before the compile worker (the load test measures both).
	heavyInProcess bool
	// testWorkerArgv, when set, starts the compile worker instead of this
	// executable's hidden subcommand; testWorkerEnv is added to its
	// environment (tests re-run their own binary: TestMain).
	testWorkerArgv []string
	testWorkerEnv  []string

	// testToolLogLimit, when set, replaces toolLogLimit.
	testToolLogLimit int64

	// testHook, when set, runs at the start of every explorer session (tests
	// inject panics with it).
	testHook func(ssh.Session)
	// testUpdateHook, when set, sees every message of every session model.
	testUpdateHook func(tea.Msg)
}

// New validates cfg, loads (or creates) the host key and checks the
// authorized keys file. It does not listen yet.
func New(cfg Config) (*Server, error) {
	if cfg.Listen == "" {
		cfg.Listen = DefaultListen
	}
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = DefaultMaxSessions
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = DefaultIdleTimeout
	}
	if cfg.MaxRunSteps <= 0 {
		cfg.MaxRunSteps = DefaultMaxRunSteps
	}
	if cfg.CompileTimeout <= 0 {
		cfg.CompileTimeout = DefaultCompileTimeout
	}
	if cfg.SessionMemory <= 0 {
		cfg.SessionMemory = DefaultSessionMemory
	}
	if cfg.Log == nil {
		cfg.Log = os.Stderr
	}
	s := &Server{cfg: cfg, sessions: map[int64]*liveSession{}, live: map[ssh.Session]*liveSession{}, heavy: make(chan struct{}, 1)}
	s.log = log.NewWithOptions(cfg.Log, log.Options{ReportTimestamp: true, TimeFormat: time.RFC3339, Formatter: log.LogfmtFormatter, Prefix: "passlens-serve"})

	if cfg.ModulesDir != "" {
		fi, err := os.Stat(cfg.ModulesDir)
		if err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("--modules %s: not a directory", cfg.ModulesDir)
		}
	}
	tools, err := resolveTools(cfg.AllowTools)
	if err != nil {
		return nil, err
	}
	s.tools = tools
	akeys := cfg.AuthorizedKeysPath
	if akeys == "" {
		p, err := DefaultAuthorizedKeysPath()
		if err != nil {
			return nil, err
		}
		akeys = p
	}
	keys, bad, err := readAuthorizedKeys(akeys)
	if err != nil {
		return nil, err
	}
	if len(bad) > 0 {
		s.log.Warn("authorized keys lines skipped (unparseable or with options, which passlens does not honour)", "file", akeys, "lines", fmt.Sprint(bad))
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("%s holds no usable public keys: nobody could log in", akeys)
	}
	s.akeys = akeys

	hk := cfg.HostKeyPath
	if hk == "" {
		if hk, err = DefaultHostKeyPath(); err != nil {
			return nil, err
		}
	}
	signer, created, err := LoadOrCreateHostKey(hk)
	if err != nil {
		return nil, err
	}
	if created {
		s.log.Info("created host key", "path", hk, "fingerprint", gossh.FingerprintSHA256(signer.PublicKey()))
	} else if fi, err := os.Stat(hk); err == nil && fi.Mode().Perm()&0o077 != 0 {
		s.log.Warn("host key is readable by other users; chmod 600 it", "path", hk)
	}

	srv := &ssh.Server{
		Addr:             cfg.Listen,
		Version:          "passlens",
		IdleTimeout:      cfg.IdleTimeout,
		HandshakeTimeout: handshakeTimeout,
		PublicKeyHandler: s.checkKey,
		// Only session channels exist: direct-tcpip (local forwarding),
		// and every other channel type, is refused by the default handler.
		ChannelHandlers: map[string]ssh.ChannelHandler{
			"session": ssh.DefaultSessionHandler,
			"default": s.refuseChannel,
		},
		// No global requests are served: tcpip-forward (remote
		// forwarding) and the rest get a refusal.
		RequestHandlers:          map[string]ssh.RequestHandler{"default": s.refuseRequest},
		SubsystemHandlers:        map[string]ssh.SubsystemHandler{},
		SessionRequestCallback:   s.checkSessionRequest,
		ConnectionFailedCallback: s.connFailed,
	}
	srv.AddHostKey(signer)
	err = srv.SetOption(wish.WithMiddleware(recover.MiddlewareWithLogger(
		s.log.StandardLog(log.StandardLogOptions{ForceLevel: log.ErrorLevel}),
		// Innermost first: the explorer, the PTY checks, the command
		// check, and outermost the session limit and log.
		bm.MiddlewareWithProgramHandler(s.newProgram),
		activeterm.Middleware(),
		s.requirePTY,
		s.refuseCommands,
		s.session,
	)))
	if err != nil {
		return nil, err
	}
	s.srv = srv
	return s, nil
}

// ListenAndServe listens on Config.Listen and serves until Shutdown.
func (s *Server) ListenAndServe() error {
	ln, err := net.Listen("tcp", s.cfg.Listen)
	if err != nil {
		return err
	}
	return s.Serve(ln)
}

// Serve serves SSH on ln until Shutdown; it then returns nil.
func (s *Server) Serve(ln net.Listener) error {
	s.log.Info("listening", "addr", ln.Addr().String(), "authorized_keys", s.akeys, "modules", s.cfg.ModulesDir,
		"max_sessions", s.cfg.MaxSessions, "idle_timeout", s.cfg.IdleTimeout, "max_run_steps", s.cfg.MaxRunSteps)
	// The ssh server only learns about ln inside Serve, so a Shutdown that
	// races with the start of Serve would leave it listening forever; track
	// the listener here and close it ourselves.
	// Shutdown closes ln and so does ssh.Server.Close: closing it once
	// keeps the second close from failing with "use of closed network
	// connection" (which made SIGTERM exit 1 now and then).
	ln = &closeOnceListener{Listener: ln}
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		ln.Close()
		return nil
	}
	s.listeners = append(s.listeners, ln)
	s.mu.Unlock()
	err := s.srv.Serve(ln)
	s.mu.Lock()
	closing := s.closing
	s.mu.Unlock()
	if errors.Is(err, ssh.ErrServerClosed) || closing {
		return nil
	}
	return err
}

// Shutdown stops accepting connections, tells every session the server is
// shutting down, waits (until ctx ends) for the sessions to finish and then
// closes every connection.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	if !s.closing {
		s.closing = true
		s.drained = make(chan struct{})
		if len(s.sessions) == 0 {
			close(s.drained)
		}
	}
	live := make([]*liveSession, 0, len(s.sessions))
	for _, ls := range s.sessions {
		live = append(live, ls)
	}
	drained := s.drained
	listeners := s.listeners
	s.listeners = nil
	s.mu.Unlock()
	for _, ln := range listeners {
		ln.Close()
	}
	s.log.Info("shutting down", "sessions", len(live))
	for _, ls := range live {
		ls.prog.send(shutdownMsg{})
	}
	var err error
	select {
	case <-drained:
	case <-ctx.Done():
		err = ctx.Err()
	}
	// Connections that their sessions already closed report net.ErrClosed;
	// that is the state Shutdown wants, not a failure.
	if cerr := s.srv.Close(); err == nil && cerr != nil && !errors.Is(cerr, ssh.ErrServerClosed) && !errors.Is(cerr, net.ErrClosed) {
		err = cerr
	}
	return err
}

// closeOnceListener makes Close idempotent: the first call closes the
// listener, later calls return its result again.
type closeOnceListener struct {
	net.Listener
	once sync.Once
	err  error
}

func (l *closeOnceListener) Close() error {
	l.once.Do(func() { l.err = l.Listener.Close() })
	return l.err
}

// Sessions returns the number of live sessions.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}
