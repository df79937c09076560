package tui

import (
	"context"
	"strings"
	"time"
)

// StepStatus is what a pipeline step did.
type StepStatus int

const (
	StepInput     StepStatus = iota // the module before any pass
	StepChanged                     // the pass changed the IR
	StepUnchanged                   // the pass ran and changed nothing
	StepFailed                      // the pass (or the verifier after it) failed
)

// Step is one snapshot as the explorer shows it.
type Step struct {
	Pass     string
	Summary  string
	Status   StepStatus
	Err      string
	Duration time.Duration
	Allocs   uint64 // bytes allocated by the pass
	// Text is the whole module after this step; drivers may leave it
	// empty and give Lines only (tui/backend does, sharing the lines of
	// unchanged functions between steps). Read it with lines().
	Text string
	// Lang is the lexer for Text ("" for the passlens IR; "sir" for the
	// SM3 back end's SIR stages). Backend marks steps after the IR passes:
	// they have text and diffs but no analyses or runs.
	Lang    string
	Backend bool
	Funcs   []FuncSpan
	// Lines is Text split into lines; drivers fill it off the UI thread so
	// stepping never splits a large module while drawing (nil: the explorer
	// splits and caches it).
	Lines []string
}

// lines returns the step's lines (Lines, or Text split when a driver gave
// only the text). An empty text is no lines.
func (s *Step) lines() []string {
	if s.Lines != nil {
		return s.Lines
	}
	if s.Text == "" {
		return nil
	}
	return SplitLines(s.Text)
}

// SplitLines splits a snapshot text into lines (no trailing empty line).
func SplitLines(text string) []string {
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

// FuncSpan locates a function in Step.Text (0-based, end exclusive).
type FuncSpan struct {
	Name       string
	Start, End int
}

// PassSlot is one entry of the editable pipeline (what-if).
type PassSlot struct {
	Name    string
	Enabled bool
}

// Compiled is the result of compiling the module through a pipeline.
type Compiled struct {
	Source string
	Target string
	Steps  []Step
}

// TreeNode is a node of a dominator, post-dominator or cycle tree.
type TreeNode struct {
	Label    string // what is drawn
	Block    string // block to show when selected ("" for none)
	Children []*TreeNode
}

// DivKind classifies a divergence mark.
type DivKind int

const (
	DivNone     DivKind = iota
	DivValue            // data or sync divergence
	DivTemporal         // temporally divergent (used outside a cycle with a divergent exit)
	DivAssumed          // inside an irreducible cycle entered divergently
	DivBranch           // divergent terminator
)

// Analysis is everything the trees, CFG and uniformity views need for one
// function of one snapshot. Computed off the UI thread.
type Analysis struct {
	Func                 string
	Dom, PostDom, Cycles *TreeNode
	Blocks               []string
	Succs                [][]int
	BackEdges            map[[2]int]bool
	// Divergent maps a value name ("%x") or a block name ("%bb", meaning its
	// terminator) to its kind.
	Divergent map[string]DivKind
	// Explain returns the reason chain for a value ("%x"), or nil: one
	// sentence per step, each naming its value ("%x is divergent: ...").
	Explain func(name string) []string
	// ExplainTerminator is Explain for the terminator of a block ("%bb");
	// nil when the driver cannot explain terminators.
	ExplainTerminator func(block string) []string
	DOT               string
}

// RunOptions configures an interpreter run from the lanes pane.
type RunOptions struct {
	WaveSize int
	Policy   string
	Input    string // path of an input JSON file ("" for defaults)
	// Function is the function the explorer shows (the function filter,
	// else the one under the cursor): when no entry point was chosen and
	// it is one (a kernel of an .ll module with several), the run uses it.
	Function string
}

// LanesResult is what the lanes pane shows.
type LanesResult struct {
	Lines []string // per-lane outputs and wave-op participation, pre-formatted
	JSON  string
}

// Driver is the explorer's window onto the compiler. The explorer never
// calls the compiler directly, so it can be tested with a fake and served
// over SSH with per-session limits.
type Driver interface {
	Source() string
	Targets() []string
	DefaultPipeline(target string) []PassSlot
	// Compile runs the enabled passes of pipeline for target.
	Compile(ctx context.Context, target string, pipeline []PassSlot) (*Compiled, error)
	Analyze(ctx context.Context, c *Compiled, step int, fn string) (*Analysis, error)
	Run(ctx context.Context, c *Compiled, step int, opts RunOptions) (*LanesResult, error)
	// TargetCode returns the final code for the target and a lexer name
	// ("pir", "spvasm", "sm3", "llvm").
	TargetCode(ctx context.Context, c *Compiled) (text, lang string, err error)
	Policies() []string
	// SetInput loads interpreter input from a JSON file (docs/run.md).
	SetInput(path string) error
}

// Reloader is implemented by drivers that can re-read their input file
// (R in the explorer). Reload reports whether the text changed; the next
// Compile uses the new module.
type Reloader interface {
	Reload() (changed bool, err error)
}

// SourceMapper is implemented by drivers that know where the IR came
// from: the source text (lang: "hlsl", "ll", "pir") and the source line of
// each value of the input module, keyed "FUNC/%x". Value names are never
// renumbered, so a value keeps its line through the passes; values a pass
// creates have none.
type SourceMapper interface {
	SourceText() (text, lang string)
	ValueLines() map[string]int
}
