package passdump

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"passlens/bench/dumpgen"
)

// benchLog writes a generated log of about size bytes (bench/dumpgen) to a
// temporary file once per benchmark.
func benchLog(b *testing.B, size int64) string {
	b.Helper()
	var buf bytes.Buffer
	if err := dumpgen.Write(&buf, dumpgen.Options{Size: size}); err != nil {
		b.Fatal(err)
	}
	p := filepath.Join(b.TempDir(), "big.log")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkIndex: one sequential scan of a ~56 MB log (one dumpgen round).
func BenchmarkIndex(b *testing.B) {
	p := benchLog(b, 1)
	st, _ := os.Stat(p)
	b.SetBytes(st.Size())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l, err := Open(p)
		if err != nil {
			b.Fatal(err)
		}
		l.Close()
	}
}

// BenchmarkStep: composing a step's whole module (what stepping costs),
// across the log so that the cache never answers.
func BenchmarkStep(b *testing.B) {
	l, err := Open(benchLog(b, 1))
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := l.Text((i * 7919) % len(l.Steps)); err != nil {
			b.Fatal(err)
		}
	}
}
