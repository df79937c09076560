package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// leftovers lists the directory's entries other than want (temporary
// files must never remain).
func leftovers(t *testing.T, dir string, want ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Errorf("directory holds %q, want %q", names, want)
	}
}

func TestWriteNewAndReplace(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.txt")
	if err := Write(p, []byte("one"), Options{}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if want := 0o644 &^ umask; fi.Mode().Perm() != want {
		t.Errorf("new file mode %v, want %v", fi.Mode().Perm(), want)
	}
	// Without Replace an existing file is kept.
	err = Write(p, []byte("two"), Options{})
	if !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second write without Replace: %v, want ErrExist", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "one" {
		t.Fatalf("file changed to %q", b)
	}
	// With Replace it is replaced and keeps its mode.
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, []byte("three"), Options{Replace: true}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "three" {
		t.Fatalf("file is %q after Replace", b)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("replaced file mode %v, want 0600 kept", fi.Mode().Perm())
	}
	leftovers(t, dir, "out.txt")
}

func TestWriteRefusesSymlinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "created-through-link"), dangling); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{link, dangling} {
		for _, replace := range []bool{false, true} {
			err := Write(p, []byte("evil"), Options{Replace: replace})
			if !errors.Is(err, ErrSymlink) {
				t.Errorf("Write(%s, Replace=%v) = %v, want ErrSymlink", filepath.Base(p), replace, err)
			}
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("link target changed to %q", b)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link itself was replaced: %v %v", fi, err)
	}
	leftovers(t, dir, "dangling", "link", "target")
}

func TestWriteRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{sub, fifo} {
		err := Write(p, []byte("x"), Options{Replace: true})
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("Write(%s) = %v, want a refusal", filepath.Base(p), err)
		}
	}
	leftovers(t, dir, "fifo", "sub")
}

// A failure while writing leaves neither a partial destination nor a
// temporary file.
func TestWriteFailureLeavesNothing(t *testing.T) {
	if os.Getuid() == 0 {
		t.Skip("root ignores directory permissions")
	}
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ro, "old"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(ro, 0o755)
	if err := Write(filepath.Join(ro, "old"), []byte("new"), Options{Replace: true}); err == nil || !strings.Contains(err.Error(), filepath.Join(ro, "old")) {
		t.Fatalf("write into a read-only directory: %v, want an error naming the file", err)
	}
	if b, _ := os.ReadFile(filepath.Join(ro, "old")); string(b) != "old" {
		t.Errorf("existing file became %q", b)
	}
	leftovers(t, ro, "old")
}

func TestSameFile(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a")
	os.WriteFile(a, nil, 0o644)
	os.Symlink(a, filepath.Join(dir, "l"))
	os.Link(a, filepath.Join(dir, "h"))
	wd, _ := os.Getwd()
	rel, _ := filepath.Rel(wd, a)
	for _, b := range []string{a, rel, filepath.Join(dir, "l"), filepath.Join(dir, "h"), dir + "/./a"} {
		if !SameFile(a, b) {
			t.Errorf("SameFile(a, %s) = false", b)
		}
	}
	if SameFile(a, filepath.Join(dir, "missing")) || SameFile(a, dir) {
		t.Error("SameFile true for a different file")
	}
}

// Writing to /dev/null discards the data and leaves the device alone.
func TestDevNull(t *testing.T) {
	before, err := os.Lstat(os.DevNull)
	if err != nil {
		t.Skip(err)
	}
	if err := Write(os.DevNull, []byte("x"), Options{}); err != nil {
		t.Fatal(err)
	}
	after, err := os.Lstat(os.DevNull)
	if err != nil || after.Mode() != before.Mode() {
		t.Fatalf("/dev/null changed: %v %v", after, err)
	}
}
