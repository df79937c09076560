package llvm

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"passlens/compiler/analysis/uniformity/uniformitytest"
)

// denseLL is the dense-N.ll input of bench/analyze-ll.sh (written by
// TestUniformityWriteBenchLL with the same generator and seed).
func denseLL(tb testing.TB, n int) []byte {
	rng := rand.New(rand.NewPCG(uint64(n), 98))
	vf := uniformitytest.DecorateFunc(rng, uniformitytest.StructuredFunc(rng, "dense", n), uniformitytest.DenseValueOptions)
	var buf bytes.Buffer
	if err := uniformitytest.WriteValueLL(&buf, []*uniformitytest.ValueFunc{vf}); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkImportListing imports the dense benchmark function with its
// listing, as `passlens analyze` does: time, bytes and allocations per
// import, and the live heap the imported module (with its listing) keeps
// (live-MB, measured after a collection).
func BenchmarkImportListing(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		src := denseLL(b, n)
		b.Run(fmt.Sprintf("blocks=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			var live uint64
			for i := 0; i < b.N; i++ {
				m, lst, err := ImportListing("dense.ll", src)
				if err != nil {
					b.Fatal(err)
				}
				if i == 0 {
					b.StopTimer()
					var ms0 runtime.MemStats
					runtime.GC()
					runtime.ReadMemStats(&ms0)
					live = ms0.HeapAlloc
					runtime.KeepAlive(m)
					runtime.KeepAlive(lst)
					b.StartTimer()
				}
			}
			b.ReportMetric(float64(live)/(1<<20), "live-MB")
		})
	}
}
