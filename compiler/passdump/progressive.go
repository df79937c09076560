package passdump

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
)

// Progressive is a log being indexed in the background. Indexing is one
// sequential scan (about 1 s of CPU per 500 MB): rather than wait for it,
// the explorer shows First, an index of the log's first part cut at a
// banner (a valid log of the dumps before the cut), and swaps in the whole
// log when Wait returns it.
type Progressive struct {
	First *Log // the first part; nil when the log is small or its first part has no dump

	done chan struct{}
	full *Log
	err  error
}

// DefaultFirstPart is how much of a log Progressive indexes before the
// first frame: ~15 ms of CPU (a loaded machine multiplies it); logs up to
// twice this size are indexed whole.
const DefaultFirstPart = 8 << 20

// maxCutSearch bounds the search for a banner after the first part (a log
// whose dumps are larger than this is indexed whole first).
const maxCutSearch = 64 << 20

// OpenProgressive opens the log at path ("-" spools standard input as
// Open does) and indexes its first firstPart bytes (up to the next
// banner) at once, the whole log in a goroutine.
func OpenProgressive(path string, firstPart int64) (*Progressive, error) {
	f, name, err := openLog(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	size := st.Size()
	p := &Progressive{done: make(chan struct{})}
	if size > 2*firstPart {
		if cut := findCut(f, firstPart, size); cut > 0 {
			if first, err := Index(name, f, cut); err == nil {
				p.First = first // shares f; only the whole log closes it
			}
		}
	}
	go func() {
		defer close(p.done)
		l, err := Index(name, f, size)
		if err != nil {
			f.Close()
			p.err = err
			return
		}
		l.closer = f
		p.full = l
	}()
	return p, nil
}

// Done reports whether the whole log is indexed (or failed to).
func (p *Progressive) Done() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Wait returns the whole log once it is indexed, or ctx's error.
func (p *Progressive) Wait(ctx context.Context) (*Log, error) {
	select {
	case <-p.done:
		return p.full, p.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// openLog opens a log file as Open does: a regular file, or standard input
// spooled to a temporary file for "-".
func openLog(path string) (*os.File, string, error) {
	if path == "-" {
		f, err := spool(os.Stdin)
		return f, "<stdin>", err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, "", err
	}
	if !fi.Mode().IsRegular() {
		return nil, "", fmt.Errorf("%s: not a regular file", path)
	}
	f, err := os.Open(path)
	return f, path, err
}

// findCut returns the offset of the first banner line starting at or after
// from (0 when none is found within maxCutSearch bytes).
func findCut(r io.ReaderAt, from, size int64) int64 {
	if from <= 0 || from >= size {
		return 0
	}
	// Start one byte early so that a banner starting exactly at from is
	// seen as a line start.
	off := from - 1
	br := bufio.NewReaderSize(io.NewSectionReader(r, off, min(size-off, maxCutSearch)), 1<<16)
	first := true
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			n := int64(len(line))
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice('\n')
				n += int64(len(line))
			}
			off += n
			first = false
			continue
		}
		if !first && len(line) > 9 && maybeBanner(line) {
			if _, ok := parseHeader(strings.TrimRight(string(line), "\r\n")); ok {
				return off
			}
		}
		first = false
		off += int64(len(line))
		if err != nil {
			return 0
		}
	}
}
