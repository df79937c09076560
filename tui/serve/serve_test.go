package serve

import (
	"context"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

const wait = 20 * time.Second

// An authorized key gets a PTY session: the picker, then the explorer on
// the chosen sample, OSC 52 exports, resizes, and a clean exit.
func TestExplorerSession(t *testing.T) {
	ts := startServer(t, nil, nil)
	tm := openTerm(t, ts.mustDial(t, "alice"), 120, 40, nil)
	tm.waitFor(PickerTitle, wait)
	tm.waitFor("samples/wave-switch-42-ir", wait)
	tm.openSample(ts, "wave-switch-42-ir")
	tm.waitFor("define void @main", wait)

	// ctrl+s records a replay script: offered over OSC 52, never written.
	tm.send("\x13")
	tm.waitFor("save replay script to", wait)
	tm.send("\r")
	osc := regexp.MustCompile(`\x1b\]52;c;([A-Za-z0-9+/=]+)\x07`)
	if !tm.waitUntil(func(s string) bool { return osc.MatchString(s) }, wait) {
		t.Fatalf("no OSC 52 sequence in the output")
	}
	data, err := base64.StdEncoding.DecodeString(osc.FindStringSubmatch(tm.out.String())[1])
	if err != nil || !strings.Contains(string(data), "load samples/wave-switch-42-ir") {
		t.Fatalf("OSC 52 payload %q (%v) is not the replay script", data, err)
	}
	if m, _ := filepath.Glob("*.replay"); len(m) > 0 {
		t.Fatalf("the export wrote %v on the server", m)
	}
	// Replay scripts cannot be read from the server.
	tm.send("\x0f")
	tm.waitFor("play replay script", wait)
	tm.send("/etc/passwd\r")
	tm.waitFor("replay scripts cannot be opened over SSH", wait)

	// A window change reaches this session's explorer.
	if err := tm.sess.WindowChange(20, 60); err != nil {
		t.Fatal(err)
	}
	tm.waitFor("terminal too small: 60×20", wait)
	if err := tm.sess.WindowChange(40, 120); err != nil {
		t.Fatal(err)
	}
	n := len(tm.out.String())
	if !tm.waitUntil(func(s string) bool { return strings.Contains(squash(s[n:]), "@main") }, wait) {
		t.Fatalf("the explorer did not come back after growing the window")
	}
	tm.send("q")
	if st := tm.exit(wait); st != 0 {
		t.Fatalf("exit status %d after q, want 0", st)
	}
	waitLog(t, ts.log, "session end")
	fp := gossh.FingerprintSHA256(ts.client.PublicKey())
	for _, want := range []string{"session start", "user=alice", "key=" + fp, "module opened"} {
		if !strings.Contains(ts.log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, ts.log.String())
		}
	}
}

// Every session has its own explorer state and window size.
func TestSessionsAreIndependent(t *testing.T) {
	ts := startServer(t, nil, nil)
	c := ts.mustDial(t, "bob")
	a := openTerm(t, c, 120, 40, nil)
	b := openTerm(t, c, 60, 20, nil)
	a.waitFor(PickerTitle, wait)
	b.waitFor(PickerTitle, wait)
	a.openSample(ts, "wave-switch-42-ir")
	a.waitFor("define void @main", wait)
	b.openSample(ts, "divergent-loop")
	b.waitFor("terminal too small: 60×20", wait)
	if strings.Contains(squash(b.out.String()), "wave-switch-42-ir.pir") {
		t.Fatalf("session b shows session a's module")
	}
}

func TestUnknownKeyRefused(t *testing.T) {
	ts := startServer(t, nil, nil)
	other := newSigner(t)
	if c, err := ts.dial("mallory", gossh.PublicKeys(other)); err == nil {
		c.Close()
		t.Fatal("an unknown key logged in")
	}
	waitLog(t, ts.log, "public key not authorized")
	waitLog(t, ts.log, gossh.FingerprintSHA256(other.PublicKey()))
}

func TestPasswordAndNoKeyRefused(t *testing.T) {
	ts := startServer(t, nil, nil)
	cases := map[string][]gossh.AuthMethod{
		"password": {gossh.Password("hunter2")},
		"keyboard-interactive": {gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) {
			return []string{"hunter2"}, nil
		})},
		"none": nil,
	}
	for name, auth := range cases {
		if c, err := ts.dial("alice", auth...); err == nil {
			c.Close()
			t.Errorf("%s: logged in", name)
		} else if !strings.Contains(err.Error(), "unable to authenticate") {
			t.Errorf("%s: %v", name, err)
		}
	}
	waitLog(t, ts.log, "handshake failed")
}

func TestCommandsRefused(t *testing.T) {
	ts := startServer(t, nil, nil)
	c := ts.mustDial(t, "alice")
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	out, err := sess.CombinedOutput("cat /etc/passwd")
	var ee *gossh.ExitError
	if !errors.As(err, &ee) || ee.ExitStatus() != 1 {
		t.Fatalf("exec: err %v, want exit status 1", err)
	}
	if !strings.Contains(string(out), "commands are not allowed") || strings.Contains(string(out), "root:") {
		t.Fatalf("exec output %q", out)
	}
	// A shell without a PTY is turned away with a message.
	sess, err = c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	sess.Stdin = strings.NewReader("")
	out, err = sess.CombinedOutput("")
	if !errors.As(err, &ee) || ee.ExitStatus() != 1 || !strings.Contains(string(out), "needs a terminal") {
		t.Fatalf("no-PTY shell: %q, %v", out, err)
	}
	// Subsystems (sftp) are refused.
	sess, err = c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestSubsystem("sftp"); err == nil {
		t.Fatal("sftp subsystem accepted")
	}
	waitLog(t, ts.log, "command requested")
	waitLog(t, ts.log, "no PTY")
}

func TestPortForwardingRefused(t *testing.T) {
	ts := startServer(t, nil, nil)
	c := ts.mustDial(t, "alice")
	if conn, err := c.Dial("tcp", ts.addr); err == nil {
		conn.Close()
		t.Fatal("direct-tcpip channel accepted")
	} else if !strings.Contains(err.Error(), "administratively prohibited") {
		t.Fatalf("direct-tcpip: %v", err)
	}
	if ln, err := c.Listen("tcp", "127.0.0.1:0"); err == nil {
		ln.Close()
		t.Fatal("tcpip-forward accepted")
	}
	waitLog(t, ts.log, "channel=direct-tcpip")
	waitLog(t, ts.log, "request=tcpip-forward")
}

// Typed module paths are confined to the modules directory.
func TestTypedPathEscapeRefused(t *testing.T) {
	ts := startServer(t, nil, nil)
	outside := filepath.Join(filepath.Dir(ts.dir), "secret.pir")
	if err := os.WriteFile(outside, []byte("module \"secret\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(ts.dir, "link.pir")); err != nil {
		t.Fatal(err)
	}
	tm := openTerm(t, ts.mustDial(t, "alice"), 120, 40, nil)
	tm.waitFor(PickerTitle, wait)
	tm.send("o")
	tm.waitFor("module path:", wait)
	tm.send("../secret.pir\r")
	tm.waitFor("'..' is not allowed", wait)
	tm.send("o" + outside + "\r")
	tm.waitFor("absolute paths are not allowed", wait)
	tm.send("olink.pir\r")
	tm.waitFor("resolves outside the modules directory", wait)
}

// A module from the modules directory opens; its HLSL includes may not
// leave the directory.
func TestModulesDirectory(t *testing.T) {
	ts := startServer(t, nil, nil)
	src, err := os.ReadFile("../../samples/divergent-loop.pir")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ts.dir, "mine.pir"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	tm := openTerm(t, ts.mustDial(t, "alice"), 120, 40, nil)
	tm.waitFor("mine.pir", wait)
	tm.send("G\r") // the directory's files follow the samples
	tm.waitFor("define", wait)
	tm.waitFor("mine.pir", wait)
	if _, err := ts.srv.readInclude("../../../etc/passwd"); err == nil || !strings.Contains(err.Error(), "not allowed") {
		t.Fatalf("include outside the directory: %v", err)
	}
	if _, err := ts.srv.readInclude("/etc/passwd"); err == nil {
		t.Fatal("absolute include allowed")
	}
}

func TestSessionLimit(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxSessions = 2 }, nil)
	for i := 0; i < 2; i++ {
		openTerm(t, ts.mustDial(t, "alice"), 100, 30, nil).waitFor(PickerTitle, wait)
	}
	tm := openTerm(t, ts.mustDial(t, "alice"), 100, 30, nil)
	tm.waitFor("server busy: 2 sessions", wait)
	if st := tm.exit(wait); st != 1 {
		t.Fatalf("exit status %d, want 1", st)
	}
	waitLog(t, ts.log, "reason=\"session limit\"")
}

// A panic in one session ends that session with a message; others go on.
func TestPanicEndsOnlyThatSession(t *testing.T) {
	ts := startServer(t, nil, func(s *Server) {
		s.testHook = func(sess ssh.Session) {
			if sess.User() == "boom" {
				panic("injected test panic")
			}
		}
	})
	ok := openTerm(t, ts.mustDial(t, "alice"), 120, 40, nil)
	ok.waitFor(PickerTitle, wait)
	bad := openTerm(t, ts.mustDial(t, "boom"), 120, 40, nil)
	bad.waitFor("internal error", wait)
	if st := bad.exit(wait); st != 1 {
		t.Fatalf("panicked session: exit status %d, want 1", st)
	}
	// The first session and new ones still work.
	ok.openSample(ts, "wave-switch-42-ir")
	ok.waitFor("define void @main", wait)
	again := openTerm(t, ts.mustDial(t, "carol"), 120, 40, nil)
	again.waitFor(PickerTitle, wait)
	waitLog(t, ts.log, "injected test panic")
	if ts.srv.Sessions() != 2 {
		t.Fatalf("%d live sessions, want 2", ts.srv.Sessions())
	}
}

// A panic in a session's model (after the handoff) ends that session.
func TestModelPanicEndsSession(t *testing.T) {
	ts := startServer(t, nil, func(s *Server) {
		s.testUpdateHook = func(msg tea.Msg) {
			if _, ok := msg.(panicMsg); ok {
				panic("injected model panic")
			}
		}
	})
	tm := openTerm(t, ts.mustDial(t, "alice"), 120, 40, nil)
	tm.waitFor(PickerTitle, wait)
	ts.srv.mu.Lock()
	for _, ls := range ts.srv.sessions {
		ls.prog.send(panicMsg{})
	}
	ts.srv.mu.Unlock()
	tm.waitFor("internal error", wait)
	if st := tm.exit(wait); st != 1 {
		t.Fatalf("exit status %d, want 1", st)
	}
}

func TestShutdownTellsSessions(t *testing.T) {
	ts := startServer(t, nil, nil)
	tm := openTerm(t, ts.mustDial(t, "alice"), 120, 40, nil)
	tm.waitFor(PickerTitle, wait)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := ts.srv.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	tm.waitFor("server shutting down", wait)
	select {
	case err := <-ts.done:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
		ts.done <- nil // for the cleanup
	case <-time.After(wait):
		t.Fatal("Serve did not return")
	}
	if _, err := ts.dial("alice", gossh.PublicKeys(ts.client)); err == nil {
		t.Fatal("dial succeeded after shutdown")
	}
}

// panicMsg makes a test session's model panic.
type panicMsg struct{}

// The interpreter budget is per session: a tiny cap stops the lanes run.
func TestMaxRunSteps(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxRunSteps = 5 }, nil)
	tm := openTerm(t, ts.mustDial(t, "alice"), 160, 48, nil)
	tm.waitFor(PickerTitle, wait)
	tm.openSample(ts, "wave-switch-42-ir")
	tm.waitFor("define void @main", wait)
	tm.send("5")
	tm.waitFor("press r to run", wait)
	tm.send("r")
	tm.waitFor("5 steps executed", wait)
}

func TestIdleTimeout(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.IdleTimeout = 400 * time.Millisecond }, nil)
	tm := openTerm(t, ts.mustDial(t, "alice"), 120, 40, nil)
	tm.waitFor(PickerTitle, wait)
	select {
	case <-tm.waitc:
	case <-time.After(wait):
		t.Fatal("idle session was not closed")
	}
	waitLog(t, ts.log, "session end")
}

// HLSL #include cannot reach files outside the modules directory.
func TestIncludeConfined(t *testing.T) {
	ts := startServer(t, nil, nil)
	secret := filepath.Join(filepath.Dir(ts.dir), "secret.hlsli")
	if err := os.WriteFile(secret, []byte("#error SECRET-CONTENT\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, inc := range []string{"../secret.hlsli", secret} {
		src := "#include \"" + inc + "\"\n[numthreads(1,1,1)] void main() {}\n"
		if err := os.WriteFile(filepath.Join(ts.dir, "a.hlsl"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ts.srv.openModule(moduleRef{path: "a.hlsl"})
		if err == nil || strings.Contains(err.Error(), "SECRET-CONTENT") || !strings.Contains(err.Error(), "file not found") {
			t.Fatalf("#include %q: %v", inc, err)
		}
	}
}
