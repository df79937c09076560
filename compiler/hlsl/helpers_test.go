package hlsl

import (
	"strings"
	"testing"
)

// compile runs the frontend over src (as "test.hlsl") and returns the
// program and diagnostics.
func compile(t *testing.T, src string, opts Options) (*Program, Diagnostics) {
	t.Helper()
	prog, diags := Frontend("test.hlsl", []byte(src), opts)
	for _, d := range diags {
		if isInternalError(d.Message) {
			t.Fatalf("internal compiler error:\n%s", d.Message)
		}
	}
	return prog, diags
}

// render formats diagnostics with source snippets.
func render(prog *Program, diags Diagnostics) string {
	var b strings.Builder
	var src Sources
	if prog != nil {
		src = prog.Sources
	}
	_ = diags.Render(&b, src)
	return b.String()
}

// messages lists "severity: message" lines of the top-level diagnostics.
func messages(diags Diagnostics) string {
	var lines []string
	for _, d := range diags {
		lines = append(lines, d.Severity.String()+": "+d.Message)
	}
	return strings.Join(lines, "\n")
}

// expectDiag compiles src and checks its diagnostics: none at all when
// want is empty, else one whose "severity: message" contains want.
func expectDiag(t *testing.T, src string, opts Options, want string) {
	t.Helper()
	_, diags := compile(t, src, opts)
	got := messages(diags)
	if want == "" && len(diags) > 0 || want != "" && !strings.Contains(got, want) {
		t.Errorf("%s:\ngot  %s\nwant %q", src, got, want)
	}
}

// findFunc returns the definition of the named function.
func findFunc(prog *Program, name string) *FuncDecl {
	for _, f := range prog.Funcs {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// exprOf checks "prelude; void __t() { expr; }" as a library and returns
// the checked expression of the statement, with the diagnostics.
func exprOf(t *testing.T, prelude, expr string) (Expr, Diagnostics) {
	t.Helper()
	src := prelude + "\nvoid __t() {\n" + expr + ";\n}\n"
	prog, diags := compile(t, src, Options{Library: true})
	f := findFunc(prog, "__t")
	if f == nil || len(f.Body.Stmts) == 0 {
		t.Fatalf("no test function in:\n%s\n%s", src, messages(diags))
	}
	st, ok := f.Body.Stmts[len(f.Body.Stmts)-1].(*ExprStmt)
	if !ok {
		t.Fatalf("%s: last statement is %T", expr, f.Body.Stmts[len(f.Body.Stmts)-1])
	}
	return st.X, diags
}

// stripCasts removes implicit casts from the top of e.
func stripCasts(e Expr) Expr {
	for {
		ic, ok := e.(*ImplicitCast)
		if !ok {
			return e
		}
		e = ic.X
	}
}

// isInternalError reports a diagnostic that is a compiler bug: an explicit
// "internal compiler error" check, or a recovered panic (guard's wording,
// "internal error in <where>: ...").
func isInternalError(msg string) bool {
	return strings.HasPrefix(msg, "internal compiler error") || strings.HasPrefix(msg, "internal error in ")
}
