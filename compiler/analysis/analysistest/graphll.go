package analysistest

import (
	"bytes"
	"fmt"
	"passlens/compiler/analysis"
	"strconv"
)

// ReadLL extracts the control-flow graphs of the functions defined in LLVM IR
// text, with blocks in layout order. It is a small reader for tests and
// benchmarks (the IR package has the real parser): it understands block
// labels (plain, quoted or numeric) and the terminators br, switch, ret and
// unreachable, and ignores every other instruction. Blocks must be labelled,
// except that an unlabelled entry block is named "0" (correct when all
// arguments are named). Labels are expected in column 0 and instructions
// indented, as LLVM prints them.
func ReadLL(src []byte) ([]*Func, error) {
	var (
		funcs  []*Func
		cur    *Func
		names  map[string]int
		refs   [][]string // per block: successor names
		inTerm bool       // inside a multi-line switch
		done   bool       // current block has its terminator
	)
	lineNo := 0
	errorf := func(format string, args ...any) error {
		return fmt.Errorf("line %d: "+format, append([]any{lineNo}, args...)...)
	}
	newBlock := func(name string) error {
		if _, dup := names[name]; dup {
			return errorf("block %q defined twice", name)
		}
		if len(refs) > 0 && !done {
			return errorf("block %q follows a block without terminator", name)
		}
		names[name] = len(refs)
		cur.Graph.Names = append(cur.Graph.Names, name)
		refs = append(refs, nil)
		cur.Terms = append(cur.Terms, TermAuto)
		done = false
		return nil
	}
	finish := func() error {
		if !done {
			return errorf("function %s: last block has no terminator", cur.Name)
		}
		cur.Graph.Succs = make([][]int, len(refs))
		for b, rs := range refs {
			s := make([]int, len(rs))
			for i, r := range rs {
				t, ok := names[r]
				if !ok {
					return fmt.Errorf("function %s: undefined block %q", cur.Name, r)
				}
				s[i] = t
			}
			cur.Graph.Succs[b] = s
		}
		funcs = append(funcs, cur)
		cur = nil
		return nil
	}
	for len(src) > 0 {
		lineNo++
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) == 0 || trimmed[0] == ';' {
			continue
		}
		if cur == nil {
			if bytes.HasPrefix(trimmed, []byte("define ")) {
				at := bytes.IndexByte(trimmed, '@')
				if at < 0 {
					return nil, errorf("define without @name")
				}
				name, _, err := ParseLLName(trimmed[at+1:])
				if err != nil {
					return nil, errorf("%v", err)
				}
				cur = &Func{Name: name, Graph: &analysis.Graph{}}
				names = map[string]int{}
				refs = refs[:0:0]
				done = false
			}
			continue
		}
		if inTerm {
			refs[len(refs)-1] = appendLabels(refs[len(refs)-1], trimmed)
			if bytes.IndexByte(trimmed, ']') >= 0 {
				inTerm = false
			}
			continue
		}
		if trimmed[0] == '}' {
			if err := finish(); err != nil {
				return nil, err
			}
			continue
		}
		if line[0] != ' ' && line[0] != '\t' {
			name, rest, err := ParseLLName(trimmed)
			if err != nil || len(rest) == 0 || rest[0] != ':' {
				return nil, errorf("bad block label %q", trimmed)
			}
			if err := newBlock(name); err != nil {
				return nil, err
			}
			continue
		}
		if len(refs) == 0 {
			if err := newBlock("0"); err != nil {
				return nil, err
			}
		}
		op := trimmed
		if i := bytes.IndexByte(op, ' '); i >= 0 {
			op = op[:i]
		}
		b := len(refs) - 1
		switch string(op) {
		case "br":
			refs[b] = appendLabels(refs[b], trimmed)
			if len(refs[b]) == 2 {
				cur.Terms[b] = TermCondBr
			} else {
				cur.Terms[b] = TermBr
			}
		case "switch":
			refs[b] = appendLabels(refs[b], trimmed)
			cur.Terms[b] = TermSwitch
			inTerm = bytes.IndexByte(trimmed, ']') < 0
		case "ret":
			cur.Terms[b] = TermRet
		case "unreachable":
			cur.Terms[b] = TermUnreachable
		case "indirectbr", "invoke", "callbr", "resume", "catchswitch", "catchret", "cleanupret":
			return nil, errorf("unsupported terminator %s", op)
		default:
			if done {
				return nil, errorf("instruction after terminator")
			}
			continue
		}
		if done {
			return nil, errorf("second terminator in block")
		}
		done = true
	}
	if cur != nil {
		return nil, fmt.Errorf("function %s: missing closing brace", cur.Name)
	}
	return funcs, nil
}

// appendLabels appends the targets of every "label %X" operand in s.
func appendLabels(refs []string, s []byte) []string {
	for {
		i := bytes.Index(s, []byte("label %"))
		if i < 0 {
			return refs
		}
		name, rest, err := ParseLLName(s[i+len("label %"):])
		if err != nil {
			return refs
		}
		refs = append(refs, name)
		s = rest
	}
}

// ParseLLName parses an LLVM identifier without its sigil: a quoted string
// with \XX escapes, a slot number, or a plain name. It returns the name and
// the remaining input.
func ParseLLName(s []byte) (string, []byte, error) {
	if len(s) == 0 {
		return "", s, fmt.Errorf("missing name")
	}
	if s[0] == '"' {
		var b []byte
		for i := 1; i < len(s); i++ {
			switch c := s[i]; c {
			case '"':
				return string(b), s[i+1:], nil
			case '\\':
				if i+2 >= len(s) {
					return "", s, fmt.Errorf("bad escape in %q", s)
				}
				if s[i+1] == '\\' {
					b = append(b, '\\')
					i++
					continue
				}
				v, err := strconv.ParseUint(string(s[i+1:i+3]), 16, 8)
				if err != nil {
					return "", s, fmt.Errorf("bad escape in %q", s)
				}
				b = append(b, byte(v))
				i += 2
			default:
				b = append(b, c)
			}
		}
		return "", s, fmt.Errorf("unterminated name %q", s)
	}
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '$' {
			i++
			continue
		}
		break
	}
	if i == 0 {
		return "", s, fmt.Errorf("bad name %q", s)
	}
	return string(s[:i]), s[i:], nil
}
