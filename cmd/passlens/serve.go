package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"passlens/tui/serve"
)

func init() {
	register(&command{
		name:    "serve",
		summary: "serve the explorer over SSH (public-key logins only)",
		usage: `Usage: passlens serve [flags]

Serves the explorer over SSH: every session picks a module (the embedded
samples, or files in --modules DIR) and gets its own explorer. Only public
keys listed in the authorized keys file may log in; commands, subsystems,
port forwarding, password and keyboard-interactive logins are refused.
Connect with: ssh -p 2222 localhost

Flags:
  --listen ADDR          address to listen on (default ` + serve.DefaultListen + `, loopback only)
  --host-key PATH        ed25519 host key, created (0600) if missing
                         (default $XDG_DATA_HOME/passlens/host_ed25519)
  --authorized-keys PATH keys allowed to log in (default ~/.ssh/authorized_keys)
  --modules DIR          directory of modules sessions may open (default: samples only)
  --max-sessions N       concurrent sessions (default ` + fmt.Sprint(serve.DefaultMaxSessions) + `)
  --idle-timeout D       close idle connections after D (default ` + serve.DefaultIdleTimeout.String() + `)
  --max-run-steps N      interpreter steps per run in a session (default ` + fmt.Sprint(serve.DefaultMaxRunSteps) + `)
  --session-memory MIB   memory cap per session in MiB: a load or compile that
                         grows the heap more is stopped, older compiles are
                         released first (default ` + fmt.Sprint(serve.DefaultSessionMemory>>20) + `)
  --allow-tool LIST      external tools sessions may run on modules of --modules,
                         comma-separated (opt, llc, spirv-opt, any version
                         suffix; e.g. opt-22,spirv-opt): options limited to
                         pass lists and target flags, run under the compile
                         budget, the session memory cap and nice (default: none)
SIGINT or SIGTERM tells every session and shuts down.
`,
		run: runServe,
	})
}

func runServe(args []string, stdout, stderr io.Writer) error {
	c := commands["serve"]
	fs := newFlags(c, stderr)
	var cfg serve.Config
	fs.StringVar(&cfg.Listen, "listen", serve.DefaultListen, "")
	fs.StringVar(&cfg.HostKeyPath, "host-key", "", "")
	fs.StringVar(&cfg.AuthorizedKeysPath, "authorized-keys", "", "")
	fs.StringVar(&cfg.ModulesDir, "modules", "", "")
	fs.IntVar(&cfg.MaxSessions, "max-sessions", serve.DefaultMaxSessions, "")
	fs.DurationVar(&cfg.IdleTimeout, "idle-timeout", serve.DefaultIdleTimeout, "")
	fs.IntVar(&cfg.MaxRunSteps, "max-run-steps", serve.DefaultMaxRunSteps, "")
	sessionMiB := fs.Int64("session-memory", serve.DefaultSessionMemory>>20, "")
	allowTools := fs.String("allow-tool", "", "")
	pos, err := parseFlags(c, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return &usageError{c, "serve takes no arguments"}
	}
	if cfg.MaxSessions < 1 || cfg.MaxRunSteps < 1 || cfg.IdleTimeout <= 0 || *sessionMiB < 1 || *sessionMiB > 1<<20 {
		return &usageError{c, "--max-sessions, --max-run-steps, --session-memory and --idle-timeout must be positive"}
	}
	cfg.SessionMemory = *sessionMiB << 20
	if *allowTools != "" {
		cfg.AllowTools = strings.Split(*allowTools, ",")
	}
	cfg.Log = stderr
	srv, err := serve.New(cfg)
	if err != nil {
		return fmt.Errorf("passlens serve: %v", err)
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("passlens serve: %v", err)
	}
	if h, _, err := net.SplitHostPort(ln.Addr().String()); err == nil {
		if ip := net.ParseIP(h); ip != nil && !ip.IsLoopback() {
			fmt.Fprintf(stderr, "passlens serve: warning: listening on %s, reachable from other machines\n", ln.Addr())
		}
	}

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("passlens serve: %v", err)
		}
		return nil
	case <-sigs:
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("passlens serve: shutdown: %v", err)
	}
	<-done
	return nil
}
