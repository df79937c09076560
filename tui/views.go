package tui

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"passlens/internal/textdiff"
	"passlens/themes"
)

func ansiTruncate(s string, w int) string { return ansi.Truncate(s, w, "…") }

// pad makes s exactly w cells wide.
func pad(s string, w int) string {
	n := lipgloss.Width(s)
	if n > w {
		return ansiTruncate(s, w)
	}
	return s + strings.Repeat(" ", w-n)
}

// block pads lines to a w×h rectangle.
func block(lines []string, w, h int) string {
	out := make([]string, h)
	for i := 0; i < h; i++ {
		if i < len(lines) {
			out[i] = pad(lines[i], w)
		} else {
			out[i] = strings.Repeat(" ", w)
		}
	}
	return strings.Join(out, "\n")
}

func fmtDur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d > 0:
		return fmt.Sprintf("%dµs", d.Microseconds())
	}
	return ""
}

// listRow is one row of the pass list: a step, or a collapsed run of
// unchanged steps (as Go's ssa.html merges identical phases).
type listRow struct {
	first, last int
}

func (m *Model) listRows() []listRow {
	var rows []listRow
	if m.comp == nil {
		return rows
	}
	st := m.comp.Steps
	for i := 0; i < len(st); {
		j := i
		if st[i].Status == StepUnchanged {
			for j+1 < len(st) && st[j+1].Status == StepUnchanged {
				j++
			}
		}
		collapsed := j > i && !(m.step >= i && m.step <= j && m.expanded[m.step])
		if j > i && !collapsed {
			for k := i; k <= j; k++ {
				rows = append(rows, listRow{k, k})
			}
		} else {
			rows = append(rows, listRow{i, j})
		}
		i = j + 1
	}
	return rows
}

// passListView draws the pipeline with each pass's status and time. With
// focus it also shows the editable what-if pipeline (disabled passes).
func (m *Model) passListView(w, h int) string {
	var lines []string
	head := " Passes"
	if m.focusList {
		head = " Pipeline (space off/on, J/K move)"
	}
	lines = append(lines, m.st.Title.Render(pad(head, w)))
	if m.comp == nil {
		lines = append(lines, " "+m.spin.View()+" compiling…")
		return block(lines, w, h)
	}
	if m.focusList {
		for i, s := range m.pipeline {
			mark := themes.Marks.Changed
			style := m.st.Bold
			if !s.Enabled {
				mark, style = "⊘", m.st.Dim
			}
			line := fmt.Sprintf(" %s %s", mark, s.Name)
			if i == m.listSel {
				line = m.st.Selected.Render(pad(line, w))
			} else {
				line = style.Render(line)
			}
			lines = append(lines, line)
		}
		return block(lines, w, h)
	}
	rows := m.listRows()
	// Keep the current step visible.
	cur := 0
	for i, r := range rows {
		if m.step >= r.first && m.step <= r.last {
			cur = i
		}
	}
	avail := h - 1
	start := 0
	if cur >= avail {
		start = cur - avail + 1
	}
	for i := start; i < len(rows) && len(lines) < h; i++ {
		r := rows[i]
		s := m.comp.Steps[r.first]
		var mark string
		var style lipgloss.Style
		switch s.Status {
		case StepInput:
			mark, style = themes.Marks.Input, m.st.Accent
		case StepChanged:
			mark, style = themes.Marks.Changed, m.st.Changed
		case StepUnchanged:
			mark, style = themes.Marks.Unchanged, m.st.Unchanged
		case StepFailed:
			mark, style = themes.Marks.Failed, m.st.Failed
		}
		name := s.Pass
		if r.last > r.first {
			name = fmt.Sprintf("%s (+%d more)", s.Pass, r.last-r.first)
		}
		// A fixed-width time column, so names never shift with the timing.
		dur := fmtDur(s.Duration)
		dur = strings.Repeat(" ", max(0, 5-lipgloss.Width(dur))) + dur
		left := fmt.Sprintf(" %s %s", mark, name)
		line := pad(left, w-lipgloss.Width(dur)-2) + " " + dur + " "
		if i == cur {
			lines = append(lines, m.st.Selected.Render(pad(ansi.Strip(line), w)))
		} else {
			lines = append(lines, style.Render(line))
		}
	}
	return block(lines, w, h)
}

// mainView draws the selected pane with its header.
func (m *Model) mainView(w, h int) string {
	header := ""
	var body string
	s := m.curStep()
	switch m.view {
	case ViewIR:
		if s != nil {
			header = fmt.Sprintf(" %s — %s", s.Pass, s.Summary)
			if s.Status == StepFailed {
				header = m.st.Failed.Render(" FAILED: " + firstLine(s.Err))
			}
		}
		if mk, ok := m.ir.marks[m.ir.cursor]; ok {
			header += m.st.Dim.Render("  · " + mk.Note)
		}
		body = m.ir.view(m.st, !m.focusList)
	case ViewDiff:
		header, body = m.diffView(w, h-1)
	case ViewTarget:
		header = " target code (" + m.target + ")  x export"
		body = m.tgt.view(m.st, true)
	case ViewTrees:
		header = " " + []string{"dominator tree", "post-dominator tree", "cycle tree"}[m.treeKind] + "  (t: next tree; selecting a node shows its block)"
		body = m.other.view(m.st, true)
	case ViewCFG:
		header = " CFG  " + themes.Marks.BackEdge + " back edge  " + themes.Marks.Selected + " selected  (D: export DOT)"
		body = m.other.view(m.st, true)
	case ViewLanes:
		header = fmt.Sprintf(" lanes: wave %d, policy %s  (r run, W wave size, y policy)", m.waveSize, m.policyName())
		body = m.other.view(m.st, true)
	}
	return pad(m.st.Dim.Render(header), w) + "\n" + block(strings.Split(body, "\n"), w, h-1)
}

// diffView renders the cached diff (unified or side by side).
func (m *Model) diffView(w, h int) (string, string) {
	if m.comp == nil {
		return "", ""
	}
	k := m.diffKey()
	d := m.diffs[k]
	header := fmt.Sprintf(" diff %s → %s", m.comp.Steps[k[0]].Pass, m.comp.Steps[k[1]].Pass)
	if d == nil {
		return header, " " + m.spin.View() + " computing diff…"
	}
	header += m.st.Dim.Render(fmt.Sprintf("  +%d −%d  (s side-by-side, c next change, b base)", d.Added, d.Removed))
	if len(d.Rows) == 0 {
		return header, m.st.Dim.Render(" no change")
	}
	var lines []string
	for i := m.diffOff; i < len(d.Rows) && len(lines) < h; i++ {
		r := d.Rows[i]
		if !m.diffSide {
			lines = append(lines, m.diffLine(d, i, w))
			continue
		}
		// Side by side: deletions on the left paired with additions on the right.
		half := (w - 1) / 2
		switch r.Kind {
		case textdiff.Hunk:
			lines = append(lines, m.st.Accent.Render(pad(r.Text, w)))
		case textdiff.Same:
			lines = append(lines, pad(m.diffText(d, i, half), half)+m.st.Border.Render("│")+pad(m.diffText(d, i, half), half))
		case textdiff.Del:
			right := ""
			if r.Pair >= 0 {
				right = m.diffText(d, r.Pair, half)
			}
			lines = append(lines, pad(m.diffText(d, i, half), half)+m.st.Border.Render("│")+pad(right, half))
		case textdiff.Add:
			if r.Pair < 0 {
				lines = append(lines, strings.Repeat(" ", half)+m.st.Border.Render("│")+pad(m.diffText(d, i, half), half))
			}
		}
	}
	return header, strings.Join(lines, "\n")
}

func (m *Model) diffLine(d *textdiff.Diff, i, w int) string {
	r := d.Rows[i]
	switch r.Kind {
	case textdiff.Hunk:
		return m.st.Accent.Render(r.Text)
	case textdiff.Same:
		return " " + m.diffText(d, i, w-1)
	case textdiff.Add:
		return m.st.DiffAdd.Render("+") + m.diffText(d, i, w-1)
	case textdiff.Del:
		return m.st.DiffDel.Render("-") + m.diffText(d, i, w-1)
	}
	return ""
}

// diffText renders a row's text with the intra-line changes emphasized.
func (m *Model) diffText(d *textdiff.Diff, i, w int) string {
	r := d.Rows[i]
	base, em := m.st.Dim, m.st.Dim
	switch r.Kind {
	case textdiff.Add:
		base, em = m.st.DiffAdd, m.st.DiffAddEm
	case textdiff.Del:
		base, em = m.st.DiffDel, m.st.DiffDelEm
	case textdiff.Same:
		lexer := themes.PIR
		if s := m.curStep(); s != nil {
			lexer = lexerFor(s.Lang)
		}
		return ansiTruncate(m.st.highlight(lexer, r.Text), w)
	}
	var sb strings.Builder
	pos := 0
	for _, c := range d.Changed(i) {
		if c.Start > pos {
			sb.WriteString(base.Render(r.Text[pos:c.Start]))
		}
		sb.WriteString(em.Render(r.Text[c.Start:c.End]))
		pos = c.End
	}
	if pos < len(r.Text) {
		sb.WriteString(base.Render(r.Text[pos:]))
	}
	return ansiTruncate(sb.String(), w)
}

// treeRow is one drawn node of a tree view.
type treeRow struct {
	text, block string
}

func (m *Model) buildTrees(a *Analysis) {
	m.treeRows = nil
	if a == nil {
		m.other.setLines([]string{"computing analyses…"}, nil)
		return
	}
	root := []*TreeNode{a.Dom, a.PostDom, a.Cycles}[m.treeKind]
	if root == nil {
		m.other.setLines([]string{"(none)"}, nil)
		return
	}
	var walk func(n *TreeNode, prefix string, last, top bool)
	walk = func(n *TreeNode, prefix string, last, top bool) {
		branch := ""
		if !top {
			if last {
				branch = "└─ "
			} else {
				branch = "├─ "
			}
		}
		m.treeRows = append(m.treeRows, treeRow{prefix + branch + n.Label, n.Block})
		child := prefix
		if !top {
			if last {
				child += "   "
			} else {
				child += "│  "
			}
		}
		for i, c := range n.Children {
			walk(c, child, i == len(n.Children)-1, false)
		}
	}
	walk(root, "", true, true)
	lines := make([]string, len(m.treeRows))
	for i, r := range m.treeRows {
		lines[i] = r.text
	}
	m.other.setLines(lines, nil)
}

// buildCFG draws the CFG in layers (longest path from the entry over
// forward edges), one box per block; back edges are marked.
func (m *Model) buildCFG(a *Analysis) {
	m.cfgBlocks = map[int]string{}
	if a == nil {
		m.other.setLines([]string{"computing CFG…"}, nil)
		return
	}
	layers := cfgLayers(a)
	var lines []string
	// The block holding the IR cursor is the selected one.
	selBlock := ""
	for i := min(m.ir.cursor, len(m.ir.lines)-1); i >= 0; i-- {
		if l := m.ir.lines[i]; strings.HasSuffix(l, ":") && !strings.HasPrefix(l, " ") {
			selBlock = strings.TrimSuffix(l, ":")
			break
		}
	}
	for li, layer := range layers {
		var tops, mids, bots []string
		for _, b := range layer {
			name := a.Blocks[b]
			if name == selBlock {
				name = themes.Marks.Selected + " " + name
			}
			wid := lipgloss.Width(name) + 2
			tops = append(tops, "┌"+strings.Repeat("─", wid)+"┐")
			mids = append(mids, "│ "+name+" │")
			bots = append(bots, "└"+strings.Repeat("─", wid)+"┘")
		}
		m.cfgBlocks[len(lines)+1] = a.Blocks[layer[0]]
		lines = append(lines, strings.Join(tops, " "), strings.Join(mids, " "), strings.Join(bots, " "))
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
				m.cfgBlocks[len(lines)] = a.Blocks[b]
				lines = append(lines, "  "+a.Blocks[b]+" → "+strings.Join(outs, ", "))
			}
		}
		if li < len(layers)-1 {
			lines = append(lines, "  │")
		}
	}
	m.other.setLines(lines, nil)
}

// cfgLayers assigns each reachable block the length of the longest
// forward-edge path from the entry.
func cfgLayers(a *Analysis) [][]int {
	n := len(a.Blocks)
	if n == 0 {
		return nil
	}
	indeg := make([]int, n)
	for b := 0; b < n; b++ {
		for _, s := range a.Succs[b] {
			if !a.BackEdges[[2]int{b, s}] {
				indeg[s]++
			}
		}
	}
	layer := make([]int, n)
	queue := []int{}
	for b := 0; b < n; b++ {
		if indeg[b] == 0 {
			queue = append(queue, b)
		}
	}
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		for _, s := range a.Succs[b] {
			if a.BackEdges[[2]int{b, s}] {
				continue
			}
			if layer[b]+1 > layer[s] {
				layer[s] = layer[b] + 1
			}
			indeg[s]--
			if indeg[s] == 0 {
				queue = append(queue, s)
			}
		}
	}
	byLayer := map[int][]int{}
	maxL := 0
	for b := 0; b < n; b++ {
		byLayer[layer[b]] = append(byLayer[layer[b]], b)
		maxL = max(maxL, layer[b])
	}
	var out [][]int
	for l := 0; l <= maxL; l++ {
		if bs := byLayer[l]; len(bs) > 0 {
			sort.Ints(bs)
			out = append(out, bs)
		}
	}
	return out
}

func (m *Model) buildLanes() {
	if m.lanes == nil {
		m.other.setLines([]string{"press r to run this snapshot on a simulated wave", "", "W changes the wave size, y the reconvergence policy"}, nil)
		return
	}
	m.other.setLines(m.lanes.Lines, nil)
}

// helpView draws the help overlay from the KeyMap, in as many columns as
// fit, filled in order.
func (m *Model) helpView() string {
	groups := m.keys.Groups()
	ncol := max(2, min(3, m.w/34))
	colW := (m.w - 2*(ncol-1)) / ncol
	var all [][]string
	total := 0
	for _, g := range groups {
		lines := []string{m.st.HelpTitle.Render(g.Title)}
		for _, b := range g.Bindings {
			h := b.Help()
			lines = append(lines, pad(m.st.HelpKey.Render(fmt.Sprintf(" %-7s", h.Key))+" "+m.st.HelpDesc.Render(h.Desc), colW))
		}
		all = append(all, lines)
		total += len(lines)
	}
	per := (total + ncol - 1) / ncol
	cols := make([][]string, ncol)
	c := 0
	for _, g := range all {
		if c < ncol-1 && len(cols[c]) > 0 && len(cols[c])+len(g) > per+2 {
			c++
		}
		cols[c] = append(cols[c], g...)
	}
	height := 0
	for _, col := range cols {
		height = max(height, len(col))
	}
	var parts []string
	for i, col := range cols {
		if i > 0 {
			parts = append(parts, "  ")
		}
		parts = append(parts, block(col, colW, height))
	}
	body := strings.Split(lipgloss.JoinHorizontal(lipgloss.Top, parts...), "\n")
	if m.opts.Exports == nil {
		// Over SSH the path would be the server's, and sessions do not read it.
		body = append(body, "", m.st.Dim.Render("Keys can be remapped in "+ConfigPath()))
	} else {
		body = append(body, m.st.Dim.Render("Over SSH, exports are not written on the server: x offers the text to your terminal's clipboard (OSC 52)."))
	}
	room := m.h - 1
	m.helpOff = max(0, min(m.helpOff, len(body)-room))
	more := ""
	if len(body) > room {
		more = fmt.Sprintf("  ↑/↓ scroll (%d–%d of %d)", m.helpOff+1, min(len(body), m.helpOff+room), len(body))
	}
	title := m.st.Title.Render("passlens keys") + m.st.Dim.Render("  ? or esc closes"+more)
	lines := append([]string{title}, body[m.helpOff:]...)
	return block(lines, m.w, m.h)
}
