package passes

import (
	"bytes"
	"os"
	"testing"

	"passlens/compiler/passes/internal/passdoc"
)

// TestGeneratedDocsFresh fails when zz_doc.go no longer matches the doc
// comments of the pass variables (someone edited a comment and did not
// regenerate, or edited the generated file).
func TestGeneratedDocsFresh(t *testing.T) {
	t.Parallel()
	want, err := passdoc.Generate(passdoc.Dirs...)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("zz_doc.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("compiler/passes/zz_doc.go is stale: run `%s` (and `go generate ./cmd/passlens` for docs/passes.md)", passdoc.Command)
	}
}

// TestEveryPassDocumentedFromComment checks that each registered pass got
// its Summary and Doc from the generated table, i.e. from its doc comment.
func TestEveryPassDocumentedFromComment(t *testing.T) {
	t.Parallel()
	for _, p := range All {
		d, ok := passDocs[p.Name]
		if !ok {
			t.Errorf("pass %s has no entry in zz_doc.go: give its variable a doc comment \"X is the %s pass: <summary>.\" and run `%s`", p.Name, p.Name, passdoc.Command)
			continue
		}
		if p.Summary != d.summary || p.Doc != d.doc {
			t.Errorf("pass %s: Summary/Doc differ from its doc comment (set in the literal?)", p.Name)
		}
	}
}
