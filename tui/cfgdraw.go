package tui

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"passlens/themes"
)

// The terminal CFG: one box per block in layer order (longest forward
// path from the entry), each with its instructions (clipped), then its
// out-edges with labels (T/F for condbr, the case values for switch, ↺ for
// back edges). Against the previous snapshot, added blocks and edges are
// marked + and removed ones listed at the end (as LLVM's
// -print-changed=dot-cfg colours them). Drawn in the analysis command,
// never on the UI goroutine.

// cfgMaxInstrs and cfgMaxWidth clip a block's box.
const (
	cfgMaxInstrs = 8
	cfgMaxWidth  = 72
)

// cfgRow is what a drawn CFG row shows: its block, and the value it
// defines or "" (for the uniformity marks).
type cfgRow struct {
	block, value string
	term         bool // the terminator line of the block
}

// blockBodies returns each block's instruction lines (trimmed) from the
// snapshot text of function fn.
func blockBodies(lines []string, funcs []FuncSpan, fn string) map[string][]string {
	start, end := 0, len(lines)
	for _, f := range funcs {
		if f.Name == fn {
			start, end = min(f.Start, len(lines)), min(f.End, len(lines))
		}
	}
	out := map[string][]string{}
	cur := ""
	for _, l := range lines[start:end] {
		if strings.HasSuffix(l, ":") && !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, ";") {
			cur = strings.TrimSuffix(l, ":")
			continue
		}
		t := strings.TrimSpace(l)
		if cur == "" || t == "" || t == "}" {
			continue
		}
		out[cur] = append(out[cur], t)
	}
	return out
}

var switchCaseRE = regexp.MustCompile(`\[([^\]:]+):\s*%([A-Za-z0-9_.$-]+)\]`)

// edgeLabels labels the out-edges of a block from its terminator.
func edgeLabels(term string) map[string]string {
	out := map[string]string{}
	switch {
	case strings.HasPrefix(term, "condbr "):
		vs := valueRE.FindAllString(term, -1)
		if len(vs) >= 3 {
			t, f := vs[len(vs)-2][1:], vs[len(vs)-1][1:]
			out[t], out[f] = "T", "F"
			if t == f {
				out[t] = "T/F"
			}
		}
	case strings.HasPrefix(term, "switch "):
		for _, m := range switchCaseRE.FindAllStringSubmatch(term, -1) {
			label := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(m[1]), "case "))
			if prev, ok := out[m[2]]; ok {
				label = prev + ", " + label
			}
			out[m[2]] = label
		}
	}
	return out
}

// edgeSet lists a CFG's edges as "from→to".
func edgeSet(a *Analysis) map[string]bool {
	out := map[string]bool{}
	for b, ss := range a.Succs {
		for _, s := range ss {
			out[a.Blocks[b]+"→"+a.Blocks[s]] = true
		}
	}
	return out
}

// drawCFGFull draws a's CFG with instructions; prev (may be nil) is the
// previous snapshot's analysis of the same function, for the diff.
func drawCFGFull(a *Analysis, bodies map[string][]string, prev *Analysis) (treeLines, []cfgRow) {
	var t treeLines
	var rows []cfgRow
	add := func(line string, r cfgRow) {
		t.lines = append(t.lines, line)
		t.blocks = append(t.blocks, r.block)
		rows = append(rows, r)
	}
	prevBlocks, prevEdges := map[string]bool{}, map[string]bool{}
	if prev != nil {
		for _, b := range prev.Blocks {
			prevBlocks[b] = true
		}
		prevEdges = edgeSet(prev)
	}
	mark := func(added bool) string {
		if prev != nil && added {
			return "+ "
		}
		return ""
	}
	for li, layer := range cfgLayers(a) {
		for _, b := range layer {
			name := a.Blocks[b]
			body := bodies[name]
			title := fmt.Sprintf("%s%%%s  (layer %d, %d instructions)", mark(!prevBlocks[name]), name, li, len(body))
			width := min(cfgMaxWidth, max(len([]rune(title))+2, widest(body, cfgMaxInstrs)+2))
			title = clip(title, width-1)
			add("┌─"+title+strings.Repeat("─", max(0, width-1-len([]rune(title))))+"┐", cfgRow{block: name})
			shown := body
			if len(body) > cfgMaxInstrs {
				// Keep the first instructions and the terminator.
				shown = append(append([]string(nil), body[:cfgMaxInstrs-1]...), body[len(body)-1])
			}
			for i, l := range shown {
				if len(body) > cfgMaxInstrs && i == cfgMaxInstrs-1 {
					add("│ "+padRunes(fmt.Sprintf("… %d more", len(body)-cfgMaxInstrs), width-2)+" │", cfgRow{block: name})
				}
				value := ""
				if strings.HasPrefix(l, "%") {
					if eq := strings.Index(l, " = "); eq > 0 {
						value = l[:eq]
					}
				}
				add("│ "+padRunes(clip(l, width-2), width-2)+" │", cfgRow{block: name, value: value, term: i == len(shown)-1 && isTerminatorLine(l)})
			}
			add("└"+strings.Repeat("─", width)+"┘", cfgRow{block: name})
			term := ""
			if len(body) > 0 {
				term = body[len(body)-1]
			}
			labels := edgeLabels(term)
			var outs []string
			for _, s := range a.Succs[b] {
				to := a.Blocks[s]
				e := "%" + to
				if l := labels[to]; l != "" {
					e = l + ": " + e
				}
				if a.BackEdges[[2]int{b, s}] {
					e += " " + themes.Marks.BackEdge
				}
				outs = append(outs, mark(!prevEdges[name+"→"+to])+e)
			}
			if len(outs) > 0 {
				add("  → "+strings.Join(outs, "   "), cfgRow{block: name})
			}
			add("", cfgRow{})
		}
	}
	if prev != nil {
		cur := map[string]bool{}
		for _, b := range a.Blocks {
			cur[b] = true
		}
		curEdges := edgeSet(a)
		var gone []string
		for _, b := range prev.Blocks {
			if !cur[b] {
				gone = append(gone, "- block %"+b)
			}
		}
		var goneEdges []string
		for e := range prevEdges {
			if !curEdges[e] {
				goneEdges = append(goneEdges, "- edge %"+strings.Replace(e, "→", " → %", 1))
			}
		}
		sort.Strings(goneEdges)
		gone = append(gone, goneEdges...)
		if len(gone) > 0 {
			add("removed since the previous snapshot:", cfgRow{})
			for _, g := range gone {
				add("  "+g, cfgRow{})
			}
		}
	}
	return t, rows
}

func widest(lines []string, n int) int {
	w := 0
	for i, l := range lines {
		if i >= n {
			break
		}
		w = max(w, len([]rune(l)))
	}
	return w
}

func clip(s string, w int) string {
	r := []rune(s)
	if len(r) <= w {
		return s
	}
	if w <= 1 {
		return string(r[:max(0, w)])
	}
	return string(r[:w-1]) + "…"
}

func padRunes(s string, w int) string {
	return s + strings.Repeat(" ", max(0, w-len([]rune(s))))
}

// dotCFG renders the CFG as Graphviz DOT with each block's instructions,
// edge labels, back edges dashed, divergent branches and values in red
// and, against the previous snapshot, added blocks and edges in green.
func dotCFG(a *Analysis, bodies map[string][]string, prev *Analysis) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "digraph %q {\n  node [shape=box, fontname=monospace, labeljust=l];\n", a.Func)
	prevBlocks, prevEdges := map[string]bool{}, map[string]bool{}
	if prev != nil {
		for _, b := range prev.Blocks {
			prevBlocks[b] = true
		}
		prevEdges = edgeSet(prev)
	}
	esc := func(s string) string {
		// shape=box labels are escStrings: only \ and " need escaping.
		return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
	}
	for i, name := range a.Blocks {
		var lab strings.Builder
		lab.WriteString("%" + esc(name) + ":\\l")
		for _, l := range bodies[name] {
			if strings.HasPrefix(l, "%") {
				if eq := strings.Index(l, " = "); eq > 0 && a.Divergent[l[:eq]] != DivNone {
					l = "◆ " + l
				}
			}
			lab.WriteString("  " + esc(l) + "\\l")
		}
		attrs := ""
		switch {
		case a.Divergent["%"+name] != DivNone:
			attrs = ", color=red, penwidth=2"
		case prev != nil && !prevBlocks[name]:
			attrs = ", color=darkgreen, penwidth=2"
		}
		fmt.Fprintf(&sb, "  n%d [label=\"%s\"%s];\n", i, lab.String(), attrs)
	}
	for b, ss := range a.Succs {
		body := bodies[a.Blocks[b]]
		term := ""
		if len(body) > 0 {
			term = body[len(body)-1]
		}
		labels := edgeLabels(term)
		for _, s := range ss {
			var attrs []string
			if l := labels[a.Blocks[s]]; l != "" {
				attrs = append(attrs, fmt.Sprintf("label=%q", l))
			}
			if a.BackEdges[[2]int{b, s}] {
				attrs = append(attrs, "style=dashed")
			}
			if prev != nil && !prevEdges[a.Blocks[b]+"→"+a.Blocks[s]] {
				attrs = append(attrs, "color=darkgreen")
			} else if a.Divergent["%"+a.Blocks[b]] != DivNone {
				attrs = append(attrs, "color=red")
			}
			suffix := ""
			if len(attrs) > 0 {
				suffix = " [" + strings.Join(attrs, ", ") + "]"
			}
			fmt.Fprintf(&sb, "  n%d -> n%d%s;\n", b, s, suffix)
		}
	}
	sb.WriteString("}\n")
	return sb.String()
}

// CFGDOT renders a's CFG as Graphviz DOT with each block's instructions
// (taken from the snapshot's lines and function spans), edge labels,
// divergence, and the blocks and edges added since prev (nil: no diff).
// `passlens compile --dot-cfg DIR` writes it for every changed pass.
func CFGDOT(a, prev *Analysis, lines []string, funcs []FuncSpan) string {
	return dotCFG(a, blockBodies(lines, funcs, a.Func), prev)
}
