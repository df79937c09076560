package offload

import (
	"fmt"
	"strings"
)

// A reader for the YAML subset of the offload-test-suite's pipeline.yaml
// files: block mappings and sequences by indentation ("key: value",
// "key:" followed by a nested block, "- " items, "- key: value" items that
// start a mapping), flow sequences ("[1, 2,\n 3]", possibly over several
// lines) and flow mappings ("{ A: 1, B: 2 }"), plain scalars, comments,
// and the "---"/"..." document markers. Scalars stay strings; the caller
// interprets them. Values are map[string]any, []any or string.

type yline struct {
	indent int
	text   string // without indentation and comment
	num    int    // 1-based line number in the section
}

// parseYAML parses a pipeline.yaml document.
func parseYAML(src string) (any, error) {
	var lines []yline
	raw := strings.Split(src, "\n")
	for i := 0; i < len(raw); i++ {
		l := stripComment(raw[i])
		t := strings.TrimSpace(l)
		if t == "" || t == "---" || t == "..." {
			continue
		}
		ind := len(l) - len(strings.TrimLeft(l, " "))
		// A flow collection left open continues on the next lines.
		for depth(t) > 0 && i+1 < len(raw) {
			i++
			t += " " + strings.TrimSpace(stripComment(raw[i]))
		}
		lines = append(lines, yline{ind, strings.TrimRight(t, " "), i + 1})
	}
	p := &yparser{lines: lines}
	if len(lines) == 0 {
		return map[string]any{}, nil
	}
	v, err := p.block(lines[0].indent)
	if err != nil {
		return nil, err
	}
	if p.i < len(p.lines) {
		return nil, fmt.Errorf("line %d: unexpected indentation", p.lines[p.i].num)
	}
	return v, nil
}

// stripComment removes a "#" comment (one at the start or after a space).
func stripComment(l string) string {
	for i := 0; i < len(l); i++ {
		if l[i] == '#' && (i == 0 || l[i-1] == ' ' || l[i-1] == '\t') {
			return l[:i]
		}
	}
	return l
}

// depth is the number of unclosed [ and { in t.
func depth(t string) int {
	d := 0
	for _, c := range t {
		switch c {
		case '[', '{':
			d++
		case ']', '}':
			d--
		}
	}
	return d
}

type yparser struct {
	lines []yline
	i     int
}

// block parses the mapping or sequence whose lines start at indent.
func (p *yparser) block(indent int) (any, error) {
	if strings.HasPrefix(p.lines[p.i].text, "- ") || p.lines[p.i].text == "-" {
		return p.sequence(indent)
	}
	return p.mapping(indent, nil)
}

func (p *yparser) sequence(indent int) (any, error) {
	var out []any
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		if l.indent != indent || !(strings.HasPrefix(l.text, "- ") || l.text == "-") {
			if l.indent > indent {
				return nil, fmt.Errorf("line %d: unexpected indentation", l.num)
			}
			break
		}
		rest := strings.TrimSpace(strings.TrimPrefix(l.text, "-"))
		switch {
		case rest == "":
			p.i++
			if p.i >= len(p.lines) || p.lines[p.i].indent <= indent {
				out = append(out, "")
				continue
			}
			v, err := p.block(p.lines[p.i].indent)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		case isKeyValue(rest):
			// "- key: value" starts a mapping whose other keys are
			// indented like key.
			col := indent + (len(l.text) - len(rest))
			p.lines[p.i] = yline{col, rest, l.num}
			v, err := p.mapping(col, nil)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		default:
			v, err := flow(rest)
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", l.num, err)
			}
			out = append(out, v)
			p.i++
		}
	}
	return out, nil
}

// isKeyValue reports whether t is "key: ..." or "key:".
func isKeyValue(t string) bool {
	if t == "" || t[0] == '[' || t[0] == '{' || t[0] == '"' || t[0] == '\'' {
		return false
	}
	i := strings.Index(t, ":")
	return i > 0 && (i == len(t)-1 || t[i+1] == ' ')
}

func (p *yparser) mapping(indent int, m map[string]any) (any, error) {
	if m == nil {
		m = map[string]any{}
	}
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		if l.indent != indent {
			if l.indent > indent {
				return nil, fmt.Errorf("line %d: unexpected indentation", l.num)
			}
			break
		}
		if !isKeyValue(l.text) {
			return nil, fmt.Errorf("line %d: expected 'key: value', found %q", l.num, l.text)
		}
		k, v, _ := strings.Cut(l.text, ":")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		p.i++
		if v != "" {
			fv, err := flow(v)
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", l.num, err)
			}
			m[k] = fv
			continue
		}
		if p.i < len(p.lines) && p.lines[p.i].indent > indent && !isKeyValue(p.lines[p.i].text) &&
			!strings.HasPrefix(p.lines[p.i].text, "- ") && p.lines[p.i].text != "-" {
			// "key:" and its flow value on the next line.
			fv, err := flow(p.lines[p.i].text)
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", p.lines[p.i].num, err)
			}
			m[k] = fv
			p.i++
			continue
		}
		if p.i < len(p.lines) && (p.lines[p.i].indent > indent ||
			p.lines[p.i].indent == indent && strings.HasPrefix(p.lines[p.i].text, "- ")) {
			nv, err := p.block(p.lines[p.i].indent)
			if err != nil {
				return nil, err
			}
			m[k] = nv
			continue
		}
		m[k] = ""
	}
	return m, nil
}

// flow parses a scalar, a flow sequence or a flow mapping.
func flow(s string) (any, error) {
	s = strings.TrimSpace(s)
	fp := &flowParser{s: s}
	v, err := fp.value()
	if err != nil {
		return nil, err
	}
	fp.skip()
	if fp.i < len(fp.s) {
		return nil, fmt.Errorf("unexpected %q after a value", fp.s[fp.i:])
	}
	return v, nil
}

type flowParser struct {
	s string
	i int
}

func (f *flowParser) skip() {
	for f.i < len(f.s) && (f.s[f.i] == ' ' || f.s[f.i] == '\t') {
		f.i++
	}
}

func (f *flowParser) value() (any, error) {
	f.skip()
	if f.i >= len(f.s) {
		return "", nil
	}
	switch f.s[f.i] {
	case '[':
		f.i++
		var out []any
		for {
			f.skip()
			if f.i < len(f.s) && f.s[f.i] == ']' {
				f.i++
				return out, nil
			}
			v, err := f.value()
			if err != nil {
				return nil, err
			}
			out = append(out, v)
			f.skip()
			switch {
			case f.i < len(f.s) && f.s[f.i] == ',':
				f.i++
			case f.i < len(f.s) && f.s[f.i] == ']':
			default:
				return nil, fmt.Errorf("unterminated flow sequence")
			}
		}
	case '{':
		f.i++
		m := map[string]any{}
		for {
			f.skip()
			if f.i < len(f.s) && f.s[f.i] == '}' {
				f.i++
				return m, nil
			}
			j := strings.IndexAny(f.s[f.i:], ":}")
			if j < 0 || f.s[f.i+j] != ':' {
				return nil, fmt.Errorf("expected 'key:' in a flow mapping")
			}
			k := strings.TrimSpace(f.s[f.i : f.i+j])
			f.i += j + 1
			v, err := f.value()
			if err != nil {
				return nil, err
			}
			m[k] = v
			f.skip()
			switch {
			case f.i < len(f.s) && f.s[f.i] == ',':
				f.i++
			case f.i < len(f.s) && f.s[f.i] == '}':
			default:
				return nil, fmt.Errorf("unterminated flow mapping")
			}
		}
	case '"', '\'':
		q := f.s[f.i]
		j := strings.IndexByte(f.s[f.i+1:], q)
		if j < 0 {
			return nil, fmt.Errorf("unterminated string")
		}
		v := f.s[f.i+1 : f.i+1+j]
		f.i += j + 2
		return v, nil
	}
	j := f.i
	for j < len(f.s) && !strings.ContainsRune(",]}", rune(f.s[j])) {
		j++
	}
	v := strings.TrimSpace(f.s[f.i:j])
	f.i = j
	return v, nil
}
