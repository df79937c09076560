package hlsl

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"passlens/compiler/interp"
)

func TestRunFile(t *testing.T) {
	path := os.Getenv("SHADER")
	src, _ := os.ReadFile(path)
	prog, diags := Frontend(path, src, Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m, d := Lower(prog, Options{})
	if m == nil {
		t.Fatal(d)
	}
	if os.Getenv("PRINT") != "" {
		t.Log(m.String())
	}
	var in *interp.Input
	if j := os.Getenv("INPUT"); j != "" {
		var err error
		in, err = interp.ParseInput([]byte(j))
		if err != nil {
			t.Fatal(err)
		}
	}
	res, err := interp.Run(m, in, interp.Options{WaveSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	for _, b := range res.Buffers {
		fmt.Fprintf(&sb, "%s:", b.Name)
		for i := 0; i < b.Count && i < 17; i++ {
			fmt.Fprintf(&sb, " %s", interp.FormatValue(b.Elem, b.Element(i)))
		}
		sb.WriteString("\n")
	}
	t.Log(sb.String())
}
