package passdump

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// Command is a compiler invocation whose pass log is loaded as steps
// (`passlens --run 'opt-22 -O3 f.ll'`). Run adds the print flag of the
// tool, captures standard error into an unlinked temporary file and
// indexes it. What-if edits re-run the command with a rewritten pass list:
// opt's -passes= (an -O level is first expanded with -print-pipeline-passes),
// spirv-opt's pass flags (an -O or -Os is expanded from the passes its log
// names). llc and clang have no editable pass list.
type Command struct {
	Argv []string
	Tool string // "opt", "llc", "clang", "spirv-opt"
	// Failure is the tool's message when its last run exited with an
	// error after printing dumps (the steps before it are kept).
	Failure string
	// Wrapper, when set, is a command prefix the tool runs under (the SSH
	// server's prlimit and nice), Dir the directory it runs in and Env its
	// environment (nil: the caller's).
	Wrapper []string
	Dir     string
	Env     []string

	mu       sync.Mutex
	pipeline []string
	plErr    error
	plDone   bool
	cached   *Log // the log of the run that expanded spirv-opt's -O
}

var versionSuffix = regexp.MustCompile(`-[0-9]+(\.[0-9]+)*$`)

// ParseCommand splits a command line (single and double quotes, backslash
// escapes) and recognises the tool.
func ParseCommand(line string) (*Command, error) {
	argv, err := splitArgs(line)
	if err != nil {
		return nil, err
	}
	if len(argv) == 0 {
		return nil, errors.New("empty command")
	}
	base := versionSuffix.ReplaceAllString(filepath.Base(argv[0]), "")
	c := &Command{Argv: argv}
	switch base {
	case "opt", "llc", "spirv-opt":
		c.Tool = base
	case "clang", "clang++", "clang-cl":
		c.Tool = "clang"
	default:
		return nil, fmt.Errorf("%s: unsupported tool (want opt, llc, clang or spirv-opt, any version suffix)", argv[0])
	}
	return c, nil
}

func splitArgs(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	in := false
	var quote byte
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			} else if ch == '\\' && quote == '"' && i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			} else {
				cur.WriteByte(ch)
			}
		case ch == '\'' || ch == '"':
			quote, in = ch, true
		case ch == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			in = true
		case ch == ' ' || ch == '\t' || ch == '\n':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(ch)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated %c quote in command", quote)
	}
	if in {
		out = append(out, cur.String())
	}
	return out, nil
}

// Display is the command line as the user gave it.
func (c *Command) Display() string { return strings.Join(c.Argv, " ") }

// printArgs are the flags that make the tool print its log.
func (c *Command) printArgs() []string {
	switch c.Tool {
	case "clang":
		return []string{"-mllvm", "-print-after-all"}
	case "spirv-opt":
		return []string{"--print-all"}
	}
	return []string{"-print-after-all"}
}

func isOptLevel(a string) bool {
	switch a {
	case "-O0", "-O1", "-O2", "-O3", "-Os", "-Oz":
		return true
	}
	return false
}

// Pipeline is the command's editable pass list (nil when the tool has
// none). For opt it is the top-level passes of -passes= (or of the -O
// level's expansion); for spirv-opt the passes its log names.
func (c *Command) Pipeline() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.plDone {
		return c.pipeline
	}
	c.plDone = true
	switch c.Tool {
	case "opt":
		for _, a := range c.Argv[1:] {
			if p, ok := strings.CutPrefix(a, "-passes="); ok {
				c.pipeline = SplitPasses(p)
				return c.pipeline
			}
		}
		for _, a := range c.Argv[1:] {
			if isOptLevel(a) {
				args := append(append([]string{}, c.Argv[1:]...), "-print-pipeline-passes", "-disable-output")
				out, err := c.command(context.Background(), c.Argv[0], args).Output()
				if err != nil {
					c.plErr = err
					return nil
				}
				c.pipeline = SplitPasses(strings.TrimSpace(string(out)))
				return c.pipeline
			}
		}
	case "spirv-opt":
		l, err := c.run(context.Background(), c.Argv)
		if err != nil {
			c.plErr = err
			return nil
		}
		c.cached = l
		for _, s := range l.Steps[1:] {
			c.pipeline = append(c.pipeline, s.Pass)
		}
	}
	return c.pipeline
}

// SplitPasses splits an opt pass pipeline at its top-level commas.
func SplitPasses(p string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '(', '<':
			depth++
		case ')', '>':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, p[start:i])
				start = i + 1
			}
		}
	}
	if start < len(p) {
		out = append(out, p[start:])
	}
	return out
}

// Run runs the command with the given passes (nil: as given) and indexes
// its log.
func (c *Command) Run(ctx context.Context, passes []string) (*Log, error) {
	argv := c.Argv
	if passes != nil {
		pl := c.Pipeline()
		if !equalStrings(pl, passes) {
			var err error
			if argv, err = c.rewrite(passes); err != nil {
				return nil, err
			}
		} else if c.cached != nil {
			c.mu.Lock()
			l := c.cached
			c.cached = nil
			c.mu.Unlock()
			if l != nil {
				c.Failure = ""
				return l, nil
			}
		}
	}
	return c.run(ctx, argv)
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// rewrite replaces the command's pass list.
func (c *Command) rewrite(passes []string) ([]string, error) {
	argv := []string{c.Argv[0]}
	switch c.Tool {
	case "opt":
		for _, a := range c.Argv[1:] {
			if isOptLevel(a) || strings.HasPrefix(a, "-passes=") {
				continue
			}
			argv = append(argv, a)
		}
		if len(passes) == 0 {
			passes = []string{"no-op-module"}
		}
		return append(argv, "-passes="+strings.Join(passes, ",")), nil
	case "spirv-opt":
		for _, a := range c.Argv[1:] {
			if a == "-O" || a == "-Os" {
				continue
			}
			argv = append(argv, a)
		}
		for _, p := range passes {
			argv = append(argv, "--"+p)
		}
		return argv, nil
	}
	return nil, fmt.Errorf("%s has no editable pass list", c.Tool)
}

// run executes argv with the print flags and indexes standard error.
func (c *Command) run(ctx context.Context, argv []string) (*Log, error) {
	f, err := os.CreateTemp("", "passlens-run-*")
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name())
	// opt and llc print only what their passes touch: the input module,
	// as an "At Start" dump, gives the first step and the module-level
	// lines function dumps leave out. The tool's standard error follows
	// it in the same file (the descriptor's offset is shared).
	var from int64 // where the tool's own output starts
	if in := c.inputIR(argv); in != "" {
		if c.Dir != "" && !filepath.IsAbs(in) {
			in = filepath.Join(c.Dir, in)
		}
		data, err := os.ReadFile(in)
		if err == nil && len(data) > 0 {
			f.WriteString("*** IR Dump At Start ***\n")
			f.Write(data)
			if data[len(data)-1] != '\n' {
				f.WriteString("\n")
			}
		}
		from, _ = f.Seek(0, io.SeekCurrent)
	}
	args := append(append([]string{}, argv[1:]...), c.printArgs()...)
	cmd := c.command(ctx, argv[0], args)
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, f
	runErr := cmd.Run()
	if ctx.Err() != nil {
		f.Close()
		return nil, ctx.Err()
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	l, ierr := Index(strings.Join(argv, " "), f, st.Size())
	c.Failure = ""
	if runErr != nil {
		msg := toolMessage(f, from, st.Size())
		full := fmt.Sprintf("%s: %v\n%s", filepath.Base(argv[0]), runErr, msg)
		if ierr != nil {
			f.Close()
			return nil, errors.New(strings.TrimRight(full, "\n"))
		}
		c.Failure = full
	} else if ierr != nil {
		f.Close()
		return nil, fmt.Errorf("%s printed no pass dump: %v", filepath.Base(argv[0]), ierr)
	}
	l.closer = f
	return l, nil
}

// command is the exec.Cmd that runs tool with args, under the Wrapper
// and in Dir when they are set.
func (c *Command) command(ctx context.Context, tool string, args []string) *exec.Cmd {
	full := append(append(append([]string{}, c.Wrapper...), tool), args...)
	cmd := exec.CommandContext(ctx, full[0], full[1:]...)
	cmd.Dir = c.Dir
	cmd.Env = c.Env
	return cmd
}

// inputIR returns the textual IR input of an opt or llc command ("" if
// there is none: clang, spirv-opt, bitcode or standard input).
func (c *Command) inputIR(argv []string) string {
	if c.Tool != "opt" && c.Tool != "llc" {
		return ""
	}
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if a == "-o" {
			i++
			continue
		}
		if strings.HasSuffix(a, ".ll") && !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
}

// toolMessage extracts what a failing tool said from its standard error
// ([from, size) of f): all of it up to 64 KiB, else its last 40 lines
// (the error follows the last dump).
func toolMessage(f *os.File, from, size int64) string {
	const max = 64 << 10
	n := size - from
	if n <= max {
		buf := make([]byte, n)
		k, _ := f.ReadAt(buf, from)
		return string(buf[:k])
	}
	buf := make([]byte, max/2)
	k, _ := f.ReadAt(buf, size-max/2)
	lines := strings.Split(strings.TrimRight(string(buf[:k]), "\n"), "\n")
	if len(lines) > 40 {
		lines = lines[len(lines)-40:]
	}
	return "…\n" + strings.Join(lines, "\n") + "\n"
}
