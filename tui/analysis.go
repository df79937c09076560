package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// analysisEntry is one analysis with everything drawn from it: the three
// trees and the CFG are laid out in the command that computed the
// analysis, never on the UI goroutine (a 50k-line module has dominator
// trees thousands of levels deep).
type analysisEntry struct {
	a     *Analysis
	trees [numTreeKinds]treeLines
	cfg   treeLines
	// cfgDiv is the divergence of the CFG rows that have one (values and
	// terminators), for the overlay's marks.
	cfgDiv map[int]DivKind
	// labels maps a block name to the line of its label in the step's
	// whole text (indexed here, off the UI goroutine, so following a
	// selection never scans a 200k-line module).
	labels map[string]int
	// cfgDrawn: the CFG is drawn only when the CFG pane asks (it holds
	// every instruction; the trees do not need it).
	cfgDrawn bool
	// diffBase names the snapshot the CFG is compared with ("" for none).
	diffBase string
}

// treeLines is a drawn tree or CFG: one line per row and the block each
// row shows ("" for none).
type treeLines struct {
	lines  []string
	blocks []string
}

// maxIndent caps the drawn depth of a tree; deeper rows are drawn at the
// cap with their depth as a number, so a row costs O(maxIndent) however
// deep the tree.
const maxIndent = 24

// newAnalysisEntry draws the trees of a and indexes the block labels of
// its function in the step's lines.
func newAnalysisEntry(a *Analysis, lines []string, funcs []FuncSpan) *analysisEntry {
	e := &analysisEntry{a: a, labels: map[string]int{}}
	for k, root := range []*TreeNode{a.Dom, a.PostDom, a.Cycles} {
		e.trees[k] = flattenTree(root)
	}
	start, end := 0, len(lines)
	for _, f := range funcs {
		if f.Name == a.Func {
			start, end = min(f.Start, len(lines)), min(f.End, len(lines))
		}
	}
	for i := start; i < end; i++ {
		if l := lines[i]; strings.HasSuffix(l, ":") && !strings.HasPrefix(l, " ") {
			if _, dup := e.labels[l[:len(l)-1]]; !dup {
				e.labels[l[:len(l)-1]] = i
			}
		}
	}
	return e
}

// labelLine is the IR pane line of block b's label (-1 if unknown): the
// index in the step's text, shifted when a function filter shows a part.
func (m *Model) labelLine(e *analysisEntry, b string) int {
	i, ok := e.labels[b]
	if !ok {
		return -1
	}
	if m.fn != "" {
		if st := m.curStep(); st != nil {
			for _, f := range st.Funcs {
				if f.Name == m.fn {
					i -= f.Start
				}
			}
		}
	}
	if i < 0 || i >= len(m.ir.lines) {
		return -1
	}
	return i
}

// cfgDrawing is the CFG pane's drawing of one analysis.
type cfgDrawing struct {
	cfg      treeLines
	div      map[int]DivKind
	diffBase string
}

// drawCFGOf draws a's CFG with the instructions of its step (lines and
// funcs are the step's text) compared with prev (nil: no diff).
func drawCFGOf(a *Analysis, lines []string, funcs []FuncSpan, prev *Analysis, prevName string) cfgDrawing {
	d := cfgDrawing{div: map[int]DivKind{}}
	var rows []cfgRow
	d.cfg, rows = drawCFGFull(a, blockBodies(lines, funcs, a.Func), prev)
	for i, r := range rows {
		switch {
		case r.value != "" && a.Divergent[r.value] != DivNone:
			d.div[i] = a.Divergent[r.value]
		case r.term && a.Divergent["%"+r.block] != DivNone:
			d.div[i] = DivBranch
		}
	}
	if prev != nil {
		d.diffBase = prevName
	}
	return d
}

func (e *analysisEntry) setCFG(d cfgDrawing) {
	e.cfg, e.cfgDiv, e.diffBase, e.cfgDrawn = d.cfg, d.div, d.diffBase, true
}

// flattenTree draws a tree with box-drawing branches, iteratively (no
// recursion depth limit) and with indentation capped at maxIndent levels.
func flattenTree(root *TreeNode) treeLines {
	var t treeLines
	if root == nil {
		t.lines = []string{"(none)"}
		t.blocks = []string{""}
		return t
	}
	type item struct {
		n      *TreeNode
		prefix string // drawn indentation of the children's level
		depth  int
		last   bool
	}
	stack := []item{{n: root}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		branch, child := "", it.prefix
		if it.depth > 0 {
			if it.last {
				branch, child = "└─ ", it.prefix+"   "
			} else {
				branch, child = "├─ ", it.prefix+"│  "
			}
		}
		label := it.n.Label
		if it.depth > maxIndent {
			label = fmt.Sprintf("[depth %d] %s", it.depth, label)
		}
		t.lines = append(t.lines, it.prefix+branch+label)
		t.blocks = append(t.blocks, it.n.Block)
		if it.depth >= maxIndent {
			child = it.prefix // stop indenting past the cap
		}
		for i := len(it.n.Children) - 1; i >= 0; i-- {
			stack = append(stack, item{it.n.Children[i], child, it.depth + 1, i == len(it.n.Children)-1})
		}
	}
	return t
}

func (m *Model) analysisKey() string {
	return fmt.Sprintf("%d/%s", m.step, m.analysisFunc())
}

func (m *Model) currentEntry() *analysisEntry {
	e, _ := m.analyses.get(m.analysisKey())
	return e
}

func (m *Model) currentAnalysis() *Analysis {
	if e := m.currentEntry(); e != nil {
		return e.a
	}
	return nil
}

// ensureAnalysis starts the analysis of the current step and function
// unless it is cached; the command also draws the trees and the CFG.
func (m *Model) ensureAnalysis() tea.Cmd {
	if m.comp == nil {
		return nil
	}
	fn := m.analysisFunc()
	k := m.analysisKey()
	e, cached := m.analyses.get(k)
	wantCFG := m.view == ViewCFG
	if cached && (e.cfgDrawn || !wantCFG) {
		m.refreshViews()
		return nil
	}
	ctx := m.startJob("analysis")
	drv, c, step := m.drv, m.comp, m.step
	prev, prevName, wantPrev := m.prevAnalysis(fn, wantCFG)
	return func() tea.Msg {
		var err error
		lines, funcs := stepText(c, step)
		if e == nil {
			var a *Analysis
			if a, err = drv.Analyze(ctx, c, step, fn); err == nil {
				e = newAnalysisEntry(a, lines, funcs)
			}
		}
		if err == nil && ctx.Err() != nil {
			err = ctx.Err() // cancelled (another step, or esc): drop the work
		}
		if err != nil {
			return analysisMsg{k, nil, err, nil}
		}
		var d *cfgDrawing
		if wantCFG {
			if wantPrev {
				prev, _ = drv.Analyze(ctx, c, step-1, fn) // nil on error: no diff
			}
			dd := drawCFGOf(e.a, lines, funcs, prev, prevName)
			d = &dd
		}
		return analysisMsg{k, e, nil, d}
	}
}

// prevAnalysis is the previous snapshot's analysis of fn from the cache;
// want reports it must be computed (for the CFG's diff).
func (m *Model) prevAnalysis(fn string, forCFG bool) (prev *Analysis, name string, want bool) {
	if m.step <= 0 || m.comp == nil {
		return nil, "", false
	}
	name = m.comp.Steps[m.step-1].Pass
	if pe, ok := m.analyses.get(fmt.Sprintf("%d/%s", m.step-1, fn)); ok {
		return pe.a, name, false
	}
	return nil, name, forCFG
}

// stepText is a step's lines (split here if the driver did not) and
// function spans; it never writes the shared step.
func stepText(c *Compiled, step int) ([]string, []FuncSpan) {
	st := &c.Steps[step]
	lines := st.Lines
	if lines == nil {
		lines = SplitLines(st.Text)
	}
	return lines, st.Funcs
}

// exportDOT computes the CFG's DOT (instructions, labels, divergence, the
// diff against the previous snapshot) in a command, then writes it.
func (m *Model) exportDOT(path string) tea.Cmd {
	e := m.currentEntry()
	if e == nil || path == "" {
		return nil
	}
	ctx := m.startJob("dot")
	drv, c, step, fn := m.drv, m.comp, m.step, e.a.Func
	prev, _, want := m.prevAnalysis(fn, true)
	return func() tea.Msg {
		if want {
			prev, _ = drv.Analyze(ctx, c, step-1, fn)
		}
		lines, funcs := stepText(c, step)
		return dotReadyMsg{path, CFGDOT(e.a, prev, lines, funcs)}
	}
}
