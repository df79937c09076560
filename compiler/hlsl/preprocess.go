package hlsl

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// macro is a #define'd macro.
type macro struct {
	name     string
	funcLike bool
	params   []string // for variadic macros the last one is the variadic name
	variadic bool
	body     []token
	pos      Pos
	builtin  string // "__LINE__", "__FILE__", "__COUNTER__" or ""
}

// sameDefinition reports whether two definitions are identical in the
// sense of C11 6.10.3p2 (so a redefinition needs no warning).
func (m *macro) sameDefinition(o *macro) bool {
	if m.funcLike != o.funcLike || m.variadic != o.variadic || len(m.params) != len(o.params) || len(m.body) != len(o.body) {
		return false
	}
	for i := range m.params {
		if m.params[i] != o.params[i] {
			return false
		}
	}
	for i := range m.body {
		a, b := m.body[i], o.body[i]
		if a.kind != b.kind || a.text != b.text || (i > 0 && a.space != b.space) {
			return false
		}
	}
	return true
}

// cond is one level of #if nesting.
type cond struct {
	pos     Pos
	active  bool // the current branch is being compiled
	taken   bool // some branch of this #if has been taken
	sawElse bool
	outer   bool // the enclosing context is active
}

// ppFile is a file on the include stack.
type ppFile struct {
	lex   *lexer
	path  string
	conds []cond
}

func (f *ppFile) active() bool { return len(f.conds) == 0 || f.conds[len(f.conds)-1].active }

// maxIncludeDepth bounds #include nesting (and so include cycles).
const maxIncludeDepth = 64

// maxIncludedBytes and maxIncludes bound the total text read through
// #include, so that a file including itself twice (2^depth inclusions)
// ends with an error instead of running forever.
const (
	maxIncludedBytes = 32 << 20
	maxIncludes      = 4096
)

// maxExpansionTokens bounds the work done by macro expansion, so that
// exponential macro definitions produce an error instead of exhausting memory.
const maxExpansionTokens = 1 << 19

// preprocessor turns source files into the token stream the parser reads:
// it runs directives, expands macros and follows includes. Tokens keep
// their spelling positions plus the chain of macro expansions.
type preprocessor struct {
	rep      *reporter
	macros   map[string]*macro
	files    []*ppFile
	pending  []token // pushed-back tokens, the next one last
	isolated int     // >0 while expanding a token list: reading past pending yields EOF
	once     map[string]bool
	sources  Sources
	readFile func(string) ([]byte, error)
	incDirs  []string
	counter  int
	work     int // tokens produced by expansion so far
	workErr  bool
	included int // bytes read through #include so far
	includes int // number of #includes performed
	incErr   bool
	eof      token
}

func newPreprocessor(rep *reporter, opts *Options, sources Sources) *preprocessor {
	p := &preprocessor{
		rep:      rep,
		macros:   map[string]*macro{},
		once:     map[string]bool{},
		sources:  sources,
		readFile: opts.ReadFile,
		incDirs:  opts.IncludeDirs,
	}
	if p.readFile == nil {
		p.readFile = os.ReadFile
	}
	for _, b := range []string{"__LINE__", "__FILE__", "__COUNTER__"} {
		p.macros[b] = &macro{name: b, builtin: b}
	}
	p.predefine("__HLSL_VERSION", "2021")
	p.predefine("__SHADER_TARGET_MAJOR", "6")
	p.predefine("__SHADER_TARGET_MINOR", "0")
	p.predefine("__hlsl_dx_compiler", "1")
	for _, d := range opts.Defines {
		name, val, ok := strings.Cut(d, "=")
		if !ok {
			val = "1"
		}
		p.predefine(strings.TrimSpace(name), val)
	}
	return p
}

// predefine defines an object-like macro from text, as -D does.
func (p *preprocessor) predefine(name, value string) {
	if name == "" {
		return
	}
	lx := newLexer("<command line>", []byte(value), p.rep)
	var body []token
	for {
		t := lx.next()
		if t.kind == tEOF || t.kind == tNewline {
			break
		}
		body = append(body, t)
	}
	p.macros[name] = &macro{name: name, body: body, pos: Pos{File: "<command line>"}}
}

// pushFile starts reading src as the innermost file.
func (p *preprocessor) pushFile(path string, src []byte) {
	p.sources[path] = src
	p.files = append(p.files, &ppFile{lex: newLexer(path, src, p.rep), path: path})
}

// unread pushes tokens back so that toks[0] is read next.
func (p *preprocessor) unread(toks ...token) {
	for i := len(toks) - 1; i >= 0; i-- {
		p.pending = append(p.pending, toks[i])
	}
}

// readRaw returns the next unexpanded token: a pushed-back one, or one from
// the innermost file after running any directives before it.
func (p *preprocessor) readRaw() token {
	if n := len(p.pending); n > 0 {
		t := p.pending[n-1]
		p.pending = p.pending[:n-1]
		return t
	}
	if p.isolated > 0 {
		return token{kind: tEOF}
	}
	for len(p.files) > 0 {
		if p.rep.stopped() {
			p.files = nil
			break
		}
		f := p.files[len(p.files)-1]
		t := f.lex.next()
		switch {
		case t.kind == tEOF:
			for i := len(f.conds) - 1; i >= 0; i-- {
				p.rep.errorf(f.conds[i].pos, f.conds[i].pos.advance(1), "unterminated conditional directive")
			}
			p.files = p.files[:len(p.files)-1]
			p.eof = t
			continue
		case t.is("#") && t.bol:
			if pt, ok := p.directive(f, t); ok {
				return pt
			}
			continue
		case t.kind == tNewline:
			continue
		case !f.active():
			continue
		}
		return t
	}
	eof := p.eof
	eof.kind = tEOF
	eof.text = ""
	return eof
}

// next returns the next fully macro-expanded token.
func (p *preprocessor) next() token {
	for {
		t := p.readRaw()
		if t.kind != tIdent || t.noExpand {
			return t
		}
		m := p.macros[t.text]
		if m == nil {
			return t
		}
		if t.hide.has(t.text) {
			t.noExpand = true
			return t
		}
		if m.builtin != "" {
			return p.builtinToken(m, t)
		}
		if !m.funcLike {
			p.unread(p.substitute(m, t, nil, t.hide.with(m.name))...)
			continue
		}
		n := p.readRaw()
		if !n.is("(") {
			p.unread(n)
			return t
		}
		args, rparen, ok := p.collectArgs(m, t)
		if !ok {
			continue
		}
		p.unread(p.substitute(m, t, args, t.hide.intersect(rparen.hide).with(m.name))...)
	}
}

// expandList fully expands an isolated token list (a macro argument or a
// directive's operands) without reading beyond it.
func (p *preprocessor) expandList(toks []token) []token {
	saved := p.pending
	p.pending = nil
	p.unread(toks...)
	p.isolated++
	var out []token
	for {
		t := p.next()
		if t.kind == tEOF {
			break
		}
		out = append(out, t)
	}
	p.isolated--
	p.pending = saved
	return out
}

func (p *preprocessor) builtinToken(m *macro, t token) token {
	site := t.pos
	for site.exp != nil {
		site = site.exp.site
	}
	r := token{pos: t.pos, space: t.space, bol: t.bol}
	switch m.builtin {
	case "__LINE__":
		r.kind, r.text = tNumber, strconv.Itoa(site.Line)
	case "__FILE__":
		r.kind, r.text = tString, strconv.Quote(site.File)
	default:
		r.kind, r.text = tNumber, strconv.Itoa(p.counter)
		p.counter++
	}
	return r
}

// collectArgs reads the arguments of a function-like macro invocation after
// its '(' and returns them with the closing ')'.
func (p *preprocessor) collectArgs(m *macro, name token) ([][]token, token, bool) {
	var args [][]token
	var cur []token
	depth := 0
	nparams := len(m.params)
	for {
		t := p.readRaw()
		if t.kind == tEOF {
			p.rep.add(Diagnostic{Severity: Error, Pos: name.pos, End: name.end(),
				Message: "unterminated function-like macro invocation",
				Notes:   []Diagnostic{note(m.pos, "macro '%s' defined here", m.name)}})
			if t.kind == tEOF {
				p.unread(t)
			}
			return nil, t, false
		}
		if t.kind == tPragma {
			continue
		}
		switch {
		case t.is("(") || t.is("[") || t.is("{"):
			if t.is("(") {
				depth++
			}
		case t.is(")"):
			if depth == 0 {
				args = append(args, cur)
				return p.checkArgCount(m, name, args, t)
			}
			depth--
		case t.is(",") && depth == 0 && !(m.variadic && len(args) == nparams-1):
			args = append(args, cur)
			cur = []token{}
			continue
		}
		cur = append(cur, t)
	}
}

func (p *preprocessor) checkArgCount(m *macro, name token, args [][]token, rparen token) ([][]token, token, bool) {
	n := len(m.params)
	if n == 0 && len(args) == 1 && len(args[0]) == 0 {
		return nil, rparen, true
	}
	if m.variadic && len(args) == n-1 {
		args = append(args, []token{})
	}
	if len(args) == n {
		return args, rparen, true
	}
	msg := "too few arguments provided to function-like macro invocation"
	if len(args) > n {
		msg = "too many arguments provided to function-like macro invocation"
	}
	p.rep.add(Diagnostic{Severity: Error, Pos: rparen.pos, End: rparen.end(), Message: msg,
		Notes: []Diagnostic{note(m.pos, "macro '%s' defined here", m.name)}})
	return nil, rparen, false
}

// substitute returns the replacement list of m invoked at name with args,
// with parameters replaced, # and ## applied, and positions and hide sets
// set for rescanning.
func (p *preprocessor) substitute(m *macro, name token, args [][]token, hs *hideSet) []token {
	exp := &expansion{macro: m.name, site: name.pos, parent: name.pos.exp}
	param := func(t token) int {
		if t.kind != tIdent || !m.funcLike {
			return -1
		}
		for i, n := range m.params {
			if n == t.text {
				return i
			}
		}
		return -1
	}
	expanded := make([][]token, len(args))
	done := make([]bool, len(args))
	fromBody := func(t token) token {
		t.pos.exp = exp
		t.hide = t.hide.union(hs)
		t.bol = false
		return t
	}
	fromArg := func(ts []token) []token {
		out := make([]token, len(ts))
		for i, t := range ts {
			t.hide = t.hide.union(hs)
			t.bol = false
			out[i] = t
		}
		return out
	}
	var out []token
	body := m.body
	for i := 0; i < len(body); i++ {
		t := body[i]
		// Stringizing.
		if m.funcLike && t.is("#") && i+1 < len(body) && param(body[i+1]) >= 0 {
			s := fromBody(t)
			s.kind, s.text = tString, stringize(args[param(body[i+1])])
			out = append(out, s)
			i++
			continue
		}
		// Pasting: the left operand is the last token produced so far.
		if t.is("##") && i+1 < len(body) {
			rhsTok := body[i+1]
			i++
			var rhs []token
			if pi := param(rhsTok); pi >= 0 {
				rhs = fromArg(args[pi])
				// GNU ", ## __VA_ARGS__": drop the comma when the variadic argument is empty.
				if m.variadic && pi == len(m.params)-1 && len(rhs) == 0 && len(out) > 0 && out[len(out)-1].is(",") {
					out = out[:len(out)-1]
					continue
				}
			} else {
				rhs = []token{fromBody(rhsTok)}
			}
			if len(rhs) == 0 {
				continue
			}
			if len(out) == 0 || out[len(out)-1].kind == tEOF {
				out = append(out, rhs...)
				continue
			}
			lhs := out[len(out)-1]
			out = append(out[:len(out)-1], p.paste(lhs, rhs[0]))
			out = append(out, rhs[1:]...)
			continue
		}
		if pi := param(t); pi >= 0 {
			nextIsPaste := i+1 < len(body) && body[i+1].is("##")
			var ts []token
			if nextIsPaste {
				ts = fromArg(args[pi])
			} else {
				if !done[pi] {
					expanded[pi] = p.expandList(args[pi])
					done[pi] = true
				}
				ts = fromArg(expanded[pi])
			}
			if len(ts) > 0 {
				ts[0].space = t.space
			}
			out = append(out, ts...)
			continue
		}
		out = append(out, fromBody(t))
	}
	if len(out) > 0 {
		out[0].space = name.space
	}
	p.work += len(out)
	if p.work > maxExpansionTokens {
		if !p.workErr {
			p.workErr = true
			p.rep.errorf(name.pos, name.end(), "macro expansion of '%s' is too large", m.name)
		}
		return nil
	}
	return out
}

// paste implements ##: it concatenates two tokens and relexes the result.
func (p *preprocessor) paste(a, b token) token {
	text := a.text + b.text
	lx := newLexer("", []byte(text), newReporter(1))
	t := lx.next()
	rest := lx.next()
	if t.kind == tEOF || rest.kind != tEOF || t.text != text {
		p.rep.errorf(a.pos, a.end(), "pasting formed '%s', an invalid preprocessing token", text)
		return a
	}
	a.kind = t.kind
	a.text = text
	a.noExpand = false
	return a
}

// stringize implements #: the spelling of the argument as a string literal.
func stringize(ts []token) string {
	var b strings.Builder
	b.WriteByte('"')
	for i, t := range ts {
		if i > 0 && t.space {
			b.WriteByte(' ')
		}
		if t.kind == tString || t.kind == tChar {
			for _, c := range []byte(t.text) {
				if c == '"' || c == '\\' {
					b.WriteByte('\\')
				}
				b.WriteByte(c)
			}
			continue
		}
		b.WriteString(t.text)
	}
	b.WriteByte('"')
	return b.String()
}

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

// pragma runs #pragma: once and pack_matrix are honoured, a few known
// pragmas are ignored silently, and anything else warns.
func (p *preprocessor) pragma(f *ppFile, name token) (token, bool) {
	ts := p.lineTokens(f)
	if len(ts) == 0 {
		return token{}, false
	}
	switch ts[0].text {
	case "once":
		p.once[f.path] = true
	case "pack_matrix":
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
