package hlsl

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"passlens/internal/limits"
)

// Preprocessing directives: conditionals, #define/#undef, #include,
// #line, #error/#warning and #pragma.

// lineTokens reads the rest of a directive line.
func (p *preprocessor) lineTokens(f *ppFile) []token {
	var ts []token
	for {
		t := f.lex.next()
		if t.kind == tNewline || t.kind == tEOF {
			return ts // at EOF the lexer keeps returning EOF for readRaw
		}
		ts = append(ts, t)
	}
}

// directive runs the directive starting at hash. It returns a token to pass
// to the parser for directives that produce one (#pragma pack_matrix).
func (p *preprocessor) directive(f *ppFile, hash token) (token, bool) {
	name := f.lex.next()
	if name.kind == tNewline || name.kind == tEOF {
		return token{}, false // null directive
	}
	active := f.active()
	dname := name.text
	if name.kind == tNumber {
		dname = "line"
		if active {
			p.lineDirective(f, append([]token{name}, p.lineTokens(f)...), hash)
		} else {
			f.lex.skipLine()
		}
		return token{}, false
	}
	switch dname {
	case "if", "ifdef", "ifndef":
		c := cond{pos: hash.pos, outer: active}
		if active {
			ts := p.lineTokens(f)
			switch dname {
			case "if":
				c.active = p.evalCondition(ts, name)
			default:
				if len(ts) == 0 || ts[0].kind != tIdent {
					p.rep.errorf(name.end(), name.end(), "macro name missing")
				} else {
					_, def := p.macros[ts[0].text]
					c.active = def == (dname == "ifdef")
					if len(ts) > 1 {
						p.rep.warnf(ts[1].pos, ts[1].end(), "extra tokens at end of #%s directive", dname)
					}
				}
			}
			c.taken = c.active
		} else {
			f.lex.skipLine()
		}
		f.conds = append(f.conds, c)
	case "elif":
		if len(f.conds) == 0 {
			p.rep.errorf(hash.pos, name.end(), "#elif without #if")
			f.lex.skipLine()
			break
		}
		c := &f.conds[len(f.conds)-1]
		if c.sawElse {
			p.rep.errorf(hash.pos, name.end(), "#elif after #else")
		}
		if c.outer && !c.taken {
			c.active = p.evalCondition(p.lineTokens(f), name)
			c.taken = c.active
		} else {
			c.active = false
			f.lex.skipLine()
		}
	case "else":
		if len(f.conds) == 0 {
			p.rep.errorf(hash.pos, name.end(), "#else without #if")
			f.lex.skipLine()
			break
		}
		c := &f.conds[len(f.conds)-1]
		if c.sawElse {
			p.rep.errorf(hash.pos, name.end(), "#else after #else")
		}
		c.sawElse = true
		c.active = c.outer && !c.taken
		c.taken = true
		p.extraTokens(f, dname, c.outer)
	case "endif":
		if len(f.conds) == 0 {
			p.rep.errorf(hash.pos, name.end(), "#endif without #if")
			f.lex.skipLine()
			break
		}
		outer := f.conds[len(f.conds)-1].outer
		f.conds = f.conds[:len(f.conds)-1]
		p.extraTokens(f, dname, outer)
	default:
		if !active {
			f.lex.skipLine()
			break
		}
		return p.activeDirective(f, hash, name)
	}
	f.lex.quiet = !f.active()
	return token{}, false
}

// extraTokens consumes the rest of a directive line that takes no operands.
func (p *preprocessor) extraTokens(f *ppFile, dname string, warn bool) {
	ts := p.lineTokens(f)
	if len(ts) > 0 && warn {
		p.rep.warnf(ts[0].pos, ts[0].end(), "extra tokens at end of #%s directive", dname)
	}
}

// activeDirective runs a directive that only matters outside skipped blocks.
func (p *preprocessor) activeDirective(f *ppFile, hash, name token) (token, bool) {
	switch name.text {
	case "define":
		p.define(p.lineTokens(f), name)
	case "undef":
		ts := p.lineTokens(f)
		if len(ts) == 0 || ts[0].kind != tIdent {
			p.rep.errorf(name.end(), name.end(), "macro name missing")
			break
		}
		if ts[0].text == "defined" {
			p.rep.errorf(ts[0].pos, ts[0].end(), "'defined' cannot be used as a macro name")
			break
		}
		delete(p.macros, ts[0].text)
		if len(ts) > 1 {
			p.rep.warnf(ts[1].pos, ts[1].end(), "extra tokens at end of #undef directive")
		}
	case "include":
		p.include(f, p.lineTokens(f), name)
	case "line":
		p.lineDirective(f, p.lineTokens(f), hash)
	case "error":
		msg := f.lex.restOfLine()
		p.rep.errorf(name.pos, name.end(), "%s", strings.TrimSpace("#error "+msg))
	case "warning":
		msg := f.lex.restOfLine()
		p.rep.warnf(name.pos, name.end(), "%s", strings.TrimSpace("#warning "+msg))
	case "pragma":
		return p.pragma(f, name)
	default:
		p.rep.errorf(name.pos, name.end(), "invalid preprocessing directive")
		f.lex.skipLine()
	}
	return token{}, false
}

func (p *preprocessor) define(ts []token, directive token) {
	if len(ts) == 0 || ts[0].kind != tIdent {
		at := directive.end()
		if len(ts) > 0 {
			at = ts[0].pos
		}
		p.rep.errorf(at, at, "macro name must be an identifier")
		return
	}
	nameTok := ts[0]
	if nameTok.text == "defined" {
		p.rep.errorf(nameTok.pos, nameTok.end(), "'defined' cannot be used as a macro name")
		return
	}
	m := &macro{name: nameTok.text, pos: nameTok.pos}
	rest := ts[1:]
	if len(rest) > 0 && rest[0].is("(") && !rest[0].space {
		m.funcLike = true
		i := 1
		for {
			if i >= len(rest) {
				p.rep.errorf(nameTok.pos, nameTok.end(), "missing ')' in macro parameter list")
				return
			}
			t := rest[i]
			if t.is(")") && len(m.params) == 0 {
				i++
				break
			}
			switch {
			case t.is("..."):
				m.params = append(m.params, "__VA_ARGS__")
				m.variadic = true
				i++
			case t.kind == tIdent:
				for _, q := range m.params {
					if q == t.text {
						p.rep.errorf(t.pos, t.end(), "duplicate macro parameter '%s'", t.text)
						return
					}
				}
				m.params = append(m.params, t.text)
				i++
				if i < len(rest) && rest[i].is("...") {
					m.variadic = true
					i++
				}
			default:
				p.rep.errorf(t.pos, t.end(), "invalid token in macro parameter list")
				return
			}
			if i >= len(rest) {
				p.rep.errorf(nameTok.pos, nameTok.end(), "missing ')' in macro parameter list")
				return
			}
			if rest[i].is(")") {
				i++
				break
			}
			if !rest[i].is(",") || m.variadic {
				p.rep.errorf(rest[i].pos, rest[i].end(), "expected ',' or ')' in macro parameter list")
				return
			}
			i++
		}
		rest = rest[i:]
	} else if len(rest) > 0 && !rest[0].space {
		p.rep.warnf(rest[0].pos, rest[0].end(), "whitespace required after macro name")
	}
	m.body = append([]token(nil), rest...)
	for i := range m.body {
		m.body[i].bol = false
	}
	if n := len(m.body); n > 0 {
		if m.body[0].is("##") {
			p.rep.errorf(m.body[0].pos, m.body[0].end(), "'##' cannot appear at either end of a macro expansion")
			return
		}
		if m.body[n-1].is("##") {
			p.rep.errorf(m.body[n-1].pos, m.body[n-1].end(), "'##' cannot appear at either end of a macro expansion")
			return
		}
	}
	if m.funcLike {
		for i, t := range m.body {
			if !t.is("#") {
				continue
			}
			ok := false
			if i+1 < len(m.body) && m.body[i+1].kind == tIdent {
				for _, q := range m.params {
					ok = ok || q == m.body[i+1].text
				}
			}
			if !ok {
				p.rep.errorf(t.pos, t.end(), "'#' is not followed by a macro parameter")
				return
			}
		}
	}
	if old, ok := p.macros[m.name]; ok {
		if old.builtin != "" {
			p.rep.warnf(nameTok.pos, nameTok.end(), "redefining builtin macro '%s'", m.name)
		} else if !old.sameDefinition(m) {
			d := Diagnostic{Severity: Warning, Pos: nameTok.pos, End: nameTok.end(),
				Message: fmt.Sprintf("'%s' macro redefined", m.name)}
			if old.pos.IsValid() {
				d.Notes = []Diagnostic{note(old.pos, "previous definition is here")}
			}
			p.rep.add(d)
		}
	}
	p.macros[m.name] = m
}

// include runs #include "file" / #include <file>.
func (p *preprocessor) include(f *ppFile, ts []token, directive token) {
	if len(ts) > 0 && ts[0].kind == tIdent {
		ts = p.expandList(ts)
	}
	if len(ts) == 0 {
		p.rep.errorf(directive.end(), directive.end(), "expected \"FILENAME\" or <FILENAME>")
		return
	}
	var name string
	angled := false
	switch {
	case ts[0].kind == tString && len(ts[0].text) >= 2:
		name = ts[0].text[1 : len(ts[0].text)-1]
	case ts[0].is("<"):
		angled = true
		var b strings.Builder
		closed := false
		for _, t := range ts[1:] {
			if t.is(">") {
				closed = true
				break
			}
			if t.space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(t.text)
		}
		if !closed {
			p.rep.errorf(ts[0].pos, ts[0].end(), "expected '>'")
			return
		}
		name = b.String()
	default:
		p.rep.errorf(ts[0].pos, ts[0].end(), "expected \"FILENAME\" or <FILENAME>")
		return
	}
	if name == "" {
		p.rep.errorf(ts[0].pos, ts[0].end(), "empty filename")
		return
	}
	if len(p.files) >= maxIncludeDepth {
		p.rep.errorf(ts[0].pos, ts[0].end(), "#include nested too deeply")
		return
	}
	var dirs []string
	if !angled {
		dirs = append(dirs, filepath.Dir(f.path))
	}
	dirs = append(dirs, p.incDirs...)
	var path string
	var src []byte
	found := false
	// readErr is the first refusal of a file that exists (a device, a FIFO,
	// a directory, too large); other failures read as "not found", which
	// tells a remote user nothing about files outside their reach.
	var readErr error
	if filepath.IsAbs(name) {
		dirs = []string{""}
	}
	for _, d := range dirs {
		cand := name
		if d != "" {
			cand = filepath.Join(d, name)
		}
		if data, ok := p.sources[cand]; ok {
			path, src, found = cand, data, true
			break
		}
		data, err := p.readFile(cand)
		if err == nil {
			path, src, found = cand, data, true
			break
		}
		if readErr == nil && (errors.Is(err, limits.ErrNotRegular) || errors.Is(err, limits.ErrTooLarge)) {
			readErr = err
		}
	}
	if !found && readErr != nil {
		p.rep.errorf(ts[0].pos, ts[len(ts)-1].end(), "cannot include '%s': %v", name, readErr)
		return
	}
	if !found {
		p.rep.errorf(ts[0].pos, ts[len(ts)-1].end(), "'%s' file not found", name)
		return
	}
	if p.once[path] {
		return
	}
	p.included += len(src)
	p.includes++
	if p.included > maxIncludedBytes || p.includes > maxIncludes {
		if !p.incErr {
			p.incErr = true
			p.rep.errorf(ts[0].pos, ts[len(ts)-1].end(), "too much text included (include cycle?)")
		}
		return
	}
	p.pushFile(path, src)
}

// lineDirective runs #line N ["file"] (and GNU "# N file" markers).
func (p *preprocessor) lineDirective(f *ppFile, ts []token, hash token) {
	ts = p.expandList(ts)
	if len(ts) == 0 || ts[0].kind != tNumber {
		at := hash.pos
		if len(ts) > 0 {
			at = ts[0].pos
		}
		p.rep.errorf(at, at, "#line directive requires a positive integer argument")
		return
	}
	n, err := strconv.ParseUint(ts[0].text, 10, 31)
	if err != nil || n == 0 {
		p.rep.errorf(ts[0].pos, ts[0].end(), "#line directive requires a positive integer argument")
		return
	}
	file := ""
	if len(ts) > 1 {
		if ts[1].kind != tString || len(ts[1].text) < 2 {
			p.rep.errorf(ts[1].pos, ts[1].end(), "invalid filename for #line directive")
			return
		}
		file = ts[1].text[1 : len(ts[1].text)-1]
	}
	// lineTokens consumed the newline: the current physical line is the next one.
	f.lex.setLine(int(n), file)
}

// pragma runs #pragma: once and pack_matrix are honoured (macros in
// pack_matrix's operands are expanded, as DXC does), a few known pragmas
// are ignored silently, and anything else warns.
func (p *preprocessor) pragma(f *ppFile, name token) (token, bool) {
	ts := p.lineTokens(f)
	if len(ts) == 0 {
		return token{}, false
	}
	switch ts[0].text {
	case "once":
		p.once[f.path] = true
	case "pack_matrix":
		// Like DXC (clang's pragma handler lexes with expansion), macros
		// in the operands are expanded; the pragma name itself is not.
		ts = append(ts[:1:1], p.expandList(ts[1:])...)
		if len(ts) >= 4 && ts[1].is("(") && ts[3].is(")") && (ts[2].text == "row_major" || ts[2].text == "column_major") {
			return token{kind: tPragma, text: ts[2].text, pos: ts[0].pos}, true
		}
		p.rep.warnf(ts[0].pos, ts[0].end(), "invalid '#pragma pack_matrix': expected row_major or column_major")
	case "warning", "message", "def", "region", "endregion", "dxc", "optimize":
	default:
		p.rep.warnf(ts[0].pos, ts[0].end(), "unknown pragma ignored")
	}
	return token{}, false
}
