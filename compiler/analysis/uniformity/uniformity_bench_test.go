package uniformity_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"passlens/compiler/analysis/uniformity"
	"passlens/compiler/analysis/uniformity/uniformitytest"
	"passlens/compiler/ir"
)

// denseFunction builds the uniformity benchmark function: a structured
// program (StructuredFunc) of n blocks with dense divergence.
func denseFunction(n int) *ir.Function {
	rng := rand.New(rand.NewPCG(uint64(n), 98))
	vf := uniformitytest.DecorateFunc(rng, uniformitytest.StructuredFunc(rng, "dense", n), uniformitytest.DenseValueOptions)
	return vf.BuildIR(ir.NewModule("dense"))
}

// irreducibleFunction builds the irreducible stress function: DenseFunc,
// whose loops tie into one large, deeply nested irreducible cycle.
func irreducibleFunction(n int) *ir.Function {
	rng := rand.New(rand.NewPCG(uint64(n), 99))
	vf := uniformitytest.DecorateFunc(rng, uniformitytest.DenseFunc(rng, "irreducible", n), uniformitytest.DenseValueOptions)
	return vf.BuildIR(ir.NewModule("irreducible"))
}

func benchUniformity(b *testing.B, f *ir.Function, opts ...uniformity.UniformityOption) {
	b.ReportAllocs()
	var u *uniformity.UniformityInfo
	for b.Loop() {
		u = uniformity.Uniformity(f, opts...)
	}
	b.ReportMetric(float64(u.Stats.Branches), "branches")
	b.ReportMetric(float64(u.Stats.Steps), "steps")
}

func BenchmarkUniformityDense10k(b *testing.B)  { benchUniformity(b, denseFunction(10000)) }
func BenchmarkUniformityDense100k(b *testing.B) { benchUniformity(b, denseFunction(100000)) }

// BenchmarkUniformityDense10kPlain is the fast engine without branch
// skipping, pruning and jumps: LLVM's algorithm on arrays.
func BenchmarkUniformityDense10kPlain(b *testing.B) {
	benchUniformity(b, denseFunction(10000), uniformity.WithoutPruning(), uniformity.WithoutJumps())
}

func BenchmarkUniformityIrreducible2k(b *testing.B) { benchUniformity(b, irreducibleFunction(2000)) }

// BenchmarkUniformityIrreducible100k is the irreducible stress shape at
// 100k blocks, where the step budget is spent (docs/analyses.md).
func BenchmarkUniformityIrreducible100k(b *testing.B) {
	benchUniformity(b, irreducibleFunction(100000))
}

// TestUniformityDenseWork checks that the work of the fast engine on the
// dense benchmark stays linear: the propagation visits a bounded number of
// blocks per block of the function, at 10k and 100k blocks alike.
func TestUniformityDenseWork(t *testing.T) {
	sizes := []int{10000, 100000}
	if testing.Short() {
		sizes = sizes[:1]
	}
	for _, n := range sizes {
		u := uniformity.Uniformity(denseFunction(n))
		t.Logf("%d blocks: %+v", n, u.Stats)
		if u.Stats.Branches < n/8 {
			t.Errorf("%d blocks: only %d divergent branches; the benchmark should be dense", n, u.Stats.Branches)
		}
		if u.Stats.Steps > n {
			t.Errorf("%d blocks: the propagation processed %d blocks, more than the function has", n, u.Stats.Steps)
		}
	}
}

// TestUniformityDenseMatchesReference compares the fast engine with the
// reference on benchmark-shaped functions larger than the random ones.
func TestUniformityDenseMatchesReference(t *testing.T) {
	for _, f := range []*ir.Function{denseFunction(3000), irreducibleFunction(800)} {
		if d := diffKeys(resultKeys(uniformity.Uniformity(f, uniformity.WithReferenceAlgorithm())), resultKeys(uniformity.Uniformity(f))); len(d) > 0 {
			t.Errorf("%s: fast engine differs from the reference: %v", f.Name(), d[:min(len(d), 8)])
		}
	}
}

// TestUniformityWriteBenchLL writes the benchmark functions as LLVM IR into
// the directory named by PASSLENS_UNIFORMITY_BENCH_DIR (dense-N.ll for the
// sizes in BENCHMARKS.md, irreducible-N.ll for the stress shape), for the
// side-by-side runs against opt-22. Skipped otherwise.
// PASSLENS_UNIFORMITY_BENCH_ONLY=dense-100000.ll writes only that file.
func TestUniformityWriteBenchLL(t *testing.T) {
	dir := os.Getenv("PASSLENS_UNIFORMITY_BENCH_DIR")
	if dir == "" {
		t.Skip("set PASSLENS_UNIFORMITY_BENCH_DIR to write the benchmark inputs")
	}
	only := os.Getenv("PASSLENS_UNIFORMITY_BENCH_ONLY")
	skip := func(name string) bool { return only != "" && name != only }
	write := func(name string, vf *uniformitytest.ValueFunc) {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := uniformitytest.WriteValueLL(f, []*uniformitytest.ValueFunc{vf}); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []int{1000, 5000, 10000, 20000, 100000} {
		if skip(fmt.Sprintf("dense-%d.ll", n)) {
			continue
		}
		rng := rand.New(rand.NewPCG(uint64(n), 98))
		write(fmt.Sprintf("dense-%d.ll", n), uniformitytest.DecorateFunc(rng, uniformitytest.StructuredFunc(rng, "dense", n), uniformitytest.DenseValueOptions))
	}
	for _, n := range []int{500, 1000, 2000, 5000} {
		if skip(fmt.Sprintf("irreducible-%d.ll", n)) {
			continue
		}
		rng := rand.New(rand.NewPCG(uint64(n), 99))
		write(fmt.Sprintf("irreducible-%d.ll", n), uniformitytest.DecorateFunc(rng, uniformitytest.DenseFunc(rng, "irreducible", n), uniformitytest.DenseValueOptions))
	}
}
