package interp

import (
	"testing"

	"passlens/compiler/ir"
)

// BenchmarkLoop: 4 groups of 256 threads, each running a 100-iteration
// loop with a divergent exit and a wave op per iteration, in waves of 32.
func BenchmarkLoop(b *testing.B) {
	k := newKit(ir.U32, 256)
	entry := k.b.B
	loop := k.f.NewBlock("loop")
	latch := k.f.NewBlock("latch")
	exit := k.f.NewBlock("exit")
	k.b.Br(loop)
	k.b.SetBlock(loop)
	i := k.b.Phi(ir.U32, "i")
	acc := k.b.Phi(ir.U32, "acc")
	s := k.wave("WaveActiveSum", ir.U32, i)
	accN := k.b.Binary(ir.OpAdd, acc, k.b.Binary(ir.OpXor, s, k.tid, ""), "")
	iN := k.b.Binary(ir.OpAdd, i, u32c(1), "")
	lim := k.b.Binary(ir.OpAdd, u32c(90), k.b.Binary(ir.OpURem, k.tid, u32c(11), ""), "")
	k.b.CondBr(k.b.Cmp(ir.PredUGE, iN, lim, ""), exit, latch).SetLoopMerge(exit, latch)
	i.AddIncoming(u32c(0), entry)
	i.AddIncoming(iN, latch)
	acc.AddIncoming(u32c(0), entry)
	acc.AddIncoming(accN, latch)
	k.b.SetBlock(latch)
	k.b.Br(loop)
	k.b.SetBlock(exit)
	k.store(accN)
	m := k.finish()
	in := &Input{Dispatch: [3]int{4, 1, 1}}
	var steps int64
	b.ReportAllocs()
	for b.Loop() {
		r, err := Run(m, in, Options{})
		if err != nil {
			b.Fatal(err)
		}
		steps = r.Steps
	}
	b.ReportMetric(float64(steps)*float64(b.N)/b.Elapsed().Seconds(), "steps/s")
}
