package llvm

// tokStream lexes on demand: the parser addresses tokens by an absolute
// index (at), the stream lexes up to that index, and release forgets the
// tokens before a point the parser will not come back to (the start of a
// top-level entity, of an instruction). Only a small window of tokens is
// ever alive, instead of an array of the whole file (on a 14 MB module
// the array was 2.8 M tokens, ~100 MB).
//
// A lexical error ends the stream: the window gets an end-of-file token at
// the error and err holds the error. Reading an input with a lexical error
// therefore reports that error whatever the parser made of the tokens
// before it (finish), as when the whole file was lexed before parsing.
type tokStream struct {
	lx   lexer
	buf  []token
	base int // absolute index of buf[0]
	err  *lexError
	done bool // the end-of-file token is in buf (or was released)
}

// lexState is where a lexer stands: enough to resume lexing there.
type lexState struct {
	off       int
	line, col int32
}

// stateOf is the lexer state at the start of t.
func stateOf(t token) lexState { return lexState{off: t.off, line: t.line, col: t.col} }

// newTokStream lexes src (s is the same bytes as a string, shared by every
// stream over src so that token texts are substrings of one copy) from st.
func newTokStream(src []byte, s string, st lexState) *tokStream {
	return &tokStream{lx: lexer{src: src, s: s, pos: st.off, line: st.line, col: st.col}, buf: make([]token, 0, 256)}
}

// startOfFile is the lexer state at the start of a file.
var startOfFile = lexState{line: 1, col: 1}

// at returns token i (absolute index, at or after the last release); past
// the end it returns the end-of-file token.
func (ts *tokStream) at(i int) token {
	for i-ts.base >= len(ts.buf) {
		if ts.done {
			return ts.buf[len(ts.buf)-1]
		}
		ts.fill()
	}
	return ts.buf[i-ts.base]
}

// fill lexes one more token.
func (ts *tokStream) fill() {
	t, err := ts.lx.next()
	if err != nil {
		ts.err = err
		t = token{kind: tEOF, off: ts.lx.pos, line: err.line, col: err.col}
	}
	ts.buf = append(ts.buf, t)
	ts.done = t.kind == tEOF
}

// span returns tokens [from, to) (all at or after the last release).
func (ts *tokStream) span(from, to int) []token {
	if to > from {
		ts.at(to - 1)
	}
	return ts.buf[from-ts.base : to-ts.base]
}

// release forgets the tokens before index keep. The window is compacted
// only when enough of it is dead, so that releasing is cheap.
func (ts *tokStream) release(keep int) {
	n := keep - ts.base
	if n < 512 || n > len(ts.buf) {
		return
	}
	k := copy(ts.buf, ts.buf[n:])
	clear(ts.buf[k:])
	ts.buf = ts.buf[:k]
	ts.base = keep
}

// finish returns the first lexical error of the rest of the input, lexing
// it to the end (nil when there is none). A parse error is only reported
// when the file has no lexical error, as if it had been lexed first.
func (ts *tokStream) finish() *lexError {
	for !ts.done {
		ts.fill()
		ts.release(ts.base + len(ts.buf) - 1)
	}
	return ts.err
}

// reset makes the stream lex from st again, forgetting its window.
func (ts *tokStream) reset(st lexState) {
	ts.lx.pos, ts.lx.line, ts.lx.col = st.off, st.line, st.col
	clear(ts.buf)
	ts.buf = ts.buf[:0]
	ts.base, ts.err, ts.done = 0, nil, false
}
