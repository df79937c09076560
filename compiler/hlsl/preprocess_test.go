package hlsl

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// memFS serves #include files from memory.
func memFS(files map[string]string) func(string) ([]byte, error) {
	return func(path string) ([]byte, error) {
		if s, ok := files[filepath.ToSlash(path)]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}
}

func TestPreprocess(t *testing.T) {
	tests := []struct {
		name, src, want string
		opts            Options
	}{
		{"object", "#define N 4\nint a[N];", "int a [ 4 ] ;", Options{}},
		{"function", "#define SQ(x) ((x) * (x))\nSQ(a + 1)", "( ( a + 1 ) * ( a + 1 ) )", Options{}},
		{"nested", "#define A B + 1\n#define B 2\nA", "2 + 1", Options{}},
		{"self reference", "#define X X + 1\nX", "X + 1", Options{}},
		{"mutual", "#define A B\n#define B A\nA B", "A B", Options{}},
		{"stringize", "#define S(x) #x\nS(a + \"b\")", `"a + \"b\""`, Options{}},
		{"paste", "#define CAT(a, b) a##b\nCAT(foo, bar) CAT(1, 2)", "foobar 12", Options{}},
		{"paste into macro", "#define AB 7\n#define CAT(a, b) a##b\nCAT(A, B)", "7", Options{}},
		{"variadic", "#define F(x, ...) f(x, __VA_ARGS__)\nF(1, 2, 3)", "f ( 1 , 2 , 3 )", Options{}},
		{"variadic empty", "#define F(x, ...) f(x , ## __VA_ARGS__)\nF(1)", "f ( 1 )", Options{}},
		{"named variadic", "#define F(args...) g(args)\nF(1, 2)", "g ( 1 , 2 )", Options{}},
		{"not invoked", "#define F(x) x\nF + 1", "F + 1", Options{}},
		{"args across lines", "#define F(x, y) x - y\nF(1,\n 2)", "1 -\n2", Options{}},
		{"arg prescan", "#define ID(x) x\n#define TWO 2\nID(TWO)", "2", Options{}},
		{"undef", "#define X 1\n#undef X\nX", "X", Options{}},
		{"ifdef", "#define X\n#ifdef X\nyes\n#else\nno\n#endif", "yes", Options{}},
		{"ifndef", "#ifndef X\nyes\n#endif", "yes", Options{}},
		{"if expr", "#if (1 + 2) * 3 == 9 && !defined(Y) && (5 > 3 ? 1 : 0) && (7 % 4 == 3) && (1 << 4) == 16 && (-1 < 0) && (0xff & 0x0f) == 15\nyes\n#endif", "yes", Options{}},
		{"if unsigned", "#if -1 > 0u\nyes\n#else\nno\n#endif", "yes", Options{}},
		{"elif", "#if 0\na\n#elif 1\nb\n#elif 1\nc\n#else\nd\n#endif", "b", Options{}},
		{"nested if", "#if 0\n#if 1\na\n#endif\n#else\nb\n#endif", "b", Options{}},
		{"defined forms", "#define Z\n#if defined Z && defined(Z)\nyes\n#endif", "yes", Options{}},
		{"undefined ident is 0", "#if FOO\na\n#else\nb\n#endif", "b", Options{}},
		{"macro in if", "#define V 3\n#if V >= 2\nyes\n#endif", "yes", Options{}},
		{"-D", "#if FOO == 2 && BAR\nyes\n#endif", "yes", Options{Defines: []string{"FOO=2", "BAR"}}},
		{"predefined", "#if __HLSL_VERSION >= 2021 && __SHADER_TARGET_MAJOR == 6\nyes\n#endif", "yes", Options{}},
		{"line macro", "a\n__LINE__", "a\n2", Options{}},
		{"pragma once include", `#include "a.h"` + "\n" + `#include "a.h"`, "int a ;", Options{ReadFile: memFS(map[string]string{"a.h": "#pragma once\nint a;"})}},
		{"include dir", "#include <lib.h>\nx", "int lib ;\nx", Options{IncludeDirs: []string{"inc"}, ReadFile: memFS(map[string]string{"inc/lib.h": "int lib;"})}},
		{"pack_matrix", "#pragma pack_matrix(row_major)\nfloat4x4 m;", "#pragma pack_matrix(row_major)\nfloat4x4 m ;", Options{}},
		{"skipped garbage", "#if 0\n#bogus\n' unterminated\n#endif\nok", "ok", Options{}},
		{"continuation", "#define LONG 1 + \\\n 2\nLONG", "1 + 2", Options{}},
		{"comments", "a /* x\ny */ b // c\nd", "a\nb\nd", Options{}},
	}
	for _, tt := range tests {
		got, diags := Preprocess("t.hlsl", []byte(tt.src), tt.opts)
		if diags.HasErrors() {
			t.Errorf("%s: %s", tt.name, messages(diags))
			continue
		}
		if strings.TrimSpace(got) != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, strings.TrimSpace(got), tt.want)
		}
	}
}

func TestPreprocessErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"#error stop here", "error: #error stop here"},
		{"#warning careful", "warning: #warning careful"},
		{"#pragma foo", "warning: unknown pragma ignored"},
		{"#if 1\n", "error: unterminated conditional directive"},
		{"#endif", "error: #endif without #if"},
		{"#else", "error: #else without #if"},
		{"#if 1\n#else\n#else\n#endif", "error: #else after #else"},
		{"#if 1/0\n#endif", "error: division by zero in preprocessor expression"},
		{"#if (1\n#endif", "error: expected ')' in preprocessor expression"},
		{"#if\n#endif", "error: #if with no expression"},
		{"#foo", "error: invalid preprocessing directive"},
		{"#define F(x) x\nF(1, 2)", "error: too many arguments provided to function-like macro invocation"},
		{"#define F(x, y) x\nF(1)", "error: too few arguments provided to function-like macro invocation"},
		{"#define F(x) x\nF(1", "error: unterminated function-like macro invocation"},
		{"#define X 1\n#define X 2", "warning: 'X' macro redefined"},
		{"#define F(x) #y", "error: '#' is not followed by a macro parameter"},
		{"#define F(x) ## x", "error: '##' cannot appear at either end of a macro expansion"},
		{"#define defined 1", "error: 'defined' cannot be used as a macro name"},
		{"#include \"missing.h\"", "error: 'missing.h' file not found"},
		{"#include \"self.h\"", "error: #include nested too deeply"},
		{"#define C(a,b) a##b\nC(+,-)", "error: pasting formed '+-', an invalid preprocessing token"},
		{"/* open", "error: unterminated /* comment"},
		{"#line 0", "error: #line directive requires a positive integer argument"},
		{"#define A(x) x\n#if A(\n#endif", "error"},
	}
	opts := Options{ReadFile: memFS(map[string]string{"self.h": "#include \"self.h\"\n"})}
	for _, tt := range tests {
		_, diags := Preprocess("t.hlsl", []byte(tt.src), opts)
		if got := messages(diags); !strings.Contains(got, tt.want) {
			t.Errorf("%q:\ngot  %s\nwant %q", tt.src, got, tt.want)
		}
	}
}

func TestExponentialMacros(t *testing.T) {
	src := "#define A0 x x\n"
	for i := 1; i < 30; i++ {
		src += "#define A" + string(rune('0'+i%10)) + strings.Repeat("_", i/10) + " A" + string(rune('0'+(i-1)%10)) + strings.Repeat("_", (i-1)/10) + " A" + string(rune('0'+(i-1)%10)) + strings.Repeat("_", (i-1)/10) + "\n"
	}
	src += "A9__\n"
	_, diags := Preprocess("t.hlsl", []byte(src), Options{})
	if got := messages(diags); !strings.Contains(got, "is too large") {
		t.Errorf("got %s", got)
	}
}

// TestPositionsThroughIncludes checks that positions map back to the
// included file and line, and through #line.
func TestPositionsThroughIncludes(t *testing.T) {
	files := map[string]string{"dir/inc.h": "\n\nfloat bad = undefinedInInclude;\n"}
	src := "#include \"inc.h\"\n#line 100 \"renamed.hlsl\"\nfloat x = alsoUndefined;\n"
	prog, diags := Frontend("dir/main.hlsl", []byte(src), Options{Library: true, ReadFile: memFS(files)})
	if len(diags) != 2 {
		t.Fatalf("want 2 diagnostics, got\n%s", messages(diags))
	}
	if p := diags[0].Pos; p.File != filepath.Join("dir", "inc.h") || p.Line != 3 || p.Col != 13 {
		t.Errorf("include position %v", p)
	}
	if p := diags[1].Pos; p.File != "renamed.hlsl" || p.Line != 100 || p.Col != 11 {
		t.Errorf("#line position %v", p)
	}
	// The snippet of a #line-renamed position comes from the physical file.
	out := render(prog, diags)
	if !strings.Contains(out, "  100 | float x = alsoUndefined;") {
		t.Errorf("rendered:\n%s", out)
	}
}

func TestDefinesErrorPath(t *testing.T) {
	_, diags := Preprocess("t.hlsl", []byte(`#include "x.h"`), Options{ReadFile: func(string) ([]byte, error) { return nil, errors.New("boom") }})
	if !diags.HasErrors() {
		t.Error("expected include error")
	}
}

func TestIncludeBlowup(t *testing.T) {
	// A file that includes itself twice would be read 2^64 times.
	src := "#include \"t.hlsl\"\n#include \"t.hlsl\"\nint x;\n"
	_, diags := Preprocess("t.hlsl", []byte(src), Options{ReadFile: memFS(map[string]string{"t.hlsl": src})})
	if got := messages(diags); !strings.Contains(got, "too much text included") && !strings.Contains(got, "nested too deeply") {
		t.Errorf("got %s", got)
	}
}
