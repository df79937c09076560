// Package tui is the passlens explorer: a bubbletea program that steps
// through the snapshots of a pass pipeline with IR, diff, tree, CFG, lanes
// and target-code views. The root Model is the only tea.Model that returns
// a tea.View; panes are plain structs it owns and sizes. Heavy work
// (compiling, analyses, diffs, interpreter runs) runs in tea.Cmds.
package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"

	"passlens/internal/atomicfile"
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
)

var viewNames = []string{"IR", "Diff", "Trees", "CFG", "Lanes", "Target"}

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
	// Replay, when set, is a replay script to play on start.
	Replay string
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
	listSel   int // selected pipeline slot in the pass list (what-if editing)
	expanded  map[int]bool

	ir    codePane
	tgt   codePane
	other codePane // trees, CFG, lanes
	fn    string   // function filter ("" = all)

	diffs     map[[2]int]*textdiff.Diff
	diffBase  int // -1: previous snapshot; otherwise a fixed step
	diffSide  bool
	diffOff   int
	diffStale bool

	analyses  map[string]*Analysis // key: step/fn
	overlay   bool
	treeKind  int // 0 dom, 1 postdom, 2 cycles
	treeRows  []treeRow
	cfgBlocks map[int]string

	lanes    *LanesResult
	waveSize int
	policy   int
	tgtText  string
	tgtLang  string
	tgtErr   string

	busy      map[string]context.CancelFunc
	spin      spinner.Model
	status    string
	statusErr bool
	showHelp  bool
	helpOff   int

	prompt      textinput.Model
	promptKind  string // "", "search", "pass", "func", "export", "record", "open", "confirm", "dot"
	pendingPath string
	pendingText string

	record []string
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
		target: opts.Target, expanded: map[int]bool{}, diffs: map[[2]int]*textdiff.Diff{},
		analyses: map[string]*Analysis{}, diffBase: -1, busy: map[string]context.CancelFunc{},
		waveSize: 32, themes: themes.Names(),
	}
	if m.target == "" && len(drv.Targets()) > 0 {
		m.target = drv.Targets()[0]
	}
	m.pipeline = opts.Pipeline
	if m.pipeline == nil {
		m.pipeline = drv.DefaultPipeline(m.target)
	}
	m.spin = spinner.New(spinner.WithSpinner(spinner.MiniDot))
	m.prompt = textinput.New()
	m.record = []string{"# passlens replay script recorded by the explorer", "load " + drv.Source(), "target " + m.target, "passes " + specOf(m.pipeline)}
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
	}
	analysisMsg struct {
		key string
		a   *Analysis
		err error
	}
	diffMsg struct {
		key [2]int
		d   *textdiff.Diff
	}
	lanesMsg struct {
		r   *LanesResult
		err error
	}
	targetMsg struct {
		text, lang string
		err        error
	}
	statusMsg struct {
		text string
		err  bool
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

func (m *Model) compile() tea.Cmd {
	ctx := m.startJob("compile")
	drv, target, pipe := m.drv, m.target, append([]PassSlot(nil), m.pipeline...)
	return func() tea.Msg {
		c, err := drv.Compile(ctx, target, pipe)
		return compiledMsg{c, err}
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
		return m, nil
	case spinner.TickMsg:
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		return m, cmd
	case compiledMsg:
		delete(m.busy, "compile")
		if msg.err != nil {
			m.setStatus(msg.err.Error(), true)
			return m, nil
		}
		keepPass := ""
		if s := m.curStep(); s != nil {
			keepPass = s.Pass
		}
		m.comp = msg.c
		m.diffs = map[[2]int]*textdiff.Diff{}
		m.analyses = map[string]*Analysis{}
		m.tgtText, m.tgtErr = "", ""
		m.step = len(m.comp.Steps) - 1
		if keepPass != "" {
			for i, s := range m.comp.Steps {
				if s.Pass == keepPass {
					m.step = i
				}
			}
		}
		for i, s := range m.comp.Steps {
			if s.Status == StepFailed {
				m.step = i
				m.setStatus(fmt.Sprintf("pass %s failed: %s", s.Pass, firstLine(s.Err)), true)
			}
		}
		if m.opts.Replay != "" {
			script := m.opts.Replay
			m.opts.Replay = ""
			return m, m.playScript(script)
		}
		return m, m.showStep()
	case analysisMsg:
		delete(m.busy, "analysis")
		if msg.err != nil {
			m.setStatus("analysis: "+msg.err.Error(), true)
			m.noteUnavailable(msg.key, msg.err)
			return m, nil
		}
		m.analyses[msg.key] = msg.a
		m.refreshViews()
		return m, nil
	case diffMsg:
		delete(m.busy, "diff")
		m.diffs[msg.key] = msg.d
		return m, nil
	case lanesMsg:
		delete(m.busy, "run")
		if msg.err != nil {
			m.setStatus("run: "+msg.err.Error(), true)
			m.lanes = &LanesResult{Lines: strings.Split("error: "+msg.err.Error(), "\n")}
		} else {
			m.lanes = msg.r
			m.setStatus(fmt.Sprintf("ran %s on a wave of %d lanes (%s)", m.stepName(), m.waveSize, m.policyName()), false)
		}
		m.refreshViews()
		return m, nil
	case targetMsg:
		delete(m.busy, "target")
		m.tgtText, m.tgtLang = msg.text, msg.lang
		m.tgtErr = ""
		if msg.err != nil {
			m.tgtErr = msg.err.Error()
		}
		m.refreshViews()
		return m, nil
	case statusMsg:
		m.setStatus(msg.text, msg.err)
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
		return m, m.handleKey(msg)
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

// handleKey dispatches a key press.
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if m.promptKind != "" {
		return m.handlePromptKey(msg)
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
	switch {
	case key.Matches(msg, k.Quit):
		for _, c := range m.busy {
			c()
		}
		return tea.Quit
	case key.Matches(msg, k.Help):
		m.showHelp = true
	case key.Matches(msg, k.Cancel):
		if len(m.busy) > 0 {
			for n, c := range m.busy {
				c()
				delete(m.busy, n)
			}
			m.setStatus("cancelled", false)
		}
	case key.Matches(msg, k.NextPass):
		return m.gotoStep(m.step + 1)
	case key.Matches(msg, k.PrevPass):
		return m.gotoStep(m.step - 1)
	case key.Matches(msg, k.FirstPass):
		return m.gotoStep(0)
	case key.Matches(msg, k.LastPass):
		if m.comp != nil {
			return m.gotoStep(len(m.comp.Steps) - 1)
		}
	case key.Matches(msg, k.NextChanged):
		return m.gotoChanged(+1)
	case key.Matches(msg, k.PrevChanged):
		return m.gotoChanged(-1)
	case key.Matches(msg, k.FindPass):
		return m.openPrompt("pass", "pass: ", "")
	case key.Matches(msg, k.ViewIR):
		return m.setView(ViewIR)
	case key.Matches(msg, k.ViewDiff):
		return m.setView(ViewDiff)
	case key.Matches(msg, k.ViewTrees):
		return m.setView(ViewTrees)
	case key.Matches(msg, k.ViewCFG):
		return m.setView(ViewCFG)
	case key.Matches(msg, k.ViewLanes):
		return m.setView(ViewLanes)
	case key.Matches(msg, k.ViewTarget):
		return m.setView(ViewTarget)
	case key.Matches(msg, k.FocusNext):
		m.focusList = !m.focusList
		m.listSel = m.slotOfStep(m.step)
	case key.Matches(msg, k.Up):
		if m.focusList {
			m.listSel = max(0, m.listSel-1)
		} else {
			m.scroll(-1)
		}
	case key.Matches(msg, k.Down):
		if m.focusList {
			m.listSel = min(len(m.pipeline)-1, m.listSel+1)
		} else {
			m.scroll(1)
		}
	case key.Matches(msg, k.PageUp):
		m.scroll(-max(1, m.paneH()-1))
	case key.Matches(msg, k.PageDown):
		m.scroll(max(1, m.paneH()-1))
	case key.Matches(msg, k.Top):
		m.scroll(-1 << 30)
	case key.Matches(msg, k.Bottom):
		m.scroll(1 << 30)
	case key.Matches(msg, k.Left):
		p := m.activePane()
		p.xoff = max(0, p.xoff-8)
	case key.Matches(msg, k.Right):
		m.activePane().xoff += 8
	case key.Matches(msg, k.Search):
		return m.openPrompt("search", "/", "")
	case key.Matches(msg, k.SearchNext):
		if !m.activePane().nextMatch(+1) {
			m.setStatus("no matches", false)
		}
	case key.Matches(msg, k.SearchPrev):
		if !m.activePane().nextMatch(-1) {
			m.setStatus("no matches", false)
		}
	case key.Matches(msg, k.Occurrences):
		v := m.ir.currentValue()
		if m.ir.occ == v {
			m.ir.occ = ""
			m.setStatus("occurrence highlight off", false)
		} else {
			m.ir.occ = v
			m.setStatus(fmt.Sprintf("highlighting %s (%d lines); it is followed across passes", v, m.countOcc(v)), false)
		}
	case key.Matches(msg, k.NextValue):
		m.activePane().nextValue()
	case key.Matches(msg, k.GotoDef):
		return m.gotoDef()
	case key.Matches(msg, k.FuncFilter):
		return m.openPrompt("func", "function (empty = all): ", m.fn)
	case key.Matches(msg, k.DiffMode):
		m.diffSide = !m.diffSide
	case key.Matches(msg, k.NextChange):
		m.nextChange()
	case key.Matches(msg, k.DiffBase):
		if m.diffBase < 0 {
			m.diffBase = 0
			m.setStatus("diff against the input snapshot", false)
		} else {
			m.diffBase = -1
			m.setStatus("diff against the previous snapshot", false)
		}
		return m.showStep()
	case key.Matches(msg, k.PinBase):
		m.diffBase = m.step
		m.setStatus(fmt.Sprintf("diffing against step %d (%s); b returns to the previous snapshot", m.step, m.stepName()), false)
		return m.showStep()
	case key.Matches(msg, k.LoadInput):
		if m.opts.Exports != nil {
			m.setStatus("loading files is not available in this session", true)
			return nil
		}
		return m.openPrompt("input", "interpreter input JSON: ", "")
	case key.Matches(msg, k.Uniformity):
		m.overlay = !m.overlay
		m.record = append(m.record, "# uniformity overlay toggled")
		if m.overlay {
			m.setStatus("uniformity overlay on: "+themes.Marks.Divergent+" divergent, "+themes.Marks.Temporal+" temporal, "+themes.Marks.AssumedDivergent+" assumed divergent (irreducible cycle)", false)
			return m.ensureAnalysis()
		}
		m.setStatus("uniformity overlay off", false)
		m.refreshViews()
	case key.Matches(msg, k.Explain):
		return m.explain()
	case key.Matches(msg, k.TreeKind):
		m.treeKind = (m.treeKind + 1) % 3
		m.refreshViews()
	case key.Matches(msg, k.ExportDOT):
		if a := m.currentAnalysis(); a != nil {
			return m.openPrompt("dot", "export DOT to: ", defaultName(m.drv.Source(), a.Func, ".dot"))
		}
		return m.ensureAnalysis()
	case key.Matches(msg, k.RunLanes):
		return m.runLanes()
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
		m.record = append(m.record, "target "+m.target, "passes "+specOf(m.pipeline))
		m.setStatus("target "+m.target+": recompiling", false)
		return m.compile()
	case key.Matches(msg, k.Export):
		if m.tgtText == "" {
			m.setStatus("no target code yet (6 shows the target pane)", true)
			return m.loadTarget()
		}
		return m.openPrompt("export", "export to: ", defaultName(m.drv.Source(), "", extFor(m.tgtLang)))
	case key.Matches(msg, k.TogglePass):
		if m.focusList && m.listSel >= 0 && m.listSel < len(m.pipeline) {
			m.pipeline[m.listSel].Enabled = !m.pipeline[m.listSel].Enabled
			m.record = append(m.record, "passes "+specOf(m.pipeline))
			return m.compile()
		}
		m.setStatus("tab to the pass list, then space turns a pass off or on", false)
	case key.Matches(msg, k.MoveUp), key.Matches(msg, k.MoveDown):
		if !m.focusList {
			m.setStatus("tab to the pass list to reorder passes", false)
			return nil
		}
		d := 1
		if key.Matches(msg, k.MoveUp) {
			d = -1
		}
		j := m.listSel + d
		if j < 0 || j >= len(m.pipeline) {
			return nil
		}
		m.pipeline[m.listSel], m.pipeline[j] = m.pipeline[j], m.pipeline[m.listSel]
		m.listSel = j
		m.record = append(m.record, "passes "+specOf(m.pipeline))
		return m.compile()
	case key.Matches(msg, k.Rerun):
		return m.compile()
	case key.Matches(msg, k.Record):
		return m.openPrompt("record", "save replay script to: ", defaultName(m.drv.Source(), "", ".replay"))
	case key.Matches(msg, k.OpenReplay):
		return m.openPrompt("open", "play replay script: ", "")
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
	case m.focusList && msg.String() == "enter":
		return m.gotoStep(m.stepOfSlot(m.listSel))
	case msg.String() == "z":
		m.expanded[m.step] = !m.expanded[m.step]
	}
	return nil
}

func (m *Model) countOcc(v string) int {
	n := 0
	for _, l := range m.ir.lines {
		if strings.Contains(l, v) {
			n++
		}
	}
	return n
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
	m.listSel = m.slotOfStep(i)
	m.record = append(m.record, "goto "+m.comp.Steps[i].Pass)
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
	m.view = v
	m.focusList = false
	m.refreshViews()
	switch v {
	case ViewDiff:
		return m.ensureDiff()
	case ViewTrees, ViewCFG:
		return m.ensureAnalysis()
	case ViewTarget:
		return m.loadTarget()
	}
	return nil
}

// showStep loads the current snapshot into the panes, keeping the cursor
// on the followed value if there is one.
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
	if m.view == ViewDiff {
		cmds = append(cmds, m.ensureDiff())
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

func (m *Model) diffKey() [2]int {
	base := m.step - 1
	if m.diffBase >= 0 && m.diffBase != m.step {
		base = m.diffBase
	}
	if base < 0 {
		base = 0
	}
	return [2]int{base, m.step}
}

func (m *Model) ensureDiff() tea.Cmd {
	if m.comp == nil {
		return nil
	}
	k := m.diffKey()
	if _, ok := m.diffs[k]; ok {
		m.diffOff = 0
		return nil
	}
	m.loadStep(k[0])
	m.loadStep(k[1])
	a, b := m.comp.Steps[k[0]].Text, m.comp.Steps[k[1]].Text
	m.startJob("diff")
	m.diffOff = 0
	return func() tea.Msg { return diffMsg{k, textdiff.Compute(a, b)} }
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

func (m *Model) currentAnalysis() *Analysis {
	return m.analyses[fmt.Sprintf("%d/%s", m.step, m.analysisFunc())]
}

func (m *Model) ensureAnalysis() tea.Cmd {
	if m.comp == nil {
		return nil
	}
	fn := m.analysisFunc()
	k := fmt.Sprintf("%d/%s", m.step, fn)
	if _, ok := m.analyses[k]; ok {
		m.refreshViews()
		return nil
	}
	ctx := m.startJob("analysis")
	drv, c, step := m.drv, m.comp, m.step
	return func() tea.Msg {
		a, err := drv.Analyze(ctx, c, step, fn)
		return analysisMsg{k, a, err}
	}
}

func (m *Model) runLanes() tea.Cmd {
	if m.comp == nil {
		return nil
	}
	ctx := m.startJob("run")
	drv, c, step := m.drv, m.comp, m.step
	opts := RunOptions{WaveSize: m.waveSize, Policy: m.policyName()}
	m.record = append(m.record, fmt.Sprintf("run --wave %d --policy %s", m.waveSize, opts.Policy))
	m.view = ViewLanes
	m.setStatus("running "+m.stepName()+"…", false)
	return func() tea.Msg {
		r, err := drv.Run(ctx, c, step, opts)
		return lanesMsg{r, err}
	}
}

func (m *Model) loadTarget() tea.Cmd {
	if m.comp == nil || m.tgtText != "" || m.tgtErr != "" {
		return nil
	}
	ctx := m.startJob("target")
	drv, c := m.drv, m.comp
	return func() tea.Msg {
		t, l, err := drv.TargetCode(ctx, c)
		return targetMsg{t, l, err}
	}
}

func (m *Model) gotoDef() tea.Cmd {
	p := m.activePane()
	v := p.currentValue()
	if v == "" {
		return nil
	}
	if d := p.definitionLine(v); d >= 0 {
		p.gotoLine(d)
		m.setStatus("definition of "+v, false)
	} else {
		m.setStatus("no definition of "+v+" in view", true)
	}
	return nil
}

func (m *Model) explain() tea.Cmd {
	a := m.currentAnalysis()
	if a == nil {
		m.setStatus("computing uniformity…", false)
		return m.ensureAnalysis()
	}
	v := m.ir.currentValue()
	if v == "" {
		return nil
	}
	if a.Explain == nil {
		m.setStatus(v+": no uniformity information", false)
		return nil
	}
	chain := a.Explain(v)
	if len(chain) == 0 {
		m.setStatus(v+" is uniform", false)
		return nil
	}
	m.setStatus(v+" is divergent: "+strings.Join(chain, " ← "), false)
	return nil
}

func (m *Model) nextChange() {
	d := m.diffs[m.diffKey()]
	if d == nil {
		return
	}
	for _, h := range d.Hunks {
		if h > m.diffOff {
			m.diffOff = h
			return
		}
	}
	if len(d.Hunks) > 0 {
		m.diffOff = d.Hunks[0]
		m.setStatus("wrapped to the first change", false)
	}
}

func (m *Model) activePane() *codePane {
	switch m.view {
	case ViewTarget:
		return &m.tgt
	case ViewTrees, ViewCFG, ViewLanes:
		return &m.other
	}
	return &m.ir
}

func (m *Model) scroll(d int) {
	if m.view == ViewDiff {
		if dd := m.diffs[m.diffKey()]; dd != nil {
			m.diffOff = max(0, min(len(dd.Rows)-1, m.diffOff+d))
		}
		return
	}
	p := m.activePane()
	if d > 1<<20 {
		p.gotoLine(len(p.lines) - 1)
		return
	}
	if d < -(1 << 20) {
		p.gotoLine(0)
		return
	}
	p.move(d)
	if m.view == ViewTrees || m.view == ViewCFG {
		m.followSelection()
	}
}

// followSelection shows the block of the selected tree node or CFG block in
// the IR pane (selecting a node shows its block).
func (m *Model) followSelection() {
	var blk string
	if m.view == ViewTrees && m.other.cursor < len(m.treeRows) {
		blk = m.treeRows[m.other.cursor].block
	}
	if m.view == ViewCFG {
		blk = m.cfgBlocks[m.other.cursor]
	}
	if blk == "" {
		return
	}
	if d := m.ir.definitionLine("%" + blk); d >= 0 {
		m.ir.gotoLine(d)
		m.setStatus("block %"+blk+" is at IR line "+fmt.Sprint(d+1), false)
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
func (m *Model) openPrompt(kind, label, value string) tea.Cmd {
	m.promptKind = kind
	m.prompt.Prompt = label
	m.prompt.SetValue(value)
	m.prompt.CursorEnd()
	m.prompt.SetWidth(max(10, m.w-len(label)-2))
	return m.prompt.Focus()
}

func (m *Model) handlePromptKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "esc":
		m.promptKind = ""
		m.prompt.Blur()
		return nil
	case "enter":
		kind, val := m.promptKind, strings.TrimSpace(m.prompt.Value())
		m.promptKind = ""
		m.prompt.Blur()
		return m.submitPrompt(kind, val)
	}
	if m.promptKind == "confirm" {
		switch msg.String() {
		case "y", "Y":
			m.promptKind = ""
			return m.writeFile(m.pendingPath, m.pendingText, true)
		case "n", "N":
			m.promptKind = ""
			m.setStatus("not overwritten", false)
		}
		return nil
	}
	var cmd tea.Cmd
	m.prompt, cmd = m.prompt.Update(msg)
	return cmd
}

func (m *Model) submitPrompt(kind, val string) tea.Cmd {
	switch kind {
	case "search":
		m.activePane().setSearch(val)
		if val != "" && !m.activePane().nextMatch(+1) {
			m.setStatus("no match for "+val, true)
		} else if val != "" {
			m.setStatus(fmt.Sprintf("%d matching lines", len(m.activePane().matches)), false)
		}
	case "pass":
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
	case "func":
		m.fn = val
		m.record = append(m.record, "function "+val)
		return m.showStep()
	case "export":
		if val == "" {
			return nil
		}
		m.record = append(m.record, "export "+val)
		return m.writeFile(val, m.tgtText, false)
	case "dot":
		if a := m.currentAnalysis(); a != nil && val != "" {
			return m.writeFile(val, a.DOT, false)
		}
	case "record":
		if val != "" {
			return m.writeFile(val, strings.Join(m.record, "\n")+"\n", false)
		}
	case "input":
		if val == "" {
			return nil
		}
		if err := m.drv.SetInput(val); err != nil {
			m.setStatus(err.Error(), true)
			return nil
		}
		m.record = append(m.record, "# interpreter input "+val)
		m.setStatus("interpreter input "+val+" loaded (r runs)", false)
	case "open":
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
		return m.playScript(string(data))
	}
	return nil
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
			m.pendingPath, m.pendingText = path, text
			m.promptKind = "confirm"
			m.prompt.Prompt = path + " exists. Overwrite? (y/n) "
			m.prompt.SetValue("")
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

// playScript applies the navigation commands of a replay script to the
// explorer: target, passes, goto, function, view changes. Commands that only
// print (print, diff, analyze) are shown by switching to their view.
func (m *Model) playScript(script string) tea.Cmd {
	var cmds []tea.Cmd
	recompile := false
	for n, line := range strings.Split(script, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		switch f[0] {
		case "load":
		case "target":
			if len(f) > 1 && f[1] != m.target {
				m.target = f[1]
				m.pipeline = m.drv.DefaultPipeline(m.target)
				recompile = true
			}
		case "passes":
			if len(f) > 1 {
				var p []PassSlot
				for _, name := range strings.Split(f[1], ",") {
					p = append(p, PassSlot{Name: name, Enabled: true})
				}
				if specOf(p) != specOf(m.pipeline) {
					m.pipeline = p
					recompile = true
				}
			}
		case "goto", "step":
			if recompile {
				m.opts.Replay = strings.Join(strings.Split(script, "\n")[n:], "\n")
				return m.compile()
			}
			if m.comp != nil && len(f) > 1 {
				for i, s := range m.comp.Steps {
					if s.Pass == f[1] || fmt.Sprint(i) == f[1] {
						m.step = i
					}
				}
			}
		case "function":
			if len(f) > 1 {
				m.fn = f[1]
			} else {
				m.fn = ""
			}
		case "print":
			m.view = ViewIR
		case "diff":
			m.view = ViewDiff
		case "analyze":
			m.view = ViewTrees
		case "run":
			m.view = ViewLanes
		}
	}
	if recompile {
		return m.compile()
	}
	cmds = append(cmds, m.showStep())
	if m.view == ViewLanes {
		cmds = append(cmds, m.runLanes())
	}
	m.setStatus("replay script applied", false)
	return tea.Batch(cmds...)
}

// layout sizes the panes from the window size.
func (m *Model) layout() {
	h := m.paneH()
	w := m.w - m.listW() - 1
	m.ir.setSize(w, h)
	m.tgt.setSize(w, h)
	m.other.setSize(w, h)
	m.prompt.SetWidth(max(10, m.w-len(m.prompt.Prompt)-2))
}

func (m *Model) listW() int {
	if m.w >= 140 {
		return 34
	}
	return 26
}

// paneH is the height of the main pane's content (title, tabs and status
// bar excluded).
func (m *Model) paneH() int { return max(1, m.h-3) }

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
	list := m.passListView(m.listW(), m.h-2)
	main := m.mainView(m.w-m.listW()-1, m.h-2)
	sep := m.st.Border.Render(strings.TrimSuffix(strings.Repeat("│\n", m.h-2), "\n"))
	body := lipgloss.JoinHorizontal(lipgloss.Top, list, sep, main)
	v.SetContent(top + "\n" + body + "\n" + m.statusBar())
	return v
}

func (m *Model) titleBar() string {
	src := m.drv.Source()
	left := m.st.Title.Render("passlens") + " " + m.st.Dim.Render(src) + "  " + m.st.Accent.Render("target "+m.target)
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
	if m.promptKind != "" {
		return m.prompt.View()
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
	a := m.currentAnalysis()
	if m.overlay && a != nil {
		m.ir.marks = m.uniformityMarks(a)
	}
	switch m.view {
	case ViewTrees:
		m.buildTrees(a)
	case ViewCFG:
		m.buildCFG(a)
	case ViewLanes:
		m.buildLanes()
	case ViewTarget:
		switch {
		case m.tgtErr != "":
			m.tgt.setLines(strings.Split("error: "+m.tgtErr, "\n"), nil)
		case m.tgtText == "":
			m.tgt.setLines([]string{"generating target code…"}, nil)
		default:
			m.tgt.setLines(strings.Split(strings.TrimSuffix(m.tgtText, "\n"), "\n"), lexerFor(m.tgtLang))
		}
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
		switch kind {
		case DivValue:
			marks[i] = Mark{Symbol: themes.Marks.Divergent, Style: m.st.Divergent, Note: name + " is divergent"}
		case DivBranch:
			marks[i] = Mark{Symbol: themes.Marks.Divergent, Style: m.st.Divergent, Note: "divergent branch"}
		case DivTemporal:
			marks[i] = Mark{Symbol: themes.Marks.Temporal, Style: m.st.Temporal, Note: name + " is temporally divergent"}
		case DivAssumed:
			marks[i] = Mark{Symbol: themes.Marks.AssumedDivergent, Style: m.st.Temporal, Note: name + " is in a cycle assumed divergent"}
		}
	}
	return marks
}

func isTerminatorLine(t string) bool {
	for _, p := range []string{"br ", "condbr ", "switch "} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// CompiledForTest wraps a compile result as the message the explorer
// receives when a compile finishes (for benchmarks and tests outside the
// package).
func CompiledForTest(c *Compiled) tea.Msg { return compiledMsg{c: c} }
