package hlsl

// tokKind classifies preprocessing tokens. The preprocessor works on these
// and hands the same tokens, fully expanded, to the parser.
type tokKind uint8

const (
	tEOF     tokKind = iota
	tNewline         // end of a logical line (never reaches the parser)
	tIdent           // identifier or keyword
	tNumber          // preprocessing number: converted by the parser
	tString          // "..." literal, text includes the quotes
	tChar            // '...' literal, text includes the quotes
	tPunct           // operator or punctuator
	tInvalid         // a character that starts no token; the parser reports it
	tPragma          // #pragma pack_matrix(...) passed through: text is the argument
)

func (k tokKind) String() string {
	switch k {
	case tEOF:
		return "end of file"
	case tNewline:
		return "newline"
	case tIdent:
		return "identifier"
	case tNumber:
		return "number"
	case tString:
		return "string literal"
	case tChar:
		return "character literal"
	case tPunct:
		return "punctuator"
	case tInvalid:
		return "invalid character"
	case tPragma:
		return "pragma"
	}
	return "token"
}

// token is one preprocessing token.
type token struct {
	// The small fields come first so they share one word: the frontend
	// holds every token of a file at once.
	kind  tokKind
	space bool // preceded by white space on its line
	bol   bool // first token of its line
	// noExpand marks an identifier that named a disabled macro when first
	// scanned; it must never be expanded later (C11 6.10.3.4p2).
	noExpand bool
	text     string
	pos      Pos
	// hide is the set of macros whose expansion produced this token and
	// must not expand it again (Prosser's hide sets).
	hide *hideSet
}

// end returns the position just past the token (same line).
func (t token) end() Pos { return t.pos.advance(len(t.text)) }

func (t token) is(punct string) bool { return t.kind == tPunct && t.text == punct }

// hideSet is an immutable set of macro names, shared between tokens.
type hideSet struct {
	name string
	next *hideSet
}

func (h *hideSet) has(name string) bool {
	for ; h != nil; h = h.next {
		if h.name == name {
			return true
		}
	}
	return false
}

func (h *hideSet) with(name string) *hideSet {
	if h.has(name) {
		return h
	}
	return &hideSet{name: name, next: h}
}

// union returns the union of h and o.
func (h *hideSet) union(o *hideSet) *hideSet {
	switch {
	case h == nil || h == o:
		return o
	case o == nil:
		return h
	}
	r := h
	for ; o != nil; o = o.next {
		r = r.with(o.name)
	}
	return r
}

// intersect returns the names of h that are also in o.
func (h *hideSet) intersect(o *hideSet) *hideSet {
	var r *hideSet
	for ; h != nil; h = h.next {
		if o.has(h.name) {
			r = &hideSet{name: h.name, next: r}
		}
	}
	return r
}
