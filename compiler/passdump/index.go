package passdump

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"math/bits"
	"os"
	"sync"
)

// Languages of step texts (the explorer's lexer names).
const (
	LangLLVM  = "llvm"   // LLVM IR
	LangPIR   = "pir"    // passlens IR
	LangMIR   = "mir"    // LLVM machine IR as -print-after-all prints it
	LangSPIRV = "spvasm" // SPIR-V assembly (spirv-opt --print-all)
)

// Status is what a step did to the module.
type Status uint8

const (
	Input     Status = iota // the module before the first pass (At Start, spirv-opt's first block)
	Changed                 // the step's text differs from the previous step of its language
	Unchanged               // printed identical, or "omitted because no change"
)

func (s Status) String() string {
	switch s {
	case Input:
		return "input"
	case Changed:
		return "changed"
	}
	return "unchanged"
}

// Step is one dump of the log.
type Step struct {
	Pass   string // pass name as printed
	Scope  string // after " on ": "[module]", "f", "loop %x in function f", "(f, g)"; "" if not printed
	Lang   string // LangLLVM, LangPIR, LangMIR, LangSPIRV or a passlens stage language ("sir")
	Before bool   // an "IR Dump Before" dump: the module before Pass ran
	Status Status
	// Partial marks a step whose text was merged from a dump that printed
	// only part of a function (a loop): the printed blocks replace the
	// blocks of the same name, everything else is as of the previous step.
	Partial bool
	Failed  string // passlens: the pass failed with this message
	Note    string // why a step is unusual (nothing printed, function unknown, …)
	// Touched lists the functions whose text this step printed; Changed
	// those of them (or, for a module dump, of all functions) whose text
	// differs from the previous step's. ModuleChanged reports a change
	// outside function bodies (globals, declarations, attributes, metadata).
	Touched       []string
	ChangedFuncs  []string
	ModuleChanged bool
	Line          int   // 1-based line of the banner in the log
	Offset        int64 // byte offset of the banner
}

// ChangedFunc reports whether the step changed function fn's text.
func (s *Step) ChangedFunc(fn string) bool {
	for _, f := range s.ChangedFuncs {
		if f == fn {
			return true
		}
	}
	return false
}

// FuncSpan locates a function in a step's text (0-based lines, end exclusive).
type FuncSpan struct {
	Name       string
	Start, End int
}

// Log is an indexed pass log. Its methods are safe for concurrent use.
type Log struct {
	Name  string
	Steps []Step
	// Preamble is the number of bytes before the first banner (tool
	// messages that are not part of any dump).
	Preamble int64
	// Format names the dialect of the first banner ("new pass manager",
	// "legacy pass manager", "machine IR", "spirv-opt", "passlens").
	Format string

	r      io.ReaderAt
	closer io.Closer
	size   int64
	segs   []seg
	deltas []delta
	cps    []checkpoint

	mu    sync.Mutex
	cache []cached
}

// seg is a piece of a module text: a byte range of the log, or a literal
// (separators added when a function is inserted).
type seg struct {
	off, n  int64
	name    string // function name; "" for text outside functions
	hash    uint64
	patches []int32 // loop dumps applied on top of this function, in order
	lit     string
}

// delta is how a step changes its track's module state.
type delta struct {
	track uint8
	reset []int32 // non-nil: the state becomes exactly these pieces
	set   []int32 // function pieces replacing (or adding) the function of their name
	del   []string
}

type checkpoint struct {
	step  int // the state after applying deltas[0..step]
	state [nTracks][]int32
}

type cached struct {
	step  int
	text  string
	funcs []FuncSpan
}

// Tracks: each language has its own running module state.
const (
	trackIR = iota
	trackMIR
	trackSPV
	trackStage
	nTracks
)

// sepSeg is the literal blank line put between a function and one inserted
// after it.
const sepSeg = 0

var seed = maphash.MakeSeed()

func mix(h, l uint64) uint64 {
	return (bits.RotateLeft64(h, 17) ^ l) * 0x9E3779B97F4A7C15
}

// Open indexes the log at path ("-" reads standard input into a temporary
// file first, so that it can be read at random).
func Open(path string) (*Log, error) {
	var f *os.File
	var err error
	if path == "-" {
		f, err = spool(os.Stdin)
	} else {
		// A log may be far larger than a module (no size bound), but it
		// must be a regular file: a FIFO would block, a device never ends.
		var fi os.FileInfo
		if fi, err = os.Stat(path); err == nil && !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: not a regular file", path)
		}
		if err == nil {
			f, err = os.Open(path)
		}
	}
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	name := path
	if path == "-" {
		name = "<stdin>"
	}
	l, err := Index(name, f, st.Size())
	if err != nil {
		f.Close()
		return nil, err
	}
	l.closer = f
	return l, nil
}

// spool copies r into an unlinked temporary file.
func spool(r io.Reader) (*os.File, error) {
	f, err := os.CreateTemp("", "passlens-dump-*")
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name()) // the open descriptor keeps the data
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return nil, fmt.Errorf("reading standard input: %v", err)
	}
	return f, nil
}

// Parse indexes a log held in memory.
func Parse(name string, data []byte) (*Log, error) {
	return Index(name, bytes.NewReader(data), int64(len(data)))
}

// Close releases the log's file.
func (l *Log) Close() error {
	if l.closer != nil {
		return l.closer.Close()
	}
	return nil
}

// Size is the log's size in bytes.
func (l *Log) Size() int64 { return l.size }

// ErrNotDump is returned when a file contains no pass-dump banner.
var ErrNotDump = errors.New("no pass-dump banner (*** IR Dump After …, ; IR before pass …) found")

// Index scans r once and builds the step list. A -print-changed=diff log
// (IsDiffLog) is first rebuilt in memory into the full log it stands for
// (RebuildDiff).
func Index(name string, r io.ReaderAt, size int64) (*Log, error) {
	head := make([]byte, min(size, 1<<20))
	n, _ := r.ReadAt(head, 0)
	if IsDiffLog(head[:n]) {
		full, err := RebuildDiff(io.NewSectionReader(r, 0, size))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		r, size = bytes.NewReader(full), int64(len(full))
	}
	l := &Log{Name: name, r: r, size: size}
	l.segs = append(l.segs, seg{lit: "\n", hash: 1})
	ix := newIndexer(l)
	br := bufio.NewReaderSize(io.NewSectionReader(r, 0, size), 1<<20)
	var off int64
	var long []byte
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A line longer than the buffer: keep it whole (rare; metadata).
			long = append(long[:0], line...)
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if len(line) > 0 {
			ix.line(off, line)
			off += int64(len(line))
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
	}
	ix.finish(off)
	if len(l.Steps) == 0 {
		return nil, fmt.Errorf("%s: %w", name, ErrNotDump)
	}
	return l, nil
}
