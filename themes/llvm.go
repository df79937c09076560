package themes

import "github.com/alecthomas/chroma/v2"

// LLVM highlights LLVM IR (the DXIL-style back end's output and the
// amdgcn export). It is passlens's own small rule set rather than
// chroma's lexers package: importing that package registers every one of
// chroma's ~250 lexers when the program starts (about 5 ms for every
// command, --help included), and passlens needs one. Like every chroma
// regex lexer its rules compile on first use.
var LLVM = chroma.MustNewLexer(&chroma.Config{
	Name:      "LLVM IR",
	Aliases:   []string{"llvm"},
	Filenames: []string{"*.ll"},
}, func() chroma.Rules {
	return chroma.Rules{
		"root": {
			{Pattern: `;.*$`, Type: chroma.Comment},
			{Pattern: `c?"(\\.|[^"\\])*"`, Type: chroma.LiteralString},
			{Pattern: `[-a-zA-Z$._0-9]+:`, Type: chroma.NameLabel},
			{Pattern: `%("(\\.|[^"\\])*"|[-a-zA-Z$._0-9]+)`, Type: chroma.NameVariable},
			{Pattern: `@("(\\.|[^"\\])*"|[-a-zA-Z$._0-9]+)`, Type: chroma.NameVariableGlobal},
			{Pattern: `![-a-zA-Z$._0-9]*`, Type: chroma.NameAttribute},
			{Pattern: `#\d+`, Type: chroma.NameAttribute},
			{Pattern: `\b(define|declare|target|datalayout|triple|type|global|constant|external|internal|private|attributes|align|addrspace|inreg|noundef|nsw|nuw|exact|inbounds|to|x|zeroinitializer|undef|poison|null|true|false|volatile|seq_cst|acquire|release|monotonic|tail|amdgpu_cs|amdgpu_ps|amdgpu_vs|convergent|nounwind|readnone)\b`, Type: chroma.Keyword},
			{Pattern: `\b(br|switch|ret|unreachable|indirectbr|invoke|resume)\b`, Type: chroma.KeywordReserved},
			{Pattern: `\b(void|half|bfloat|float|double|ptr|label|metadata|i\d+)\b`, Type: chroma.KeywordType},
			{Pattern: `-?\d+\.\d*([eE][-+]?\d+)?|0x[0-9A-Fa-f]+|-?\d+`, Type: chroma.LiteralNumber},
			{Pattern: `\b[a-z][a-z0-9_.]*\b`, Type: chroma.NameBuiltin},
			{Pattern: `[=,*(){}\[\]<>]`, Type: chroma.Punctuation},
			{Pattern: `\s+`, Type: chroma.TextWhitespace},
			{Pattern: `.`, Type: chroma.Text},
		},
	}
})
