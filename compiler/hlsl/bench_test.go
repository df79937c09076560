package hlsl

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkFrontend measures the whole frontend on the seed shaders.
func BenchmarkFrontend(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join("testdata", "fuzz", "seeds", "*.hlsl"))
	var srcs [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, data)
	}
	opts := fuzzOptions()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, src := range srcs {
			Frontend("bench.hlsl", src, opts)
		}
	}
}
