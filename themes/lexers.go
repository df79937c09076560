package themes

import (
	"github.com/alecthomas/chroma/v2"
)

// PIR highlights the passlens textual IR (docs/ir.md).
var PIR = chroma.MustNewLexer(&chroma.Config{
	Name:      "passlens IR",
	Aliases:   []string{"pir"},
	Filenames: []string{"*.pir"},
}, func() chroma.Rules {
	return chroma.Rules{
		"root": {
			{Pattern: `;.*$`, Type: chroma.Comment},
			{Pattern: `"(\\.|[^"\\])*"`, Type: chroma.LiteralString},
			{Pattern: `^[A-Za-z0-9_.$-]+:`, Type: chroma.NameLabel},
			{Pattern: `%[A-Za-z0-9_.$-]+|%"(\\.|[^"\\])*"`, Type: chroma.NameVariable},
			{Pattern: `@[A-Za-z0-9_.$-]+`, Type: chroma.NameVariableGlobal},
			{Pattern: `!loc\s+\d+:\d+`, Type: chroma.CommentPreproc},
			{Pattern: `\b(define|declare|module|type|global|compute|pixel|vertex|numthreads|semantic|binding|readonly|flat|kind|uniform|to|case|default|zero|undef|true|false)\b`, Type: chroma.Keyword},
			{Pattern: `\b(selection_merge|loop_merge)\b`, Type: chroma.KeywordPseudo},
			{Pattern: `\b(br|condbr|switch|ret|discard|unreachable)\b`, Type: chroma.KeywordReserved},
			{Pattern: `\b(void|bool|[iuf](8|16|32|64)|ptr|function|private|groupshared|storage|input|output)\b`, Type: chroma.KeywordType},
			{Pattern: `\b(intr|call|phi|load|store|alloca|access|memcpy|memset|atomic)\b`, Type: chroma.NameBuiltin},
			{Pattern: `\b[a-z][a-z0-9]*(\.[a-z0-9]+)*\b`, Type: chroma.NameFunction},
			{Pattern: `0x[0-9A-Fa-f]+|-?\d+\.\d*([eE][-+]?\d+)?|-?\d+[eE][-+]?\d+|-?\d+`, Type: chroma.LiteralNumber},
			{Pattern: `[A-Z][A-Za-z0-9_]*`, Type: chroma.NameFunction},
			{Pattern: `[<>\[\]{}(),=:*?x]`, Type: chroma.Punctuation},
			{Pattern: `\s+`, Type: chroma.TextWhitespace},
			{Pattern: `.`, Type: chroma.Text},
		},
	}
})

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
			{Pattern: `\b(if|else|endif|rep|endrep|loop|endloop|break|break_[a-z]+|breakc_[a-z]+|breakc|call|callnz|ret|label|texkill)\b`, Type: chroma.KeywordReserved},
			{Pattern: `\b(r|c|i|b|v|o|t|s|a)\d+\b|\boC\d\b|\boDepth\b|\boPos\b|\baL\b|\bp0\b`, Type: chroma.NameVariable},
			{Pattern: `\.[xyzwrgba]{1,4}\b`, Type: chroma.NameAttribute},
			{Pattern: `\b[a-z_][a-z0-9_]*\b`, Type: chroma.NameBuiltin},
			{Pattern: `-?\d+\.\d*([eE][-+]?\d+)?|-?\d+`, Type: chroma.LiteralNumber},
			{Pattern: `[,\-!]`, Type: chroma.Punctuation},
			{Pattern: `\s+`, Type: chroma.TextWhitespace},
			{Pattern: `.`, Type: chroma.Text},
		},
	}
})
