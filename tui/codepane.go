package tui

import (
	"regexp"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"
	"github.com/charmbracelet/x/ansi"
)

// span is a styled byte range of a raw line.
type span struct {
	start, end int
	style      lipgloss.Style
}

// Mark is a gutter annotation for one line (e.g. a divergence symbol).
type Mark struct {
	Symbol string
	Style  lipgloss.Style
	Note   string // shown in the status bar when the cursor is on the line
}

// codePane shows text (IR, target code) with line numbers, highlighting, a
// cursor line, a value cursor, search matches and occurrence highlights.
// Only visible lines are rendered, so a 100k-line module scrolls at the
// same cost as a 100-line one.
type codePane struct {
	lines  []string
	lexer  chroma.Lexer
	marks  map[int]Mark
	cursor int // line
	off    int // first visible line
	xoff   int // horizontal scroll
	h, w   int

	valueIdx int    // which %value token on the cursor line is selected
	occ      string // highlighted value name (with sigil), "" for none

	search  *regexp.Regexp
	matches []int // line numbers with matches

	// defs indexes definitions ("%x = ..." and block labels "x:") by name,
	// built on first use per text, so following a selection across a
	// 200k-line module is a map lookup, not a scan.
	defs map[string]int
}

var valueRE = regexp.MustCompile(`[%@](?:[A-Za-z0-9_.$-]+|"(?:\\.|[^"\\])*")`)

func (p *codePane) setLines(lines []string, lexer chroma.Lexer) {
	if len(lines) == 0 || len(p.lines) == 0 || &lines[0] != &p.lines[0] || len(lines) != len(p.lines) {
		p.defs = nil
	}
	p.lines = lines
	p.lexer = lexer
	p.marks = nil
	if p.cursor >= len(lines) {
		p.cursor = max(0, len(lines)-1)
	}
	p.recomputeMatches()
	p.clamp()
}

func (p *codePane) setSize(w, h int) {
	p.w, p.h = w, h
	p.clamp()
}

func (p *codePane) clamp() {
	if p.cursor < 0 {
		p.cursor = 0
	}
	if n := len(p.lines); p.cursor >= n {
		p.cursor = max(0, n-1)
	}
	if p.h <= 0 {
		return
	}
	if p.cursor < p.off {
		p.off = p.cursor
	}
	if p.cursor >= p.off+p.h {
		p.off = p.cursor - p.h + 1
	}
	if maxOff := max(0, len(p.lines)-p.h); p.off > maxOff {
		p.off = maxOff
	}
	if p.off < 0 {
		p.off = 0
	}
}

func (p *codePane) move(d int) {
	p.cursor += d
	p.valueIdx = 0
	p.clamp()
}

func (p *codePane) gotoLine(n int) {
	p.cursor = n
	p.valueIdx = 0
	p.clamp()
	// Centre the target when jumping far.
	if p.h > 0 && (p.cursor < p.off+2 || p.cursor > p.off+p.h-3) {
		p.off = max(0, p.cursor-p.h/2)
		p.clamp()
	}
}

// values returns the %/@ names on the cursor line.
func (p *codePane) values() []string {
	if p.cursor >= len(p.lines) {
		return nil
	}
	return valueRE.FindAllString(p.lines[p.cursor], -1)
}

// currentValue is the value under the value cursor ("" if none).
func (p *codePane) currentValue() string {
	vs := p.values()
	if len(vs) == 0 {
		return ""
	}
	return vs[p.valueIdx%len(vs)]
}

func (p *codePane) nextValue() {
	if n := len(p.values()); n > 0 {
		p.valueIdx = (p.valueIdx + 1) % n
	}
}

// definitionLine finds the line defining name: "%x = ...", a block label
// "x:", a global "@x = ..." or a parameter in a define line.
func (p *codePane) definitionLine(name string) int {
	if name == "" {
		return -1
	}
	if p.defs == nil {
		p.defs = map[string]int{}
		for i, l := range p.lines {
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, "%") || strings.HasPrefix(t, "@") {
				if eq := strings.Index(t, " = "); eq > 0 {
					if _, dup := p.defs[t[:eq]]; !dup {
						p.defs[t[:eq]] = i
					}
				}
			} else if strings.HasSuffix(t, ":") && !strings.ContainsAny(t, " \t") {
				if _, dup := p.defs[t]; !dup {
					p.defs[t] = i
				}
			}
		}
	}
	if i, ok := p.defs[name]; ok {
		return i
	}
	if i, ok := p.defs[name[1:]+":"]; ok {
		return i
	}
	for i, l := range p.lines {
		if strings.HasPrefix(l, "define ") && strings.Contains(l, " "+name+",") || strings.HasPrefix(l, "define ") && strings.Contains(l, " "+name+")") {
			return i
		}
	}
	return -1
}

func (p *codePane) setSearch(pattern string) error {
	if pattern == "" {
		p.search, p.matches = nil, nil
		return nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		re = regexp.MustCompile(regexp.QuoteMeta(pattern))
	}
	p.search = re
	p.recomputeMatches()
	return nil
}

func (p *codePane) recomputeMatches() {
	p.matches = p.matches[:0]
	if p.search == nil {
		return
	}
	for i, l := range p.lines {
		if p.search.MatchString(l) {
			p.matches = append(p.matches, i)
		}
	}
}

// nextMatch moves to the next (dir=+1) or previous (-1) matching line,
// wrapping around; it reports false when there is no match.
func (p *codePane) nextMatch(dir int) bool {
	if len(p.matches) == 0 {
		return false
	}
	if dir > 0 {
		for _, m := range p.matches {
			if m > p.cursor {
				p.gotoLine(m)
				return true
			}
		}
		p.gotoLine(p.matches[0])
		return true
	}
	for i := len(p.matches) - 1; i >= 0; i-- {
		if p.matches[i] < p.cursor {
			p.gotoLine(p.matches[i])
			return true
		}
	}
	p.gotoLine(p.matches[len(p.matches)-1])
	return true
}

// view renders the visible window.
func (p *codePane) view(st *Styles, focused bool) string {
	if p.h <= 0 || p.w <= 0 {
		return ""
	}
	numW := len(strconv.Itoa(len(p.lines)))
	if numW < 3 {
		numW = 3
	}
	textW := p.w - numW - 3 // number, mark, space
	if textW < 1 {
		textW = 1
	}
	var sb strings.Builder
	for row := 0; row < p.h; row++ {
		i := p.off + row
		if row > 0 {
			sb.WriteByte('\n')
		}
		if i >= len(p.lines) {
			continue
		}
		num := strconv.Itoa(i + 1)
		num = strings.Repeat(" ", numW-len(num)) + num
		if i == p.cursor && focused {
			sb.WriteString(st.Accent.Render(num))
		} else {
			sb.WriteString(st.LineNo.Render(num))
		}
		mark := " "
		if m, ok := p.marks[i]; ok {
			mark = m.Style.Render(m.Symbol)
		}
		sb.WriteString(mark)
		sb.WriteString(" ")
		sb.WriteString(p.renderLine(st, i, textW))
	}
	return sb.String()
}

func (p *codePane) renderLine(st *Styles, i, width int) string {
	line := p.lines[i]
	var spans []span
	if p.occ != "" {
		for _, loc := range valueRE.FindAllStringIndex(line, -1) {
			if line[loc[0]:loc[1]] == p.occ {
				spans = append(spans, span{loc[0], loc[1], st.Occurrence})
			}
		}
	}
	if i == p.cursor {
		if locs := valueRE.FindAllStringIndex(line, -1); len(locs) > 0 {
			loc := locs[p.valueIdx%len(locs)]
			spans = append(spans, span{loc[0], loc[1], st.Selected})
		}
	}
	if p.search != nil {
		for _, loc := range p.search.FindAllStringIndex(line, -1) {
			if loc[1] > loc[0] {
				spans = append(spans, span{loc[0], loc[1], st.SearchHit})
			}
		}
	}
	if p.xoff > 0 {
		if p.xoff >= len(line) {
			return ""
		}
		line = line[p.xoff:]
		for k := range spans {
			spans[k].start -= p.xoff
			spans[k].end -= p.xoff
		}
	}
	out := renderSpans(st, p.lexer, line, spans)
	if ansi.StringWidth(line) > width {
		out = ansi.Truncate(out, width-1, "…")
	}
	return out
}

// renderSpans highlights line with the lexer, then overrides the style of
// the bytes inside spans (later spans win).
func renderSpans(st *Styles, lexer chroma.Lexer, line string, spans []span) string {
	if len(spans) == 0 {
		return st.highlightCached(lexer, line)
	}
	// Style index per byte: -1 means "lexer style".
	which := make([]int8, len(line))
	for k := range which {
		which[k] = -1
	}
	for si, sp := range spans {
		for b := max(0, sp.start); b < sp.end && b < len(line); b++ {
			which[b] = int8(si)
		}
	}
	var sb strings.Builder
	pos := 0
	emit := func(text string, tt chroma.TokenType, start int) {
		for j := 0; j < len(text); {
			k := j
			w := which[start+j]
			for k < len(text) && which[start+k] == w {
				k++
			}
			piece := text[j:k]
			if w >= 0 {
				sb.WriteString(spans[w].style.Render(piece))
			} else if tt == chroma.TextWhitespace || tt == chroma.Text || tt == chroma.Punctuation {
				sb.WriteString(piece)
			} else {
				sb.WriteString(st.token(tt).Render(piece))
			}
			j = k
		}
	}
	if lexer != nil {
		if it, err := lexer.Tokenise(nil, line); err == nil {
			for _, tok := range it.Tokens() {
				v := tok.Value
				if pos+len(v) > len(line) {
					v = v[:len(line)-pos]
				}
				if v == "" {
					continue
				}
				emit(v, tok.Type, pos)
				pos += len(v)
			}
		}
	}
	if pos < len(line) {
		emit(line[pos:], chroma.Text, pos)
	}
	return sb.String()
}
