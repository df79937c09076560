package hlsl

import (
	"fmt"
)

// parser builds the AST from the preprocessed token stream. It is a
// recursive-descent parser that, like a C parser, tracks which names are
// types (typedefs and structs) to tell declarations from expressions.
// After a syntax error it resynchronizes at ';' or '}' and suppresses
// further syntax errors until then, so one mistake gives one error.
type parser struct {
	// The parser pulls tokens from the preprocessor as it needs them and
	// keeps only a window of them (toks[k] is token number base+k), so its
	// memory does not grow with the length of the file.
	src   *tokenSource
	toks  []token
	base  int
	i     int   // number of the current token
	last  token // the last consumed token (prevEnd)
	rep   *reporter
	types []map[string]bool // scopes of user type names
	// panicking is set after a syntax error until the parser resynchronizes.
	panicking bool
	// noGreater stops binary parsing at '>' inside template arguments.
	noGreater bool
	depth     int // nesting depth, bounded to keep the Go stack sane
	ops       int // chain operators in the current statement (see chainOp)
}

// maxNesting bounds syntactic nesting (parentheses, blocks, ...).
const maxNesting = 256

// maxExprOps bounds the operators of iteratively parsed chains (binary
// operators, commas, postfix [] . ++ --) in one statement or top-level
// declaration. The parser builds such a chain in a loop, but the tree it
// makes is as deep as the chain is long and every later walk (checking,
// constant folding, lowering) recurses once per level: without this bound a
// 2-million-term "1+1+...+1" exhausts the Go stack, a fatal error no recover
// catches. 16384 is far beyond hand-written or generated shaders.
const maxExprOps = 1 << 14

// chainOp counts one chain operator t; past maxExprOps it reports (once per
// statement) a located error and returns false, and the caller stops its
// chain so the statement is skipped.
func (p *parser) chainOp(t token) bool {
	p.ops++
	if p.ops <= maxExprOps {
		return true
	}
	if p.ops == maxExprOps+1 {
		p.panicking = false
		p.errorf(t.pos, t.end(), "expression too long: more than %d operators in one statement", maxExprOps)
	}
	p.panicking = true
	return false
}

func newParser(src *tokenSource, rep *reporter) *parser {
	return &parser{src: src, rep: rep, types: []map[string]bool{{}}}
}

// tokenSource feeds the parser: the preprocessor's tokens, at most
// maxTokens of them, then eof forever.
type tokenSource struct {
	pp    *preprocessor
	rep   *reporter
	eof   token // positioned at the end of the main file
	n     int
	ended bool
}

func (s *tokenSource) next() token {
	if s.ended {
		return s.eof
	}
	t := s.pp.next()
	if t.kind != tEOF && s.n == maxTokens {
		s.rep.errorf(t.pos, t.end(), "too many tokens: the program has more than %d after preprocessing", maxTokens)
		t.kind = tEOF
	}
	if t.kind == tEOF {
		s.ended = true
		return s.eof
	}
	s.n++
	return t
}

// maxTokens bounds the tokens of one program after preprocessing (includes
// and macro expansion can multiply the 4 MiB of a module), which bounds
// the frontend's work.
const maxTokens = 1 << 22

func (p *parser) tok() token { return p.peekN(0) }

// peekN returns the token n places after the current one, reading more
// from the source as needed (EOF past the end).
func (p *parser) peekN(n int) token {
	k := p.i - p.base + n
	for k >= len(p.toks) {
		t := p.src.next()
		if t.kind == tEOF {
			return t
		}
		p.toks = append(p.toks, t)
	}
	return p.toks[k]
}

func (p *parser) advance() token {
	t := p.tok()
	if t.kind == tEOF {
		return t
	}
	p.last = t
	p.i++
	// Drop the consumed tokens once they are most of the window.
	if used := p.i - p.base; used >= 1024 && used*2 >= len(p.toks) {
		n := copy(p.toks, p.toks[used:])
		clear(p.toks[n:])
		p.toks = p.toks[:n]
		p.base = p.i
	}
	return t
}

// setTok replaces the current token (splitting ">>" in template arguments).
func (p *parser) setTok(t token) {
	p.tok()
	p.toks[p.i-p.base] = t
}

// prevEnd is the end of the last consumed token.
func (p *parser) prevEnd() Pos {
	if p.i > 0 {
		return p.last.end()
	}
	return p.tok().pos
}

func (p *parser) at(punct string) bool { return p.tok().is(punct) }

func (p *parser) atIdent(name string) bool {
	t := p.tok()
	return t.kind == tIdent && t.text == name
}

func (p *parser) accept(punct string) bool {
	if p.at(punct) {
		p.advance()
		return true
	}
	return false
}

// errorf reports a syntax error unless the parser is already recovering.
func (p *parser) errorf(at, end Pos, format string, args ...any) {
	if p.panicking {
		return
	}
	p.panicking = true
	p.rep.errorf(at, end, format, args...)
}

// errorNotes reports a syntax error with notes.
func (p *parser) errorNotes(at, end Pos, notes []Diagnostic, format string, args ...any) {
	if p.panicking {
		return
	}
	p.panicking = true
	p.rep.add(Diagnostic{Severity: Error, Pos: at, End: end, Message: fmt.Sprintf(format, args...), Notes: notes})
}

// describe names a token for "expected X" messages.
// expect consumes punct or reports "expected 'punct'" (with what follows
// the message, e.g. " after expression").
func (p *parser) expect(punct, context string) bool {
	if p.accept(punct) {
		return true
	}
	// Report missing ';' at the end of the previous token, as clang does.
	at, end := p.tok().pos, p.tok().end()
	if punct == ";" || punct == ")" && p.tok().kind == tEOF {
		at = p.prevEnd()
		end = at
	}
	p.errorf(at, end, "expected '%s'%s", punct, context)
	if punct == ";" && (p.tok().bol || p.at("}")) {
		// The ';' is missing at the end of a line: carry on as if it
		// were there, so the next line parses normally.
		p.panicking = false
	}
	return false
}

// expectClose consumes a closing bracket, noting the opening one if absent.
func (p *parser) expectClose(closer string, open token) bool {
	if p.accept(closer) {
		return true
	}
	t := p.tok()
	p.errorNotes(t.pos, t.end(), []Diagnostic{note(open.pos, "to match this '%s'", open.text)}, "expected '%s'", closer)
	return false
}

func (p *parser) expectIdent(what string) (token, bool) {
	t := p.tok()
	if t.kind == tIdent && !isKeyword(t.text) {
		p.advance()
		return t, true
	}
	p.errorf(t.pos, t.end(), "expected %s", what)
	return t, false
}

// keywords that can never be identifiers.
var keywords = map[string]bool{
	"if": true, "else": true, "for": true, "while": true, "do": true, "switch": true, "case": true,
	"default": true, "break": true, "continue": true, "return": true, "discard": true, "struct": true,
	"typedef": true, "cbuffer": true, "tbuffer": true, "true": true, "false": true, "void": true,
	"class": true, "interface": true, "namespace": true, "template": true, "sizeof": true,
}

func isKeyword(s string) bool {
	if keywords[s] {
		return true
	}
	_, mod := modifierNames[s]
	return mod && !softModifiers[s]
}

// softModifiers are modifiers that may also be used as identifiers
// ("float4 precise;" is valid HLSL).
var softModifiers = map[string]bool{
	"precise": true, "sample": true, "linear": true, "centroid": true, "noperspective": true,
	"nointerpolation": true, "shared": true, "globallycoherent": true, "export": true,
	"volatile": true, "inline": true,
}

// skipTo consumes tokens until one of the stop punctuators at bracket
// depth 0 (not consuming it) and ends panic mode. '}' is never crossed.
func (p *parser) skipTo(stops ...string) {
	depth := 0
	for {
		t := p.tok()
		if t.kind == tEOF {
			break
		}
		if depth == 0 {
			for _, s := range stops {
				if t.is(s) {
					p.panicking = false
					return
				}
			}
		}
		switch {
		case t.is("(") || t.is("[") || t.is("{"):
			depth++
		case t.is(")") || t.is("]"):
			if depth > 0 {
				depth--
			}
		case t.is("}"):
			if depth == 0 {
				p.panicking = false
				return
			}
			depth--
			if depth == 0 && contains(stops, "}") {
				p.advance()
				p.panicking = false
				return
			}
		}
		p.advance()
	}
	p.panicking = false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// --- type-name scopes -------------------------------------------------------

func (p *parser) pushScope() { p.types = append(p.types, map[string]bool{}) }

func (p *parser) popScope() {
	if len(p.types) > 1 {
		p.types = p.types[:len(p.types)-1]
	}
}

func (p *parser) declareType(name string) { p.types[len(p.types)-1][name] = true }

// declareValue hides a user type name by a variable of the same name.
func (p *parser) declareValue(name string) {
	if p.isUserType(name) {
		p.types[len(p.types)-1][name] = false
	}
}

func (p *parser) isUserType(name string) bool {
	for i := len(p.types) - 1; i >= 0; i-- {
		if v, ok := p.types[i][name]; ok {
			return v
		}
	}
	return false
}

// isTypeName reports whether t names a type.
func (p *parser) isTypeName(t token) bool {
	if t.kind != tIdent {
		return false
	}
	if p.isUserType(t.text) {
		return true
	}
	for i := len(p.types) - 1; i >= 0; i-- {
		if v, ok := p.types[i][t.text]; ok && !v {
			return false // shadowed by a variable
		}
	}
	return isBuiltinTypeName(t.text) || t.text == "unsigned" || t.text == "signed"
}

// isModifierTok reports whether t is spelled like a modifier keyword.
func isModifierTok(t token) bool {
	if t.kind != tIdent {
		return false
	}
	_, ok := modifierNames[t.text]
	return ok
}

// isModifierAt reports whether the token at offset n is a modifier: soft
// modifiers count only when a type or another modifier follows.
func (p *parser) isModifierAt(n int) bool {
	t := p.peekN(n)
	if !isModifierTok(t) {
		return false
	}
	if !softModifiers[t.text] {
		return true
	}
	next := p.peekN(n + 1)
	if t.text == "precise" && next.kind == tIdent && !isKeyword(next.text) {
		// DXC reads 'precise' before an identifier as the modifier even
		// where a typedef named precise exists ("typedef float4 precise;
		// precise main()" is an error; precise-modifier.shader_test).
		return true
	}
	return next.kind == tIdent && (p.isTypeName(next) || isStructKeyword(next.text) || p.isModifierAt(n+1))
}

// isTypeStart reports whether the current token can start a type.
func (p *parser) isTypeStart() bool {
	t := p.tok()
	return p.isTypeName(t) || t.kind == tIdent && isStructKeyword(t.text) || p.isModifierAt(0) && t.text != "in" && t.text != "out" && t.text != "inout"
}

// ---------------------------------------------------------------------------
// Top level

// parseProgram parses a whole translation unit.
func (p *parser) parseProgram(file string) *Program {
	prog := &Program{File: file}
	for p.tok().kind != tEOF && !p.rep.stopped() {
		start := p.i
		p.ops = 0
		for _, d := range p.parseTopLevel() {
			if d != nil {
				prog.Decls = append(prog.Decls, d)
			}
		}
		if p.panicking {
			p.skipTo(";", "}")
			p.accept(";")
			p.accept("}")
			p.panicking = false
		}
		if p.i == start { // guarantee progress
			p.advance()
		}
	}
	return prog
}

// parseTopLevel parses one top-level declaration (a struct definition
// followed by declarators yields two declarations).
func (p *parser) parseTopLevel() []Decl {
	t := p.tok()
	switch {
	case t.kind == tPragma:
		p.advance()
		return []Decl{&PragmaDecl{span: span{t.pos, t.end()}, RowMajor: t.text == "row_major"}}
	case t.is(";"):
		p.advance()
		return nil
	case t.kind == tIdent && t.text == "typedef":
		var ds []Decl
		for _, td := range p.parseTypedef() {
			ds = append(ds, td)
		}
		return ds
	case t.kind == tIdent && (t.text == "cbuffer" || t.text == "tbuffer"):
		return []Decl{p.parseCBuffer()}
	case t.kind == tIdent && unsupportedTopLevel[t.text] != "":
		p.errorf(t.pos, t.end(), "%s", unsupportedTopLevel[t.text])
		p.skipTopLevelBlock()
		return nil
	case t.kind == tInvalid:
		p.errorf(t.pos, t.end(), "invalid character '%s' in source", t.text)
		p.advance()
		return nil
	}
	var attrs []*Attribute
	for p.at("[") {
		attrs = append(attrs, p.parseAttributes()...)
	}
	if t := p.tok(); len(attrs) > 0 && t.kind == tIdent && (t.text == "cbuffer" || t.text == "tbuffer") {
		d := p.parseCBuffer()
		if cb, ok := d.(*CBuffer); ok && cb != nil {
			cb.Attrs = attrs
			return []Decl{cb}
		}
		return nil
	}
	declStart := p.tok().pos
	mods := p.parseModifiers()
	if !p.isTypeStart() {
		t := p.tok()
		if t.kind == tIdent && !isKeyword(t.text) && (p.peekN(1).kind == tIdent || mods != 0 && p.peekN(1).is("(")) {
			p.errorf(t.pos, t.end(), "unknown type name '%s'", t.text)
		} else {
			p.errorf(t.pos, t.end(), "expected a declaration")
		}
		return nil
	}
	spec := p.parseTypeSpec()
	mods |= p.parseModifiers()
	var decls []Decl
	if spec.Struct != nil {
		decls = append(decls, spec.Struct)
		if p.at(";") {
			if spec.Struct.Name == "" {
				p.rep.errorf(spec.P, spec.E, "anonymous struct declaration declares nothing")
			}
			p.advance()
			return decls
		}
	}
	name, ok := p.expectIdent("identifier")
	if !ok {
		return decls
	}
	if p.at("::") && p.peekN(1).kind == tIdent {
		// T S::s = v;: the definition of a static data member
		// (struct_decl.go); T S::f(params) { … }: the out-of-line
		// definition of a member function (member_outofline.go).
		p.advance()
		m := p.advance()
		name.text += "::" + m.text
	}
	if p.at("(") {
		spec.Mods |= mods & (ModRowMajor | ModColumnMajor)
		f := p.parseFunction(attrs, mods, spec, name, declStart)
		return append(decls, f)
	}
	g := &VarGroup{span: span{declStart, declStart}}
	g.Vars = p.parseDeclarators(mods, spec, name, VarGlobal)
	for _, v := range g.Vars {
		v.Attrs = attrs // checked by checkDeclAttrs
	}
	g.E = p.prevEnd()
	p.expect(";", " after top level declarator")
	return append(decls, g)
}

// unsupportedTopLevel lists effect-framework and other constructs outside
// the subset, with the error to give.
var unsupportedTopLevel = map[string]string{
	"technique":   "effect techniques are not supported",
	"technique10": "effect techniques are not supported",
	"technique11": "effect techniques are not supported",
	"fxgroup":     "effect groups are not supported",
	"namespace":   "namespaces are not supported",
	"interface":   "interfaces are not supported",
	"template":    "templates are not supported",
}

// skipTopLevelBlock skips an unsupported construct up to its closing brace.
func (p *parser) skipTopLevelBlock() {
	for p.tok().kind != tEOF && !p.at("{") && !p.at(";") {
		p.advance()
	}
	if p.at("{") {
		depth := 0
		for p.tok().kind != tEOF {
			t := p.advance()
			if t.is("{") {
				depth++
			} else if t.is("}") {
				depth--
				if depth == 0 {
					break
				}
			}
		}
	}
	p.accept(";")
	p.panicking = false
}
