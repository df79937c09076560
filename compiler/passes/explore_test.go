package passes

import (
	"os"
	"strings"
	"testing"
)

// TestExplore runs passes on a file for manual inspection:
// EXPLORE=file.pir PASSES=inline,sroa go test -run TestExplore
func TestExplore(t *testing.T) {
	file := os.Getenv("EXPLORE")
	if file == "" {
		t.Skip("set EXPLORE")
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m := parseIR(t, file, string(src))
	for _, p := range strings.Split(os.Getenv("PASSES"), ",") {
		runPasses(t, m, p, os.Getenv("TARGET"))
		t.Logf("after %s:\n%s", p, m)
	}
}
