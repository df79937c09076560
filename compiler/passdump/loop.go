package passdump

import "strings"

// A loop dump (new PM "on loop %x in function f", or a legacy loop pass)
// prints the preheader, the loop's blocks and its exit blocks, each block
// once per "; Preheader:", "; Loop:" and "; Exit blocks" section (exit blocks
// may repeat). patchLoop replaces the blocks of the same name in the
// function's text and inserts blocks the function does not have after the
// block printed before them. Everything else (the entry block, blocks
// outside the loop, values the pass rewrote outside it) is left as it was:
// that is why such steps are marked Partial.

// block is a labelled run of lines: the label line (or none for an
// unlabelled entry block), the instructions and the blank lines after.
type block struct {
	name  string
	lines []string // label and instructions
	trail []string // blank lines after
}

// blockLabel returns the block name a label line defines.
func blockLabel(line string) (string, bool) {
	if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == ';' || line[0] == '}' || strings.HasPrefix(line, "define ") {
		return "", false
	}
	if line[0] == '"' {
		j := strings.IndexByte(line[1:], '"')
		if j < 0 || len(line) <= j+2 || line[j+2] != ':' {
			return "", false
		}
		return line[1 : j+1], true
	}
	i := strings.IndexByte(line, ':')
	if i <= 0 || strings.ContainsAny(line[:i], " \t") {
		return "", false
	}
	return line[:i], true
}

// splitFunc splits a function text into its head (up to the "{" line), its
// blocks and its tail (the "}" line and after).
func splitFunc(text string) (head []string, blocks []*block, tail []string) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	i := 0
	for i < len(lines) && !strings.HasPrefix(lines[i], "define ") {
		i++
	}
	if i == len(lines) {
		return lines, nil, nil
	}
	head = lines[:i+1]
	end := len(lines)
	for end > i+1 && lines[end-1] != "}" {
		end--
	}
	if end > i+1 {
		tail = lines[end-1:]
		end--
	} else {
		end = len(lines)
	}
	var cur *block
	for _, l := range lines[i+1 : end] {
		if name, ok := blockLabel(l); ok {
			cur = &block{name: name}
			blocks = append(blocks, cur)
		} else if cur == nil {
			cur = &block{}
			blocks = append(blocks, cur)
		}
		if strings.TrimSpace(l) == "" {
			cur.trail = append(cur.trail, l)
		} else {
			if len(cur.trail) > 0 {
				// Text after a blank line inside a block: keep it in order.
				cur.lines = append(cur.lines, cur.trail...)
				cur.trail = nil
			}
			cur.lines = append(cur.lines, l)
		}
	}
	return head, blocks, tail
}

// loopBlocks reads the blocks of a loop dump, first occurrence only.
func loopBlocks(text string) []*block {
	var out []*block
	seen := map[string]bool{}
	var cur *block
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || t == "; Preheader:" || t == "; Loop:" || strings.HasPrefix(t, "; Exit blocks") {
			cur = nil
			continue
		}
		if name, ok := blockLabel(l); ok {
			if seen[name] {
				cur = nil
				continue
			}
			seen[name] = true
			cur = &block{name: name, lines: []string{l}}
			out = append(out, cur)
			continue
		}
		if cur != nil {
			cur.lines = append(cur.lines, l)
		}
	}
	return out
}

// patchLoop merges a loop dump into a function's text.
func patchLoop(fn, loop string) string {
	text, _ := mergeLoop(fn, loop)
	return text
}

// mergeLoop merges a loop dump into a function's text and reports how many
// printed blocks it could not place (no block of that name, and no printed
// block before it that the function has: a loop rotated into new blocks).
func mergeLoop(fn, loop string) (string, int) {
	head, blocks, tail := splitFunc(fn)
	if blocks == nil {
		return fn, len(loopBlocks(loop))
	}
	lost := 0
	idx := map[string]int{}
	for i, b := range blocks {
		if b.name != "" {
			idx[b.name] = i
		}
	}
	after := -1 // the function block the previous loop block went to
	for _, lb := range loopBlocks(loop) {
		if i, ok := idx[lb.name]; ok {
			blocks[i].lines = lb.lines
			after = i
			continue
		}
		if after < 0 {
			lost++ // no anchor: leave it out
			continue
		}
		nb := &block{name: lb.name, lines: lb.lines, trail: []string{""}}
		if len(blocks[after].trail) == 0 {
			blocks[after].trail = []string{""}
		}
		blocks = append(blocks[:after+1], append([]*block{nb}, blocks[after+1:]...)...)
		after++
		for i, b := range blocks {
			if b.name != "" {
				idx[b.name] = i
			}
		}
	}
	var sb strings.Builder
	for _, l := range head {
		sb.WriteString(l + "\n")
	}
	for _, b := range blocks {
		for _, l := range b.lines {
			sb.WriteString(l + "\n")
		}
		for _, l := range b.trail {
			sb.WriteString(l + "\n")
		}
	}
	for _, l := range tail {
		sb.WriteString(l + "\n")
	}
	return sb.String(), lost
}
