package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// explainTarget is what `e` explains: on a terminator line, the
// terminator of the block holding it (as "%block" with isBlock); on any
// other line, the value under the value cursor. "" when there is none.
func (m *Model) explainTarget() (name string, isBlock bool) {
	p := &m.ir.codePane
	if p.cursor < 0 || p.cursor >= len(p.lines) {
		return "", false
	}
	if t := strings.TrimSpace(p.lines[p.cursor]); isTerminatorLine(t) {
		if b := blockOfLine(p.lines, p.cursor); b != "" {
			return "%" + b, true
		}
	}
	v := p.currentValue()
	if strings.HasPrefix(v, "@") {
		return "", false // globals have no uniformity of their own
	}
	return v, false
}

// blockOfLine is the label of the block holding line i ("" before the
// first label).
func blockOfLine(lines []string, i int) string {
	for ; i >= 0; i-- {
		l := lines[i]
		if strings.HasSuffix(l, ":") && !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, ";") {
			return strings.TrimSuffix(l, ":")
		}
		if strings.HasPrefix(l, "define ") {
			return ""
		}
	}
	return ""
}

// explain answers "why is this divergent?" for the IR cursor in the
// explanation pane, computing the analysis first if needed.
func (m *Model) explain() tea.Cmd {
	name, isBlock := m.explainTarget()
	if name == "" {
		m.setStatus("no value under the cursor (w moves to the next value on the line)", false)
		return nil
	}
	key := name
	if isBlock {
		key = "terminator " + name
	}
	m.rec.Explain(key)
	if a := m.currentAnalysis(); a != nil {
		m.showExplanation(key, a)
		return nil
	}
	m.expl.pending = key
	m.setStatus("computing uniformity to explain "+name+"…", false)
	return m.ensureAnalysis()
}

// showExplanation fills the explanation pane for key ("%v" or
// "terminator %bb") from a and shows it.
func (m *Model) showExplanation(key string, a *Analysis) {
	block, isBlock := strings.CutPrefix(key, "terminator ")
	var chain []string
	switch {
	case isBlock && a.ExplainTerminator != nil:
		chain = a.ExplainTerminator(block)
	case isBlock:
		// Drivers without terminator explanations: explain the condition.
		chain = nil
	case a.Explain != nil:
		chain = a.Explain(key)
	}
	where := fmt.Sprintf("step %d %s, @%s", m.step, m.stepName(), a.Func)
	var lines []string
	if isBlock {
		lines = append(lines, fmt.Sprintf("why is the terminator of %s divergent?  (%s)", block, where), "")
	} else {
		lines = append(lines, fmt.Sprintf("why is %s divergent?  (%s)", key, where), "")
	}
	switch {
	case len(chain) == 0 && isBlock:
		lines = append(lines, "the terminator of "+block+" is uniform: every lane takes the same way")
		m.setStatus("the terminator of "+block+" is uniform", false)
	case len(chain) == 0:
		lines = append(lines, key+" is uniform: every lane of a wave holds the same value")
		m.setStatus(key+" is uniform", false)
	default:
		for i, c := range chain {
			lines = append(lines, fmt.Sprintf("%2d. %s", i+1, c))
			if strings.Contains(c, " from cycle ") {
				lines = append(lines, "    (temporal divergence: uniform inside the cycle, divergent where it is used outside)")
			}
		}
		lines = append(lines, "", fmt.Sprintf("%d steps back to the divergence source.  Y copies this text.", len(chain)))
		m.setStatus(firstLine(chain[0]), false)
	}
	if a.Divergent[key] == DivTemporal && len(chain) > 0 && !strings.Contains(strings.Join(chain, "\n"), " from cycle ") {
		lines = append(lines, "", key+" is temporally divergent: uniform inside the cycle, divergent where it is used outside")
	}
	m.expl.forKey = key
	m.view = ViewExplain
	m.focusList = false
	m.expl.setText(lines)
}
