package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

func TestServeRefusesWithoutAuthorizedKeys(t *testing.T) {
	tmp := t.TempDir()
	var out, errb bytes.Buffer
	code := runMain([]string{"serve", "--listen", "127.0.0.1:0", "--authorized-keys", filepath.Join(tmp, "none"), "--host-key", filepath.Join(tmp, "hk")}, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "no authorized keys file") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	if code := runMain([]string{"serve", "extra"}, &out, &errb); code != 2 {
		t.Fatalf("positional argument: exit %d, want 2", code)
	}
}

// lockedBuffer is a goroutine-safe buffer for a child's stderr.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestServeSIGTERM runs `passlens serve` in a child process (this test
// binary re-executed) and checks that SIGTERM shuts it down with status 0.
func TestServeSIGTERM(t *testing.T) {
	if os.Getenv("PASSLENS_SERVE_CHILD") == "1" {
		os.Exit(runMain(strings.Fields(os.Getenv("PASSLENS_SERVE_ARGS")), os.Stdout, os.Stderr))
	}
	tmp := t.TempDir()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	signer, _ := gossh.NewSignerFromKey(priv)
	ak := filepath.Join(tmp, "authorized_keys")
	if err := os.WriteFile(ak, gossh.MarshalAuthorizedKey(signer.PublicKey()), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeSIGTERM$")
	cmd.Env = append(os.Environ(), "PASSLENS_SERVE_CHILD=1", "XDG_DATA_HOME="+tmp,
		"PASSLENS_SERVE_ARGS=serve --listen 127.0.0.1:0 --authorized-keys "+ak)
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(stderr.String(), "listening") {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("server did not start: %s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if fi, err := os.Stat(filepath.Join(tmp, "passlens", "host_ed25519")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("host key in XDG_DATA_HOME: %v %v", fi, err)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v\n%s", err, stderr.String())
		}
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatal("server did not exit after SIGTERM")
	}
	if !strings.Contains(stderr.String(), "shutting down") {
		t.Errorf("no shutdown log line: %s", stderr.String())
	}
}
