//go:build !unix

package atomicfile

import "io/fs"

// umask is the usual default where there is none to read.
const umask fs.FileMode = 0o022
