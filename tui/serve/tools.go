package serve

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"passlens/compiler/passdump"
)

// External tools (`passlens serve --allow-tool opt-22,spirv-opt`). By
// default a session runs nothing outside the server process. With the flag,
// a session may run the allowed compilers on modules of the modules
// directory as `passlens --run` does, and explore their pass logs. The
// security reasoning is in docs/serve.md ("External tools"); in short:
//
//   - the executable is one the operator named, found on the server's PATH
//     when the server starts (the session types only its bare name);
//   - every option must match a per-tool allow list of options that
//     neither read nor write files nor load code (no -o, -load,
//     --load-pass-plugin, @response files, -Oconfig=…): pass lists,
//     optimisation levels and target selection only;
//   - the one file operand is a module of the modules directory, resolved
//     as the picker resolves paths (no absolute paths, no `..`, no
//     symlinks out) and copied into a fresh directory the tool runs in,
//     with no PATH (passes that write files or start programs, dot-* and
//     view-*, are refused as well);
//   - the server adds `-o /dev/null` (output goes nowhere) and runs the
//     tool under prlimit (address space = the session memory cap, CPU
//     seconds = the compile budget, its log file at most toolLogLimit) and
//     nice, inside the session's compile budget (a deadline that kills it).
//
// clang is refused: its options read files (-include, -I, @file, -fplugin,
// -Xclang -load) in too many ways for an allow list to stay correct.

// toolLogLimit bounds the pass log a tool may write (RLIMIT_FSIZE): a
// tool that prints more is stopped and the steps up to there are shown.
const toolLogLimit = 512 << 20

// toolOptions are the options a session may give each tool.
var toolOptions = map[string][]*regexp.Regexp{
	"opt": {
		regexp.MustCompile(`^-O[0123sz]$`),
		regexp.MustCompile(`^--?passes=[A-Za-z0-9<>(),;:_.+-]+$`),
		regexp.MustCompile(`^--?(mtriple|mcpu|march)=[A-Za-z0-9_.-]+$`),
		regexp.MustCompile(`^--?mattr=[A-Za-z0-9_.,+-]+$`),
		regexp.MustCompile(`^--?filter-print-funcs=[A-Za-z0-9_.,$]+$`),
		regexp.MustCompile(`^--?print-changed(=(quiet|diff|diff-quiet))?$`),
		regexp.MustCompile(`^--?print-module-scope$`),
		regexp.MustCompile(`^--?S$`),
	},
	"llc": {
		regexp.MustCompile(`^-O[0123]$`),
		regexp.MustCompile(`^--?(mtriple|mcpu|march)=[A-Za-z0-9_.-]+$`),
		regexp.MustCompile(`^--?mattr=[A-Za-z0-9_.,+-]+$`),
		regexp.MustCompile(`^--?filter-print-funcs=[A-Za-z0-9_.,$]+$`),
		regexp.MustCompile(`^--?global-isel$`),
	},
	"spirv-opt": {
		regexp.MustCompile(`^-O$`),
		regexp.MustCompile(`^-Os$`),
		regexp.MustCompile(`^--target-env=[a-z0-9.]+$`),
		// Pass flags: --eliminate-dead-code-aggressive and the like,
		// without a value (values name files: --config-file... do not
		// exist, but -Oconfig=FILE does and has no leading "--").
		regexp.MustCompile(`^--[a-z0-9][a-z0-9-]*$`),
	},
}

// toolInputs are the module extensions each tool reads.
var toolInputs = map[string][]string{
	"opt":       {".ll"},
	"llc":       {".ll"},
	"spirv-opt": {".spv"},
}

// spirvOptRefused are spirv-opt flags of the `--[a-z-]+` shape that read
// or write files or change what it prints.
var spirvOptRefused = map[string]bool{"--help": true, "--version": true, "--print-all": true}

// resolveTools checks --allow-tool names at start-up: each must be a bare
// executable name of a supported tool, on PATH. It returns name → path.
func resolveTools(names []string) (map[string]string, error) {
	if len(names) == 0 {
		return nil, nil
	}
	out := map[string]string{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if strings.ContainsAny(n, `/\`) {
			return nil, fmt.Errorf("--allow-tool %s: give the tool's name, not a path (it is looked up on PATH)", n)
		}
		c, err := passdump.ParseCommand(n)
		if err != nil {
			return nil, fmt.Errorf("--allow-tool %s: %v", n, err)
		}
		if toolOptions[c.Tool] == nil {
			return nil, fmt.Errorf("--allow-tool %s: %s cannot be served (its options read files in too many ways); allowed are opt, llc and spirv-opt", n, c.Tool)
		}
		p, err := exec.LookPath(n)
		if err != nil {
			return nil, fmt.Errorf("--allow-tool %s: not found on PATH", n)
		}
		if p, err = filepath.Abs(p); err != nil {
			return nil, fmt.Errorf("--allow-tool %s: %v", n, err)
		}
		out[n] = p
	}
	if len(out) > 0 {
		p, err := exec.LookPath("prlimit")
		if err != nil {
			return nil, fmt.Errorf("--allow-tool needs prlimit (util-linux) on PATH to limit the tools it runs")
		}
		out[" prlimit"] = p
		if p, err := exec.LookPath("nice"); err == nil {
			out[" nice"] = p
		}
	}
	return out, nil
}

// allowedTools lists the tools a session may run, sorted.
func (s *Server) allowedTools() []string {
	var out []string
	for n := range s.tools {
		if !strings.HasPrefix(n, " ") {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// toolCommand checks a command line typed in session ls and returns the
// command to run, with the server's output flag, working directory,
// environment and limits. Every refusal says what was refused and why.
// The tool runs in a fresh directory holding only a copy of the module
// (removed when the session ends), with no PATH: passes that write files
// into the working directory or start programs (dot-*, view-*) are
// refused, and would find nothing to write over or run.
func (s *Server) toolCommand(ls *liveSession, line string) (*passdump.Command, error) {
	if len(s.tools) == 0 {
		return nil, fmt.Errorf("this server runs no external tools (the operator can allow some with --allow-tool)")
	}
	c, err := passdump.ParseCommand(line)
	if err != nil {
		if strings.Contains(err.Error(), "unsupported tool") {
			return nil, fmt.Errorf("only %s may run here", strings.Join(s.allowedTools(), ", "))
		}
		return nil, err
	}
	name := c.Argv[0]
	path, ok := s.tools[name]
	if !ok || strings.HasPrefix(name, " ") {
		return nil, fmt.Errorf("%s is not allowed on this server (allowed: %s)", name, strings.Join(s.allowedTools(), ", "))
	}
	argv := []string{path}
	input, operand := "", -1
	for _, a := range c.Argv[1:] {
		if strings.HasPrefix(a, "-") {
			if !toolOptionAllowed(c.Tool, a) {
				return nil, fmt.Errorf("%s: option %s is not allowed here (sessions may give pass lists, optimisation levels and target options; nothing that names a file or loads code)", name, a)
			}
			if _, p, ok := strings.Cut(a, "passes="); ok && (strings.Contains(p, "dot-") || strings.Contains(p, "view-")) {
				return nil, fmt.Errorf("%s: passes that write files or start programs (dot-*, view-*) are not allowed here", name)
			}
			argv = append(argv, a)
			continue
		}
		if input != "" {
			return nil, fmt.Errorf("%s: one module only (got %s and %s)", name, input, a)
		}
		real, err := ResolveModule(s.cfg.ModulesDir, a)
		if err != nil {
			return nil, err
		}
		if !hasExt(real, toolInputs[c.Tool]) {
			return nil, fmt.Errorf("%s: %s reads %s modules", a, name, strings.Join(toolInputs[c.Tool], ", "))
		}
		input, operand = a, len(argv)
		argv = append(argv, real)
	}
	if input == "" {
		return nil, fmt.Errorf("%s: name a module of the modules directory", name)
	}
	// The run directory: a copy of the module under its own base name.
	data, err := s.readModuleFile(input)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "passlens-tool-*")
	if err != nil {
		return nil, fmt.Errorf("cannot prepare the tool's directory: %v", err)
	}
	ls.atEnd(func() { os.RemoveAll(dir) })
	base := filepath.Base(filepath.FromSlash(input))
	if strings.HasPrefix(base, "-") {
		base = "_" + base // never read as an option
	}
	if err := os.WriteFile(filepath.Join(dir, base), data, 0o600); err != nil {
		return nil, fmt.Errorf("cannot prepare the tool's directory: %v", err)
	}
	argv[operand] = base
	argv = append(argv, "-o", "/dev/null")
	c.Argv = argv
	c.Dir = dir
	c.Env = []string{"PATH=", "HOME=" + dir, "TMPDIR=" + dir, "LC_ALL=C"}
	secs := max(1, int(s.cfg.CompileTimeout.Seconds()+0.999))
	c.Wrapper = []string{s.tools[" prlimit"],
		fmt.Sprintf("--as=%d", s.cfg.SessionMemory),
		fmt.Sprintf("--cpu=%d", secs),
		fmt.Sprintf("--fsize=%d", s.toolLogLimit()),
		"--"}
	if nice := s.tools[" nice"]; nice != "" {
		// Below the server's own threads: a tool never slows the
		// explorers of other sessions.
		c.Wrapper = append(c.Wrapper, nice, "-n", "10")
	}
	return c, nil
}

// toolLogLimit is toolLogLimit unless a test lowered it.
func (s *Server) toolLogLimit() int64 {
	if s.testToolLogLimit > 0 {
		return s.testToolLogLimit
	}
	return toolLogLimit
}

func toolOptionAllowed(tool, a string) bool {
	if tool == "spirv-opt" && spirvOptRefused[a] {
		return false
	}
	for _, re := range toolOptions[tool] {
		if re.MatchString(a) {
			return true
		}
	}
	return false
}

func hasExt(p string, exts []string) bool {
	e := strings.ToLower(filepath.Ext(p))
	for _, x := range exts {
		if e == x {
			return true
		}
	}
	return false
}
