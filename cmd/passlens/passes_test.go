package main

import (
	"os"
	"strings"
	"testing"

	"passlens/compiler/passes"
)

// TestPassesMarkdownIsDocsPassesMD fails when docs/passes.md is not exactly
// what `passlens passes --markdown` prints (a pass's doc comment, the
// header/footer or the rules changed without regenerating).
func TestPassesMarkdownIsDocsPassesMD(t *testing.T) {
	t.Parallel()
	code, out, errOut := run("passes", "--markdown")
	if code != 0 || errOut != "" {
		t.Fatalf("passes --markdown: exit %d, stderr %q", code, errOut)
	}
	want, err := os.ReadFile("../../docs/passes.md")
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Fatalf("docs/passes.md is stale: run `go generate ./compiler/passes ./cmd/passlens`")
	}
	// Every registered pass has its section, with its summary and doc text.
	for _, p := range passes.All {
		sec := "\n## " + p.Name + "\n\n*" + p.Summary + ".*"
		if !strings.Contains(out, sec) {
			t.Errorf("no section %q", sec)
		}
		first, _, _ := strings.Cut(p.Doc, "\n")
		if !strings.Contains(out, "\n"+strings.TrimPrefix(first, "  - ")) {
			t.Errorf("section %s lacks its doc's first line %q", p.Name, first)
		}
	}
}

// TestPassesDocPrintsComment: `passes --doc` prints each pass's long
// description (from its doc comment) under its summary line.
func TestPassesDocPrintsComment(t *testing.T) {
	t.Parallel()
	code, out, _ := run("passes", "--doc")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, p := range passes.All {
		first, _, _ := strings.Cut(p.Doc, "\n")
		if !strings.Contains(out, p.Summary+"\n      "+first+"\n") {
			t.Errorf("pass %s: summary and doc not printed together", p.Name)
		}
	}
}
