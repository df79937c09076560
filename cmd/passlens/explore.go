package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/term"

	"passlens/compiler/load"
	"passlens/compiler/passes"
	"passlens/compiler/target"
	"passlens/internal/limits"
	"passlens/internal/replay"
	"passlens/samples"
	"passlens/themes"
	"passlens/tui"
	"passlens/tui/backend"
)

func init() {
	register(&command{
		name:    "explore",
		summary: "open the interactive explorer (the default command)",
		usage: `Usage: passlens [explore] [FILE|samples/NAME] [flags]

Opens the explorer on FILE (.hlsl, .pir or .ll) or an embedded sample; with
no file, on samples/` + samples.Default + `.

Flags:
  --target T      spirv, dxil or sm3 (default spirv)
  --passes SPEC   pipeline instead of the target's default, e.g. inline,sroa,simplify
  --entry NAME    HLSL entry point (default main); the kernel the lanes pane runs
                  when an .ll module has several
  --input FILE    interpreter input for the lanes pane (JSON, docs/run.md; key i
                  loads another)
  -D NAME[=VAL]   HLSL macro (repeatable)
  -I DIR          HLSL include directory (repeatable)
  -enable-16bit-types  HLSL: dxc's 16-bit mode (without it half and min16* are 32-bit);
                       with it half, float16_t, int16_t and uint16_t are 16-bit
` + profileHelp + `  --theme NAME    dark, light, high-contrast or no-color (default: follows the terminal; NO_COLOR honoured)
  --mouse         enable the mouse (toggle with m)
  --replay FILE   play a replay script on start; with no FILE argument the
                  script's load command chooses the module
  --dump LOG      open a compiler's pass log (- for standard input); a FILE whose
                  content is a log opens the same way (docs/pass-dumps.md)
  --run 'CMD'     run opt/llc/clang/spirv-opt with its print flag and explore the log
Press ? in the explorer for every key. Keys can be remapped in ` + tui.ConfigPath() + `.
`,
		run: runExplore,
	})
}

// multiFlag collects repeated flags.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

func runExplore(args []string, stdout, stderr io.Writer) error {
	c := commands["explore"]
	fs := newFlags(c, stderr)
	tgt := fs.String("target", string(target.SPIRV), "")
	spec := fs.String("passes", "", "")
	entry := fs.String("entry", "", "")
	theme := fs.String("theme", "", "")
	mouse := fs.Bool("mouse", false, "")
	replayFile := fs.String("replay", "", "")
	dumpFile := fs.String("dump", "", "")
	runCmd := fs.String("run", "", "")
	input := fs.String("input", "", "")
	var defs, incs multiFlag
	fs.Var(&defs, "D", "")
	fs.Var(&incs, "I", "")
	half := fs.Bool("enable-16bit-types", false, "")
	profName := profileFlag(fs)
	pos, err := parseFlags(c, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return &usageError{c, "at most one file"}
	}
	prof, err := resolveProfile(c, fs, *profName, tgt)
	if err != nil {
		return err
	}
	if !validTarget(target.Name(*tgt)) && *dumpFile == "" && *runCmd == "" {
		return &usageError{c, fmt.Sprintf("unknown target %q (want %s)", *tgt, strings.Join(target.Strings(passes.Targets), ", "))}
	}
	if f, ok := stdout.(*os.File); !ok || !term.IsTerminal(f.Fd()) {
		fmt.Fprintln(stderr, "passlens: standard output is not a terminal, so the explorer cannot start.")
		fmt.Fprintln(stderr, "For headless use try:")
		fmt.Fprintln(stderr, "  passlens compile FILE --print-after-all     # IR after every pass")
		fmt.Fprintln(stderr, "  passlens replay SCRIPT                      # replay a pass sequence")
		fmt.Fprintln(stderr, "  passlens analyze FILE                       # dominators, cycles, uniformity")
		fmt.Fprintln(stderr, "  passlens dump LOG --print-changed=diff      # a compiler's pass log, step by step")
		return &exitError{2}
	}
	arg := "samples/" + samples.Default
	var script string
	if *replayFile != "" {
		data, err := limits.ReadFile(*replayFile, limits.MaxModuleSize)
		if err != nil {
			return err
		}
		script = string(data)
		// Report script errors before the screen opens, located.
		cmds, err := replay.Parse(*replayFile, script)
		if err != nil {
			return err
		}
		if len(pos) == 0 {
			for _, c := range cmds {
				if c.Name == "load" {
					path, e, err := replay.LoadArgs(c.Args)
					if err != nil {
						return c.Errorf(*replayFile, "%v", err)
					}
					arg = replay.Resolve(filepath.Dir(*replayFile), path)
					if *entry == "" {
						*entry = e
					}
					if *profName == "" {
						// The script's profile, as if given with -T.
						if *profName = replay.LoadProfile(c.Args).Name; *profName != "" {
							if prof, err = resolveProfile(commands["explore"], fs, *profName, tgt); err != nil {
								return err
							}
						}
					}
					break
				}
			}
		}
	}
	if len(pos) == 1 {
		arg = pos[0]
	}
	// A pass log (by content, whatever its extension) or a live compiler
	// command opens the explorer on its steps (cmd/passlens/dump.go).
	var drv tui.Driver
	if drv, err = dumpDriver(strings.Join(pos, ""), *dumpFile, *runCmd); err != nil {
		return err
	}
	if drv == nil {
		// FXC's tex2D & co. compile for the SM3 target (hlsl.Options.SM1Textures).
		lo := load.Options{Entry: *entry, Defines: defs, IncludeDirs: incs, Enable16BitTypes: *half, Profile: prof, SM1Textures: *tgt == string(target.SM3)}
		m, src, err := load.File(arg, lo)
		if err != nil {
			return err
		}
		bd := backend.New(src, m)
		bd.Entry = *entry
		bd.LoadOptions = lo
		drv = bd
	} else {
		*tgt = "log"
		if dd, ok := drv.(*backend.DumpDriver); ok && *entry != "" {
			dd.Entry = *entry // the kernel the lanes pane runs on the log's steps
		}
	}
	if *input != "" {
		// The lanes pane's input, for a module or a log's steps.
		si, ok := drv.(interface{ SetInput(string) error })
		if !ok {
			return &usageError{c, "--input: this explorer source does not run the interpreter"}
		}
		if err := si.SetInput(*input); err != nil {
			return fmt.Errorf("passlens: %v", err)
		}
	}
	cfg, err := tui.LoadConfig(tui.ConfigPath())
	if err != nil {
		return err
	}
	keys := tui.DefaultKeyMap()
	if err := keys.Apply(cfg.Keys); err != nil {
		return err
	}
	name := *theme
	if name == "" {
		name = cfg.Theme
	}
	dark := true
	if name == "" || name == "auto" {
		dark = lipgloss.HasDarkBackground(os.Stdin, os.Stdout)
	}
	th, ok := themes.Choose(name, dark)
	if !ok {
		return &usageError{c, fmt.Sprintf("unknown theme %q (want %s)", name, strings.Join(themes.Names(), ", "))}
	}
	opts := tui.Options{Target: *tgt, Theme: th, Keys: &keys, Mouse: *mouse || cfg.Mouse,
		ModulePath: arg, Entry: *entry, Profile: prof.Name, Replay: script, ReplayName: *replayFile}
	if *spec != "" {
		for _, n := range strings.Split(*spec, ",") {
			opts.Pipeline = append(opts.Pipeline, tui.PassSlot{Name: strings.TrimSpace(n), Enabled: true})
		}
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		// A soft limit: on a large module the collector works harder
		// instead of letting the heap double past its live size
		// (BENCHMARKS.md, explorer at scale). GOMEMLIMIT overrides it.
		debug.SetMemoryLimit(exploreMemoryLimit)
	}
	var popts []tea.ProgramOption
	if *dumpFile == "-" || (len(pos) == 1 && pos[0] == "-") {
		// The log came on standard input: read keys from the terminal.
		if tty, err := os.Open("/dev/tty"); err == nil {
			defer tty.Close()
			popts = append(popts, tea.WithInput(tty))
		}
	}
	_, err = tea.NewProgram(tui.New(drv, opts), popts...).Run()
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		return fmt.Errorf("passlens: %v", err)
	}
	return nil
}

// exploreMemoryLimit is the explorer's soft memory limit.
const exploreMemoryLimit = 900 << 20

func validTarget(t target.Name) bool { return slices.Contains(passes.Targets, t) }
