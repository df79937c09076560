package limits

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadFileRefusesHostileFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, 101), 0o600); err != nil {
		t.Fatal(err)
	}
	zeroLink := filepath.Join(dir, "config.json")
	if err := os.Symlink("/dev/zero", zeroLink); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path string
		want error
		text string
	}{
		{"/dev/zero", ErrNotRegular, "character device"},
		{zeroLink, ErrNotRegular, "character device"},
		{fifo, ErrNotRegular, "FIFO"},
		{dir, ErrNotRegular, "directory"},
		{big, ErrTooLarge, "limit is 100"},
	}
	for _, c := range cases {
		done := make(chan error, 1)
		go func() { _, err := ReadFile(c.path, 100); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, c.want) || !strings.HasPrefix(err.Error(), c.path+": ") || !strings.Contains(err.Error(), c.text) {
				t.Errorf("ReadFile(%s) = %v, want %v naming the file and %q", c.path, err, c.want, c.text)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("ReadFile(%s) blocked", c.path)
		}
	}
	ok := filepath.Join(dir, "ok")
	os.WriteFile(ok, []byte("hello"), 0o600)
	if data, err := ReadFile(ok, 5); err != nil || string(data) != "hello" {
		t.Errorf("ReadFile(ok) = %q, %v", data, err)
	}
}

func TestModuleLimitEnv(t *testing.T) {
	for _, c := range []struct {
		env  string
		want int64
		bad  bool
	}{
		{"", MaxModuleSize, false},
		{"1000", 1000, false},
		{"64M", 64 << 20, false},
		{"2g", 2 << 30, false},
		{"x", 0, true},
		{"-5", 0, true},
		{"M", 0, true},
	} {
		t.Setenv(ModuleSizeEnv, c.env)
		got, err := ModuleLimit()
		if (err != nil) != c.bad || got != c.want {
			t.Errorf("%s=%q: got %d, %v; want %d (error %v)", ModuleSizeEnv, c.env, got, err, c.want, c.bad)
		}
	}
}
