// Package atomicfile writes output files the one way passlens writes them
// (compile -o, replay export, the explorer's export): the data goes to a
// temporary file in the destination's directory which is then renamed
// over (or linked to) the destination, so a reader never sees a partial
// file and a failure leaves the destination as it was.
//
// Rules, checked before anything is written:
//   - a symbolic link at the destination (dangling or not) is refused: the
//     data would land wherever the link points, possibly outside the
//     directory the user named (ErrSymlink);
//   - anything but a regular file at the destination (a directory, a FIFO,
//     a device) is refused;
//   - an existing regular file is replaced only with Options.Replace;
//     otherwise the write fails with an error that wraps fs.ErrExist. The
//     check and the creation are one atomic step (a hard link of the
//     temporary file), so a file created meanwhile is not clobbered either.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Options tune Write.
type Options struct {
	// Replace allows replacing an existing regular file.
	Replace bool
	// Perm is the mode of a new file (default 0644, before the umask). A
	// replaced file keeps its own permission bits.
	Perm fs.FileMode
}

// ErrSymlink is returned (wrapped) when the destination is a symbolic link.
var ErrSymlink = errors.New("is a symbolic link; passlens does not write through links (remove it or choose another name)")

// Write stores data at path atomically under the rules above. Errors name
// the path.
func Write(path string, data []byte, opts Options) error {
	if filepath.Clean(path) == os.DevNull {
		// "-o /dev/null" discards the output, as it does for cc and
		// glslangValidator; nothing is replaced.
		return nil
	}
	perm := opts.Perm
	if perm == 0 {
		perm = 0o644
	}
	if err := check(path, opts.Replace); err != nil {
		return err
	}
	exists := false
	if fi, err := os.Lstat(path); err == nil {
		exists = true
		perm = fi.Mode().Perm()
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	tmpName := tmp.Name()
	if !exists {
		perm &^= umask
	}
	ok := false
	defer func() {
		if !ok {
			os.Remove(tmpName)
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if !exists || !opts.Replace {
		// Link fails if path appeared since the check: no clobbering.
		err := os.Link(tmpName, path)
		if err == nil {
			return nil // the deferred Remove drops the temporary name
		}
		// It appeared meanwhile, or the file system has no hard links:
		// check again and rename only where the rules allow.
		if err := check(path, opts.Replace); err != nil {
			return err
		}
	}
	// rename replaces a symlink itself, never its target, so a link that
	// appeared after the check is not followed either.
	if err := os.Rename(tmpName, path); err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	ok = true
	return nil
}

// check applies the rules to whatever is at path now.
func check(path string, replace bool) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s %w", path, ErrSymlink)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s: not a regular file (%s); refusing to replace it", path, kind(fi.Mode()))
	case !replace:
		return &fs.PathError{Op: "write", Path: path, Err: fs.ErrExist}
	}
	return nil
}

// SameFile reports whether a and b name the same existing file (through
// links, relative paths or hard links), for refusing `-o INPUT`.
func SameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false
	}
	return os.SameFile(fa, fb)
}

func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return m.Type().String()
}

// unwrapPath drops the temporary file's name from an error: the user
// knows the destination, not our temporary name.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
