package passdump

import (
	"fmt"
	"strings"
)

// CFG is a machine function's control-flow graph, read from the
// "successors:" lines that -print-after-all prints for every MIR block.
type CFG struct {
	Func   string
	Blocks []string // "bb.0", "bb.1", … in print order
	Succs  [][]int
}

// MIRCFG reads the CFG of one "# Machine code for function f" block.
// A successor that names no block of the function is an error with the
// line it is on.
func MIRCFG(text string) (*CFG, error) {
	g := &CFG{}
	idx := map[string]int{}
	var succLines [][2]int // block, line index
	lines := strings.Split(text, "\n")
	cur := -1
	for i, l := range lines {
		l = stripSlot(l)
		if rest, ok := strings.CutPrefix(l, "# Machine code for function "); ok {
			if j := strings.LastIndexByte(rest, ':'); j >= 0 {
				rest = rest[:j]
			}
			g.Func = rest
			continue
		}
		if strings.HasPrefix(l, "bb.") {
			name := l
			if j := strings.IndexAny(l, " :"); j >= 0 {
				name = l[:j]
			}
			// bb.1.for.body: the block number is what successors name.
			if parts := strings.SplitN(name, ".", 3); len(parts) >= 2 {
				name = parts[0] + "." + parts[1]
			}
			cur = len(g.Blocks)
			idx[name] = cur
			g.Blocks = append(g.Blocks, name)
			g.Succs = append(g.Succs, nil)
			continue
		}
		if cur >= 0 && strings.HasPrefix(strings.TrimSpace(l), "successors:") {
			succLines = append(succLines, [2]int{cur, i})
		}
	}
	for _, sl := range succLines {
		l := strings.TrimSpace(stripSlot(lines[sl[1]]))
		l = strings.TrimPrefix(l, "successors:")
		if j := strings.IndexByte(l, ';'); j >= 0 {
			l = l[:j] // the percentages repeat the list
		}
		for _, s := range strings.Split(l, ",") {
			s = strings.TrimSpace(s)
			if s == "" {
				continue
			}
			if j := strings.IndexByte(s, '('); j >= 0 {
				s = s[:j]
			}
			s = strings.TrimPrefix(s, "%")
			t, ok := idx[s]
			if !ok {
				return nil, fmt.Errorf("line %d: successor %%%s is not a block of %s", sl[1]+1, s, g.Func)
			}
			g.Succs[sl[0]] = append(g.Succs[sl[0]], t)
		}
	}
	return g, nil
}

// stripSlot removes the slot index ("16B\t") that MIR lines carry once
// slot indexes are computed.
func stripSlot(l string) string {
	i := 0
	for i < len(l) && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(l) && l[i] == 'B' && l[i+1] == '\t' {
		return l[i+2:]
	}
	if len(l) > 0 && l[0] == '\t' {
		return l[1:]
	}
	return l
}
