package ir_test

import (
	"math/rand/v2"
	"testing"

	"passlens/compiler/ir"
	"passlens/compiler/ir/irtest"
)

// TestCFGRandomEdits applies random CFG edits to random functions and
// compares the cached CFG with a fresh build after each.
func TestCFGRandomEdits(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 15))
	for seed := int64(1); seed <= 6; seed++ {
		m := irtest.RandomModule(seed, irtest.RandomOptions{Funcs: 2, Blocks: 8, Instrs: 2, Unstructured: seed%2 == 0})
		for _, f := range m.Funcs {
			if len(f.Blocks) < 2 {
				continue
			}
			for k := 0; k < 40; k++ {
				f.CFG()
				b := f.Blocks[rng.IntN(len(f.Blocks))]
				to := f.Blocks[1+rng.IntN(len(f.Blocks)-1)]
				t0 := b.Terminator()
				switch {
				case t0 != nil && len(t0.Succs) > 0 && rng.IntN(2) == 0:
					t0.Succs[rng.IntN(len(t0.Succs))] = to
				case t0 != nil && len(t0.Cases) > 0:
					t0.Cases[rng.IntN(len(t0.Cases))].Target = to
				default:
					i, j := 1+rng.IntN(len(f.Blocks)-1), 1+rng.IntN(len(f.Blocks)-1)
					f.Blocks[i], f.Blocks[j] = f.Blocks[j], f.Blocks[i]
				}
				ir.SameCFG(t, "random edit", f.CFG(), ir.FreshCFG(f))
			}
		}
	}
}

// BenchmarkCFG measures, on one function of the 100k-instruction module,
// the cost of a cache hit (the check that the CFG did not change), of a
// rebuild of the graph, and of the dominator tree.
func BenchmarkCFG(b *testing.B) {
	m := irtest.RandomModule(7, irtest.RandomOptions{Funcs: 1, Blocks: 6000, Instrs: 12, Unstructured: true})
	var f *ir.Function
	for _, g := range m.Funcs {
		if f == nil || len(g.Blocks) > len(f.Blocks) {
			f = g
		}
	}
	b.Logf("%d blocks", len(f.Blocks))
	b.Run("hit", func(b *testing.B) {
		f.CFG()
		b.ReportAllocs()
		for b.Loop() {
			f.CFG()
		}
	})
	b.Run("build", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ir.FreshCFG(f)
		}
	})
	b.Run("build+dom", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ir.FreshCFG(f).Dom()
		}
	})
}

// TestCFGConcurrentReaders checks that goroutines sharing an unchanged
// function may ask for its CFG and trees at once (run with -race).
func TestCFGConcurrentReaders(t *testing.T) {
	m := irtest.RandomModule(3, irtest.RandomOptions{Funcs: 1, Blocks: 20, Instrs: 2, Unstructured: true})
	f := m.Funcs[len(m.Funcs)-1]
	done := make(chan *ir.CFG)
	for range 4 {
		go func() {
			c := f.CFG()
			c.Dom()
			c.PostDom()
			c.Frontiers()
			c.Preds(f.Blocks[len(f.Blocks)-1])
			done <- c
		}()
	}
	for range 4 {
		ir.SameCFG(t, "concurrent", <-done, ir.FreshCFG(f))
	}
}
