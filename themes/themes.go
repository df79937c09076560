// Package themes holds passlens's colour palettes (dark, light, high
// contrast, no colour), the lipgloss styles derived from them, and chroma
// lexers and styles for the passlens IR, SPIR-V and SM3 assembly.
//
// Every meaning shown by colour is also shown by a symbol (see Marks), so
// the no-colour theme loses nothing but colour.
package themes

import (
	"image/color"
	"os"
	"sort"

	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"
)

// Palette is the set of colours a theme defines. A nil colour means "the
// terminal's default".
type Palette struct {
	Fg, Dim, Accent, Border, FocusBorder   color.Color
	SelectionFg, SelectionBg               color.Color
	Changed, Unchanged, Failed, Running    color.Color
	Divergent, Uniform, Temporal           color.Color
	DiffAdd, DiffDel, DiffAddEm, DiffDelEm color.Color
	StatusFg, StatusBg, ErrorFg, OKFg      color.Color
	Search, Occurrence                     color.Color
}

// Theme is a named palette plus the chroma style for code panes.
type Theme struct {
	Name    string
	Dark    bool
	NoColor bool
	Pal     Palette
	Chroma  *chroma.Style
}

// Marks are the symbols that carry meaning without colour.
var Marks = struct {
	Changed, Unchanged, Failed, NotRun, Input, Divergent, Temporal, AssumedDivergent, Uniform, Selected, BackEdge string
}{
	Changed: "●", Unchanged: "○", Failed: "✗", NotRun: "·", Input: "▸",
	Divergent: "÷", Temporal: "⧗", AssumedDivergent: "∞", Uniform: " ", Selected: "▶", BackEdge: "↺",
}

func c(s string) color.Color { return lipgloss.Color(s) }

func chromaStyle(name string, dark bool) *chroma.Style {
	var entries chroma.StyleEntries
	if dark {
		entries = chroma.StyleEntries{
			chroma.Comment:            "#7f848e italic",
			chroma.CommentPreproc:     "#7f848e",
			chroma.Keyword:            "#c678dd",
			chroma.KeywordReserved:    "bold #e06c75",
			chroma.KeywordPseudo:      "#d19a66 italic",
			chroma.KeywordType:        "#56b6c2",
			chroma.NameVariable:       "#e5c07b",
			chroma.NameVariableGlobal: "#61afef",
			chroma.NameLabel:          "bold #61afef",
			chroma.NameBuiltin:        "#c678dd",
			chroma.NameFunction:       "#98c379",
			chroma.NameConstant:       "#d19a66",
			chroma.NameAttribute:      "#56b6c2",
			chroma.LiteralNumber:      "#d19a66",
			chroma.LiteralString:      "#98c379",
			chroma.KeywordNamespace:   "bold #c678dd",
		}
	} else {
		entries = chroma.StyleEntries{
			chroma.Comment:            "#6a737d italic",
			chroma.CommentPreproc:     "#6a737d",
			chroma.Keyword:            "#6f42c1",
			chroma.KeywordReserved:    "bold #d73a49",
			chroma.KeywordPseudo:      "#b35900 italic",
			chroma.KeywordType:        "#005cc5",
			chroma.NameVariable:       "#8a6100",
			chroma.NameVariableGlobal: "#005cc5",
			chroma.NameLabel:          "bold #005cc5",
			chroma.NameBuiltin:        "#6f42c1",
			chroma.NameFunction:       "#22863a",
			chroma.NameConstant:       "#b35900",
			chroma.NameAttribute:      "#005cc5",
			chroma.LiteralNumber:      "#b35900",
			chroma.LiteralString:      "#22863a",
			chroma.KeywordNamespace:   "bold #6f42c1",
		}
	}
	return chroma.MustNewStyle(name, entries)
}

// Dark is the default theme on dark terminals.
func Dark() *Theme {
	return &Theme{Name: "dark", Dark: true, Chroma: chromaStyle("passlens-dark", true), Pal: Palette{
		Fg: c("#d7dae0"), Dim: c("#6b717d"), Accent: c("#61afef"), Border: c("#3e4452"), FocusBorder: c("#61afef"),
		SelectionFg: c("#ffffff"), SelectionBg: c("#2c4a6e"),
		Changed: c("#e5c07b"), Unchanged: c("#5c6370"), Failed: c("#e06c75"), Running: c("#61afef"),
		Divergent: c("#ff6b6b"), Uniform: c("#98c379"), Temporal: c("#d19a66"),
		DiffAdd: c("#98c379"), DiffDel: c("#e06c75"), DiffAddEm: c("#1e4620"), DiffDelEm: c("#5a1d22"),
		StatusFg: c("#d7dae0"), StatusBg: c("#21252b"), ErrorFg: c("#e06c75"), OKFg: c("#98c379"),
		Search: c("#3b3b10"), Occurrence: c("#3a3f4b"),
	}}
}

// Light is the default theme on light terminals.
func Light() *Theme {
	return &Theme{Name: "light", Dark: false, Chroma: chromaStyle("passlens-light", false), Pal: Palette{
		Fg: c("#24292e"), Dim: c("#8b949e"), Accent: c("#0366d6"), Border: c("#d0d7de"), FocusBorder: c("#0366d6"),
		SelectionFg: c("#000000"), SelectionBg: c("#cde4ff"),
		Changed: c("#9a6700"), Unchanged: c("#8b949e"), Failed: c("#cf222e"), Running: c("#0366d6"),
		Divergent: c("#cf222e"), Uniform: c("#1a7f37"), Temporal: c("#bc4c00"),
		DiffAdd: c("#1a7f37"), DiffDel: c("#cf222e"), DiffAddEm: c("#ccffd8"), DiffDelEm: c("#ffd7d5"),
		StatusFg: c("#24292e"), StatusBg: c("#eaeef2"), ErrorFg: c("#cf222e"), OKFg: c("#1a7f37"),
		Search: c("#fff8c5"), Occurrence: c("#e6edf3"),
	}}
}

// HighContrast uses saturated colours on black for low-vision use.
func HighContrast() *Theme {
	return &Theme{Name: "high-contrast", Dark: true, Chroma: chroma.MustNewStyle("passlens-hc", chroma.StyleEntries{
		chroma.Comment: "#c0c0c0", chroma.Keyword: "bold #ffff00", chroma.KeywordReserved: "bold #ff5555",
		chroma.KeywordPseudo: "bold #ffaa00", chroma.KeywordType: "bold #00ffff", chroma.NameVariable: "#ffffff",
		chroma.NameVariableGlobal: "bold #00ffff", chroma.NameLabel: "bold underline #ffffff", chroma.NameBuiltin: "bold #ff00ff",
		chroma.NameFunction: "#00ff00", chroma.LiteralNumber: "#ffaa00", chroma.LiteralString: "#00ff00",
	}), Pal: Palette{
		Fg: c("#ffffff"), Dim: c("#c0c0c0"), Accent: c("#00ffff"), Border: c("#ffffff"), FocusBorder: c("#ffff00"),
		SelectionFg: c("#000000"), SelectionBg: c("#ffff00"),
		Changed: c("#ffff00"), Unchanged: c("#c0c0c0"), Failed: c("#ff5555"), Running: c("#00ffff"),
		Divergent: c("#ff5555"), Uniform: c("#00ff00"), Temporal: c("#ffaa00"),
		DiffAdd: c("#00ff00"), DiffDel: c("#ff5555"), DiffAddEm: c("#005500"), DiffDelEm: c("#550000"),
		StatusFg: c("#000000"), StatusBg: c("#ffffff"), ErrorFg: c("#ff5555"), OKFg: c("#00ff00"),
		Search: c("#555500"), Occurrence: c("#333333"),
	}}
}

// NoColorTheme uses no colour at all: attributes (bold, reverse, underline)
// and the symbols in Marks carry every meaning. NO_COLOR selects it.
func NoColorTheme() *Theme {
	return &Theme{Name: "no-color", NoColor: true, Chroma: chroma.MustNewStyle("passlens-none", chroma.StyleEntries{})}
}

var registry = map[string]func() *Theme{
	"dark": Dark, "light": Light, "high-contrast": HighContrast, "no-color": NoColorTheme, "none": NoColorTheme,
}

// Names lists the theme names accepted by ByName.
func Names() []string {
	var out []string
	for n := range registry {
		if n != "none" {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// ByName returns the named theme, or false.
func ByName(name string) (*Theme, bool) {
	f, ok := registry[name]
	if !ok {
		return nil, false
	}
	return f(), true
}

// Choose picks the theme: an explicit name wins; otherwise NO_COLOR selects
// no-color; otherwise dark or light following the terminal background.
func Choose(name string, darkBackground bool) (*Theme, bool) {
	if name != "" && name != "auto" {
		return ByName(name)
	}
	if v, ok := os.LookupEnv("NO_COLOR"); ok && v != "" {
		return NoColorTheme(), true
	}
	if darkBackground {
		return Dark(), true
	}
	return Light(), true
}
