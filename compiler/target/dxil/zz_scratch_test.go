package dxil

import (
	"os"
	"testing"
)

func TestScratchDump(t *testing.T) {
	m := loadHLSL(t, "/tmp/sc/s.hlsl")
	os.WriteFile("/tmp/s0.pir", []byte(m.String()), 0o644)
	runSpec(t, m, "inline,sroa,simplify,scalarize,simplify")
	os.WriteFile("/tmp/s.pir", []byte(m.String()), 0o644)
	out, err := Emit(m)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile("/tmp/s.ll", []byte(out.Text), 0o644)
}
