package hlsl

import (
	"strings"
	"unicode/utf8"
)

// lexer splits one source file into preprocessing tokens. It removes
// comments and backslash-newline splices while keeping every token's
// physical line and column, and applies #line remapping to positions.
type lexer struct {
	src  []byte
	file string // physical file name
	rep  *reporter

	off, line, col int
	phys           *physLoc // shared by the positions of the current remapped line
	atBOL          bool     // no token yet on the current line
	sawSpace       bool
	quiet          bool // inside a skipped conditional block: no literal errors

	// #line state: presumed = physical + lineDelta, in presumedFile.
	lineDelta    int
	presumedFile string
	remapped     bool
}

func newLexer(file string, src []byte, rep *reporter) *lexer {
	return &lexer{src: src, file: file, rep: rep, line: 1, col: 1, atBOL: true, presumedFile: file}
}

// lexState is a snapshot of the cursor for backtracking.
type lexState struct{ off, line, col int }

func (l *lexer) save() lexState     { return lexState{l.off, l.line, l.col} }
func (l *lexer) restore(s lexState) { l.off, l.line, l.col = s.off, s.line, s.col }

// skipSplices consumes backslash-newline pairs at the cursor.
func (l *lexer) skipSplices() {
	for l.off < len(l.src) && l.src[l.off] == '\\' {
		if l.off+1 < len(l.src) && l.src[l.off+1] == '\n' {
			l.off += 2
		} else if l.off+2 < len(l.src) && l.src[l.off+1] == '\r' && l.src[l.off+2] == '\n' {
			l.off += 3
		} else {
			return
		}
		l.line++
		l.col = 1
	}
}

// ch returns the current character, or -1 at end of input.
func (l *lexer) ch() int {
	l.skipSplices()
	if l.off >= len(l.src) {
		return -1
	}
	return int(l.src[l.off])
}

// advance consumes the current character.
func (l *lexer) advance() {
	l.skipSplices()
	if l.off >= len(l.src) {
		return
	}
	if l.src[l.off] == '\n' {
		l.line++
		l.col = 1
	} else {
		l.col++
	}
	l.off++
}

// peek returns the character after the current one.
func (l *lexer) peek() int {
	s := l.save()
	l.advance()
	c := l.ch()
	l.restore(s)
	return c
}

// pos returns the presumed position of the cursor.
func (l *lexer) pos() Pos {
	p := Pos{File: l.presumedFile, Line: l.line + l.lineDelta, Col: l.col}
	if l.remapped {
		if l.phys == nil || l.phys.line != l.line {
			l.phys = &physLoc{file: l.file, line: l.line}
		}
		p.phys = l.phys
	}
	return p
}

// setLine implements #line: the current physical line becomes line n of
// file (called after the directive's newline has been consumed).
func (l *lexer) setLine(n int, file string) {
	l.lineDelta = n - l.line
	if file != "" {
		l.presumedFile = file
	}
	l.remapped = true
}

func isIdentStart(c int) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isDigit(c int) bool { return c >= '0' && c <= '9' }

func isIdentChar(c int) bool { return isIdentStart(c) || isDigit(c) }

// puncts lists multi-character punctuators, longest first.
var puncts = []string{
	"<<=", ">>=", "...",
	"<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++", "--",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##", "::", "->",
}

// next returns the next token; tNewline ends each line and tEOF the file.
func (l *lexer) next() token {
	l.sawSpace = false
	for {
		c := l.ch()
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			l.advance()
			l.sawSpace = true
			continue
		case c == '/' && l.peek() == '/':
			for c := l.ch(); c != -1 && c != '\n'; c = l.ch() {
				l.advance()
			}
			l.sawSpace = true
			continue
		case c == '/' && l.peek() == '*':
			start := l.pos()
			l.advance()
			l.advance()
			closed := false
			for c := l.ch(); c != -1; c = l.ch() {
				if c == '*' && l.peek() == '/' {
					l.advance()
					l.advance()
					closed = true
					break
				}
				l.advance()
			}
			if !closed {
				l.rep.errorf(start, start.advance(2), "unterminated /* comment")
			}
			l.sawSpace = true
			continue
		}
		break
	}
	t := token{pos: l.pos(), space: l.sawSpace, bol: l.atBOL}
	c := l.ch()
	switch {
	case c == -1:
		t.kind = tEOF
		t.bol = true
		return t
	case c == '\n':
		l.advance()
		l.atBOL = true
		t.kind = tNewline
		t.text = "\n"
		return t
	}
	l.atBOL = false
	var b strings.Builder
	switch {
	case isIdentStart(c):
		t.kind = tIdent
		for isIdentChar(l.ch()) {
			b.WriteByte(byte(l.ch()))
			l.advance()
		}
	case isDigit(c) || (c == '.' && isDigit(l.peek())):
		t.kind = tNumber
		for {
			c := l.ch()
			if (c == 'e' || c == 'E' || c == 'p' || c == 'P') && (l.peek() == '+' || l.peek() == '-') {
				b.WriteByte(byte(c))
				l.advance()
				b.WriteByte(byte(l.ch()))
				l.advance()
				continue
			}
			if isIdentChar(c) || c == '.' {
				b.WriteByte(byte(c))
				l.advance()
				continue
			}
			break
		}
	case c == '"' || c == '\'':
		quote := c
		if c == '"' {
			t.kind = tString
		} else {
			t.kind = tChar
		}
		b.WriteByte(byte(c))
		l.advance()
		for {
			c := l.ch()
			if c == -1 || c == '\n' {
				if l.quiet {
					break
				}
				what := "'\"'"
				if quote == '\'' {
					what = "'''"
				}
				l.rep.errorf(t.pos, t.pos.advance(1), "missing terminating %s character", what)
				b.WriteByte(byte(quote))
				break
			}
			b.WriteByte(byte(c))
			l.advance()
			if c == quote {
				break
			}
			if c == '\\' && l.ch() != -1 && l.ch() != '\n' {
				b.WriteByte(byte(l.ch()))
				l.advance()
			}
		}
	default:
		for _, p := range puncts {
			if l.matchPunct(p) {
				t.kind = tPunct
				t.text = p
				return t
			}
		}
		if strings.IndexByte("+-*/%<>=!&|^~?:;,.()[]{}#", byte(c)) >= 0 {
			t.kind = tPunct
			b.WriteByte(byte(c))
			l.advance()
			break
		}
		// Not a token: pass one UTF-8 sequence on as an invalid token.
		t.kind = tInvalid
		_, n := utf8.DecodeRune(l.src[l.off:])
		if n < 1 {
			n = 1
		}
		for i := 0; i < n; i++ {
			b.WriteByte(byte(l.ch()))
			l.advance()
		}
	}
	t.text = b.String()
	return t
}

// matchPunct consumes p if the input continues with it (splices allowed).
func (l *lexer) matchPunct(p string) bool {
	s := l.save()
	for i := 0; i < len(p); i++ {
		if l.ch() != int(p[i]) {
			l.restore(s)
			return false
		}
		l.advance()
	}
	return true
}

// restOfLine returns the raw text up to (not including) the end of the
// current logical line, consuming it. Used by #error and #warning.
func (l *lexer) restOfLine() string {
	var b strings.Builder
	for c := l.ch(); c != -1 && c != '\n'; c = l.ch() {
		b.WriteByte(byte(c))
		l.advance()
	}
	return strings.TrimSpace(b.String())
}

// skipLine discards the rest of the current line, including the newline,
// without producing diagnostics for its contents except comments.
func (l *lexer) skipLine() {
	for {
		t := l.next()
		if t.kind == tNewline || t.kind == tEOF {
			return
		}
	}
}
