// Package limits holds the bounds every input path of passlens shares —
// the largest module, include, script, JSON input or config file a reader
// accepts — and ReadFile, the one way to read such a file: it refuses
// anything but a regular file (a FIFO would block, /dev/zero never ends, a
// directory is not text) and anything larger than the bound, with an error
// that names the file, before reading more than the bound.
package limits

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime/debug"
	"strconv"
)

// MaxModuleSize bounds a module file (HLSL, .pir, .ll), each #include, an
// interpreter input JSON file, a replay script and the config file: 4 MiB
// is far beyond any real shader and small enough that every frontend
// finishes within its time and memory budget.
const MaxModuleSize = 4 << 20

// ErrTooLarge and ErrNotRegular are wrapped by ReadFile's errors.
var (
	ErrTooLarge   = errors.New("too large")
	ErrNotRegular = errors.New("not a regular file")
)

// ReadFile reads path, which must be a regular file (symbolic links are
// followed) of at most max bytes. Errors start with path.
func ReadFile(path string, max int64) ([]byte, error) {
	// Stat before opening: opening a FIFO for reading blocks until a
	// writer appears.
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := check(path, fi, max); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The file may have been replaced between Stat and Open.
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := check(path, fi, max); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: %w (the limit is %d bytes)", path, ErrTooLarge, max)
	}
	return data, nil
}

// check refuses non-regular and oversized files.
func check(path string, fi fs.FileInfo, max int64) error {
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, describe(fi.Mode()))
	}
	if fi.Size() > max {
		return fmt.Errorf("%s: %w (%d bytes; the limit is %d)", path, ErrTooLarge, fi.Size(), max)
	}
	return nil
}

// describe names a file type for an error message.
func describe(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "mode " + m.String()
}

// unwrapPath drops the *PathError wrapper so the path is not printed twice.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// SoftMemoryLimit is the Go runtime's soft memory limit for a one-shot
// command (compile, run, analyze, ...): inputs of at most MaxModuleSize
// keep well under it live, but the garbage of a 4 MiB module's passes
// would push the peak past the 1 GiB budget with the default GOGC alone.
const SoftMemoryLimit = 800 << 20

// SetSoftMemoryLimit applies SoftMemoryLimit unless the user set
// GOMEMLIMIT. It is a soft limit: the collector works harder near it, and
// nothing fails when a run needs more.
func SetSoftMemoryLimit() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(SoftMemoryLimit)
	}
}

// ModuleSizeEnv names the environment variable that raises the module
// bound of local commands (load.Read: analyze, compile, run, the explorer's
// first file) above MaxModuleSize, for large generated inputs such as the
// 100k-block benchmark of BENCHMARKS.md. `passlens serve` never reads it:
// its sessions keep MaxModuleSize.
const ModuleSizeEnv = "PASSLENS_MAX_MODULE_SIZE"

// ModuleLimit is the module bound of local commands: MaxModuleSize, or
// $PASSLENS_MAX_MODULE_SIZE (bytes, or with a K, M or G suffix) when set.
func ModuleLimit() (int64, error) {
	s := os.Getenv(ModuleSizeEnv)
	if s == "" {
		return MaxModuleSize, nil
	}
	mult := int64(1)
	switch s[len(s)-1] {
	case 'K', 'k':
		mult = 1 << 10
	case 'M', 'm':
		mult = 1 << 20
	case 'G', 'g':
		mult = 1 << 30
	}
	num := s
	if mult != 1 {
		num = s[:len(s)-1]
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > (1<<40)/mult {
		return 0, fmt.Errorf("%s=%q: want a positive size in bytes (suffix K, M or G allowed)", ModuleSizeEnv, s)
	}
	return n * mult, nil
}
