package ir

// This file splits .pir text into tokens for the parser (parser.go). The
// format is line oriented: a newline ends a statement, so newlines are
// tokens (runs of blank lines and comment-only lines collapse into one).

// tokKind classifies a token.
type tokKind uint8

const (
	tkEOF     tokKind = iota
	tkNewline         // end of a statement
	tkWord            // keywords, types, numbers, bare labels: a run of [A-Za-z0-9_.$+-]
	tkLocal           // %name or %"quoted"
	tkGlobal          // @name or @"quoted"
	tkString          // "…" in Go syntax
	tkPunct           // one of = , ( ) [ ] { } < > : ! ?
	tkError           // a lexical error at this offset; the parser reports it when reached
)

// token is a span of the source. Its text is src[off:end]; for sigil
// tokens that includes the sigil, for strings the quotes.
type token struct {
	off, end int32
	kind     tokKind
	quoted   bool // tkLocal/tkGlobal spelled with a quoted name
}

// isNameChar reports the characters quoteName leaves bare.
func isNameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '$' || c == '-'
}

// isWordChar adds '+' (exponents such as 1e+10) to the name characters.
func isWordChar(c byte) bool { return isNameChar(c) || c == '+' }

func isPunct(c byte) bool {
	switch c {
	case '=', ',', '(', ')', '[', ']', '{', '}', '<', '>', ':', '!', '?':
		return true
	}
	return false
}

// lexError describes the tkError token that ends a token stream.
type lexError struct {
	off int
	msg string
}

// lex tokenizes src. On a lexical error it stops with a tkError token (the
// message is returned separately) so that errors earlier in the file, found
// by the parser, are still reported first.
func lex(src string) ([]token, *lexError) {
	// About one token per four bytes of typical IR text.
	toks := make([]token, 0, len(src)/4+8)
	emit := func(k tokKind, off, end int, quoted bool) {
		toks = append(toks, token{off: int32(off), end: int32(end), kind: k, quoted: quoted})
	}
	fail := func(off int, msg string) ([]token, *lexError) {
		emit(tkError, off, off, false)
		return toks, &lexError{off: off, msg: msg}
	}
	n := len(src)
	i := 0
	for i < n {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '\n':
			if len(toks) > 0 && toks[len(toks)-1].kind != tkNewline {
				emit(tkNewline, i, i+1, false)
			}
			i++
		case c == ';':
			for i < n && src[i] != '\n' {
				i++
			}
		case c == '%' || c == '@':
			k := tkLocal
			if c == '@' {
				k = tkGlobal
			}
			start := i
			i++
			switch {
			case i < n && isNameChar(src[i]):
				for i < n && isNameChar(src[i]) {
					i++
				}
				emit(k, start, i, false)
			case i < n && src[i] == '"':
				end, ok := scanString(src, i)
				if !ok {
					return fail(i, "unterminated quoted name")
				}
				i = end
				emit(k, start, i, true)
			default:
				return fail(start, "expected a name after '"+string(c)+"'")
			}
		case c == '"':
			end, ok := scanString(src, i)
			if !ok {
				return fail(i, "unterminated string")
			}
			emit(tkString, i, end, false)
			i = end
		case isWordChar(c):
			start := i
			for i < n && isWordChar(src[i]) {
				i++
			}
			emit(tkWord, start, i, false)
		case isPunct(c):
			emit(tkPunct, i, i+1, false)
			i++
		default:
			if c >= 0x80 {
				return fail(i, "unexpected non-ASCII character (names with such characters must be quoted)")
			}
			if c < 0x20 || c == 0x7f {
				return fail(i, "unexpected control character")
			}
			return fail(i, "unexpected character '"+string(c)+"'")
		}
	}
	emit(tkEOF, n, n, false)
	return toks, nil
}

// scanString finds the end (one past the closing quote) of the Go string
// literal starting at src[i] == '"'. Strings do not span lines.
func scanString(src string, i int) (int, bool) {
	i++
	for i < len(src) {
		switch src[i] {
		case '\\':
			if i+1 < len(src) && src[i+1] == '\n' {
				return i + 1, false
			}
			i += 2
			continue
		case '"':
			return i + 1, true
		case '\n':
			return i, false
		}
		i++
	}
	return i, false
}
