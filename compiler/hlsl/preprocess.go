package hlsl

import (
	"strconv"
	"strings"

	"passlens/internal/limits"
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
		p.readFile = func(path string) ([]byte, error) { return limits.ReadFile(path, limits.MaxModuleSize) }
	}
	for _, b := range []string{"__LINE__", "__FILE__", "__COUNTER__"} {
		p.macros[b] = &macro{name: b, builtin: b}
	}
	p.predefine("__HLSL_VERSION", "2021")
	p.predefineTarget(opts.Profile)
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
