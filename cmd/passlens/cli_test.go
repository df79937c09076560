package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"testing"
)

// run calls the CLI in-process with captured output.
func run(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = runMain(args, &out, &errb)
	return code, out.String(), errb.String()
}

func commandNames() []string {
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Help, version and usage errors follow git/go/glslangValidator: help on
// standard output with status 0, usage errors as one line plus a hint
// with status 2, for passlens and for every subcommand.
func TestHelpVersionExitCodes(t *testing.T) {
	t.Parallel()
	type tc struct {
		args       []string
		code       int
		stdout     string // substring ("" = must be empty)
		stderrRE   string // whole stderr must match ("" = must be empty)
		exactUsage string // stdout must equal this command's usage
	}
	hint := func(c string) string {
		return `^passlens ` + c + `: [^\n]+\nRun 'passlens ` + c + ` --help' for usage\.\n$`
	}
	cases := []tc{
		{args: []string{"--help"}, stdout: "Commands:"},
		{args: []string{"-h"}, stdout: "Commands:"},
		{args: []string{"help"}, stdout: "Commands:"},
		{args: []string{"--version"}, stdout: "passlens "},
		{args: []string{"version"}, stdout: "passlens "},
		{args: []string{"version", "extra"}, code: 2, stderrRE: hint("version")},
		{args: []string{"no-such-command"}, code: 2, stderrRE: `^passlens: unknown command "no-such-command"\nRun 'passlens help' for the list of commands\.\n$`},
		{args: []string{"help", "no-such-command"}, code: 2, stderrRE: `^passlens help: unknown command "no-such-command"\nRun 'passlens help' for the list of commands\.\n$`},
		{args: []string{"--no-such-flag"}, code: 2, stderrRE: hint("explore")},
		// A bad --target is one line naming every valid value.
		{args: []string{"compile", "--target", "bogus", "samples/add-mul"}, code: 2,
			stderrRE: `^passlens compile: unknown target "bogus" \(want pir, spirv, dxil, sm3, amdgcn-ll\)\nRun 'passlens compile --help' for usage\.\n$`},
		{args: []string{"analyze", "--target", "bogus", "samples/add-mul"}, code: 2,
			stderrRE: `^passlens analyze: unknown target "bogus" \(want pir, spirv, dxil, sm3\)\n`},
		{args: []string{"run", "--target", "bogus", "samples/add-mul"}, code: 2,
			stderrRE: `^passlens run: unknown target "bogus" \(want pir, spirv, dxil, sm3\)\n`},
		{args: []string{"explore", "--target", "bogus"}, code: 2,
			stderrRE: `^passlens explore: unknown target "bogus" \(want spirv, dxil, sm3\)\n`},
		{args: []string{"compile", "--emit", "bin", "--target", "sm3", "samples/pixel"}, code: 2, stderrRE: hint("compile")},
		{args: []string{"analyze", "--after", "sroa", "samples/add-mul"}, code: 2, stderrRE: hint("analyze")},
	}
	for _, n := range commandNames() {
		usage := commands[n].usage
		cases = append(cases,
			tc{args: []string{n, "-h"}, exactUsage: usage},
			tc{args: []string{n, "--help"}, exactUsage: usage},
			tc{args: []string{"help", n}, exactUsage: usage},
			tc{args: []string{n, "--no-such-flag"}, code: 2, stderrRE: hint(n)},
		)
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, stdout, stderr := run(c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code, stdout, stderr)
			}
			switch {
			case c.exactUsage != "":
				if stdout != c.exactUsage {
					t.Errorf("stdout is not the usage:\n%s", stdout)
				}
			case c.stdout == "":
				if stdout != "" {
					t.Errorf("unexpected stdout: %q", stdout)
				}
			case !strings.Contains(stdout, c.stdout):
				t.Errorf("stdout lacks %q:\n%s", c.stdout, stdout)
			}
			if c.stderrRE == "" {
				if stderr != "" {
					t.Errorf("unexpected stderr: %q", stderr)
				}
			} else if !regexp.MustCompile(c.stderrRE).MatchString(stderr) {
				t.Errorf("stderr %q does not match %s", stderr, c.stderrRE)
			}
		})
	}
	// The overview lists every command.
	_, stdout, _ := run("--help")
	for _, n := range commandNames() {
		if !strings.Contains(stdout, "\n  "+n+" ") {
			t.Errorf("passlens --help does not list %s", n)
		}
	}
}

var (
	binOnce sync.Once
	binPath string
	binErr  error
	binOut  []byte
)

// binary builds the real passlens once per test run (with VCS stamping,
// so --version has a revision).
func binary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "passlens-bin")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "passlens")
		binOut, binErr = exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
	})
	if binErr != nil {
		t.Fatalf("go build: %v\n%s", binErr, binOut)
	}
	return binPath
}

// The real binary: --version carries the module's VCS revision, and help
// goes to standard output with status 0.
func TestBinaryVersionAndHelp(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatalf("--version: %v", err)
	}
	// External truth: what the Go toolchain stamped into the binary. (Go
	// stamps VCS data only where .git is a directory, not in a git
	// worktree; there the answer is "unknown".)
	meta, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil {
		t.Fatalf("go version -m: %v", err)
	}
	want := "revision unknown"
	if m := regexp.MustCompile(`\bvcs\.revision=(\S+)`).FindSubmatch(meta); m != nil {
		want = "revision " + string(m[1])
	}
	if !strings.Contains(string(out), want) {
		t.Errorf("--version says:\n%s\nwant %q (go version -m:\n%s)", out, want, meta)
	}
	if !regexp.MustCompile(`^passlens \S+\nrevision \S+.*\ngo\d`).Match(out) {
		t.Errorf("--version output:\n%s", out)
	}
	for _, args := range [][]string{{"--help"}, {"compile", "--help"}, {"serve", "-h"}} {
		cmd := exec.Command(bin, args...)
		var so, se bytes.Buffer
		cmd.Stdout, cmd.Stderr = &so, &se
		if err := cmd.Run(); err != nil || so.Len() == 0 || se.Len() != 0 {
			t.Errorf("%v: err %v, stdout %d bytes, stderr %q", args, err, so.Len(), se.String())
		}
	}
}

// versionText renders the VCS fields of the build information.
func TestVersionText(t *testing.T) {
	t.Parallel()
	bi := &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.time", Value: "2026-11-26T08:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	got := versionText(bi, true)
	if !strings.HasPrefix(got, "passlens v1.2.3\nrevision 0123abcd (2026-11-26T08:00:00Z, modified)\ngo") {
		t.Errorf("got:\n%s", got)
	}
	if got := versionText(nil, false); !strings.HasPrefix(got, "passlens (unknown)\nrevision unknown\ngo") {
		t.Errorf("without build info:\n%s", got)
	}
}

// passlens samples prints whole descriptions when standard output is not
// a terminal.
func TestSamplesNotTruncatedWhenPiped(t *testing.T) {
	t.Parallel()
	code, stdout, _ := run("samples")
	if code != 0 || strings.Contains(stdout, "…") {
		t.Fatalf("exit %d, output:\n%s", code, stdout)
	}
	long := false
	for _, l := range strings.Split(stdout, "\n") {
		if len([]rune(l)) > 30+72 {
			long = true
		}
	}
	if !long {
		t.Errorf("no description longer than the terminal cut-off; the test checks nothing:\n%s", stdout)
	}
}
