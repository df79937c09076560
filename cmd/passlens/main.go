// Command passlens is a terminal pass explorer for GPU shader compilers.
//
// With no subcommand it opens the explorer (on an embedded sample when no
// file is given). Subcommands run the same compiler headless: analyze,
// compile, run, replay, passes, samples, serve.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"passlens/internal/limits"
	"passlens/tui/serve"
)

// command is one subcommand: flags and behaviour only; the work lives in
// the compiler packages.
type command struct {
	name    string
	summary string
	usage   string
	run     func(args []string, stdout, stderr io.Writer) error
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// usageError is a mistake in how passlens was invoked: print it with the
// usage of the command and exit 2.
type usageError struct {
	cmd *command
	msg string
}

func (e *usageError) Error() string { return e.msg }

// helpRequested is -h/--help on a command: its usage goes to standard
// output and the exit status is 0 (as git, go and glslangValidator do).
type helpRequested struct{ cmd *command }

func (e *helpRequested) Error() string { return "help requested" }

// exitError carries a specific exit status after its message was printed.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func main() {
	// The SSH server's compile worker: a hidden subcommand that passlens
	// serve starts for a session's heavy load or compile (tui/serve/worker.go).
	if len(os.Args) > 1 && os.Args[1] == serve.WorkerArg {
		os.Exit(serve.WorkerMain(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(runMain(os.Args[1:], os.Stdout, os.Stderr))
}

// runMain is main without os.Exit, for tests.
func runMain(args []string, stdout, stderr io.Writer) int {
	name := "explore"
	if len(args) > 0 {
		if c, ok := commands[args[0]]; ok {
			name = c.name
			args = args[1:]
		} else if args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
			if len(args) > 1 {
				c, ok := commands[args[1]]
				if !ok {
					fmt.Fprintf(stderr, "passlens help: unknown command %q\nRun 'passlens help' for the list of commands.\n", args[1])
					return 2
				}
				fmt.Fprint(stdout, c.usage)
				return 0
			}
			printUsage(stdout)
			return 0
		} else if args[0] == "--version" || args[0] == "-version" {
			name, args = "version", args[1:]
		} else if !strings.HasPrefix(args[0], "-") && !looksLikeFile(args[0]) {
			fmt.Fprintf(stderr, "passlens: unknown command %q\nRun 'passlens help' for the list of commands.\n", args[0])
			return 2
		}
	}
	if name != "serve" && name != "explore" {
		limits.SetSoftMemoryLimit() // the 1 GiB budget of docs/limits.md
	}
	err := commands[name].run(args, stdout, stderr)
	if err == nil {
		return 0
	}
	var ue *usageError
	var ee *exitError
	var he *helpRequested
	switch {
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &he):
		fmt.Fprint(stdout, he.cmd.usage)
		return 0
	case errors.As(err, &ue):
		// One line saying what is wrong, one saying where to look.
		fmt.Fprintf(stderr, "passlens %s: %s\n", ue.cmd.name, ue.msg)
		fmt.Fprintf(stderr, "Run 'passlens %s --help' for usage.\n", ue.cmd.name)
		return 2
	case errors.Is(err, flag.ErrHelp):
		return 0
	}
	msg := err.Error()
	if !strings.HasSuffix(msg, "\n") {
		msg += "\n"
	}
	fmt.Fprint(stderr, msg)
	return 1
}

// looksLikeFile reports arguments that name a module rather than a command.
func looksLikeFile(a string) bool {
	return strings.ContainsAny(a, "./") || strings.HasSuffix(a, ".hlsl") || strings.HasSuffix(a, ".pir") || strings.HasSuffix(a, ".ll")
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "passlens — a terminal pass explorer for GPU shader compilers")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage:")
	fmt.Fprintln(w, "  passlens [FILE|samples/NAME] [--target T] [--passes SPEC]   open the explorer")
	fmt.Fprintln(w, "  passlens COMMAND [flags] ...")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'passlens COMMAND --help' for a command's flags; 'passlens --version' for the version.")
}

// newFlags returns a FlagSet that reports errors through usageError.
func newFlags(c *command, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseFlags parses args allowing flags after positional arguments
// (`passlens analyze f.ll --print=cycles`).
func parseFlags(c *command, fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, &helpRequested{c}
			}
			return nil, &usageError{c, err.Error()}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
