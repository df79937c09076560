package themes

import (
	"strings"

	"github.com/alecthomas/chroma/v2"
)

// PIR highlights the passlens textual IR (docs/ir.md). It is a hand-written
// scanner rather than a chroma regex lexer: the explorer highlights every
// line that scrolls into view, and chroma's backtracking regexes cost a few
// hundred microseconds per IR line, which a 100k-instruction module turns
// into dropped frames. Token types are chroma's, so styles apply as usual.
var PIR chroma.Lexer = &pirLexer{}

// SPIRVAsm highlights SPIR-V assembly as spirv-dis prints it.
var SPIRVAsm = chroma.MustNewLexer(&chroma.Config{
	Name:      "SPIR-V assembly",
	Aliases:   []string{"spvasm"},
	Filenames: []string{"*.spvasm"},
}, func() chroma.Rules {
	return chroma.Rules{
		"root": {
			{Pattern: `;.*$`, Type: chroma.Comment},
			{Pattern: `"(\\.|[^"\\])*"`, Type: chroma.LiteralString},
			{Pattern: `%[A-Za-z0-9_.]+`, Type: chroma.NameVariable},
			{Pattern: `\bOp(Label|Branch|BranchConditional|Switch|Return|ReturnValue|Kill|Unreachable|SelectionMerge|LoopMerge)\b`, Type: chroma.KeywordReserved},
			{Pattern: `\bOpType[A-Za-z]+\b`, Type: chroma.KeywordType},
			{Pattern: `\bOp[A-Za-z0-9]+\b`, Type: chroma.NameBuiltin},
			{Pattern: `-?\d+\.\d*([eE][-+]?\d+)?|0x[0-9A-Fa-f]+|-?\d+`, Type: chroma.LiteralNumber},
			{Pattern: `[A-Z][A-Za-z0-9_]*`, Type: chroma.NameConstant},
			{Pattern: `=`, Type: chroma.Punctuation},
			{Pattern: `\s+`, Type: chroma.TextWhitespace},
			{Pattern: `.`, Type: chroma.Text},
		},
	}
})

// SM3Asm highlights Direct3D 9 shader model 1–3 assembly (ps_3_0, vs_3_0).
var SM3Asm = chroma.MustNewLexer(&chroma.Config{
	Name:      "SM3 assembly",
	Aliases:   []string{"sm3", "d3dasm"},
	Filenames: []string{"*.asm"},
}, func() chroma.Rules {
	return chroma.Rules{
		"root": {
			{Pattern: `//.*$`, Type: chroma.Comment},
			{Pattern: `\b(ps|vs)_[1-3]_[0-9x]\b`, Type: chroma.KeywordNamespace},
			{Pattern: `\b(def|defi|defb|dcl[_a-z0-9]*)\b`, Type: chroma.KeywordDeclaration},
			{Pattern: `\b(if|if_[a-z]+|else|endif|rep|endrep|loop|endloop|break|break_[a-z]+|breakc_[a-z]+|breakc|call|callnz|ret|label|texkill)\b`, Type: chroma.KeywordReserved},
			{Pattern: `\b(r|c|i|b|v|o|t|s|a)\d+\b|\boC\d\b|\boDepth\b|\boPos\b|\baL\b|\bp0\b|\bv(Pos|Face)\b`, Type: chroma.NameVariable},
			{Pattern: `\.[xyzwrgba]{1,4}\b`, Type: chroma.NameAttribute},
			{Pattern: `\b[a-z_][a-z0-9_]*\b`, Type: chroma.NameBuiltin},
			{Pattern: `-?\d+\.\d*([eE][-+]?\d+)?|-?\d+`, Type: chroma.LiteralNumber},
			{Pattern: `[,\-!]`, Type: chroma.Punctuation},
			{Pattern: `\s+`, Type: chroma.TextWhitespace},
			{Pattern: `.`, Type: chroma.Text},
		},
	}
})

type pirLexer struct{}

func (*pirLexer) Config() *chroma.Config {
	return &chroma.Config{Name: "passlens IR", Aliases: []string{"pir"}, Filenames: []string{"*.pir"}}
}
func (l *pirLexer) SetRegistry(*chroma.LexerRegistry) chroma.Lexer     { return l }
func (l *pirLexer) SetAnalyser(func(text string) float32) chroma.Lexer { return l }
func (*pirLexer) AnalyseText(text string) float32                      { return 0 }

var pirKeywords = map[string]chroma.TokenType{}

func init() {
	for _, w := range strings.Fields("define declare module type global compute pixel vertex numthreads semantic binding readonly flat kind offset uniform to case default zero undef true false") {
		pirKeywords[w] = chroma.Keyword
	}
	for _, w := range strings.Fields("selection_merge loop_merge") {
		pirKeywords[w] = chroma.KeywordPseudo
	}
	for _, w := range strings.Fields("br condbr switch ret discard unreachable") {
		pirKeywords[w] = chroma.KeywordReserved
	}
	for _, w := range strings.Fields("void bool i8 i16 i32 i64 u8 u16 u32 u64 f16 bf16 f32 f64 ptr function private groupshared storage input output") {
		pirKeywords[w] = chroma.KeywordType
	}
	for _, w := range strings.Fields("intr call phi load store alloca access memcpy memset atomic") {
		pirKeywords[w] = chroma.NameBuiltin
	}
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '$' || c == '-'
}

// Tokenise scans text (usually one line) into chroma tokens.
func (*pirLexer) Tokenise(_ *chroma.TokeniseOptions, text string) (chroma.Iterator, error) {
	var toks []chroma.Token
	emit := func(t chroma.TokenType, v string) { toks = append(toks, chroma.Token{Type: t, Value: v}) }
	lineStart := true
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '\n':
			emit(chroma.TextWhitespace, "\n")
			i++
			lineStart = true
			continue
		case c == ' ' || c == '\t':
			j := i
			for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
				j++
			}
			emit(chroma.TextWhitespace, text[i:j])
			i = j
			lineStart = false
			continue
		case c == ';':
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				j = len(text) - i
			}
			emit(chroma.Comment, text[i:i+j])
			i += j
		case c == '"':
			j := i + 1
			for j < len(text) && text[j] != '"' {
				if text[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(text))
			emit(chroma.LiteralString, text[i:j])
			i = j
		case c == '%' || c == '@':
			j := i + 1
			if j < len(text) && text[j] == '"' {
				j++
				for j < len(text) && text[j] != '"' {
					j++
				}
				j = min(j+1, len(text))
			} else {
				for j < len(text) && isNameByte(text[j]) {
					j++
				}
			}
			if c == '%' {
				emit(chroma.NameVariable, text[i:j])
			} else {
				emit(chroma.NameVariableGlobal, text[i:j])
			}
			i = j
		case c == '!' && strings.HasPrefix(text[i:], "!loc"):
			j := i + 4
			for j < len(text) && (text[j] == ' ' || text[j] == ':' || text[j] >= '0' && text[j] <= '9') {
				j++
			}
			emit(chroma.CommentPreproc, text[i:j])
			i = j
		case c >= '0' && c <= '9' || c == '-' && i+1 < len(text) && text[i+1] >= '0' && text[i+1] <= '9':
			j := i + 1
			for j < len(text) && (isNameByte(text[j]) || text[j] == '+' && (text[j-1] == 'e' || text[j-1] == 'E')) {
				j++
			}
			emit(chroma.LiteralNumber, text[i:j])
			i = j
		case isNameByte(c):
			j := i
			for j < len(text) && isNameByte(text[j]) {
				j++
			}
			w := text[i:j]
			switch {
			case lineStart && j < len(text) && text[j] == ':':
				emit(chroma.NameLabel, text[i:j+1])
				j++
			default:
				if t, ok := pirKeywords[w]; ok {
					emit(t, w)
				} else {
					emit(chroma.NameFunction, w)
				}
			}
			i = j
		default:
			emit(chroma.Punctuation, text[i:i+1])
			i++
		}
		lineStart = false
	}
	return chroma.Literator(toks...), nil
}
