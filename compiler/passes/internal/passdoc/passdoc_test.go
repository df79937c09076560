package passdoc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writePkg(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestExtract(t *testing.T) {
	dir := writePkg(t, "package p\n\n"+
		"// Foo is the foo-bar pass: do the foo thing\n// to bars.\n//\n// It does `x`.\n//\n//   - one\n//   - two\nvar Foo = &Pass{Name: \"foo-bar\", Run: nil}\n\n"+
		"// Other is not a pass.\nvar Other = 3\n")
	es, err := Extract(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 1 {
		t.Fatalf("got %d entries, want 1", len(es))
	}
	e := es[0]
	if e.Name != "foo-bar" || e.Summary != "do the foo thing to bars" {
		t.Errorf("name/summary = %q / %q", e.Name, e.Summary)
	}
	if want := "It does `x`.\n\n  - one\n  - two"; e.Doc != want {
		t.Errorf("doc = %q, want %q", e.Doc, want)
	}
	src, err := Generate(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), `"foo-bar": {`) || !strings.Contains(string(src), "It does ` + \"`\" + `x` + \"`\" + `.") {
		t.Errorf("generated source:\n%s", src)
	}
}

func TestExtractErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"package p\n\nvar Foo = &passes.Pass{Name: \"foo\"}\n", "p.go:3: pass \"foo\" has no doc comment"},
		{"package p\n\n// Foo does foo.\n//\n// More.\nvar Foo = &Pass{Name: \"foo\"}\n", `must start with the paragraph "Foo is the foo pass: <one-line summary>."`},
		{"package p\n\n// Foo is the foo pass: foo.\nvar Foo = &Pass{Name: \"foo\"}\n", "has no description after its summary"},
	} {
		_, err := Extract(writePkg(t, tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Extract(%q) error = %v, want %q", tc.src, err, tc.want)
		}
	}
}
