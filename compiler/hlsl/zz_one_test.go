package hlsl

import (
	"os"
	"testing"
	"time"
)

func TestOneTmp(t *testing.T) {
	p := os.Getenv("HLSL_ONE")
	if p == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(p)
	for _, opts := range []Options{{}, {Library: true}} {
		start := time.Now()
		_, d := Frontend("s.hlsl", src, opts)
		t.Logf("%v %d diags", time.Since(start), len(d))
		for i, x := range d {
			if i < 5 {
				t.Log(x.Pos, x.Message[:min(300, len(x.Message))])
			}
		}
	}
}
