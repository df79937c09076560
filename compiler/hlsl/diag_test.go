package hlsl

import (
	"fmt"
	"strings"
	"testing"
)

func TestRenderExact(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"undeclared", "void f()\n{\n  int x;\n  x = foo + 1;\n}\n", `test.hlsl:4:7: error: use of undeclared identifier 'foo'
    4 |   x = foo + 1;
      |       ^~~
1 error generated.
`},
		{"macro expansion", "#define BAD(v) ((v) + missing)\nfloat f(float a) { return BAD(a); }\n", `test.hlsl:1:23: error: use of undeclared identifier 'missing'
    1 | #define BAD(v) ((v) + missing)
      |                       ^~~~~~~
test.hlsl:2:27: note: in expansion of macro 'BAD'
    2 | float f(float a) { return BAD(a); }
      |                           ^~~
1 error generated.
`},
		{"redefinition", "float x;\nint x;\n", `test.hlsl:2:5: error: redefinition of 'x'
    2 | int x;
      |     ^
test.hlsl:1:7: note: previous definition is here
    1 | float x;
      |       ^
1 error generated.
`},
		{"missing semicolon", "void f()\n{\n\tint a = 1\n\tint b = 2;\n}\n", `test.hlsl:3:11: error: expected ';' at end of declaration
    3 |         int a = 1
      |                  ^
1 error generated.
`},
		{"truncation warning", "void f()\n{\n    float4 v = 1;\n    float2 w = v;\n}\n", `test.hlsl:4:16: warning: implicit truncation of vector type
    4 |     float2 w = v;
      |                ^
1 warning generated.
`},
		{"unsupported type", "uniform double d;\nuniform half4 h;\n", `test.hlsl:1:9: error: unsupported type 'double'
    1 | uniform double d;
      |         ^~~~~~
test.hlsl:2:9: error: unsupported type 'half4'
    2 | uniform half4 h;
      |         ^~~~~
2 errors generated.
`},
		{"did you mean", "float f(float3 v) { return lenght(v); }\n", `test.hlsl:1:28: error: use of undeclared identifier 'lenght'; did you mean 'length'?
    1 | float f(float3 v) { return lenght(v); }
      |                            ^~~~~~
1 error generated.
`},
		{"unclosed paren", "float f(float a) { return (a + 1; }\n", `test.hlsl:1:33: error: expected ')'
    1 | float f(float a) { return (a + 1; }
      |                                 ^
test.hlsl:1:27: note: to match this '('
    1 | float f(float a) { return (a + 1; }
      |                           ^
1 error generated.
`},
		{"mixed", "void f() { float4 v = 1; float3 w = v; undefinedVar = 2; }\n", `test.hlsl:1:37: warning: implicit truncation of vector type
    1 | void f() { float4 v = 1; float3 w = v; undefinedVar = 2; }
      |                                     ^
test.hlsl:1:40: error: use of undeclared identifier 'undefinedVar'
    1 | void f() { float4 v = 1; float3 w = v; undefinedVar = 2; }
      |                                        ^~~~~~~~~~~~
1 warning and 1 error generated.
`},
	}
	for _, tt := range tests {
		prog, diags := compile(t, tt.src, Options{Library: true})
		if got := render(prog, diags); got != tt.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
}

func TestErrorRecoveryAndCap(t *testing.T) {
	// Several independent syntax errors are all reported.
	src := "void f() {\n  int a = ;\n  float b = 1\n  b = (2;\n  return;\n}\nint g( { }\nfloat h() { return 1; }\n"
	_, diags := compile(t, src, Options{Library: true})
	if n := diags.Count(Error); n < 3 {
		t.Errorf("want at least 3 errors, got:\n%s", messages(diags))
	}
	// After the cap, the frontend stops with "too many errors emitted".
	var b strings.Builder
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&b, "float v%d = undefined%d;\n", i, i)
	}
	_, diags = compile(t, b.String(), Options{Library: true})
	if n := diags.Count(Error); n != 21 {
		t.Errorf("want 20 errors + cap, got %d", n)
	}
	if last := diags[len(diags)-1]; last.Message != "too many errors emitted, stopping now" {
		t.Errorf("last diagnostic: %s", last.Message)
	}
	_, diags = compile(t, b.String(), Options{Library: true, MaxErrors: 5})
	if n := diags.Count(Error); n != 6 {
		t.Errorf("MaxErrors 5: got %d errors", n)
	}
}

func TestDiagnosticOptions(t *testing.T) {
	src := "void f() { float4 v = 1; float2 w = v; }"
	_, diags := compile(t, src, Options{Library: true, NoWarnings: true})
	if len(diags) != 0 {
		t.Errorf("NoWarnings: %s", messages(diags))
	}
	_, diags = compile(t, src, Options{Library: true, WarningsAsErrors: true})
	if !diags.HasErrors() {
		t.Error("WarningsAsErrors: no error")
	}
}

func TestParseThenCheck(t *testing.T) {
	prog, diags := Parse("t.hlsl", []byte("float4 main() : SV_Target { return 1; }"), Options{})
	if len(diags) != 0 {
		t.Fatal(messages(diags))
	}
	if diags := Check(prog, Options{}); len(diags) != 0 {
		t.Fatal(messages(diags))
	}
	if prog.Entry == nil || prog.Entry.Stage != StagePixel {
		t.Fatal("entry not checked")
	}
}
