package themes

import (
	"testing"

	"github.com/alecthomas/chroma/v2"
)

func tokenTypes(t *testing.T, l chroma.Lexer, src string) map[string]chroma.TokenType {
	t.Helper()
	it, err := l.Tokenise(nil, src)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]chroma.TokenType{}
	for _, tok := range it.Tokens() {
		got[tok.Value] = tok.Type
	}
	return got
}

// TestPIRLexer checks that the IR lexer gives the key tokens their meaning,
// so highlighting stays tied to the format in docs/ir.md.
func TestPIRLexer(t *testing.T) {
	got := tokenTypes(t, PIR, "entry:\n  %x = fadd f32 %a, 1.5 ; note\n  selection_merge %m\n  condbr bool %c, %t, %m\n  %p = load ptr<input, f32> @g\n")
	want := map[string]chroma.TokenType{
		"entry:": chroma.NameLabel, "%x": chroma.NameVariable, "f32": chroma.KeywordType,
		"1.5": chroma.LiteralNumber, "; note": chroma.Comment, "selection_merge": chroma.KeywordPseudo,
		"condbr": chroma.KeywordReserved, "fadd": chroma.NameFunction, "@g": chroma.NameVariableGlobal,
		"load": chroma.NameBuiltin,
	}
	for v, tt := range want {
		if got[v] != tt {
			t.Errorf("token %q: got %v, want %v", v, got[v], tt)
		}
	}
}

func TestSM3AndSPIRVLexers(t *testing.T) {
	types := tokenTypes(t, SM3Asm, "ps_3_0\ndefi i0, 255, 0, 0, 0\nrep i0\nbreak_ge r0.y, r0.z\nendrep\n")
	if types["defi"] != chroma.KeywordDeclaration || types["rep"] != chroma.KeywordReserved || types["i0"] != chroma.NameVariable || types["break_ge"] != chroma.KeywordReserved {
		t.Errorf("SM3 tokens: %v", types)
	}
	types = tokenTypes(t, SM3Asm, "if_lt r0.x, c0.x\nmov r1, vPos\nmova a0.x, r0.x\ndp4 o0.x, v0, c1[a0.x]\n")
	if types["if_lt"] != chroma.KeywordReserved || types["vPos"] != chroma.NameVariable || types["mova"] != chroma.NameBuiltin || types["dp4"] != chroma.NameBuiltin || types["a0"] != chroma.NameVariable {
		t.Errorf("SM3 tokens: %v", types)
	}
	types = tokenTypes(t, SPIRVAsm, "%1 = OpTypeInt 32 0\nOpSelectionMerge %5 None\n")
	if types["OpTypeInt"] != chroma.KeywordType || types["OpSelectionMerge"] != chroma.KeywordReserved || types["%1"] != chroma.NameVariable {
		t.Errorf("SPIR-V tokens: %v", types)
	}
}

func TestChooseHonoursNoColor(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	if th, _ := Choose("", true); !th.NoColor {
		t.Fatalf("NO_COLOR set: got theme %s", th.Name)
	}
	if th, _ := Choose("light", true); th.Name != "light" {
		t.Fatalf("explicit theme must win over NO_COLOR, got %s", th.Name)
	}
	t.Setenv("NO_COLOR", "")
	if th, _ := Choose("", false); th.Name != "light" {
		t.Fatalf("light background: got %s", th.Name)
	}
	if _, ok := ByName("nope"); ok {
		t.Fatal("unknown theme accepted")
	}
}

// TestLLVMLexer checks the LLVM IR rules on the shapes the DXIL back end
// and the amdgcn export print.
func TestLLVMLexer(t *testing.T) {
	got := tokenTypes(t, LLVM, "define amdgpu_cs void @main(i32 inreg %u) {\nentry:\n  %x.$lo = add nsw i32 %u, -7 ; c\n  br label %exit\n}\n")
	want := map[string]chroma.TokenType{
		"define": chroma.Keyword, "amdgpu_cs": chroma.Keyword, "void": chroma.KeywordType, "@main": chroma.NameVariableGlobal,
		"i32": chroma.KeywordType, "%u": chroma.NameVariable, "entry:": chroma.NameLabel, "%x.$lo": chroma.NameVariable,
		"add": chroma.NameBuiltin, "-7": chroma.LiteralNumber, "; c": chroma.Comment, "br": chroma.KeywordReserved,
		"label": chroma.KeywordType,
	}
	for text, tt := range want {
		if got[text] != tt {
			t.Errorf("%q: got %v, want %v", text, got[text], tt)
		}
	}
}
