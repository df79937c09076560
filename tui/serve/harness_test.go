package serve

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"
)

// syncBuffer is a goroutine-safe bytes.Buffer.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// testServer is a server on a loopback port with one authorized key.
type testServer struct {
	srv     *Server
	addr    string
	hostKey gossh.PublicKey
	client  gossh.Signer // authorized
	log     *syncBuffer
	dir     string // modules directory
	done    chan error
}

func newSigner(t testing.TB) gossh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// startServer starts a server; tweak adjusts the config and hook the
// server before it serves.
func startServer(t testing.TB, tweak func(*Config), hook func(*Server)) *testServer {
	t.Helper()
	tmp := t.TempDir()
	ts := &testServer{client: newSigner(t), log: &syncBuffer{}, dir: filepath.Join(tmp, "modules"), done: make(chan error, 1)}
	if err := os.Mkdir(ts.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ak := filepath.Join(tmp, "authorized_keys")
	if err := os.WriteFile(ak, gossh.MarshalAuthorizedKey(ts.client.PublicKey()), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := Config{
		Listen:             "127.0.0.1:0",
		HostKeyPath:        filepath.Join(tmp, "data", "passlens", "host_ed25519"),
		AuthorizedKeysPath: ak,
		ModulesDir:         ts.dir,
		MaxSessions:        4,
		Log:                ts.log,
	}
	if tweak != nil {
		tweak(&cfg)
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if hook != nil {
		hook(srv)
	}
	signer, _, err := LoadOrCreateHostKey(cfg.HostKeyPath)
	if err != nil {
		t.Fatal(err)
	}
	ts.hostKey = signer.PublicKey()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ts.srv, ts.addr = srv, ln.Addr().String()
	go func() { ts.done <- srv.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		select {
		case err := <-ts.done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("Serve did not return after Shutdown")
		}
	})
	return ts
}

// dial connects as user with the given auth methods, checking the host key.
func (ts *testServer) dial(user string, auth ...gossh.AuthMethod) (*gossh.Client, error) {
	return gossh.Dial("tcp", ts.addr, &gossh.ClientConfig{
		User:            user,
		Auth:            auth,
		HostKeyCallback: gossh.FixedHostKey(ts.hostKey),
		Timeout:         10 * time.Second,
	})
}

func (ts *testServer) mustDial(t testing.TB, user string) *gossh.Client {
	t.Helper()
	c, err := ts.dial(user, gossh.PublicKeys(ts.client))
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// term is an SSH session with a PTY whose output is captured.
type term struct {
	t     testing.TB
	sess  *gossh.Session
	in    io.WriteCloser
	out   *syncBuffer
	waitc chan error
}

func openTerm(t testing.TB, c *gossh.Client, w, h int, env map[string]string) *term {
	t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatalf("new session: %v", err)
	}
	for k, v := range env {
		if err := sess.Setenv(k, v); err != nil {
			t.Fatalf("setenv: %v", err)
		}
	}
	tm := &term{t: t, sess: sess, out: &syncBuffer{}, waitc: make(chan error, 1)}
	sess.Stdout, sess.Stderr = tm.out, tm.out
	if tm.in, err = sess.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm-256color", h, w, gossh.TerminalModes{}); err != nil {
		t.Fatalf("pty: %v", err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatalf("shell: %v", err)
	}
	go func() { tm.waitc <- sess.Wait() }()
	t.Cleanup(func() { sess.Close() })
	return tm
}

// squash strips escape sequences and all white space, so text survives
// the renderer's cursor-movement optimisations.
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, ansi.Strip(s))
}

// waitFor waits until the screen output contains want (white space and
// escape sequences ignored).
func (tm *term) waitFor(want string, d time.Duration) {
	tm.t.Helper()
	if !tm.waitUntil(func(out string) bool { return strings.Contains(squash(out), squash(want)) }, d) {
		tm.t.Fatalf("timed out waiting for %q; output so far:\n%s", want, ansi.Strip(tm.out.String()))
	}
}

func (tm *term) waitUntil(f func(string) bool, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if f(tm.out.String()) {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return f(tm.out.String())
}

func (tm *term) send(s string) {
	tm.t.Helper()
	if _, err := io.WriteString(tm.in, s); err != nil {
		tm.t.Fatalf("send %q: %v", s, err)
	}
}

// exit waits for the session to end and returns its exit status.
func (tm *term) exit(d time.Duration) int {
	tm.t.Helper()
	select {
	case err := <-tm.waitc:
		if err == nil {
			return 0
		}
		if ee, ok := err.(*gossh.ExitError); ok {
			return ee.ExitStatus()
		}
		tm.t.Fatalf("session ended without a status: %v", err)
	case <-time.After(d):
		tm.t.Fatalf("session did not end; output:\n%s", ansi.Strip(tm.out.String()))
	}
	return -1
}

// sampleIndex is the picker row of a sample.
func sampleIndex(t testing.TB, m *sessionModel, name string) int {
	t.Helper()
	for i, it := range m.items {
		if it.ref.sample == name {
			return i
		}
	}
	t.Fatalf("no sample %s in the picker", name)
	return -1
}

// openSample moves the picker to sample name and opens it.
func (tm *term) openSample(ts *testServer, name string) {
	tm.t.Helper()
	idx := sampleIndex(tm.t, newSessionModel(ts.srv, &liveSession{info: &sessionInfo{}}, nil), name)
	tm.send(strings.Repeat("j", idx) + "\r")
}

func waitLog(t testing.TB, log *syncBuffer, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if strings.Contains(log.String(), want) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("log lacks %q:\n%s", want, log.String())
}

var _ = fmt.Sprint
