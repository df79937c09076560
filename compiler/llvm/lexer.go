// Package llvm is passlens's bridge to LLVM IR: Import reads textual LLVM
// IR as LLVM 22 tools print it for GPU targets into an ir.Module (what
// passlens IR cannot represent becomes opaque operations, opaque.go), and
// Export writes an ir.Module as LLVM IR that opt-22 accepts, so that
// LLVM's analyses can serve as an oracle for passlens's own (see
// docs/llvm-bridge.md).
package llvm

import (
	"fmt"
	"strings"
)

// tokKind classifies a token of textual LLVM IR.
type tokKind uint8

const (
	tEOF     tokKind = iota
	tLocal           // %name, %"quoted", %42 (text holds the name without %)
	tGlobal          // @name, @"quoted", @42
	tLabel           // name: or "quoted": or 42: (text holds the name)
	tIdent           // keywords, types (i32, float, ptr), flags
	tInt             // decimal integer, possibly negative
	tFloat           // decimal or hex floating-point literal
	tString          // "..." (text holds the unescaped contents)
	tAttrRef         // #3 (text holds "3")
	tMeta            // !name, !42, !{ (text holds what follows !)
	tPunct           // = , ( ) [ ] { } < > * : ...
)

// token is one lexeme with its 1-based source position and its byte
// offset in the source. Tokens live only in the small window of the
// token stream (tokstream.go), never in an array of the whole file.
type token struct {
	text      string
	off       int // byte offset of the token's first character
	line, col int32
	kind      tokKind
	numeric   bool // tLocal/tGlobal/tLabel written as a bare number
}

func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tLocal:
		return "'%" + t.text + "'"
	case tGlobal:
		return "'@" + t.text + "'"
	case tLabel:
		return "label '" + t.text + ":'"
	case tString:
		return fmt.Sprintf("string %q", t.text)
	case tAttrRef:
		return "'#" + t.text + "'"
	case tMeta:
		return "'!" + t.text + "'"
	}
	return "'" + t.text + "'"
}

// lexError is a lexical error with a position.
type lexError struct {
	line, col int32
	msg       string
}

// lexer produces the tokens of src one at a time (next); it never holds
// more than the current token.
type lexer struct {
	src       []byte
	s         string // src as a string: token texts are its substrings
	pos       int
	line, col int32
}

func (lx *lexer) peekByte(off int) byte {
	if lx.pos+off < len(lx.src) {
		return lx.src[lx.pos+off]
	}
	return 0
}

func (lx *lexer) advance() byte {
	c := lx.src[lx.pos]
	lx.pos++
	if c == '\n' {
		lx.line++
		lx.col = 1
	} else {
		lx.col++
	}
	return c
}

func (lx *lexer) errf(line, col int32, format string, args ...any) *lexError {
	return &lexError{line: line, col: col, msg: fmt.Sprintf(format, args...)}
}

// isIdentChar reports characters LLVM allows in bare names.
func isIdentChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '.' || c == '$' || c == '-'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (lx *lexer) next() (token, *lexError) {
	// Skip blanks and comments.
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v' {
			lx.advance()
			continue
		}
		if c == ';' {
			for lx.pos < len(lx.src) && lx.src[lx.pos] != '\n' {
				lx.advance()
			}
			continue
		}
		break
	}
	line, col, off := lx.line, lx.col, lx.pos
	tok := func(k tokKind, text string) (token, *lexError) {
		return token{kind: k, text: text, off: off, line: line, col: col}, nil
	}
	if lx.pos >= len(lx.src) {
		return tok(tEOF, "")
	}
	c := lx.src[lx.pos]
	switch {
	case c == '%' || c == '@':
		lx.advance()
		kind := tLocal
		if c == '@' {
			kind = tGlobal
		}
		name, numeric, err := lx.name(line, col)
		if err != nil {
			return token{}, err
		}
		return token{kind: kind, text: name, off: off, line: line, col: col, numeric: numeric}, nil
	case c == '"':
		s, err := lx.quoted(line, col)
		if err != nil {
			return token{}, err
		}
		if lx.peekByte(0) == ':' {
			lx.advance()
			return tok(tLabel, s)
		}
		return tok(tString, s)
	case c == '#' && (lx.peekByte(1) >= 'a' && lx.peekByte(1) <= 'z'):
		// Debug records: #dbg_value(...), #dbg_declare(...), ...
		start := lx.pos
		lx.advance()
		for isIdentChar(lx.peekByte(0)) {
			lx.advance()
		}
		return tok(tIdent, (lx.s[start:lx.pos]))
	case c == '#':
		lx.advance()
		start := lx.pos
		for isDigit(lx.peekByte(0)) {
			lx.advance()
		}
		if lx.pos == start {
			return token{}, lx.errf(line, col, "expected an attribute group number after '#'")
		}
		return tok(tAttrRef, (lx.s[start:lx.pos]))
	case c == '!':
		lx.advance()
		start := lx.pos
		for isIdentChar(lx.peekByte(0)) {
			lx.advance()
		}
		return tok(tMeta, (lx.s[start:lx.pos]))
	case c == '.' && lx.peekByte(1) == '.' && lx.peekByte(2) == '.':
		lx.advance()
		lx.advance()
		lx.advance()
		return tok(tPunct, "...")
	case c == '-' || c == '+' || isDigit(c):
		t, err := lx.number(line, col)
		t.off = off
		return t, err
	case isIdentChar(c):
		start := lx.pos
		for isIdentChar(lx.peekByte(0)) {
			lx.advance()
		}
		word := (lx.s[start:lx.pos])
		if lx.peekByte(0) == ':' {
			lx.advance()
			return tok(tLabel, word)
		}
		return tok(tIdent, word)
	case c == '^':
		// Module summary entries (^0 = ...): skipped with their line.
		lx.advance()
		return tok(tPunct, "^")
	case strings.IndexByte("=,()[]{}<>*:|", c) >= 0:
		lx.advance()
		return tok(tPunct, string(c))
	}
	return token{}, lx.errf(line, col, "unexpected character %q", rune(c))
}

// name reads the part of %name / @name after the sigil.
func (lx *lexer) name(line, col int32) (string, bool, *lexError) {
	switch c := lx.peekByte(0); {
	case c == '"':
		s, err := lx.quoted(line, col)
		return s, false, err
	case isDigit(c):
		start := lx.pos
		for isDigit(lx.peekByte(0)) {
			lx.advance()
		}
		if isIdentChar(lx.peekByte(0)) {
			for isIdentChar(lx.peekByte(0)) {
				lx.advance()
			}
			return "", false, lx.errf(line, col, "invalid name '%s' (a name may not start with a digit unless it is a number)", lx.src[start:lx.pos])
		}
		return (lx.s[start:lx.pos]), true, nil
	case isIdentChar(c):
		start := lx.pos
		for isIdentChar(lx.peekByte(0)) {
			lx.advance()
		}
		return (lx.s[start:lx.pos]), false, nil
	}
	return "", false, lx.errf(line, col, "expected a name after the sigil")
}

// quoted reads "..." with LLVM's \XX hex escapes and \\.
func (lx *lexer) quoted(line, col int32) (string, *lexError) {
	lx.advance() // opening quote
	var sb strings.Builder
	for {
		if lx.pos >= len(lx.src) {
			return "", lx.errf(line, col, "unterminated string")
		}
		c := lx.advance()
		switch c {
		case '"':
			return sb.String(), nil
		case '\n':
			return "", lx.errf(line, col, "unterminated string")
		case '\\':
			if lx.peekByte(0) == '\\' {
				lx.advance()
				sb.WriteByte('\\')
				continue
			}
			h1, h2 := lx.peekByte(0), lx.peekByte(1)
			v1, ok1 := hexVal(h1)
			v2, ok2 := hexVal(h2)
			if !ok1 || !ok2 {
				return "", lx.errf(lx.line, lx.col, "invalid escape in string (want \\XX with two hex digits)")
			}
			lx.advance()
			lx.advance()
			sb.WriteByte(v1<<4 | v2)
		default:
			sb.WriteByte(c)
		}
	}
}

func hexVal(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// number reads an integer, a decimal float (1.0, -2.5e+00) or a hex float
// (0x3FF0000000000000, 0xH3C00, 0xR3F80).
func (lx *lexer) number(line, col int32) (token, *lexError) {
	start := lx.pos
	if c := lx.peekByte(0); c == '-' || c == '+' {
		lx.advance()
	}
	if lx.peekByte(0) == '0' && lx.peekByte(1) == 'x' {
		lx.advance()
		lx.advance()
		if c := lx.peekByte(0); c == 'H' || c == 'R' || c == 'K' || c == 'L' || c == 'M' {
			lx.advance()
		}
		n := 0
		for {
			if _, ok := hexVal(lx.peekByte(0)); !ok {
				break
			}
			lx.advance()
			n++
		}
		if n == 0 {
			return token{}, lx.errf(line, col, "invalid hexadecimal constant")
		}
		return token{kind: tFloat, text: (lx.s[start:lx.pos]), line: line, col: col}, nil
	}
	if !isDigit(lx.peekByte(0)) {
		// A lone '-' or '+': LLVM has no such token.
		return token{}, lx.errf(line, col, "unexpected character %q", rune(lx.src[start]))
	}
	for isDigit(lx.peekByte(0)) {
		lx.advance()
	}
	kind := tInt
	if lx.peekByte(0) == '.' {
		kind = tFloat
		lx.advance()
		for isDigit(lx.peekByte(0)) {
			lx.advance()
		}
		if c := lx.peekByte(0); c == 'e' || c == 'E' {
			lx.advance()
			if c := lx.peekByte(0); c == '-' || c == '+' {
				lx.advance()
			}
			if !isDigit(lx.peekByte(0)) {
				return token{}, lx.errf(line, col, "invalid floating-point exponent")
			}
			for isDigit(lx.peekByte(0)) {
				lx.advance()
			}
		}
	}
	if kind == tInt && lx.peekByte(0) == ':' && lx.src[start] != '-' && lx.src[start] != '+' {
		// A numbered label such as "4:".
		lx.advance()
		return token{kind: tLabel, text: (lx.s[start : lx.pos-1]), line: line, col: col, numeric: true}, nil
	}
	if isIdentChar(lx.peekByte(0)) && lx.peekByte(0) != '.' {
		for isIdentChar(lx.peekByte(0)) {
			lx.advance()
		}
		return token{}, lx.errf(line, col, "invalid token '%s'", lx.src[start:lx.pos])
	}
	return token{kind: kind, text: (lx.s[start:lx.pos]), line: line, col: col}, nil
}
