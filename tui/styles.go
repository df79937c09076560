package tui

import (
	"image/color"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"

	"passlens/themes"
)

// Styles is every lipgloss style the panes use, derived from one theme.
type Styles struct {
	Theme *themes.Theme

	Title, Dim, Accent, Bold                  lipgloss.Style
	Border, FocusBorder                       lipgloss.Style
	Selected, CursorLine                      lipgloss.Style
	Changed, Unchanged, Failed, Running       lipgloss.Style
	Divergent, Uniform, Temporal              lipgloss.Style
	DiffAdd, DiffDel, DiffAddEm, DiffDelEm    lipgloss.Style
	Status, StatusKey, Error, OK              lipgloss.Style
	SearchHit, Occurrence, LineNo, TabActive  lipgloss.Style
	TabInactive, HelpKey, HelpDesc, HelpTitle lipgloss.Style

	tokens map[chroma.TokenType]lipgloss.Style
	// lineCache memoizes highlighted lines: consecutive snapshots share
	// most lines, so stepping re-renders little.
	lineCache map[lineKey]string
}

type lineKey struct {
	lexer chroma.Lexer
	line  string
}

const lineCacheMax = 1 << 16

// highlightCached is highlight with memoization.
func (s *Styles) highlightCached(lexer chroma.Lexer, line string) string {
	k := lineKey{lexer, line}
	if r, ok := s.lineCache[k]; ok {
		return r
	}
	r := s.highlight(lexer, line)
	if s.lineCache == nil || len(s.lineCache) >= lineCacheMax {
		s.lineCache = make(map[lineKey]string, 1024)
	}
	s.lineCache[k] = r
	return r
}

func fg(c color.Color) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }

// NewStyles derives the styles from a theme. The no-colour theme uses only
// attributes (bold, underline, reverse, faint).
func NewStyles(t *themes.Theme) *Styles {
	s := &Styles{Theme: t, tokens: map[chroma.TokenType]lipgloss.Style{}}
	base := lipgloss.NewStyle()
	if t.NoColor {
		s.Title = base.Bold(true)
		s.Dim = base.Faint(true)
		s.Accent = base.Bold(true)
		s.Bold = base.Bold(true)
		s.Border = base
		s.FocusBorder = base.Bold(true)
		s.Selected = base.Reverse(true)
		s.CursorLine = base.Underline(true)
		s.Changed = base.Bold(true)
		s.Unchanged = base.Faint(true)
		s.Failed = base.Bold(true).Underline(true)
		s.Running = base.Italic(true)
		s.Divergent = base.Bold(true)
		s.Uniform = base
		s.Temporal = base.Italic(true)
		s.DiffAdd = base.Bold(true)
		s.DiffDel = base.Faint(true)
		s.DiffAddEm = base.Bold(true).Underline(true)
		s.DiffDelEm = base.Faint(true).Strikethrough(true)
		s.Status = base.Reverse(true)
		s.StatusKey = base.Reverse(true).Bold(true)
		s.Error = base.Bold(true)
		s.OK = base
		s.SearchHit = base.Reverse(true)
		s.Occurrence = base.Underline(true)
		s.LineNo = base.Faint(true)
		s.TabActive = base.Reverse(true).Bold(true)
		s.TabInactive = base
		s.HelpKey = base.Bold(true)
		s.HelpDesc = base
		s.HelpTitle = base.Bold(true).Underline(true)
		return s
	}
	p := t.Pal
	s.Title = fg(p.Accent).Bold(true)
	s.Dim = fg(p.Dim)
	s.Accent = fg(p.Accent)
	s.Bold = fg(p.Fg).Bold(true)
	s.Border = fg(p.Border)
	s.FocusBorder = fg(p.FocusBorder)
	s.Selected = base.Foreground(p.SelectionFg).Background(p.SelectionBg).Bold(true)
	s.CursorLine = base.Background(p.Occurrence)
	s.Changed = fg(p.Changed)
	s.Unchanged = fg(p.Unchanged)
	s.Failed = fg(p.Failed).Bold(true)
	s.Running = fg(p.Running)
	s.Divergent = fg(p.Divergent).Bold(true)
	s.Uniform = fg(p.Uniform)
	s.Temporal = fg(p.Temporal).Bold(true)
	s.DiffAdd = fg(p.DiffAdd)
	s.DiffDel = fg(p.DiffDel)
	s.DiffAddEm = fg(p.DiffAdd).Background(p.DiffAddEm).Bold(true)
	s.DiffDelEm = fg(p.DiffDel).Background(p.DiffDelEm).Bold(true)
	s.Status = base.Foreground(p.StatusFg).Background(p.StatusBg)
	s.StatusKey = base.Foreground(p.StatusBg).Background(p.Accent).Bold(true)
	s.Error = fg(p.ErrorFg).Bold(true)
	s.OK = fg(p.OKFg)
	s.SearchHit = base.Background(p.Search).Foreground(p.Fg).Bold(true)
	s.Occurrence = base.Background(p.Occurrence).Underline(true)
	s.LineNo = fg(p.Dim)
	s.TabActive = base.Foreground(p.SelectionFg).Background(p.SelectionBg).Bold(true)
	s.TabInactive = fg(p.Dim)
	s.HelpKey = fg(p.Accent).Bold(true)
	s.HelpDesc = fg(p.Fg)
	s.HelpTitle = fg(p.Changed).Bold(true)
	return s
}

// token returns the style for a chroma token type (cached), walking up the
// token hierarchy (NameVariableGlobal → NameVariable → Name) as chroma does.
func (s *Styles) token(tt chroma.TokenType) lipgloss.Style {
	if st, ok := s.tokens[tt]; ok {
		return st
	}
	st := lipgloss.NewStyle()
	if !s.Theme.NoColor && s.Theme.Chroma != nil {
		e := s.Theme.Chroma.Get(tt)
		if e.Colour.IsSet() {
			st = st.Foreground(lipgloss.Color(e.Colour.String()))
		}
		if e.Bold == chroma.Yes {
			st = st.Bold(true)
		}
		if e.Italic == chroma.Yes {
			st = st.Italic(true)
		}
	} else if tt == chroma.KeywordReserved || tt == chroma.NameLabel {
		st = st.Bold(true)
	}
	s.tokens[tt] = st
	return st
}

// highlight renders one line of code with the lexer.
func (s *Styles) highlight(lexer chroma.Lexer, line string) string {
	if lexer == nil || line == "" {
		return line
	}
	it, err := lexer.Tokenise(nil, line)
	if err != nil {
		return line
	}
	var sb strings.Builder
	for _, tok := range it.Tokens() {
		v := strings.TrimSuffix(tok.Value, "\n")
		if v == "" {
			continue
		}
		if tok.Type == chroma.TextWhitespace || tok.Type == chroma.Text || tok.Type == chroma.Punctuation {
			sb.WriteString(v)
			continue
		}
		sb.WriteString(s.token(tok.Type).Render(v))
	}
	return sb.String()
}
