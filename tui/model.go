// Package tui is the passlens explorer: a bubbletea program that steps
// through the snapshots of a pass pipeline with IR, diff, tree, CFG, lanes
// and target-code views. The root Model is the only tea.Model that returns
// a tea.View; panes are plain structs it owns and sizes. Heavy work
// (compiling, analyses, diffs, interpreter runs) runs in tea.Cmds.
package tui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"

	"passlens/internal/atomicfile"
	"passlens/internal/replay"
	"passlens/internal/textdiff"
	"passlens/themes"
)

// View selects the main pane.
type View int

const (
	ViewIR View = iota
	ViewDiff
	ViewTrees
	ViewCFG
	ViewLanes
	ViewTarget
	ViewExplain
	ViewSource
)

var viewNames = []string{"IR", "Diff", "Trees", "CFG", "Lanes", "Target", "Explain", "Source"}

// scriptViews are the names `view` commands use (replay.Views), by View.
var scriptViews = []string{"ir", "diff", "trees", "cfg", "lanes", "target", "explain", "source"}

// promptKind is what the one-line prompt in the status bar asks for.
type promptKind int

const (
	promptNone promptKind = iota
	promptSearch
	promptPass
	promptFunc
	promptExport
	promptRecord
	promptOpen
	promptConfirm
	promptDOT
	promptInput
)

// treeKind selects the tree the trees pane draws.
type treeKind int

const (
	treeDom treeKind = iota
	treePostDom
	treeCycles
	numTreeKinds
)

var treeTitles = []string{"dominator tree", "post-dominator tree", "cycle tree"}

// keepAnalyses bounds the analyses (with their drawn trees and CFG) kept
// in memory: one per step and function visited, least recently used out.
const keepAnalyses = 2

// keepDiffs bounds the cached diffs the same way.
const keepDiffs = 8

// Minimum terminal size; below it the explorer says so instead of drawing.
const (
	MinWidth  = 80
	MinHeight = 24
)

// Options configure a new explorer.
type Options struct {
	Target   string
	Pipeline []PassSlot // nil: the target's default
	Theme    *themes.Theme
	Keys     *KeyMap
	Mouse    bool
	// Exports receives exported text instead of the file system when set
	// (the SSH server uses it to offer text to the client).
	Exports func(name, text string) error
	// Replay, when set, is a replay script to play on start; ReplayName
	// names it in error messages and locates its relative paths.
	Replay     string
	ReplayName string
	// ModulePath is the loaded file as the user named it (default:
	// Driver.Source()) and Entry the entry point; recorded scripts load it.
	ModulePath string
	Entry      string
	// Profile is the HLSL profile the module was compiled for (-T),
	// shown in the title bar; "" when none was given.
	Profile string
}

// Model is the root bubbletea model.
type Model struct {
	drv    Driver
	keys   KeyMap
	st     *Styles
	opts   Options
	w, h   int
	mouse  bool
	themes []string

	target    string
	pipeline  []PassSlot
	comp      *Compiled
	step      int
	focusList bool
	view      View
	hideList  bool   // Z: the main pane takes the whole width
	fn        string // function filter ("" = all)

	// The panes (see component.go); the root routes keys to the focused
	// one and draws the shown one.
	list   *passList
	ir     *irPane
	diff   *diffPane
	graph  *graphPane // trees and CFG
	lanesP *lanesPane
	tgt    *targetPane
	expl   *explainPane
	src    *sourcePane

	analyses *lru[string, *analysisEntry] // key: step/fn
	overlay  bool

	pendingRun bool // r pressed while compiling
	compileGen int
	// partial: the step list is the first part of an input still being
	// indexed (Progressive drivers, lazy.go).
	partial  bool
	waveSize int
	policy   int

	busy      map[string]context.CancelFunc
	spin      spinner.Model
	status    string
	statusErr bool
	showHelp  bool
	helpOff   int

	prompt *promptPane

	rec *replay.Recorder
	// script is the rest of a replay script being played; scriptName
	// names it in errors and scriptDir resolves its paths.
	script     []replay.Command
	scriptName string
}

// New returns an explorer over drv.
func New(drv Driver, opts Options) *Model {
	keys := DefaultKeyMap()
	if opts.Keys != nil {
		keys = *opts.Keys
	}
	th := opts.Theme
	if th == nil {
		th = themes.Dark()
	}
	m := &Model{
		drv: drv, keys: keys, st: NewStyles(th), opts: opts, mouse: opts.Mouse,
		target: opts.Target, analyses: newLRU[string, *analysisEntry](keepAnalyses),
		busy: map[string]context.CancelFunc{}, waveSize: 32, themes: themes.Names(),
	}
	m.list = newPassList(m)
	m.ir = &irPane{s: m}
	m.diff = newDiffPane(m)
	m.graph = &graphPane{s: m}
	m.lanesP = &lanesPane{s: m}
	m.tgt = &targetPane{s: m}
	m.expl = &explainPane{s: m}
	m.src = &sourcePane{s: m}
	if m.target == "" && len(drv.Targets()) > 0 {
		m.target = drv.Targets()[0]
	}
	m.pipeline = opts.Pipeline
	if m.pipeline == nil {
		m.pipeline = drv.DefaultPipeline(m.target)
	}
	m.spin = spinner.New(spinner.WithSpinner(spinner.MiniDot))
	m.prompt = newPromptPane(m)
	module := opts.ModulePath
	if module == "" {
		module = drv.Source()
	}
	m.rec = replay.NewRecorder(module, opts.Entry, opts.Profile, m.target, specOf(m.pipeline))
	if in, ok := drv.(interface{ BundledInput() []byte }); ok {
		if data := in.BundledInput(); data != nil {
			// Inline, so the script replays the same run even if the
			// sample's input file changes.
			m.rec.InputJSON(data)
		}
	}
	return m
}

func specOf(p []PassSlot) string {
	var names []string
	for _, s := range p {
		if s.Enabled {
			names = append(names, s.Name)
		}
	}
	return strings.Join(names, ",")
}

// Messages produced by commands.
type (
	compiledMsg struct {
		c   *Compiled
		err error
		gen int // which compile (a newer one makes it stale)
	}
	analysisMsg struct {
		key string
		e   *analysisEntry
		err error
		cfg *cfgDrawing // the CFG, when the CFG pane asked
	}
	dotReadyMsg struct{ path, text string }
	diffMsg     struct {
		key [2]int
		d   *textdiff.Diff
	}
	lanesMsg struct {
		r   *LanesResult
		err error
	}
	targetMsg struct {
		comp       *Compiled
		text, lang string
		lines      []string // text split off the UI goroutine
		err        error
	}
	statusMsg struct {
		text string
		err  bool
	}
	reloadMsg struct {
		changed bool
		err     error
	}
)

// Init starts the first compile.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(m.compile(), m.spin.Tick)
}

func (m *Model) startJob(name string) context.Context {
	if cancel, ok := m.busy[name]; ok {
		cancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.busy[name] = cancel
	return ctx
}

// reload re-reads the input (drivers that can) and recompiles when it
// changed; the step (PASS#K), function, cursor and scroll stay where they
// still exist.
func (m *Model) reload() tea.Cmd {
	r, ok := m.drv.(Reloader)
	if !ok {
		return m.compile()
	}
	m.startJob("reload")
	return func() tea.Msg {
		changed, err := r.Reload()
		return reloadMsg{changed, err}
	}
}

func (m *Model) compile() tea.Cmd {
	ctx := m.startJob("compile")
	m.compileGen++
	drv, target, pipe, gen := m.drv, m.target, append([]PassSlot(nil), m.pipeline...), m.compileGen
	return func() tea.Msg {
		c, err := drv.Compile(ctx, target, pipe)
		return compiledMsg{c, err, gen}
	}
}

func (m *Model) curStep() *Step {
	if m.comp == nil || m.step < 0 || m.step >= len(m.comp.Steps) {
		return nil
	}
	m.loadStep(m.step)
	return &m.comp.Steps[m.step]
}

// Update handles a message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.layout()
		return m, m.ensureImage()
	case imageMsg:
		return m, m.imageDone(msg)
	case spinner.TickMsg:
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		// Panes waiting for a job draw the spinner into their text.
		if e := m.currentEntry(); (m.view == ViewTrees || m.view == ViewCFG) && (e == nil || m.view == ViewCFG && !e.cfgDrawn) {
			m.graph.refresh()
		}
		return m, cmd
	case compiledMsg:
		if msg.gen != m.compileGen {
			return m, nil // replaced by a newer compile
		}
		delete(m.busy, "compile")
		if msg.err != nil {
			m.pendingRun = false
			m.script = nil
			m.setStatus(msg.err.Error(), true)
			return m, nil
		}
		keep := ""
		if m.curStep() != nil && !(m.partial && m.step == len(m.comp.Steps)-1) {
			keep = replay.StepRef(m.step, m.passNames())
		}
		m.comp = msg.c
		m.diff.diffs.clear()
		m.analyses.clear()
		m.tgt.reset()
		m.step = len(m.comp.Steps) - 1
		if keep != "" {
			if i, err := replay.FindStep(keep, m.passNames()); err == nil {
				m.step = i
			}
		}
		for i, s := range m.comp.Steps {
			if s.Status == StepFailed {
				m.step = i
				m.setStatus(fmt.Sprintf("pass %s failed: %s", s.Pass, firstLine(s.Err)), true)
			}
		}
		if m.opts.Replay != "" && !m.isPartial(msg.c) {
			// (A replay waits for the whole of a progressively loaded log:
			// its goto may name a step past the first part.)
			script, name := m.opts.Replay, m.opts.ReplayName
			m.opts.Replay = ""
			return m, m.playScript(name, script)
		}
		wasPartial := m.partial
		cmds := []tea.Cmd{m.showStep(), m.awaitComplete(msg.c)}
		switch {
		case m.partial:
			m.setStatus(fmt.Sprintf("indexing the rest in the background (%d steps so far)", len(m.comp.Steps)), false)
		case wasPartial:
			m.setStatus(fmt.Sprintf("all %d steps indexed", len(m.comp.Steps)), false)
		}
		if m.pendingRun {
			cmds = append(cmds, m.runLanes())
		}
		if len(m.script) > 0 {
			cmds = append(cmds, m.playNext())
		}
		return m, tea.Batch(cmds...)
	case analysisMsg:
		if msg.key == m.analysisKey() {
			delete(m.busy, "analysis") // an older job's result leaves the current one running
		}
		if errors.Is(msg.err, context.Canceled) {
			return m, nil
		}
		if msg.err != nil {
			m.expl.pending = ""
			m.setStatus("analysis: "+msg.err.Error(), true)
			m.noteUnavailable(msg.key, msg.err)
			return m, nil
		}
		if msg.cfg != nil {
			msg.e.setCFG(*msg.cfg)
		}
		m.analyses.put(msg.key, msg.e)
		if p := m.expl.pending; p != "" && msg.key == m.analysisKey() {
			m.expl.pending = ""
			m.showExplanation(p, msg.e.a)
		}
		m.refreshViews()
		return m, nil
	case diffMsg:
		if msg.key == m.diff.key() {
			delete(m.busy, "diff")
		}
		_, cmd := m.diff.Update(msg)
		return m, cmd
	case lanesMsg:
		delete(m.busy, "run")
		if msg.err != nil {
			m.setStatus("run: "+msg.err.Error(), true)
			m.lanesP.result = &LanesResult{Lines: strings.Split("error: "+msg.err.Error(), "\n")}
		} else {
			m.lanesP.result = msg.r
			m.setStatus(fmt.Sprintf("ran %s on a wave of %d lanes (%s)", m.stepName(), m.waveSize, m.policyName()), false)
		}
		m.refreshViews()
		return m, nil
	case targetMsg:
		if msg.comp == m.comp {
			delete(m.busy, "target")
		}
		_, cmd := m.tgt.Update(msg)
		return m, cmd
	case statusMsg:
		m.setStatus(msg.text, msg.err)
		return m, nil
	case sourceMsg:
		_, cmd := m.src.Update(msg)
		return m, cmd
	case dotReadyMsg:
		delete(m.busy, "dot")
		return m, m.writeFile(msg.path, msg.text, false)
	case completeMsg:
		return m, m.onComplete(msg)
	case reloadMsg:
		delete(m.busy, "reload")
		switch {
		case msg.err != nil:
			m.setStatus("reload: "+msg.err.Error()+" (the module shown is unchanged)", true)
		case !msg.changed:
			m.setStatus(m.drv.Source()+" is unchanged", false)
		default:
			m.src.reload()
			m.setStatus("reloaded "+m.drv.Source()+": recompiling", false)
			return m, m.compile()
		}
		return m, nil
	case tea.MouseWheelMsg:
		if !m.mouse {
			return m, nil
		}
		if msg.Button == tea.MouseWheelUp {
			m.scroll(-3)
		} else if msg.Button == tea.MouseWheelDown {
			m.scroll(3)
		}
		return m, nil
	case tea.KeyPressMsg:
		// A key may change what the picture view needs (W, y, f, a step).
		return m, tea.Batch(m.handleKey(msg), m.ensureImage())
	}
	return m, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func (m *Model) setStatus(s string, isErr bool) {
	m.status, m.statusErr = s, isErr
}

func (m *Model) stepName() string {
	if s := m.curStep(); s != nil {
		return s.Pass
	}
	return ""
}

func (m *Model) policyName() string {
	ps := m.drv.Policies()
	if len(ps) == 0 {
		return ""
	}
	return ps[m.policy%len(ps)]
}

// focus is what receives the non-global keys.
func (m *Model) focus() Focus {
	if m.focusList {
		return FocusList
	}
	switch m.view {
	case ViewDiff:
		return FocusDiff
	case ViewTrees:
		return FocusTrees
	case ViewCFG:
		return FocusCFG
	case ViewLanes:
		return FocusLanes
	case ViewTarget:
		return FocusTarget
	case ViewExplain:
		return FocusExplain
	case ViewSource:
		return FocusSource
	}
	return FocusIR
}

// handleKey dispatches a key press: the prompt or help overlay when open,
// then the global bindings, then the focused pane's. The KeyMap test
// guarantees no key is bound twice in one focus, so the order of the two
// tables does not matter.
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if m.prompt.open() {
		_, cmd := m.prompt.Update(msg)
		if a := m.prompt.answer(); a != nil {
			return tea.Batch(cmd, m.submitPrompt(a.kind, a.value))
		}
		return cmd
	}
	k := m.keys
	if m.showHelp {
		switch {
		case msg.String() == "ctrl+c":
			return tea.Quit
		case key.Matches(msg, k.Help, k.Cancel, k.Quit):
			m.showHelp = false
		case key.Matches(msg, k.Down):
			m.helpOff++
		case key.Matches(msg, k.Up):
			m.helpOff = max(0, m.helpOff-1)
		case key.Matches(msg, k.PageDown):
			m.helpOff += m.h / 2
		case key.Matches(msg, k.PageUp):
			m.helpOff = max(0, m.helpOff-m.h/2)
		}
		return nil
	}
	if cmd, ok := m.handleGlobalKey(msg); ok {
		return cmd
	}
	_, cmd := m.focusedPane().Update(msg)
	return cmd
}

// handleGlobalKey handles the bindings of KeyMap.Global.
func (m *Model) handleGlobalKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Quit):
		for _, c := range m.busy {
			c()
		}
		return tea.Quit, true
	case key.Matches(msg, k.Help):
		m.showHelp = true
		m.helpOff = 0
	case key.Matches(msg, k.Cancel):
		if len(m.busy) > 0 {
			for n, c := range m.busy {
				c()
				delete(m.busy, n)
			}
			m.expl.pending = ""
			m.setStatus("cancelled", false)
		}
	case key.Matches(msg, k.NextPass):
		return m.gotoStep(m.step + 1), true
	case key.Matches(msg, k.PrevPass):
		return m.gotoStep(m.step - 1), true
	case key.Matches(msg, k.FirstPass):
		return m.gotoStep(0), true
	case key.Matches(msg, k.LastPass):
		if m.comp != nil {
			return m.gotoStep(len(m.comp.Steps) - 1), true
		}
	case key.Matches(msg, k.NextChanged):
		return m.gotoChanged(+1), true
	case key.Matches(msg, k.PrevChanged):
		return m.gotoChanged(-1), true
	case key.Matches(msg, k.FindPass):
		return m.openPrompt(promptPass, "pass: ", ""), true
	case key.Matches(msg, k.Expand):
		m.list.expanded[m.step] = !m.list.expanded[m.step]
	case key.Matches(msg, k.ViewIR):
		return m.setView(ViewIR), true
	case key.Matches(msg, k.ViewDiff):
		return m.setView(ViewDiff), true
	case key.Matches(msg, k.ViewTrees):
		return m.setView(ViewTrees), true
	case key.Matches(msg, k.ViewCFG):
		return m.setView(ViewCFG), true
	case key.Matches(msg, k.ViewLanes):
		return m.setView(ViewLanes), true
	case key.Matches(msg, k.ViewTarget):
		return m.setView(ViewTarget), true
	case key.Matches(msg, k.ViewExplain):
		return m.setView(ViewExplain), true
	case key.Matches(msg, k.ViewSource):
		return m.setView(ViewSource), true
	case key.Matches(msg, k.FocusNext):
		if m.hideList {
			m.setStatus("the pass list is hidden (Z shows it)", false)
			return nil, true
		}
		m.focusList = !m.focusList
		m.list.sel = m.slotOfStep(m.step)
	case key.Matches(msg, k.Zoom):
		m.hideList = !m.hideList
		if m.hideList {
			m.focusList = false
		}
		m.layout()
	case key.Matches(msg, k.FuncFilter):
		return m.openPrompt(promptFunc, "function (empty = all): ", m.fn), true
	case key.Matches(msg, k.LoadInput):
		if m.opts.Exports != nil {
			m.setStatus("loading files is not available in this session", true)
			return nil, true
		}
		return m.openPrompt(promptInput, "interpreter input JSON: ", ""), true
	case key.Matches(msg, k.Uniformity):
		m.overlay = !m.overlay
		if m.overlay {
			m.setStatus("uniformity overlay on: "+themes.Marks.Divergent+" divergent, "+themes.Marks.Temporal+" temporal, "+themes.Marks.AssumedDivergent+" assumed divergent (irreducible cycle)", false)
			return m.ensureAnalysis(), true
		}
		m.setStatus("uniformity overlay off", false)
		m.refreshViews()
	case key.Matches(msg, k.Explain):
		return m.explain(), true
	case key.Matches(msg, k.ExportDOT):
		if e := m.currentEntry(); e != nil {
			// An absolute default, so the user sees where it goes.
			def := defaultName(m.drv.Source(), fmt.Sprintf("%s.%d-%s", e.a.Func, m.step, m.stepName()), ".dot")
			if abs, err := filepath.Abs(def); err == nil && m.opts.Exports == nil {
				def = abs
			}
			return m.openPrompt(promptDOT, "export the CFG (DOT, with instructions) to: ", def), true
		}
		m.setStatus("computing the CFG first (press D again when it is shown)", false)
		return m.ensureAnalysis(), true
	case key.Matches(msg, k.RunLanes):
		return m.runLanes(), true
	case key.Matches(msg, k.WaveSize):
		sizes := []int{4, 8, 16, 32, 64}
		for i, s := range sizes {
			if s == m.waveSize {
				m.waveSize = sizes[(i+1)%len(sizes)]
				break
			}
		}
		m.setStatus(fmt.Sprintf("wave size %d (r to run)", m.waveSize), false)
	case key.Matches(msg, k.Policy):
		m.policy++
		m.setStatus("reconvergence policy: "+m.policyName()+" (r to run)", false)
	case key.Matches(msg, k.Target):
		ts := m.drv.Targets()
		for i, t := range ts {
			if t == m.target {
				m.target = ts[(i+1)%len(ts)]
				break
			}
		}
		m.pipeline = m.drv.DefaultPipeline(m.target)
		m.rec.Target(m.target, specOf(m.pipeline))
		m.setStatus("target "+m.target+": recompiling", false)
		return m.compile(), true
	case key.Matches(msg, k.Export):
		if m.tgt.text == "" {
			m.setStatus("no target code yet (6 shows the target pane)", true)
			return m.loadTarget(), true
		}
		label := "export to: "
		if ext := m.binaryExt(); ext != "" && m.opts.Exports == nil {
			label = "export to (" + ext + ": binary module, " + extFor(m.tgt.lang) + ": text): "
		}
		return m.openPrompt(promptExport, label, defaultName(m.drv.Source(), "", extFor(m.tgt.lang))), true
	case key.Matches(msg, k.Rerun):
		return m.reload(), true
	case key.Matches(msg, k.Record):
		return m.openPrompt(promptRecord, "save replay script to: ", defaultName(m.drv.Source(), "", ".replay")), true
	case key.Matches(msg, k.OpenReplay):
		return m.openPrompt(promptOpen, "play replay script: ", ""), true
	case key.Matches(msg, k.Mouse):
		m.mouse = !m.mouse
		if m.mouse {
			m.setStatus("mouse on (wheel scrolls)", false)
		} else {
			m.setStatus("mouse off", false)
		}
	case key.Matches(msg, k.Theme):
		cur := m.st.Theme.Name
		next := m.themes[0]
		for i, n := range m.themes {
			if n == cur {
				next = m.themes[(i+1)%len(m.themes)]
			}
		}
		th, _ := themes.ByName(next)
		m.st = NewStyles(th)
		m.setStatus("theme "+next, false)
		m.refreshViews()
	default:
		return nil, false
	}
	return nil, true
}

func (m *Model) slotOfStep(step int) int {
	if m.comp == nil || step <= 0 || step >= len(m.comp.Steps) {
		return 0
	}
	name := m.comp.Steps[step].Pass
	n := 0
	for i := 1; i <= step; i++ {
		if m.comp.Steps[i].Pass == name {
			n++
		}
	}
	for i, s := range m.pipeline {
		if s.Name == name && s.Enabled {
			n--
			if n == 0 {
				return i
			}
		}
	}
	return 0
}

func (m *Model) stepOfSlot(slot int) int {
	if m.comp == nil || slot < 0 || slot >= len(m.pipeline) || !m.pipeline[slot].Enabled {
		return m.step
	}
	k := 0
	for i := 0; i <= slot; i++ {
		if m.pipeline[i].Enabled {
			k++
		}
	}
	if k < len(m.comp.Steps) {
		return k
	}
	return len(m.comp.Steps) - 1
}

func (m *Model) gotoStep(i int) tea.Cmd {
	if m.comp == nil {
		return nil
	}
	if i < 0 || i >= len(m.comp.Steps) {
		return nil
	}
	m.step = i
	m.list.sel = m.slotOfStep(i)
	m.rec.Goto(replay.StepRef(i, m.passNames()))
	return m.showStep()
}

func (m *Model) gotoChanged(dir int) tea.Cmd {
	if m.comp == nil {
		return nil
	}
	for i := m.step + dir; i >= 0 && i < len(m.comp.Steps); i += dir {
		if st := m.statusFor(i); st == StepChanged || st == StepFailed {
			return m.gotoStep(i)
		}
	}
	m.setStatus("no further changed pass", false)
	return nil
}

func (m *Model) setView(v View) tea.Cmd {
	if v != m.view {
		m.rec.View(scriptViews[v])
	}
	m.view = v
	m.focusList = false
	m.layout()
	m.refreshViews()
	switch v {
	case ViewDiff:
		return m.diff.ensure()
	case ViewTrees, ViewCFG:
		return m.ensureAnalysis()
	case ViewTarget:
		return m.loadTarget()
	case ViewSource:
		return m.src.load()
	case ViewLanes:
		return m.ensureImage()
	}
	return nil
}

// showStep loads the current snapshot into the panes, keeping the cursor
// on the followed value if there is one, and starts what the shown pane
// needs (diff, analysis, target code).
func (m *Model) showStep() tea.Cmd {
	s := m.curStep()
	if s == nil {
		return nil
	}
	lines := m.stepLines(s)
	m.ir.setLines(lines, lexerFor(s.Lang))
	if m.ir.occ != "" {
		if d := m.ir.definitionLine(m.ir.occ); d >= 0 {
			m.ir.gotoLine(d)
		}
	}
	if s.Status == StepFailed {
		m.setStatus(fmt.Sprintf("pass %s failed: %s", s.Pass, firstLine(s.Err)), true)
	}
	m.refreshViews()
	var cmds []tea.Cmd
	switch m.view {
	case ViewDiff:
		cmds = append(cmds, m.diff.ensure())
	case ViewTarget:
		cmds = append(cmds, m.loadTarget())
	case ViewSource:
		cmds = append(cmds, m.src.load())
	case ViewLanes:
		cmds = append(cmds, m.ensureImage())
	}
	if m.overlay || m.view == ViewTrees || m.view == ViewCFG {
		cmds = append(cmds, m.ensureAnalysis())
	}
	return tea.Batch(cmds...)
}

// stepLines returns the lines of a snapshot, filtered to one function.
func (m *Model) stepLines(s *Step) []string {
	if s.Lines == nil {
		s.Lines = SplitLines(s.Text)
	}
	all := s.Lines
	if m.fn != "" {
		for _, f := range s.Funcs {
			if f.Name == m.fn {
				return all[min(f.Start, len(all)):min(f.End, len(all))]
			}
		}
	}
	return all
}

func (m *Model) analysisFunc() string {
	if m.fn != "" {
		return m.fn
	}
	if s := m.curStep(); s != nil {
		// The function the cursor is in, else the first definition.
		for _, f := range s.Funcs {
			if m.ir.cursor >= f.Start && m.ir.cursor < f.End {
				return f.Name
			}
		}
		for _, f := range s.Funcs {
			return f.Name
		}
	}
	return ""
}

func (m *Model) runLanes() tea.Cmd {
	if _, compiling := m.busy["compile"]; compiling || m.comp == nil {
		// Run what the user configured, not the compile being replaced.
		m.pendingRun = true
		m.setStatus("the run starts when the pipeline has compiled…", false)
		return nil
	}
	m.pendingRun = false
	ctx := m.startJob("run")
	drv, c, step := m.drv, m.comp, m.step
	opts := RunOptions{WaveSize: m.waveSize, Policy: m.policyName(), Function: m.analysisFunc()}
	m.rec.Run(m.waveSize, opts.Policy)
	m.view = ViewLanes
	m.focusList = false
	m.setStatus("running "+m.stepName()+"…", false)
	return func() tea.Msg {
		r, err := drv.Run(ctx, c, step, opts)
		return lanesMsg{r, err}
	}
}

// loadTarget starts generating the target code of the current compile
// unless it is there or on its way.
func (m *Model) loadTarget() tea.Cmd {
	if m.comp == nil || m.tgt.text != "" || m.tgt.err != "" {
		return nil
	}
	if _, running := m.busy["target"]; running && m.tgt.forComp == m.comp {
		return nil
	}
	ctx := m.startJob("target")
	drv, c := m.drv, m.comp
	m.tgt.forComp = c
	return func() tea.Msg {
		t, l, err := drv.TargetCode(ctx, c)
		return targetMsg{c, t, l, SplitLines(t), err}
	}
}

// activePane is the text of the shown pane (searches go there; nil for
// the diff pane).
func (m *Model) activePane() *codePane {
	switch m.view {
	case ViewTarget:
		return &m.tgt.codePane
	case ViewTrees, ViewCFG:
		return &m.graph.codePane
	case ViewLanes:
		return &m.lanesP.codePane
	case ViewExplain:
		return &m.expl.codePane
	case ViewDiff:
		return nil
	}
	return &m.ir.codePane
}

// scroll moves the shown pane (the mouse wheel).
func (m *Model) scroll(d int) {
	if m.view == ViewDiff {
		m.diff.scroll(d)
		return
	}
	m.activePane().move(d)
	m.afterMove()
}

// afterMove follows the selection of the trees and CFG panes.
func (m *Model) afterMove() {
	if m.view == ViewTrees || m.view == ViewCFG {
		m.graph.follow(true)
	}
}

func defaultName(source, fn, ext string) string {
	base := strings.TrimSuffix(filepath.Base(source), filepath.Ext(source))
	if fn != "" {
		base += "." + fn
	}
	return base + ext
}

func extFor(lang string) string {
	switch lang {
	case "spvasm":
		return ".spvasm"
	case "sm3":
		return ".asm"
	case "llvm":
		return ".ll"
	}
	return ".pir"
}

func lexerFor(lang string) chroma.Lexer {
	switch lang {
	case "spvasm":
		return themes.SPIRVAsm
	case "sm3":
		return themes.SM3Asm
	case "llvm":
		return themes.LLVM
	}
	return themes.PIR
}

// openPrompt starts a one-line input in the status bar.
func (m *Model) openPrompt(kind promptKind, label, value string) tea.Cmd {
	return m.prompt.start(kind, label, value)
}

func (m *Model) submitPrompt(kind promptKind, val string) tea.Cmd {
	switch kind {
	case promptSearch:
		p := m.activePane()
		if p == nil {
			return nil
		}
		p.setSearch(val)
		if val != "" && !p.nextMatch(+1) {
			m.setStatus("no match for "+val, true)
		} else if val != "" {
			m.setStatus(fmt.Sprintf("%d matching lines", len(p.matches)), false)
		}
		m.afterMove()
	case promptPass:
		if m.comp == nil || val == "" {
			return nil
		}
		for i := m.step + 1; i < m.step+1+len(m.comp.Steps); i++ {
			j := i % len(m.comp.Steps)
			if strings.Contains(m.comp.Steps[j].Pass, val) {
				return m.gotoStep(j)
			}
		}
		m.setStatus("no pass matching "+val, true)
	case promptFunc:
		m.fn = strings.TrimPrefix(val, "@")
		m.rec.Function(m.fn)
		return m.showStep()
	case promptExport:
		if val == "" {
			return nil
		}
		data := m.tgt.text
		if ext := m.binaryExt(); ext != "" && strings.EqualFold(filepath.Ext(val), ext) {
			if m.opts.Exports != nil {
				// The clipboard (OSC 52) carries text only.
				m.setStatus("a binary module cannot be offered over SSH; export the text form ("+extFor(m.tgt.lang)+")", true)
				return nil
			}
			bin, _, err := m.drv.(BinaryTarget).TargetBinary(m.comp)
			if err != nil {
				m.setStatus("export: "+err.Error(), true)
				return nil
			}
			data = string(bin)
		}
		if m.opts.Exports == nil {
			m.rec.Export(val)
		}
		return m.writeFile(val, data, false)
	case promptDOT:
		return m.exportDOT(val)
	case promptRecord:
		if val != "" {
			return m.writeFile(val, m.rec.Script(filepath.Dir(val)), false)
		}
	case promptInput:
		if val == "" {
			return nil
		}
		if err := m.drv.SetInput(val); err != nil {
			m.setStatus(err.Error(), true)
			return nil
		}
		m.rec.InputFile(val)
		m.lanesP.img.inputGen++
		m.setStatus("interpreter input "+val+" loaded (r runs)", false)
	case promptOpen:
		if val == "" {
			return nil
		}
		if m.opts.Exports != nil {
			// SSH sessions must not read the server's files.
			m.setStatus("replay scripts cannot be opened over SSH", true)
			return nil
		}
		data, err := os.ReadFile(val)
		if err != nil {
			m.setStatus(err.Error(), true)
			return nil
		}
		return m.playScript(val, string(data))
	}
	return nil
}

// binaryExt is the extension of the target code's binary form ("" when
// the driver or the target has none).
func (m *Model) binaryExt() string {
	bt, ok := m.drv.(BinaryTarget)
	if !ok || m.comp == nil {
		return ""
	}
	if _, ext, err := bt.TargetBinary(m.comp); err == nil {
		return ext
	}
	return ""
}

// writeFile exports text, asking before overwriting an existing file. When
// Options.Exports is set (SSH sessions) the text goes there instead.
func (m *Model) writeFile(path, text string, overwrite bool) tea.Cmd {
	if m.opts.Exports != nil {
		if err := m.opts.Exports(path, text); err != nil {
			m.setStatus(err.Error(), true)
		} else {
			m.setStatus("offered "+path+" to your terminal (OSC 52 clipboard)", false)
		}
		return nil
	}
	if !overwrite {
		if _, err := os.Stat(path); err == nil {
			m.prompt.confirm(path, text)
			return nil
		}
	}
	return func() tea.Msg {
		// Atomic, never through a symbolic link; replaces only what the
		// user confirmed (internal/atomicfile).
		if err := atomicfile.Write(path, []byte(text), atomicfile.Options{Replace: overwrite}); err != nil {
			return statusMsg{"export failed: " + err.Error(), true}
		}
		return statusMsg{fmt.Sprintf("wrote %s (%d bytes)", path, len(text)), false}
	}
}

// layout sizes the panes from the window size: the pass list on the
// left (unless hidden), the shown pane in the rest, below the title bar
// and above the status bar.
func (m *Model) layout() {
	h := m.h - 2
	m.list.SetSize(m.listW(), h)
	for _, p := range []pane{m.ir, m.diff, m.graph, m.lanesP, m.tgt, m.expl, m.src} {
		p.SetSize(m.mainW(), h)
	}
	m.prompt.SetSize(m.w, 1)
}

// listW is the width of the pass list (0 when hidden with Z).
func (m *Model) listW() int {
	if m.hideList {
		return 0
	}
	if m.w >= 140 {
		return 34
	}
	return 26
}

// mainW is the width of the main pane.
func (m *Model) mainW() int {
	if m.hideList {
		return m.w
	}
	return m.w - m.listW() - 1
}

// View renders the screen.
func (m *Model) View() tea.View {
	var v tea.View
	v.AltScreen = true
	if m.mouse {
		v.MouseMode = tea.MouseModeCellMotion
	}
	if m.w == 0 {
		v.SetContent("starting passlens…")
		return v
	}
	if m.w < MinWidth || m.h < MinHeight {
		v.SetContent(fmt.Sprintf("terminal too small: %d×%d (passlens needs at least %d×%d)", m.w, m.h, MinWidth, MinHeight))
		return v
	}
	if m.showHelp {
		v.SetContent(m.helpView())
		return v
	}
	top := m.titleBar()
	main := m.mainPane().View(m.mainW(), m.h-2)
	body := main
	if !m.hideList {
		list := m.list.View(m.listW(), m.h-2)
		sep := m.st.Border.Render(strings.TrimSuffix(strings.Repeat("│\n", m.h-2), "\n"))
		body = lipgloss.JoinHorizontal(lipgloss.Top, list, sep, main)
	}
	v.SetContent(top + "\n" + body + "\n" + m.statusBar())
	return v
}

func (m *Model) titleBar() string {
	src := m.drv.Source()
	left := m.st.Title.Render("passlens") + " " + m.st.Dim.Render(src) + "  " + m.st.Accent.Render("target "+m.target)
	if m.opts.Profile != "" {
		left += m.st.Dim.Render("  -T ") + m.opts.Profile
	}
	if s := m.curStep(); s != nil && m.comp != nil {
		left += m.st.Dim.Render(fmt.Sprintf("  step %d/%d ", m.step, len(m.comp.Steps)-1)) + m.st.Bold.Render(s.Pass)
	}
	if m.fn != "" {
		left += m.st.Dim.Render("  fn ") + m.fn
	}
	if m.overlay {
		left += "  " + m.st.Divergent.Render(themes.Marks.Divergent+" uniformity")
	}
	var tabs []string
	for i, n := range viewNames {
		label := fmt.Sprintf(" %d %s ", i+1, n)
		if View(i) == m.view {
			tabs = append(tabs, m.st.TabActive.Render(label))
		} else {
			tabs = append(tabs, m.st.TabInactive.Render(label))
		}
	}
	right := strings.Join(tabs, "")
	gap := m.w - lipgloss.Width(left) - lipgloss.Width(right)
	if gap < 1 {
		// Narrow: drop the tab labels to numbers.
		right = ""
		for i := range viewNames {
			label := fmt.Sprintf(" %d", i+1)
			if View(i) == m.view {
				right += m.st.TabActive.Render(label + " " + viewNames[i] + " ")
			} else {
				right += m.st.TabInactive.Render(label)
			}
		}
		gap = m.w - lipgloss.Width(left) - lipgloss.Width(right)
		if gap < 1 {
			left = truncate(left, m.w-lipgloss.Width(right)-1)
			gap = 1
		}
	}
	return left + strings.Repeat(" ", gap) + right
}

func truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if lipgloss.Width(s) <= w {
		return s
	}
	return ansiTruncate(s, w)
}

func (m *Model) statusBar() string {
	if m.prompt.open() {
		return m.prompt.View(m.w, 1)
	}
	busy := ""
	if len(m.busy) > 0 {
		var names []string
		for n := range m.busy {
			names = append(names, n)
		}
		busy = m.spin.View() + " " + strings.Join(names, ",") + "… (esc cancels) "
	}
	hint := m.st.StatusKey.Render(" ? ") + m.st.Status.Render(" help ") + m.st.StatusKey.Render(" q ") + m.st.Status.Render(" quit ")
	msg := m.status
	if msg == "" {
		// No news: the focused pane's own keys (its ShortHelp).
		var parts []string
		for _, b := range m.focusedPane().ShortHelp() {
			parts = append(parts, b.Help().Key+" "+b.Help().Desc)
		}
		msg = strings.Join(parts, " · ")
	}
	st := m.st.Status
	if m.statusErr {
		st = m.st.Error
	}
	room := m.w - lipgloss.Width(hint) - lipgloss.Width(busy) - 1
	msg = truncate(msg, room)
	pad := room - lipgloss.Width(msg)
	if pad < 0 {
		pad = 0
	}
	return m.st.Status.Render(busy) + st.Render(msg) + m.st.Status.Render(strings.Repeat(" ", pad+1)) + hint
}

// refreshViews rebuilds derived pane contents (marks, trees, CFG, lanes,
// target) after state changes.
func (m *Model) refreshViews() {
	m.ir.marks = nil
	e := m.currentEntry()
	if m.overlay && e != nil {
		m.ir.marks = m.uniformityMarks(e.a)
	}
	switch m.view {
	case ViewTrees, ViewCFG:
		m.graph.refresh()
	case ViewLanes:
		m.lanesP.refresh()
	case ViewTarget:
		m.tgt.refresh()
	}
}

func (m *Model) uniformityMarks(a *Analysis) map[int]Mark {
	marks := map[int]Mark{}
	curBlock := ""
	for i, l := range m.ir.lines {
		t := strings.TrimSpace(l)
		if strings.HasSuffix(t, ":") && !strings.HasPrefix(l, " ") {
			curBlock = "%" + strings.TrimSuffix(t, ":")
			continue
		}
		name := ""
		if strings.HasPrefix(t, "%") {
			if eq := strings.Index(t, " = "); eq > 0 {
				name = t[:eq]
			}
		}
		kind := DivNone
		if name != "" {
			kind = a.Divergent[name]
		} else if isTerminatorLine(t) {
			if a.Divergent[curBlock] != DivNone {
				kind = DivBranch
			}
		}
		if kind != DivNone {
			marks[i] = m.divMark(kind, name)
		}
	}
	return marks
}

// divMark is the gutter mark of a divergence kind (name: the value).
func (m *Model) divMark(kind DivKind, name string) Mark {
	switch kind {
	case DivBranch:
		return Mark{Symbol: themes.Marks.Divergent, Style: m.st.Divergent, Note: "divergent branch"}
	case DivTemporal:
		return Mark{Symbol: themes.Marks.Temporal, Style: m.st.Temporal, Note: name + " is temporally divergent"}
	case DivAssumed:
		return Mark{Symbol: themes.Marks.AssumedDivergent, Style: m.st.Temporal, Note: name + " is in a cycle assumed divergent"}
	}
	return Mark{Symbol: themes.Marks.Divergent, Style: m.st.Divergent, Note: name + " is divergent"}
}

func isTerminatorLine(t string) bool {
	for _, p := range []string{"br ", "condbr ", "switch "} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}
