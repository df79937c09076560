package hlsl

import (
	"os"
	"testing"
)

func TestDumpTmp(t *testing.T) {
	path := os.Getenv("HLSL_DUMP")
	if path == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(path)
	prog, d := Frontend(path, src, Options{})
	_ = d.Render(os.Stdout, prog.Sources)
}
