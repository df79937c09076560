package ir

// This file reads the textual IR (docs/ir.md) that printer.go writes.
//
// The parser works in two passes over the token stream so that nothing has
// to be declared before use: the first pass finds the top-level items
// (struct types, globals, function headers and the extent of each body);
// the second resolves struct types (in any order), then globals, then
// function signatures, then bodies. Inside a body, values and blocks may be
// used before their definition (phis, back edges, uses before defs in
// layout order); such uses hold a placeholder until the end of the
// function, when every placeholder is resolved or reported.
//
// The parser checks syntax, names and every type the text spells; what the
// text leaves implicit (an untyped operand, dominance, phi edges, operand
// classes) is left to the verifier, so that a broken module that was
// printed can be read back and diagnosed.

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"passlens/internal/guard"
	"passlens/internal/termsafe"
)

// ParseError is a syntax or name error in .pir text, with its position.
type ParseError struct {
	File      string
	Line, Col int    // 1-based; Col counts bytes
	Msg       string // what is wrong, without position
	Source    string // the source line, without its newline
}

// Error renders the error clang-style: "file:line:col: error: msg", then the
// source line and a caret under the column.
// A source line longer than maxShownLine bytes is shown as a window
// around the column, marked with "…"; control bytes are shown escaped
// (termsafe), so hostile input cannot drive the terminal.
func (e *ParseError) Error() string {
	const maxShownLine = 160
	src, col := e.Source, e.Col
	lead, tail := "", ""
	if len(src) > maxShownLine {
		lo := max(0, min(col-1-maxShownLine/4, len(src)-maxShownLine))
		hi := min(len(src), lo+maxShownLine)
		for lo > 0 && !utf8.RuneStart(src[lo]) {
			lo--
		}
		for hi < len(src) && !utf8.RuneStart(src[hi]) {
			hi++
		}
		if lo > 0 {
			lead = "…"
		}
		if hi < len(src) {
			tail = "…"
		}
		src, col = src[lo:hi], col-lo
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s:%d:%d: error: %s\n%s%s%s\n", termsafe.Escape(e.File), e.Line, e.Col, termsafe.Escape(e.Msg), lead, termsafe.Escape(src), tail)
	if lead != "" {
		sb.WriteByte(' ')
	}
	// Keep tabs so the caret lines up under tab-indented text; one column
	// per rune elsewhere (and past the end of the line).
	prefix := src
	if col-1 < len(prefix) {
		prefix = prefix[:max(col-1, 0)]
	}
	for _, r := range prefix {
		switch esc := termsafe.Escape(string(r)); {
		case r == '\t':
			sb.WriteByte('\t')
		case esc != string(r):
			sb.WriteString(strings.Repeat(" ", len(esc)))
		default:
			sb.WriteByte(' ')
		}
	}
	for i := len(src); i < col-1; i++ {
		sb.WriteByte(' ')
	}
	sb.WriteByte('^')
	return sb.String()
}

// ParseModule parses a whole .pir module. filename is used in errors only.
// The error, if any, is a *ParseError. Names read from the text are reserved
// in their function (Function.ReserveName), so names later passes generate
// never collide with them.
func ParseModule(filename string, src []byte) (m *Module, err error) {
	return parseModule(filename, src, nil)
}

// ParseModuleWithPositions is ParseModule that also records where every
// function, block, instruction and global is in the text, so that
// verifier problems found later can point at the line the user wrote.
func ParseModuleWithPositions(filename string, src []byte) (*Module, *Positions, error) {
	if filename == "" {
		filename = "<input>"
	}
	ps := newPositions(filename, string(src))
	m, err := parseModule(filename, src, ps)
	if err != nil {
		return nil, nil, err
	}
	return m, ps, nil
}

func parseModule(filename string, src []byte, ps *Positions) (m *Module, err error) {
	if filename == "" {
		filename = "<input>"
	}
	p := &parser{file: filename, src: string(src), where: ps}
	if len(src) > math.MaxInt32-1 {
		return nil, &ParseError{File: filename, Line: 1, Col: 1, Msg: "input too large"}
	}
	defer guard.Handle("ir.Parse", func(e *guard.Error) {
		m, err = nil, e
		if b, ok := e.Value.(bailout); ok {
			err = b.err
		} else {
			e.File = filename
		}
	})
	p.toks, p.lexErr = lex(p.src)
	p.parseModule()
	return p.m, nil
}

// bailout carries the first error out of the recursive descent.
type bailout struct{ err *ParseError }

// typeKey identifies a derived type for the parser's cache (the global
// intern table is slower: it formats a key string under a lock).
type typeKey struct {
	kind  Kind
	elem  *Type
	n, c  int
	space AddrSpace
}

type parser struct {
	file string
	src  string
	toks []token
	pos  int
	// lexErr is where pass one stopped: a lexical error (the stream ends
	// with its tkError token) or a structural error between items. It is
	// reported once nothing before it fails.
	lexErr *lexError

	m         *Module
	typeCache map[typeKey]*Type
	where     *Positions // nil unless positions are recorded
	depth     int        // nesting of types and constants being parsed (nest)

	// Module-level symbols.
	structDefs map[string]int   // struct name -> token index of its "type" line
	structs    map[string]*Type // resolved struct types
	resolving  map[string]bool  // structs being resolved (cycle detection)
	globals    map[string]*Global
	funcs      map[string]*Function

	// Per-function state.
	f          *Function
	vals       map[string]Value
	blocks     map[string]*Block
	blockRef   map[*Block]int // first reference of a not yet defined block
	blockDef   map[*Block]bool
	fwdPending int // placeholders created in this function
}

// fwdRef stands for a local value used before its definition. spelled
// records whether the use wrote the type (then it must match the
// definition's type).
type fwdRef struct {
	name    string
	typ     *Type
	tok     int
	spelled bool
}

func (r *fwdRef) Type() *Type  { return r.typ }
func (r *fwdRef) Name() string { return r.name }
func (r *fwdRef) Ref() string  { return "%" + quoteName(r.name) }

// ---- errors and token helpers ----

// errAt aborts parsing with an error at byte offset off.
func (p *parser) errAt(off int, format string, args ...any) {
	line, lineStart := 1, 0
	for i := 0; i < off && i < len(p.src); i++ {
		if p.src[i] == '\n' {
			line++
			lineStart = i + 1
		}
	}
	lineEnd := strings.IndexByte(p.src[lineStart:], '\n')
	if lineEnd < 0 {
		lineEnd = len(p.src)
	} else {
		lineEnd += lineStart
	}
	source := strings.TrimRight(p.src[lineStart:lineEnd], "\r")
	panic(bailout{&ParseError{
		File: p.file, Line: line, Col: off - lineStart + 1,
		Msg: fmt.Sprintf(format, args...), Source: source,
	}})
}

// errTok aborts with an error at token i (a lexical error token reports
// the lexer's message instead).
func (p *parser) errTok(i int, format string, args ...any) {
	t := p.toks[i]
	if t.kind == tkError && p.lexErr != nil {
		p.errAt(p.lexErr.off, "%s", p.lexErr.msg)
	}
	p.errAt(int(t.off), format, args...)
}

func (p *parser) errf(format string, args ...any) { p.errTok(p.pos, format, args...) }

func (p *parser) tok() token { return p.toks[p.pos] }

func (p *parser) peekKind(k int) tokKind {
	if p.pos+k < len(p.toks) {
		return p.toks[p.pos+k].kind
	}
	return tkEOF
}

func (p *parser) text(i int) string {
	t := p.toks[i]
	return p.src[t.off:t.end]
}

// describe names the current token for "expected X, found Y" messages.
func (p *parser) describe() string {
	t := p.tok()
	switch t.kind {
	case tkEOF:
		return "end of file"
	case tkNewline:
		return "end of line"
	case tkError:
		return "invalid input"
	}
	s := p.text(p.pos)
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return "'" + s + "'"
}

func (p *parser) next() { p.pos++ }

func (p *parser) isPunct(c byte) bool {
	t := p.tok()
	return t.kind == tkPunct && p.src[t.off] == c
}

func (p *parser) isWord(w string) bool {
	t := p.tok()
	return t.kind == tkWord && p.src[t.off:t.end] == w
}

func (p *parser) acceptPunct(c byte) bool {
	if p.isPunct(c) {
		p.pos++
		return true
	}
	return false
}

func (p *parser) expectPunct(c byte) {
	if !p.acceptPunct(c) {
		p.errf("expected '%c', found %s", c, p.describe())
	}
}

func (p *parser) acceptWord(w string) bool {
	if p.isWord(w) {
		p.pos++
		return true
	}
	return false
}

func (p *parser) expectWord(w string) {
	if !p.acceptWord(w) {
		p.errf("expected '%s', found %s", w, p.describe())
	}
}

// word consumes and returns a tkWord.
func (p *parser) word(what string) string {
	if p.tok().kind != tkWord {
		p.errf("expected %s, found %s", what, p.describe())
	}
	s := p.text(p.pos)
	p.pos++
	return s
}

// atEOL reports the end of a statement.
func (p *parser) atEOL() bool {
	k := p.tok().kind
	return k == tkNewline || k == tkEOF
}

func (p *parser) expectEOL() {
	switch p.tok().kind {
	case tkNewline:
		p.pos++
	case tkEOF:
	default:
		p.errf("expected end of line, found %s", p.describe())
	}
}

func (p *parser) skipNewlines() {
	for p.tok().kind == tkNewline {
		p.pos++
	}
}

// skipLine moves past the current statement (pass one).
func (p *parser) skipLine() {
	for {
		switch p.tok().kind {
		case tkEOF, tkError:
			return
		case tkNewline:
			p.pos++
			return
		}
		p.pos++
	}
}

// unquote decodes a quoted name or string token's Go literal.
func (p *parser) unquote(i int, lit string) string {
	s, err := strconv.Unquote(lit)
	if err != nil {
		p.errTok(i, "invalid quoted string %s", lit)
	}
	return s
}

// symName returns the name of a %/@ token at index i.
func (p *parser) symName(i int) string {
	t := p.toks[i]
	s := p.src[t.off+1 : t.end]
	if t.quoted {
		return p.unquote(i, s)
	}
	return s
}

// str consumes a string token and returns its value.
func (p *parser) str(what string) string {
	if p.tok().kind != tkString {
		p.errf("expected %s (a quoted string), found %s", what, p.describe())
	}
	s := p.unquote(p.pos, p.text(p.pos))
	p.pos++
	return s
}

// bareName consumes a name written without sigil (a block label or a struct
// field): a word of name characters or a quoted string.
func (p *parser) bareName(what string) string {
	switch p.tok().kind {
	case tkString:
		return p.str(what)
	case tkWord:
		s := p.text(p.pos)
		for i := 0; i < len(s); i++ {
			if !isNameChar(s[i]) {
				p.errf("invalid %s %q (quote names containing %q)", what, s, s[i])
			}
		}
		p.pos++
		return s
	}
	p.errf("expected %s, found %s", what, p.describe())
	return ""
}

// intTok consumes a decimal integer word within [lo, hi].
func (p *parser) intTok(what string, lo, hi int64) int64 {
	i := p.pos
	s := p.word(what)
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < lo || v > hi {
		p.errTok(i, "expected %s (an integer in [%d, %d]), found '%s'", what, lo, hi, s)
	}
	return v
}

// ---- module structure ----

type funcItem struct {
	header int  // token index of define/declare
	define bool // a definition (has a body)
	body   int  // token index of '{', or -1 if not found
	lines  int  // statements in the body (to size maps)
	f      *Function
}

func (p *parser) parseModule() {
	p.m = &Module{}
	p.typeCache = map[typeKey]*Type{}
	p.structDefs = map[string]int{}
	p.structs = map[string]*Type{}
	p.resolving = map[string]bool{}
	p.globals = map[string]*Global{}
	p.funcs = map[string]*Function{}

	// Pass one: find the items.
	p.skipNewlines()
	if p.acceptWord("module") {
		p.m.Name = p.str("module name")
		p.expectEOL()
	}
	var typeLines, globalLines []int
	var funcs []*funcItem
	// A structural error in pass one stops the scan (like a lexical error):
	// pass two then parses what came before it, so errors are reported in
	// file order.
	stop := func(format string, args ...any) {
		p.lexErr = &lexError{off: int(p.tok().off), msg: fmt.Sprintf(format, args...)}
	}
	for {
		p.skipNewlines()
		t := p.tok()
		switch {
		case t.kind == tkEOF, t.kind == tkError:
			goto pass2
		case p.isWord("type"):
			p.next()
			if p.tok().kind != tkLocal {
				stop("expected a struct name (%%Name) after 'type', found %s", p.describe())
				goto pass2
			}
			name := p.symName(p.pos)
			if _, dup := p.structDefs[name]; dup {
				stop("redefinition of type %%%s", quoteName(name))
				goto pass2
			}
			typeLines = append(typeLines, p.pos-1)
			p.structDefs[name] = p.pos - 1
			p.skipLine()
		case t.kind == tkGlobal:
			globalLines = append(globalLines, p.pos)
			p.skipLine()
		case p.isWord("define"), p.isWord("declare"):
			it := &funcItem{header: p.pos, define: p.isWord("define"), body: -1}
			funcs = append(funcs, it)
			if !it.define {
				p.skipLine()
			} else if !p.skipToBody(it) {
				goto pass2 // the header is reported in pass two
			}
		case p.isWord("module"):
			stop("the module line must come first")
			goto pass2
		default:
			stop("expected 'type', 'define', 'declare' or a global (@name = global ...), found %s", p.describe())
			goto pass2
		}
	}
pass2:
	for _, i := range typeLines {
		p.resolveStruct(p.symName(i + 1))
	}
	for _, i := range typeLines {
		p.m.Structs = append(p.m.Structs, p.structs[p.symName(i+1)])
	}
	for _, i := range globalLines {
		p.pos = i
		p.parseGlobal()
	}
	for _, it := range funcs {
		p.pos = it.header
		it.f = p.parseFuncHeader(it.define)
	}
	for _, it := range funcs {
		if it.body >= 0 {
			p.pos = it.body
			p.parseBody(it.f, it.lines)
		}
	}
	if p.lexErr != nil {
		p.errAt(p.lexErr.off, "%s", p.lexErr.msg)
	}
}

// undefined reports a use of an undefined name, unless the input has a
// lexical error: pass one stopped there, so the name may be defined after
// it, and the lexical error is the one to report.
func (p *parser) undefined(tok int, format string, args ...any) {
	if p.lexErr != nil {
		p.errAt(p.lexErr.off, "%s", p.lexErr.msg)
	}
	p.errTok(tok, format, args...)
}

// skipToBody records where a define's body starts and skips to its end,
// counting braces (constants in the body may contain braces). It returns
// false if the header line ends without '{'.
func (p *parser) skipToBody(it *funcItem) bool {
	for !p.isPunct('{') {
		switch p.tok().kind {
		case tkEOF, tkError, tkNewline:
			return false
		}
		p.next()
	}
	it.body = p.pos
	depth := 0
	for {
		switch {
		case p.tok().kind == tkEOF || p.tok().kind == tkError:
			return true // pass two reports the unclosed body
		case p.isPunct('{'):
			depth++
		case p.isPunct('}'):
			depth--
			if depth == 0 {
				for i := it.body; i < p.pos; i++ {
					if p.toks[i].kind == tkNewline {
						it.lines++
					}
				}
				p.next()
				return true
			}
		}
		p.next()
	}
}

// ---- types ----

func (p *parser) derived(k typeKey) *Type {
	if t, ok := p.typeCache[k]; ok {
		return t
	}
	var t *Type
	switch k.kind {
	case KVector:
		t = Vec(k.elem, k.n)
	case KMatrix:
		t = Mat(k.elem, k.n, k.c)
	case KArray:
		t = Array(k.elem, k.n)
	case KPointer:
		t = Ptr(k.space, k.elem)
	}
	p.typeCache[k] = t
	return t
}

// parseType reads a type (void included; callers reject it where needed).
// maxNesting bounds how deeply types and constants may nest: the parser
// recurses once per level, and a 4 MiB line of "[1 x [1 x ..." must end
// in an error, not a stack overflow or quadratic work.
const maxNesting = 256

// nest enters one level of nesting (the caller defers p.depth--).
func (p *parser) nest(what string) {
	if p.depth++; p.depth > maxNesting {
		p.errf("%s nested too deeply (more than %d levels)", what, maxNesting)
	}
}

func (p *parser) parseType() *Type {
	p.nest("type")
	defer func() { p.depth-- }()
	start := p.pos
	t := p.tok()
	switch t.kind {
	case tkWord:
		s := p.text(p.pos)
		p.next()
		if st, ok := ParseScalarType(s); ok {
			return st
		}
		switch s {
		case "void":
			return Void
		case "ptr":
			p.expectPunct('<')
			sp := p.pos
			space, ok := ParseAddrSpace(p.word("an address space"))
			if !ok {
				p.errTok(sp, "unknown address space '%s' (want function, private, uniform, groupshared, storage, input or output)", p.text(sp))
			}
			p.expectPunct(',')
			elem := p.parseValueType("pointee")
			p.expectPunct('>')
			return p.derived(typeKey{kind: KPointer, elem: elem, space: space})
		}
		p.errTok(start, "unknown type '%s'", s)
	case tkLocal:
		name := p.symName(p.pos)
		p.next()
		if st, ok := p.structs[name]; ok {
			return st
		}
		if _, ok := p.structDefs[name]; ok {
			return p.resolveStruct(name)
		}
		p.undefined(start, "undefined type %%%s", quoteName(name))
	case tkPunct:
		switch p.src[t.off] {
		case '<':
			p.next()
			n := int(p.intTok("a vector length", 1, math.MaxInt32))
			p.expectWord("x")
			if p.tok().kind == tkWord && p.text(p.pos) != "x" && isDigits(p.text(p.pos)) {
				cols := int(p.intTok("a matrix column count", 1, math.MaxInt32))
				p.expectWord("x")
				elem := p.parseScalarType("matrix element")
				p.expectPunct('>')
				return p.derived(typeKey{kind: KMatrix, elem: elem, n: n, c: cols})
			}
			elem := p.parseScalarType("vector element")
			p.expectPunct('>')
			if n < 2 {
				p.errTok(start, "a vector needs at least 2 components")
			}
			return p.derived(typeKey{kind: KVector, elem: elem, n: n})
		case '[':
			p.next()
			n := -1
			if !p.acceptPunct('?') {
				n = int(p.intTok("an array length", 0, math.MaxInt32))
			}
			p.expectWord("x")
			elem := p.parseValueType("array element")
			p.expectPunct(']')
			return p.derived(typeKey{kind: KArray, elem: elem, n: n})
		}
	}
	p.errf("expected a type, found %s", p.describe())
	return nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// parseValueType reads a non-void type.
func (p *parser) parseValueType(what string) *Type {
	i := p.pos
	t := p.parseType()
	if t == Void {
		p.errTok(i, "%s type cannot be void", what)
	}
	return t
}

func (p *parser) parseScalarType(what string) *Type {
	i := p.pos
	t := p.parseType()
	if !t.IsScalar() {
		p.errTok(i, "%s type must be a scalar (bool, an integer or a float), not %s", what, t)
	}
	return t
}

// resolveStruct builds struct name from its "type" line, resolving the
// structs its fields use first (definitions may come in any order).
func (p *parser) resolveStruct(name string) *Type {
	if t, ok := p.structs[name]; ok {
		return t
	}
	line := p.structDefs[name]
	if p.resolving[name] {
		p.errTok(line+1, "type %%%s contains itself", quoteName(name))
	}
	p.resolving[name] = true
	save := p.pos
	p.pos = line + 2
	p.expectPunct('=')
	p.expectPunct('{')
	var fields []Field
	seen := map[string]bool{}
	if !p.acceptPunct('}') {
		for {
			ft := p.parseValueType("field")
			fi := p.pos
			fn := p.bareName("field name")
			if seen[fn] {
				p.errTok(fi, "duplicate field name %s in type %%%s", quoteName(fn), quoteName(name))
			}
			seen[fn] = true
			f := Field{Name: fn, Type: ft}
			if p.acceptWord("offset") {
				f.Placed = true
				f.Offset = int(p.intTok("a byte offset", 0, math.MaxInt32))
				if p.acceptWord("regshift") {
					f.RegShift = int(p.intTok("a register shift", -1<<20, 1<<20))
				}
			}
			fields = append(fields, f)
			if p.acceptPunct('}') {
				break
			}
			p.expectPunct(',')
		}
	}
	p.expectEOL()
	p.pos = save
	delete(p.resolving, name)
	t := Struct(name, fields)
	p.structs[name] = t
	return t
}

// ---- constants ----

// parseConst reads a literal of type t (the text does not repeat the type).
func (p *parser) parseConst(t *Type) *Const {
	p.nest("constant")
	defer func() { p.depth-- }()
	start := p.pos
	if p.acceptWord("zero") {
		if t == Void {
			p.errTok(start, "void has no values")
		}
		return ConstZero(t)
	}
	if p.acceptWord("undef") {
		if t == Void {
			p.errTok(start, "void has no values")
		}
		return ConstUndef(t)
	}
	switch t.Kind {
	case KBool:
		switch p.word("true or false") {
		case "true":
			return ConstBool(Bool, true)
		case "false":
			return ConstBool(Bool, false)
		}
		p.errTok(start, "expected true or false, found '%s'", p.text(start))
	case KInt, KUint:
		s := p.word("an integer constant")
		if t.Kind == KUint {
			v, err := strconv.ParseUint(s, 10, t.Bits)
			if err != nil {
				p.errTok(start, "invalid %s constant '%s' (want a decimal integer in [0, %d])", t, s, uint64(1)<<t.Bits-1)
			}
			return ConstInt(t, int64(v))
		}
		v, err := strconv.ParseInt(s, 10, t.Bits)
		if err != nil {
			p.errTok(start, "invalid %s constant '%s' (want a decimal integer in [%d, %d])", t, s, int64(-1)<<(t.Bits-1), int64(1)<<(t.Bits-1)-1)
		}
		return ConstInt(t, v)
	case KFloat:
		s := p.word("a float constant")
		bits, ok := parseFloatBits(t, s)
		if !ok {
			if t.Bits == 16 {
				p.errTok(start, "invalid %s constant '%s' (%s constants are bit patterns: 0x and 4 hex digits)", t, s, t)
			}
			p.errTok(start, "invalid %s constant '%s' (want a decimal such as 1.5 or a bit pattern such as 0x7FC00000)", t, s)
		}
		return ConstFloatBits(t, bits)
	case KVector, KMatrix, KArray, KStruct:
		open, close := byte('<'), byte('>')
		switch t.Kind {
		case KArray:
			open, close = '[', ']'
			if t.Len < 0 {
				p.errf("a runtime-sized array has no constants other than zero and undef")
			}
		case KStruct:
			open, close = '{', '}'
		}
		p.expectPunct(open)
		n := t.NumElems()
		elems := make([]*Const, 0, min(n, 64))
		for i := 0; ; i++ {
			if p.acceptPunct(close) {
				if i != n {
					p.errTok(p.pos-1, "%s constant needs %d elements, found %d", t, n, i)
				}
				break
			}
			if i > 0 {
				p.expectPunct(',')
			}
			if i >= n {
				p.errf("too many elements for a %s constant (it has %d)", t, n)
			}
			elems = append(elems, p.parseConst(t.ElemType(i)))
		}
		return ConstAggregate(t, elems)
	case KPointer:
		p.errf("a pointer constant must be zero or undef")
	}
	p.errf("expected a constant of type %s, found %s", t, p.describe())
	return nil
}

// parseFloatBits reads the float spellings FormatF32 and formatFloatBits
// write: a 0x bit pattern of at most the type's width, or (f32 and f64
// only) a decimal with optional '.' and exponent. Nothing else (no inf/nan
// words, no hex floats) is accepted.
func parseFloatBits(t *Type, s string) (uint64, bool) {
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		if len(s)-2 > t.Bits/4 {
			return 0, false
		}
		v, err := strconv.ParseUint(s[2:], 16, t.Bits)
		return v, err == nil
	}
	if t.Bits != 32 && t.Bits != 64 {
		return 0, false
	}
	hasDigit := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			hasDigit = true
		case c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-':
		default:
			return 0, false
		}
	}
	if !hasDigit {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, t.Bits)
	if err != nil {
		return 0, false
	}
	if t.Bits == 32 {
		return uint64(math.Float32bits(float32(f))), true
	}
	return math.Float64bits(f), true
}

// ---- globals ----

func (p *parser) parseGlobal() {
	nameTok := p.pos
	name := p.symName(p.pos)
	p.next()
	if _, dup := p.globals[name]; dup {
		p.errTok(nameTok, "redefinition of global @%s", quoteName(name))
	}
	p.expectPunct('=')
	p.expectWord("global")
	sp := p.pos
	space, ok := ParseAddrSpace(p.word("an address space"))
	if !ok {
		p.errTok(sp, "unknown address space '%s'", p.text(sp))
	}
	vt := p.parseValueType("global value")
	g := NewGlobal(name, space, vt)
	if p.where != nil {
		p.where.globals[g] = p.toks[nameTok].off
	}
	if p.acceptPunct('=') {
		g.Init = p.parseConst(vt)
	}
	seen := map[string]bool{}
	for !p.atEOL() {
		at := p.pos
		if p.acceptPunct('!') {
			g.Loc = p.parseLocRest(at)
			continue
		}
		attr := p.word("a global attribute (semantic, binding, vk_binding, push_constant, spec_id, location, array, readonly, flat, kind) or end of line")
		if seen[attr] {
			p.errTok(at, "duplicate attribute '%s'", attr)
		}
		seen[attr] = true
		switch attr {
		case "semantic":
			g.Semantic = p.str("a semantic")
		case "binding":
			g.Set = int(p.intTok("a descriptor set", -1, math.MaxInt32))
			p.expectPunct(',')
			g.Binding = int(p.intTok("a binding", -1, math.MaxInt32))
		case "vk_binding":
			g.VkSet = int(p.intTok("a descriptor set", 0, math.MaxInt32))
			p.expectPunct(',')
			g.VkBinding = int(p.intTok("a binding", 0, math.MaxInt32))
		case "push_constant":
			g.PushConstant = true
		case "location":
			g.Location = int(p.intTok("a location", 0, math.MaxInt32))
		case "spec_id":
			g.SpecID = int(p.intTok("a specialization constant id", 0, math.MaxInt32))
		case "array":
			g.Array = p.str("a resource array name")
			g.ArrayIndex = int(p.intTok("an element index", 0, math.MaxInt32))
			if !p.acceptWord("of") {
				p.errf("expected 'of' after the element index, found %s", p.describe())
			}
			if p.acceptPunct('?') {
				g.ArrayLen = UnboundedArray
			} else {
				g.ArrayLen = int(p.intTok("an array length or ?", 1, math.MaxInt32))
			}
		case "readonly":
			g.ReadOnly = true
		case "flat":
			g.Flat = true
		case "kind":
			g.Kind = p.str("a resource kind")
		default:
			p.errTok(at, "unknown global attribute '%s'", attr)
		}
	}
	p.expectEOL()
	p.globals[name] = g
	p.m.Globals = append(p.m.Globals, g)
}

// parseLocRest reads "loc L:C" after a '!' at token bang.
func (p *parser) parseLocRest(bang int) Loc {
	if !p.acceptWord("loc") {
		p.errTok(bang, "expected '!loc'")
	}
	l := p.intTok("a line number", 0, math.MaxInt32)
	p.expectPunct(':')
	c := p.intTok("a column number", 0, math.MaxInt32)
	return Loc{Line: int32(l), Col: int32(c)}
}

// ---- functions ----

func (p *parser) parseFuncHeader(isDef bool) *Function {
	p.next() // define / declare
	ret := p.parseType()
	if p.tok().kind != tkGlobal {
		p.errf("expected a function name (@name), found %s", p.describe())
	}
	nameTok := p.pos
	name := p.symName(p.pos)
	p.next()
	if _, dup := p.funcs[name]; dup {
		p.errTok(nameTok, "redefinition of function @%s", quoteName(name))
	}
	f := &Function{name: name, Ret: ret, Module: p.m, names: map[string]int{}}
	if p.where != nil {
		p.where.funcs[f] = p.toks[nameTok].off
	}
	p.expectPunct('(')
	if !p.acceptPunct(')') {
		for {
			pt := p.parseValueType("parameter")
			uniform := p.acceptWord("uniform")
			if p.tok().kind != tkLocal {
				p.errf("expected a parameter name (%%name), found %s", p.describe())
			}
			pn := p.symName(p.pos)
			if !f.ReserveName(pn) {
				p.errf("duplicate parameter name %%%s", quoteName(pn))
			}
			p.next()
			f.Params = append(f.Params, &Param{name: pn, typ: pt, Uniform: uniform, Func: f, Index: len(f.Params)})
			if p.acceptPunct(')') {
				break
			}
			p.expectPunct(',')
		}
	}
	if p.tok().kind == tkWord {
		st := p.pos
		stage, ok := ParseStage(p.text(st))
		if !ok {
			p.errf("expected a shader stage (compute, pixel, vertex) or '{', found %s", p.describe())
		}
		p.next()
		e := &EntryPoint{Stage: stage}
		if stage == StageCompute {
			p.expectWord("numthreads")
			p.expectPunct('(')
			for i := range e.NumThreads {
				if i > 0 {
					p.expectPunct(',')
				}
				e.NumThreads[i] = int(p.intTok("a thread count", 0, math.MaxInt32))
			}
			p.expectPunct(')')
		}
		if p.acceptWord("wavesize") {
			p.expectPunct('(')
			e.WaveSize = int(p.intTok("a wave size", 4, 128))
			p.expectPunct(')')
		}
		if p.acceptWord("rootsignature") {
			e.RootSignature = p.str("a root signature")
		}
		f.Entry = e
	}
	if isDef {
		if !p.isPunct('{') {
			p.errf("expected '{', found %s", p.describe())
		}
	} else {
		p.expectEOL()
	}
	p.funcs[name] = f
	p.m.Funcs = append(p.m.Funcs, f)
	return f
}

// parseBody reads "{ ... }" into f.
func (p *parser) parseBody(f *Function, lines int) {
	p.f = f
	p.vals = make(map[string]Value, lines+len(f.Params))
	names := make(map[string]int, lines+len(f.Params)) // sized once: no regrowth
	for k, v := range f.names {
		names[k] = v
	}
	f.names = names
	p.blocks = map[string]*Block{}
	p.blockRef = map[*Block]int{}
	p.blockDef = map[*Block]bool{}
	p.fwdPending = 0
	for _, a := range f.Params {
		p.vals[a.name] = a
	}
	open := p.pos
	p.expectPunct('{')
	p.expectEOL()
	var cur *Block
	var merge *Instr // pending selection_merge / loop_merge
	mergeTok := 0
	for {
		p.skipNewlines()
		t := p.tok()
		if t.kind == tkEOF || t.kind == tkError {
			p.errTok(open, "function body is not closed (missing '}')")
		}
		if p.isPunct('}') {
			if merge != nil {
				p.errTok(mergeTok, "merge annotation must be followed by a terminator")
			}
			p.next()
			p.expectEOL()
			break
		}
		// A label: name ':'
		if (t.kind == tkWord || t.kind == tkString) && p.peekKind(1) == tkPunct && p.src[p.toks[p.pos+1].off] == ':' {
			if merge != nil {
				p.errTok(mergeTok, "merge annotation must be followed by a terminator")
			}
			lt := p.pos
			name := p.bareName("block label")
			b := p.blockNamed(name, lt)
			if p.blockDef[b] {
				p.errTok(lt, "redefinition of block %%%s", quoteName(name))
			}
			if !f.ReserveName(name) {
				p.errTok(lt, "name %%%s is already used in function @%s", quoteName(name), quoteName(f.name))
			}
			p.blockDef[b] = true
			if p.where != nil {
				p.where.blocks[b] = p.toks[lt].off
			}
			delete(p.blockRef, b)
			b.Index = len(f.Blocks)
			f.Blocks = append(f.Blocks, b)
			cur = b
			p.next() // ':'
			p.expectEOL()
			continue
		}
		if cur == nil {
			p.errf("expected a block label (name:) before the first instruction")
		}
		if p.isWord("selection_merge") || p.isWord("loop_merge") {
			if merge != nil {
				p.errTok(mergeTok, "merge annotation must be followed by a terminator")
			}
			mergeTok = p.pos
			merge = &Instr{}
			if p.acceptWord("selection_merge") {
				merge.SetSelectionMerge(p.blockRef1())
			} else {
				p.next()
				m := p.blockRef1()
				p.expectPunct(',')
				merge.SetLoopMerge(m, p.blockRef1())
			}
			p.expectEOL()
			continue
		}
		instTok := p.pos
		in := p.parseInstr()
		if merge != nil {
			if !in.IsTerminator() {
				p.errTok(instTok, "a merge annotation must be followed by a terminator, not %s", in.Op)
			}
			in.MergeKind, in.Merge, in.Continue = merge.MergeKind, merge.Merge, merge.Continue
			merge = nil
		}
		in.Block = cur
		cur.Instrs = append(cur.Instrs, in)
		if p.where != nil {
			p.where.instrs[in] = p.toks[instTok].off
		}
	}
	if len(f.Blocks) == 0 {
		p.errTok(open, "function @%s has a body without blocks", quoteName(f.name))
	}
	// Undefined blocks, reported at their first use in text order.
	first := -1
	for _, i := range p.blockRef {
		if first < 0 || i < first {
			first = i
		}
	}
	if first >= 0 {
		p.errTok(first, "use of undefined block %%%s", quoteName(p.symName(first)))
	}
	if p.fwdPending > 0 {
		p.resolveForward()
	}
	p.f = nil
}

// blockNamed returns the block called name, creating it (not yet placed)
// on first reference.
func (p *parser) blockNamed(name string, tok int) *Block {
	if b, ok := p.blocks[name]; ok {
		return b
	}
	b := &Block{name: name, Func: p.f}
	p.blocks[name] = b
	p.blockRef[b] = tok
	return b
}

// blockRef1 consumes a %block reference.
func (p *parser) blockRef1() *Block {
	if p.tok().kind != tkLocal {
		p.errf("expected a block (%%name), found %s", p.describe())
	}
	b := p.blockNamed(p.symName(p.pos), p.pos)
	p.next()
	return b
}

// resolveForward replaces every placeholder operand by its definition.
func (p *parser) resolveForward() {
	type bad struct {
		tok int
		msg string
	}
	var first *bad
	report := func(tok int, msg string) {
		if first == nil || tok < first.tok {
			first = &bad{tok, msg}
		}
	}
	for _, b := range p.f.Blocks {
		for _, in := range b.Instrs {
			for i, a := range in.Args {
				r, ok := a.(*fwdRef)
				if !ok {
					continue
				}
				v, ok := p.vals[r.name]
				if !ok {
					if _, isBlock := p.blocks[r.name]; isBlock {
						report(r.tok, fmt.Sprintf("%%%s is a block, not a value", quoteName(r.name)))
					} else {
						report(r.tok, fmt.Sprintf("use of undefined value %%%s", quoteName(r.name)))
					}
					continue
				}
				if r.spelled && v.Type() != r.typ {
					report(r.tok, fmt.Sprintf("%%%s is defined with type %s, not %s", quoteName(r.name), v.Type(), r.typ))
					continue
				}
				in.Args[i] = v
			}
		}
	}
	if first != nil {
		p.errTok(first.tok, "%s", first.msg)
	}
}

// ---- operands ----

// parseValue reads an operand of type t: %local, @global or a literal.
// spelled says the text wrote t just before (so it must match).
func (p *parser) parseValue(t *Type, spelled bool) Value {
	i := p.pos
	switch p.tok().kind {
	case tkLocal:
		name := p.symName(i)
		p.next()
		if v, ok := p.vals[name]; ok {
			if spelled && v.Type() != t {
				p.errTok(i, "%%%s has type %s, not %s", quoteName(name), v.Type(), t)
			}
			return v
		}
		p.fwdPending++
		return &fwdRef{name: name, typ: t, tok: i, spelled: spelled}
	case tkGlobal:
		name := p.symName(i)
		p.next()
		g, ok := p.globals[name]
		if !ok {
			if _, isFunc := p.funcs[name]; isFunc {
				p.errTok(i, "function @%s cannot be used as a value", quoteName(name))
			}
			p.undefined(i, "use of undefined global @%s", quoteName(name))
		}
		if spelled && g.Type() != t {
			p.errTok(i, "@%s has type %s, not %s", quoteName(name), g.Type(), t)
		}
		return g
	}
	if t == Void {
		p.errTok(i, "void operand")
	}
	return p.parseConst(t)
}

// typedValue reads "T v".
func (p *parser) typedValue() Value {
	t := p.parseValueType("operand")
	return p.parseValue(t, true)
}

// typedList reads "T v, T v, ..." up to (not including) the end of the
// statement or the given closing punctuation (0: end of line / !loc).
func (p *parser) typedList(close byte) []Value {
	var out []Value
	if close != 0 && p.isPunct(close) || close == 0 && (p.atEOL() || p.isPunct('!')) {
		return out
	}
	for {
		out = append(out, p.typedValue())
		if !p.acceptPunct(',') {
			return out
		}
	}
}

// ints reads a comma-separated list of integers (possibly empty before
// closing punctuation or the end of the statement).
func (p *parser) ints(close byte) []int {
	var out []int
	for {
		if close != 0 && p.isPunct(close) || close == 0 && (p.atEOL() || p.isPunct('!')) {
			if len(out) > 0 {
				p.errf("expected an index, found %s", p.describe())
			}
			return out
		}
		out = append(out, int(p.intTok("an index", math.MinInt32, math.MaxInt32)))
		if !p.acceptPunct(',') {
			return out
		}
	}
}

// ---- instructions ----

func (p *parser) parseInstr() *Instr {
	start := p.pos
	name, named := "", false
	if p.tok().kind == tkLocal && p.peekKind(1) == tkPunct && p.src[p.toks[p.pos+1].off] == '=' {
		name, named = p.symName(p.pos), true
		p.pos += 2
	}
	opTok := p.pos
	opName := p.word("an instruction")
	op, ok := OpByName[opName]
	if !ok || op == OpInvalid {
		p.errTok(opTok, "unknown instruction '%s'", opName)
	}
	in := &Instr{Op: op}
	info := op.Info()
	var rt *Type // the result type, when the text spells it
	switch info.Aux {
	case AuxCmpPred:
		pt := p.pos
		pred, ok := ParseCmpPred(op, p.word("a predicate"))
		if !ok {
			p.errTok(pt, "unknown %s predicate '%s'", op, p.text(pt))
		}
		in.Pred = pred
	case AuxAtomic:
		kt := p.pos
		kind, ok := ParseAtomicKind(p.word("an atomic operation"))
		if !ok {
			p.errTok(kt, "unknown atomic operation '%s'", p.text(kt))
		}
		in.Atomic = kind
	}
	switch info.Syntax {
	case SyntaxOperands:
		p.operands(in, &info, opTok)
	case SyntaxCast:
		a := p.typedValue()
		p.expectWord("to")
		rt = p.parseValueType("result")
		in.Args = []Value{a}
	case SyntaxConstruct:
		rt = p.parseValueType("result")
		p.expectPunct('(')
		in.Args = p.typedList(')')
		p.expectPunct(')')
	case SyntaxCall:
		rt = p.parseType()
		if info.Aux == AuxCallee {
			if p.tok().kind != tkGlobal {
				p.errf("expected a function (@name), found %s", p.describe())
			}
			fn := p.symName(p.pos)
			callee, ok := p.funcs[fn]
			if !ok {
				p.undefined(p.pos, "call of undefined function @%s", quoteName(fn))
			}
			in.Callee = callee
			p.next()
		} else {
			it := p.pos
			iname := p.word("an intrinsic name")
			in.Intr = LookupIntrinsic(iname)
			if in.Intr == nil {
				p.errTok(it, "unknown intrinsic '%s'", iname)
			}
		}
		p.expectPunct('(')
		in.Args = p.typedList(')')
		p.expectPunct(')')
	case SyntaxAlloca:
		rt = p.derived(typeKey{kind: KPointer, elem: p.parseValueType("allocated"), space: SpaceFunction})
	case SyntaxPhi:
		rt = p.parseValueType("phi")
		for i := 0; !p.atEOL() && !p.isPunct('!'); i++ {
			if i > 0 {
				p.expectPunct(',')
			}
			p.expectPunct('[')
			v := p.parseValue(rt, false)
			p.expectPunct(',')
			b := p.blockRef1()
			p.expectPunct(']')
			in.Args = append(in.Args, v)
			in.PhiBlocks = append(in.PhiBlocks, b)
		}
	}
	if rt == nil {
		rt = p.resultType(in, opTok)
	}
	if p.acceptPunct('!') {
		in.Loc = p.parseLocRest(p.pos - 1)
	}
	p.expectEOL()

	in.typ = rt
	if rt != Void {
		if !named {
			p.errTok(opTok, "%s produces a %s value and needs a result name (%%name = %s ...)", op, rt, op)
		}
		if !p.f.ReserveName(name) {
			p.errTok(start, "name %%%s is already used in function @%s", quoteName(name), quoteName(p.f.name))
		}
		in.name = name
		p.vals[name] = in
	} else if named {
		p.errTok(start, "%s produces no value and cannot be named", op)
	}
	return in
}

// operands reads an operand list (SyntaxOperands) and what follows it. An
// op with a bare last operand or with a trailer (mask, index path, branch
// targets) takes exactly its operand count; the others read a typed list
// to the end of the line and check the count.
func (p *parser) operands(in *Instr, info *OpInfo, opTok int) {
	op := in.Op
	if info.LastBare || (info.FixedArity() && info.Aux != AuxNone) {
		if info.MinArgs > 0 {
			in.Args = make([]Value, 0, info.MinArgs)
		}
		for i := 0; i < info.MinArgs; i++ {
			if i > 0 {
				p.expectPunct(',')
			}
			if info.LastBare && i > 0 && i == info.MinArgs-1 {
				in.Args = append(in.Args, p.parseValue(in.Args[i-1].Type(), false))
			} else {
				in.Args = append(in.Args, p.typedValue())
			}
		}
	} else if info.MaxArgs != 0 {
		in.Args = p.typedList(0)
		n := len(in.Args)
		switch {
		case n >= info.MinArgs && (info.MaxArgs == Variadic || n <= info.MaxArgs):
		case info.FixedArity():
			p.errTok(opTok, "%s takes %s, found %d", op, countN(info.MinArgs, "operand"), n)
		case info.MaxArgs == Variadic:
			p.errTok(opTok, "%s takes at least %s, found %d", op, countN(info.MinArgs, "operand"), n)
		default:
			p.errTok(opTok, "%s takes %d or %d operands, found %d", op, info.MinArgs, info.MaxArgs, n)
		}
	}
	switch info.Aux {
	case AuxMask:
		p.expectPunct(',')
		p.expectPunct('[')
		in.Idx = p.ints(']')
		p.expectPunct(']')
	case AuxPath:
		p.expectPunct(',')
		in.Idx = p.ints(0)
	case AuxSuccs:
		in.Succs = make([]*Block, 0, info.NumSuccs)
		for i := 0; i < info.NumSuccs; i++ {
			if i > 0 || len(in.Args) > 0 {
				p.expectPunct(',')
			}
			in.Succs = append(in.Succs, p.blockRef1())
		}
	case AuxCases:
		for p.acceptPunct('[') {
			var c SwitchCase
			gt := p.pos
			if p.acceptWord("case") {
				for {
					c.Values = append(c.Values, p.intTok("a case value", math.MinInt64, math.MaxInt64))
					if !p.acceptPunct(',') {
						break
					}
					if p.acceptWord("default") {
						c.Default = true
						break
					}
				}
			} else if p.acceptWord("default") {
				c.Default = true
			} else {
				p.errTok(gt, "expected 'case' or 'default', found %s", p.describe())
			}
			p.expectPunct(':')
			c.Target = p.blockRef1()
			p.expectPunct(']')
			in.Cases = append(in.Cases, c)
		}
	}
}

// resultType derives the result type of an instruction whose text does not
// spell it: by the op's result rule (ResultTypeOf), or for the derived
// rules from the operands and indices. Operands that do not fit the rule
// are an error here, since the type of the result cannot be known.
func (p *parser) resultType(in *Instr, opTok int) *Type {
	op, a := in.Op, in.Args
	if rt := ResultTypeOf(op, a); rt != nil {
		return rt
	}
	switch op.Info().Result {
	case ResultElem:
		p.errTok(opTok, "%s needs a vector operand, not %s", op, a[0].Type())
	case ResultPointee:
		p.errTok(opTok, "%s needs a pointer operand, not %s", op, a[0].Type())
	}
	switch op {
	case OpShuffle:
		if a[0].Type().Kind != KVector {
			p.errTok(opTok, "shuffle needs vector operands, not %s", a[0].Type())
		}
		if len(in.Idx) == 0 {
			p.errTok(opTok, "shuffle needs a non-empty mask")
		}
		if len(in.Idx) == 1 {
			return a[0].Type().Elem // rejected by the verifier, with a better message
		}
		return p.derived(typeKey{kind: KVector, elem: a[0].Type().Elem, n: len(in.Idx)})
	case OpExtractValue:
		rt := a[0].Type().IndexPath(in.Idx)
		if rt == nil {
			p.errTok(opTok, "invalid extractvalue path %v into %s", in.Idx, a[0].Type())
		}
		return rt
	case OpAccess:
		rt := AccessType(a[0].Type(), a[1:])
		if rt == nil {
			p.errTok(opTok, "invalid access chain into %s (struct indices must be integer constants in range)", a[0].Type())
		}
		return rt
	}
	p.errTok(opTok, "cannot derive the result type of %s", op)
	return nil
}
