package hlsl

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"passlens/internal/termsafe"
)

// Severity classifies a diagnostic.
type Severity int

// Severities, ordered from least to most severe.
const (
	Note Severity = iota
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Note:
		return "note"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return "unknown"
}

// Pos is a source position: a 1-based line and column (in bytes) in a file.
// The file and line are the presumed ones (they honour #line); the
// unexported fields remember the physical location for source snippets and
// the chain of macro expansions that produced the token, so diagnostics can
// explain "in expansion of macro" like a C compiler does.
type Pos struct {
	File string
	Line int
	Col  int

	phys *physLoc // physical location when #line changed the presumed one
	exp  *expansion
}

// physLoc is the physical file and line of a position remapped by #line.
// It is kept behind a pointer (shared by the tokens of one line) so that
// Pos, copied into every token and AST node, stays small.
type physLoc struct {
	file string
	line int
}

// IsValid reports whether p denotes a real location.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String formats p as file:line:col.
func (p Pos) String() string {
	if !p.IsValid() {
		if p.File != "" {
			return p.File
		}
		return "<unknown>"
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Before reports whether p precedes q (same file assumed for ordering).
func (p Pos) Before(q Pos) bool {
	if p.File != q.File {
		return p.File < q.File
	}
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

// advance returns p moved n columns to the right on the same line.
func (p Pos) advance(n int) Pos {
	p.Col += n
	return p
}

// snippetFile and snippetLine locate the physical source line of p.
func (p Pos) snippetFile() string {
	if p.phys != nil {
		return p.phys.file
	}
	return p.File
}

func (p Pos) snippetLine() int {
	if p.phys != nil {
		return p.phys.line
	}
	return p.Line
}

// expansion records one macro expansion: the macro's name and where it was
// invoked. Tokens produced by the expansion point at it; nested expansions
// form a chain through parent.
type expansion struct {
	macro  string
	site   Pos // position of the macro name at the invocation (carries its own chain)
	parent *expansion
}

// Diagnostic is one error, warning or note with its source range.
// End, when valid and on the same line as Pos, marks the first column past
// the range, which the renderer underlines with '~'.
type Diagnostic struct {
	Severity Severity
	Pos      Pos
	End      Pos
	Message  string
	Notes    []Diagnostic
}

// Diagnostics is the list of diagnostics of one frontend run.
type Diagnostics []Diagnostic

// HasErrors reports whether any diagnostic is an error.
func (d Diagnostics) HasErrors() bool {
	for _, x := range d {
		if x.Severity == Error {
			return true
		}
	}
	return false
}

// Count returns the number of diagnostics of severity s (notes attached to
// other diagnostics are not counted).
func (d Diagnostics) Count(s Severity) int {
	n := 0
	for _, x := range d {
		if x.Severity == s {
			n++
		}
	}
	return n
}

// String renders the diagnostics without source snippets.
func (d Diagnostics) String() string {
	var b strings.Builder
	_ = d.Render(&b, nil)
	return b.String()
}

// Sources maps file names (as they appear in positions) to their contents;
// the renderer uses it to print source lines under each diagnostic.
type Sources map[string][]byte

// Render writes the diagnostics in clang's format:
//
//	shader.hlsl:12:9: error: use of undeclared identifier 'foo'
//	   12 |   x = foo + 1;
//	      |       ^~~
//
// followed by its notes and a summary line ("2 errors generated.") when
// there is at least one error or warning. Lines are shown only for files
// found in src.
func (d Diagnostics) Render(w io.Writer, src Sources) error {
	var b strings.Builder
	for _, x := range d {
		renderOne(&b, x, src)
	}
	nerr, nwarn := d.Count(Error), d.Count(Warning)
	switch {
	case nerr > 0 && nwarn > 0:
		fmt.Fprintf(&b, "%s and %s generated.\n", plural(nwarn, "warning"), plural(nerr, "error"))
	case nerr > 0:
		fmt.Fprintf(&b, "%s generated.\n", plural(nerr, "error"))
	case nwarn > 0:
		fmt.Fprintf(&b, "%s generated.\n", plural(nwarn, "warning"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func renderOne(b *strings.Builder, d Diagnostic, src Sources) {
	if d.Pos.IsValid() || d.Pos.File != "" {
		b.WriteString(termsafe.Escape(d.Pos.String()))
		b.WriteString(": ")
	}
	b.WriteString(d.Severity.String())
	b.WriteString(": ")
	b.WriteString(clipMessage(termsafe.Escape(d.Message)))
	b.WriteByte('\n')
	renderSnippet(b, d.Pos, d.End, src)
	for _, n := range d.Notes {
		renderOne(b, n, src)
	}
}

// clipMessage shortens a message longer than 1 KiB (one naming a 4 MiB
// identifier, say) to its start and end.
func clipMessage(m string) string {
	if len(m) <= 1024 {
		return m
	}
	return strings.ToValidUTF8(m[:512], "") + " … " + strings.ToValidUTF8(m[len(m)-256:], "")
}

// maxSnippetCols bounds the source line shown under a diagnostic; a
// longer line is cut to a window around the caret, marked with "…".
const maxSnippetCols = 160

// renderSnippet prints the source line of p and a caret line beneath it.
// Tabs are expanded so the caret lines up whatever the terminal's tab
// width; control and invalid bytes are shown escaped (termsafe.Escape).
func renderSnippet(b *strings.Builder, p, end Pos, src Sources) {
	if !p.IsValid() || src == nil {
		return
	}
	text, ok := src[p.snippetFile()]
	if !ok {
		return
	}
	line, ok := sourceLine(text, p.snippetLine())
	if !ok {
		return
	}
	type piece struct {
		s   string
		col int // display column
	}
	var pieces []piece
	cols := make([]int, len(line)+2) // byte index -> display column
	dc := 0
	for i := 0; i < len(line); {
		r, n := utf8.DecodeRuneInString(line[i:])
		var s string
		switch {
		case r == '\t':
			s = strings.Repeat(" ", 8-dc%8)
		case (r == utf8.RuneError && n <= 1) || termsafe.IsControl(r):
			s = termsafe.Escape(line[i : i+n])
		default:
			s = line[i : i+n]
		}
		w := len(s)
		if s == line[i:i+n] {
			w = 1 // one printable character
		}
		for k := 0; k < n; k++ {
			cols[i+k] = dc
		}
		pieces = append(pieces, piece{s, dc})
		dc += w
		i += n
	}
	cols[len(line)] = dc
	cols[len(line)+1] = dc + 1
	col := func(c int) int { // 1-based byte column -> 0-based display column
		i := c - 1
		if i < 0 {
			i = 0
		}
		if i > len(line)+1 {
			i = len(line) + 1
		}
		return cols[i]
	}
	start := col(p.Col)
	width := 1
	if end.IsValid() && end.File == p.File && end.Line == p.Line && end.Col > p.Col {
		width = col(end.Col) - start
		if width < 1 {
			width = 1
		}
	}
	lo, hi := 0, dc
	if dc > maxSnippetCols {
		lo = max(0, start-maxSnippetCols/4)
		hi = min(dc, lo+maxSnippetCols)
		lo = max(0, hi-maxSnippetCols)
	}
	var shown strings.Builder
	if lo > 0 {
		shown.WriteString("…")
	}
	for _, pc := range pieces {
		if pc.col >= lo && pc.col < hi {
			shown.WriteString(pc.s)
		}
	}
	if hi < dc {
		shown.WriteString("…")
	}
	caret := start - lo
	if lo > 0 {
		caret++ // the "…"
	}
	width = max(1, min(width, hi-start))
	fmt.Fprintf(b, "%5d | %s\n", p.Line, strings.TrimRight(shown.String(), " \r"))
	b.WriteString("      | ")
	b.WriteString(strings.Repeat(" ", max(0, caret)))
	b.WriteByte('^')
	b.WriteString(strings.Repeat("~", width-1))
	b.WriteByte('\n')
}

// sourceLine returns line n (1-based) of text without its terminator.
func sourceLine(text []byte, n int) (string, bool) {
	cur := 1
	start := 0
	for i := 0; i < len(text) && cur < n; i++ {
		if text[i] == '\n' {
			cur++
			start = i + 1
		}
	}
	if cur != n || start > len(text) {
		return "", false
	}
	end := start
	for end < len(text) && text[end] != '\n' {
		end++
	}
	return strings.TrimRight(string(text[start:end]), "\r"), true
}

// maxErrorsDefault is the default cap on reported errors.
const maxErrorsDefault = 20

// reporter collects diagnostics for one frontend run. After maxErrors errors
// it emits "too many errors emitted" once and drops everything else, and the
// phases poll stopped() to bail out early.
type reporter struct {
	list      Diagnostics
	errors    int
	maxErrors int
	halted    bool
	noWarn    bool
	werror    bool
}

func newReporter(maxErrors int) *reporter {
	if maxErrors <= 0 {
		maxErrors = maxErrorsDefault
	}
	return &reporter{maxErrors: maxErrors}
}

func (r *reporter) stopped() bool { return r.halted }

// add records d, attaching macro-expansion notes derived from its position.
func (r *reporter) add(d Diagnostic) {
	if r.halted {
		return
	}
	if d.Severity == Warning {
		if r.noWarn {
			return
		}
		if r.werror {
			d.Severity = Error
		}
	}
	d.Notes = append(expansionNotes(d.Pos), d.Notes...)
	r.list = append(r.list, d)
	if d.Severity == Error {
		r.errors++
		if r.errors >= r.maxErrors {
			r.list = append(r.list, Diagnostic{Severity: Error, Message: "too many errors emitted, stopping now"})
			r.halted = true
		}
	}
}

func (r *reporter) errorf(p, end Pos, format string, args ...any) {
	r.add(Diagnostic{Severity: Error, Pos: p, End: end, Message: fmt.Sprintf(format, args...)})
}

func (r *reporter) warnf(p, end Pos, format string, args ...any) {
	r.add(Diagnostic{Severity: Warning, Pos: p, End: end, Message: fmt.Sprintf(format, args...)})
}

// expansionNotes builds "in expansion of macro 'X'" notes for a position
// produced by macro expansion, innermost first.
func expansionNotes(p Pos) []Diagnostic {
	var notes []Diagnostic
	for e, n := p.exp, 0; e != nil && n < 16; e, n = e.parent, n+1 {
		site := e.site
		notes = append(notes, Diagnostic{Severity: Note, Pos: site, End: site.advance(len(e.macro)),
			Message: fmt.Sprintf("in expansion of macro '%s'", e.macro)})
	}
	return notes
}

// note builds a note diagnostic.
func note(p Pos, format string, args ...any) Diagnostic {
	return Diagnostic{Severity: Note, Pos: p, Message: fmt.Sprintf(format, args...)}
}

// SortByPosition orders diagnostics by file (in order of first
// appearance), line and column, as a compiler that checks while parsing
// would report them. Diagnostics without a position keep their relative
// order at the end.
func (d Diagnostics) SortByPosition() {
	fileRank := map[string]int{}
	for _, x := range d {
		if x.Pos.IsValid() {
			if _, ok := fileRank[x.Pos.File]; !ok {
				fileRank[x.Pos.File] = len(fileRank)
			}
		}
	}
	sort.SliceStable(d, func(i, j int) bool {
		a, b := d[i].Pos.outermost(), d[j].Pos.outermost()
		switch {
		case !a.IsValid() || !b.IsValid():
			return a.IsValid() && !b.IsValid()
		case a.File != b.File:
			return fileRank[a.File] < fileRank[b.File]
		case a.Line != b.Line:
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// outermost returns the position in the source text where the token at p
// appears: for macro-expanded tokens, the outermost invocation site.
func (p Pos) outermost() Pos {
	for n := 0; p.exp != nil && n < 64; n++ {
		p = p.exp.site
	}
	return p
}
