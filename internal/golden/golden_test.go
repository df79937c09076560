package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	failed []string
}

func (r *recorder) Helper()                      {}
func (r *recorder) Errorf(f string, args ...any) { r.failed = append(r.failed, f) }
func (r *recorder) Fatalf(f string, args ...any) { r.failed = append(r.failed, f) }
func (r *recorder) Fatal(args ...any)            { r.failed = append(r.failed, "fatal") }

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.txt")
	if err := os.WriteFile(path, []byte("a\nb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	Check(r, path, []byte("a\nb\n"))
	if len(r.failed) != 0 {
		t.Fatalf("equal output failed: %v", r.failed)
	}
	Check(r, path, []byte("a\nc\n"))
	if len(r.failed) != 1 {
		t.Fatalf("different output passed")
	}
	Check(r, filepath.Join(dir, "missing.txt"), nil)
	if len(r.failed) != 2 || !strings.Contains(r.failed[1], "-update") {
		t.Fatalf("missing file: %v", r.failed)
	}
	*update = true
	defer func() { *update = false }()
	newPath := filepath.Join(dir, "sub", "y.txt")
	Check(r, newPath, []byte("new\n"))
	if b, err := os.ReadFile(newPath); err != nil || string(b) != "new\n" || len(r.failed) != 2 {
		t.Fatalf("-update did not write the file: %q %v %v", b, err, r.failed)
	}
}

func TestDiffLines(t *testing.T) {
	d := DiffLines("a\nb\nc", "a\nx\nc\nd")
	if !strings.Contains(d, "line 2:\n    want: b\n    got:  x") || !strings.Contains(d, "line 4:") || strings.Contains(d, "line 1:") {
		t.Errorf("DiffLines:\n%s", d)
	}
}
