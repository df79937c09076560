package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"passlens/internal/replay"
)

// playScript plays a replay script in the explorer with the same parser
// and the same navigation rules as `passlens replay` (internal/replay):
// an unknown command stops it with file:line:col before anything runs.
func (m *Model) playScript(name, text string) tea.Cmd {
	if name == "" {
		name = "replay"
	}
	cmds, err := replay.Parse(name, text)
	if err != nil {
		m.scriptError(err)
		return nil
	}
	m.script, m.scriptName = cmds, name
	return m.playNext()
}

func (m *Model) scriptError(err error) {
	m.script = nil
	if e, ok := err.(*replay.Error); ok {
		m.setStatus("replay: "+e.Short(), true)
		return
	}
	m.setStatus("replay: "+err.Error(), true)
}

func (m *Model) scriptDir() string { return filepath.Dir(m.scriptName) }

// playNext runs script commands until one must wait for a compile.
func (m *Model) playNext() tea.Cmd {
	var cmds []tea.Cmd
	for len(m.script) > 0 {
		c := m.script[0]
		m.script = m.script[1:]
		cmd, wait, err := m.playCommand(c)
		if err != nil {
			m.scriptError(c.Errorf(m.scriptName, "%v", err))
			return tea.Batch(cmds...)
		}
		cmds = append(cmds, cmd)
		if wait {
			return tea.Batch(cmds...)
		}
	}
	m.setStatus("replay script "+m.scriptName+" played", false)
	return tea.Batch(cmds...)
}

// playCommand applies one command; wait reports a compile started (the
// rest of the script continues when it finishes).
func (m *Model) playCommand(c replay.Command) (cmd tea.Cmd, wait bool, err error) {
	needComp := func() error {
		if m.comp == nil {
			return fmt.Errorf("the pipeline has not compiled")
		}
		return nil
	}
	switch c.Name {
	case "load":
		path, entry, err := replay.LoadArgs(c.Args)
		if err != nil {
			return nil, false, err
		}
		if !m.sameModule(replay.Resolve(m.scriptDir(), path)) {
			return nil, false, fmt.Errorf("the script loads %s but the explorer has %s open (start passlens --replay SCRIPT without a file to load the script's module)", path, m.drv.Source())
		}
		if entry != "" && m.opts.Entry != "" && entry != m.opts.Entry {
			return nil, false, fmt.Errorf("the script uses entry %s, the explorer %s", entry, m.opts.Entry)
		}
		if p := replay.LoadProfile(c.Args).Name; p != "" && p != m.opts.Profile {
			return nil, false, fmt.Errorf("the script loads with profile %q, the explorer with %q (-T)", p, m.opts.Profile)
		}
	case "target":
		known := false
		for _, t := range m.drv.Targets() {
			known = known || t == c.Args[0]
		}
		if !known {
			return nil, false, fmt.Errorf("unknown target %q (want %s)", c.Args[0], strings.Join(m.drv.Targets(), ", "))
		}
		if c.Args[0] != m.target || m.comp == nil || m.comp.Target != c.Args[0] {
			m.target = c.Args[0]
			m.pipeline = m.drv.DefaultPipeline(m.target)
			m.rec.Target(m.target, specOf(m.pipeline))
			return m.compile(), true, nil
		}
	case "passes":
		var p []PassSlot
		for _, n := range strings.Split(strings.Join(c.Args, ""), ",") {
			if n = strings.TrimSpace(n); n != "" {
				p = append(p, PassSlot{Name: n, Enabled: true})
			}
		}
		if specOf(p) != specOf(m.pipeline) || m.comp == nil {
			m.pipeline = p
			m.rec.Passes(specOf(p))
			return m.compile(), true, nil
		}
	case "first", "last", "next", "prev", "step", "goto":
		if err := needComp(); err != nil {
			return nil, false, err
		}
		n, err := replay.Move(c, m.step, m.passNames())
		if err != nil {
			return nil, false, err
		}
		return m.gotoStep(n), false, nil
	case "function":
		m.fn = ""
		if len(c.Args) > 0 && c.Args[0] != "*" {
			m.fn = strings.TrimPrefix(c.Args[0], "@")
		}
		m.rec.Function(m.fn)
		return m.showStep(), false, nil
	case "print":
		what := "ir"
		if len(c.Args) > 0 {
			what = c.Args[0]
		}
		switch what {
		case "ir":
			return m.setView(ViewIR), false, nil
		case "target":
			return m.setView(ViewTarget), false, nil
		case "passes":
		default:
			return nil, false, fmt.Errorf("print what? ir, passes or target, not %q", what)
		}
	case "diff":
		if err := needComp(); err != nil {
			return nil, false, err
		}
		m.diff.base = -1
		if len(c.Args) > 0 {
			switch c.Args[0] {
			case "prev":
			case "input":
				m.diff.base = 0
			default:
				n, err := replay.FindStep(c.Args[0], m.passNames())
				if err != nil {
					return nil, false, err
				}
				m.diff.base = n
			}
		}
		return m.setView(ViewDiff), false, nil
	case "analyze":
		return m.setView(ViewTrees), false, nil
	case "explain":
		if err := needComp(); err != nil {
			return nil, false, err
		}
		name := c.Args[0]
		if !strings.HasPrefix(name, "%") {
			name = "%" + name
		}
		m.rec.Explain(name)
		if a := m.currentAnalysis(); a != nil {
			m.showExplanation(name, a)
			return nil, false, nil
		}
		m.expl.pending = name
		return m.ensureAnalysis(), false, nil
	case "input":
		if m.opts.Exports != nil {
			return nil, false, fmt.Errorf("interpreter input cannot be loaded in this session")
		}
		if strings.HasPrefix(c.Raw, "{") {
			if err := m.setInputJSON([]byte(c.Raw)); err != nil {
				return nil, false, err
			}
			return nil, false, nil
		}
		path := replay.Resolve(m.scriptDir(), c.Args[0])
		if err := m.drv.SetInput(path); err != nil {
			return nil, false, err
		}
		m.rec.InputFile(path)
	case "run":
		if err := needComp(); err != nil {
			return nil, false, err
		}
		ra, err := replay.ParseRun(c.Args)
		if err != nil {
			return nil, false, err
		}
		if ra.Wave > 0 {
			m.waveSize = ra.Wave
		}
		if ra.Policy != "" {
			found := false
			for i, p := range m.drv.Policies() {
				if p == ra.Policy {
					m.policy, found = i, true
				}
			}
			if !found {
				return nil, false, fmt.Errorf("unknown policy %q (want %s)", ra.Policy, strings.Join(m.drv.Policies(), ", "))
			}
		}
		if ra.Input != "" {
			path := replay.Resolve(m.scriptDir(), ra.Input)
			if err := m.drv.SetInput(path); err != nil {
				return nil, false, err
			}
			m.rec.InputFile(path)
		}
		if ra.Entry != "" && ra.Entry != m.opts.Entry {
			return nil, false, fmt.Errorf("run --entry %s: the explorer runs entry %q (start it with --entry)", ra.Entry, m.opts.Entry)
		}
		return m.runLanes(), false, nil
	case "export":
		if m.opts.Exports != nil {
			return nil, false, fmt.Errorf("export is not available in this session")
		}
		if err := needComp(); err != nil {
			return nil, false, err
		}
		path := replay.Resolve(m.scriptDir(), c.Args[0])
		drv, comp := m.drv, m.comp
		m.rec.Export(path)
		return func() tea.Msg {
			text, _, err := drv.TargetCode(context.Background(), comp)
			if err != nil {
				return statusMsg{"export: " + err.Error(), true}
			}
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				return statusMsg{"export failed: " + err.Error(), true}
			}
			return statusMsg{fmt.Sprintf("exported %s (%d bytes)", path, len(text)), false}
		}, false, nil
	case "view":
		for i, n := range scriptViews {
			if n == c.Args[0] {
				return m.setView(View(i)), false, nil
			}
		}
	}
	return nil, false, nil
}

// passNames lists the pass names of the current compile's steps.
func (m *Model) passNames() []string {
	if m.comp == nil {
		return nil
	}
	out := make([]string, len(m.comp.Steps))
	for i, s := range m.comp.Steps {
		out[i] = s.Pass
	}
	return out
}

// sameModule reports whether path names the module the explorer has open.
func (m *Model) sameModule(path string) bool {
	open := m.opts.ModulePath
	if open == "" {
		open = m.drv.Source()
	}
	if path == open || path == m.drv.Source() {
		return true
	}
	a, err1 := filepath.Abs(path)
	b, err2 := filepath.Abs(open)
	return err1 == nil && err2 == nil && a == b
}

// setInputJSON loads inline interpreter input (drivers that can).
func (m *Model) setInputJSON(data []byte) error {
	d, ok := m.drv.(interface{ SetInputJSON([]byte) error })
	if !ok {
		return fmt.Errorf("this explorer cannot take inline input")
	}
	if err := d.SetInputJSON(data); err != nil {
		return err
	}
	return m.rec.InputJSON(data)
}

// ScriptForTest returns the session recorded so far as a replay script
// saved in dir (tests compare it with what ctrl+s writes).
func (m *Model) ScriptForTest(dir string) string { return m.rec.Script(dir) }

// SessionState is what a replay of a recorded session must reproduce:
// the explorer's place and its last interpreter run.
type SessionState struct {
	Target   string
	Passes   string // the enabled pipeline, comma-separated
	Step     int
	Pass     string
	Function string // "" for all
	Wave     int
	Policy   string
	View     string // the pane shown (replay.Views)
	RunJSON  string // the last run's result JSON ("" before any run)
}

// State reports the session state (tests compare a session with its
// replay).
func (m *Model) State() SessionState {
	s := SessionState{Target: m.target, Passes: specOf(m.pipeline), Step: m.step, Function: m.fn,
		Wave: m.waveSize, Policy: m.policyName(), View: scriptViews[m.view]}
	if st := m.curStep(); st != nil {
		s.Pass = st.Pass
	}
	if r := m.lanesP.result; r != nil {
		s.RunJSON = r.JSON
	}
	return s
}
