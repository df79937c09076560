//go:build unix

package atomicfile

import (
	"io/fs"
	"syscall"
)

// umask is the process's file creation mask, read once at start-up (the
// temporary file is created 0600 and then given the mode a plain create
// would have had).
var umask = func() fs.FileMode {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return fs.FileMode(m)
}()
