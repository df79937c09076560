package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"passlens/themes"
)

// analysisEntry is one analysis with everything drawn from it: the three
// trees and the CFG are laid out in the command that computed the
// analysis, never on the UI goroutine (a 50k-line module has dominator
// trees thousands of levels deep).
type analysisEntry struct {
	a     *Analysis
	trees [numTreeKinds]treeLines
	cfg   treeLines
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

func newAnalysisEntry(a *Analysis) *analysisEntry {
	e := &analysisEntry{a: a}
	for k, root := range []*TreeNode{a.Dom, a.PostDom, a.Cycles} {
		e.trees[k] = flattenTree(root)
	}
	e.cfg = drawCFG(a)
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

// drawCFG draws the CFG in layers (longest path from the entry over
// forward edges), one box per block; back edges are marked. Rows that
// name a block select it.
func drawCFG(a *Analysis) treeLines {
	var t treeLines
	add := func(line, block string) {
		t.lines = append(t.lines, line)
		t.blocks = append(t.blocks, block)
	}
	layers := cfgLayers(a)
	for li, layer := range layers {
		var tops, mids, bots []string
		for _, b := range layer {
			name := a.Blocks[b]
			wid := lipgloss.Width(name) + 2
			tops = append(tops, "┌"+strings.Repeat("─", wid)+"┐")
			mids = append(mids, "│ "+name+" │")
			bots = append(bots, "└"+strings.Repeat("─", wid)+"┘")
		}
		add(strings.Join(tops, " "), a.Blocks[layer[0]])
		add(strings.Join(mids, " "), a.Blocks[layer[0]])
		add(strings.Join(bots, " "), a.Blocks[layer[0]])
		for _, b := range layer {
			var outs []string
			for _, s := range a.Succs[b] {
				label := a.Blocks[s]
				if a.BackEdges[[2]int{b, s}] {
					label = themes.Marks.BackEdge + " " + label
				}
				outs = append(outs, label)
			}
			if len(outs) > 0 {
				add("  "+a.Blocks[b]+" → "+strings.Join(outs, ", "), a.Blocks[b])
			}
		}
		if li < len(layers)-1 {
			add("  │", "")
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
	return func() tea.Msg {
		a, err := drv.Analyze(ctx, c, step, fn)
		if err != nil {
			return analysisMsg{k, nil, err}
		}
		return analysisMsg{k, newAnalysisEntry(a), nil}
	}
}
