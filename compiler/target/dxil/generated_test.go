package dxil

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"

	"passlens/compiler/ir"
	"passlens/compiler/pipeline"
	"passlens/compiler/progen"
	"passlens/compiler/target"
	"passlens/internal/testtool/llvmverify"
)

// generatedCount is the number of generated programs per run (override
// with PASSLENS_DXIL_GENERATED=N; the 100,000-program run uses it), and
// generatedFrom the first seed (PASSLENS_DXIL_GENERATED_FROM, to split a
// long run between processes).
func generatedCount() int {
	if n, err := strconv.Atoi(os.Getenv("PASSLENS_DXIL_GENERATED")); err == nil && n > 0 {
		return n
	}
	return 1000
}

func generatedFrom() int {
	n, _ := strconv.Atoi(os.Getenv("PASSLENS_DXIL_GENERATED_FROM"))
	return max(n, 0)
}

// TestDXILGeneratedPrograms compiles compiler/progen programs (grouped
// case labels reached by fallthrough, component stores at dynamic
// indices, calls with inout/out, long chains, loops, wave operations)
// through the dxil pipeline and the back end; llvm-as-22 (which runs
// LLVM's verifier) must accept every output, checked in one helper
// process (llvmverify) while the programs compile on every core. Grouped case labels made 6
// of 313 such programs invalid before the exporter gave phis one entry
// per switch edge.
func TestDXILGeneratedPrograms(t *testing.T) {
	t.Parallel()
	spec, err := pipeline.Default(target.DXIL)
	if err != nil {
		t.Fatal(err)
	}
	n := generatedCount()
	var mu sync.Mutex
	var bad []string
	seeds := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seed := range seeds {
				if msg := checkGenerated(t, spec, seed); msg != "" {
					mu.Lock()
					bad = append(bad, msg)
					mu.Unlock()
				}
			}
		}()
	}
	from := generatedFrom()
	for seed := from; seed < from+n; seed++ {
		seeds <- seed
		if seed > from && (seed-from)%5000 == 0 {
			mu.Lock()
			t.Logf("%d programs sent, %d invalid so far", seed, len(bad))
			mu.Unlock()
		}
	}
	close(seeds)
	wg.Wait()
	for i, msg := range bad {
		if i == 5 {
			t.Errorf("... and %d more", len(bad)-5)
			break
		}
		t.Error(msg)
	}
	t.Logf("%d generated programs (seeds %d to %d), %d invalid DXIL modules", n, from, from+n-1, len(bad))
}

// checkGenerated compiles generated program seed and returns what is
// wrong with it ("" if llvm-as-22 accepts the output).
func checkGenerated(t *testing.T, spec pipeline.Spec, seed int) string {
	src, _ := progen.Program(uint64(seed))
	m, err := ir.ParseModule(fmt.Sprintf("gen-%d.pir", seed), []byte(src))
	if err != nil {
		return fmt.Sprintf("seed %d: generated IR does not parse: %v", seed, err)
	}
	if res := pipeline.Run(context.Background(), m, spec, pipeline.Options{Target: target.DXIL, VerifyEach: true}); res.Err != nil {
		return fmt.Sprintf("seed %d: dxil pipeline: %v", seed, res.Err)
	}
	out, err := Emit(m)
	if err != nil {
		return fmt.Sprintf("seed %d: emit: %v", seed, err)
	}
	if err := llvmverify.Text(t, fmt.Sprintf("gen-%d.ll", seed), out.Text); err != nil {
		return fmt.Sprintf("seed %d: llvm-as-22 rejects the output: %v", seed, err)
	}
	return ""
}
