// Package golden holds the repository's one -update flag and the check
// every golden-file test shares: compare what a test produced with the file
// in testdata, or rewrite the file when the test runs with -update
// (`go test ./compiler/passes -update`). It is imported by tests only.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata from the current output instead of comparing")

// Update reports whether the test binary runs with -update.
func Update() bool { return *update }

// Check compares got with the golden file path. Under -update it writes got
// to path (creating directories) and passes; otherwise a missing file or a
// difference fails the test with the differing lines.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if string(want) != string(got) {
		t.Errorf("output differs from %s (run the test with -update if the change is intended):\n%s\ngot:\n%s", path, DiffLines(string(want), string(got)), got)
	}
}

// DiffLines returns a compact line-by-line comparison of want and got for
// failure messages: each differing line number with both versions.
func DiffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var sb strings.Builder
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			sb.WriteString("  line " + strconv.Itoa(i+1) + ":\n    want: " + a + "\n    got:  " + b + "\n")
		}
	}
	return sb.String()
}
