package tui

import (
	"fmt"

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
	// dot is the CFG as Graphviz DOT with instructions (D exports it).
	dot string
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

// newAnalysisEntry draws everything from a: the trees, and the CFG with
// the instructions of step (lines and funcs are its text) compared with
// prev (the previous snapshot's analysis, nil for none).
func newAnalysisEntry(a *Analysis, lines []string, funcs []FuncSpan, prev *Analysis, prevName string) *analysisEntry {
	e := &analysisEntry{a: a, cfgDiv: map[int]DivKind{}}
	for k, root := range []*TreeNode{a.Dom, a.PostDom, a.Cycles} {
		e.trees[k] = flattenTree(root)
	}
	bodies := blockBodies(lines, funcs, a.Func)
	var rows []cfgRow
	e.cfg, rows = drawCFGFull(a, bodies, prev)
	for i, r := range rows {
		switch {
		case r.value != "" && a.Divergent[r.value] != DivNone:
			e.cfgDiv[i] = a.Divergent[r.value]
		case r.term && a.Divergent["%"+r.block] != DivNone:
			e.cfgDiv[i] = DivBranch
		}
	}
	e.dot = dotCFG(a, bodies, prev)
	if prev != nil {
		e.diffBase = prevName
	}
	return e
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
	if _, ok := m.analyses.get(k); ok {
		m.refreshViews()
		return nil
	}
	ctx := m.startJob("analysis")
	drv, c, step := m.drv, m.comp, m.step
	// The CFG is compared with the previous snapshot: its analysis from
	// the cache, or computed too when the CFG is shown.
	var prev *Analysis
	prevName := ""
	if step > 0 {
		prevName = c.Steps[step-1].Pass
		if pe, ok := m.analyses.get(fmt.Sprintf("%d/%s", step-1, fn)); ok {
			prev = pe.a
		}
	}
	wantPrev := prev == nil && step > 0 && m.view == ViewCFG
	return func() tea.Msg {
		a, err := drv.Analyze(ctx, c, step, fn)
		if err == nil && ctx.Err() != nil {
			err = ctx.Err() // cancelled (another step, or esc): drop the work
		}
		if err != nil {
			return analysisMsg{k, nil, err}
		}
		if wantPrev {
			prev, _ = drv.Analyze(ctx, c, step-1, fn) // nil on error: no diff
		}
		st := &c.Steps[step]
		lines := st.Lines
		if lines == nil {
			lines = SplitLines(st.Text)
		}
		return analysisMsg{k, newAnalysisEntry(a, lines, st.Funcs, prev, prevName), nil}
	}
}
