package passdump

import (
	"bufio"
	"io"
	"os"
	"strings"
)

// sniffLines is how many lines Sniff reads before giving up: tools print
// warnings before the first dump, but a dump starts early.
const sniffLines = 200

// Sniff reports whether the text read from r looks like a pass log: one of
// its first lines is a dump banner. Source files (.ll, .txt, .pir) are not
// mistaken for logs: no LLVM, HLSL or passlens IR line has a banner's shape.
func Sniff(r io.Reader) bool {
	// A banner comes early: the first sniffLines lines, within 4 MiB
	// (so one endless line cannot keep Sniff reading).
	br := bufio.NewReaderSize(io.LimitReader(r, 4<<20), 64<<10)
	for n := 0; n < sniffLines; n++ {
		line, err := br.ReadSlice('\n')
		if len(line) > 9 && maybeBanner(line) {
			s := strings.TrimRight(string(line), "\r\n")
			if _, ok := parseHeader(s); ok {
				return true
			}
			if i := strings.Index(s, " ***"); i > 0 {
				if _, ok := parseHeader(s[:i+4]); ok {
					return true
				}
			}
		}
		if err == bufio.ErrBufferFull {
			// A very long line: skip the rest of it.
			for err == bufio.ErrBufferFull {
				_, err = br.ReadSlice('\n')
			}
		}
		if err != nil {
			return false
		}
	}
	return false
}

// SniffFile is Sniff on a file; errors (a missing file) answer false, so
// that the caller reports them when it opens the file the usual way.
func SniffFile(path string) bool {
	// Only a regular file can be a log: opening a FIFO would block and a
	// device (/dev/zero) never ends.
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return Sniff(f)
}
