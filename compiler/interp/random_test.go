package interp

import (
	"fmt"
	"math/rand"
	"testing"

	"passlens/compiler/ir"
)

// randomModule builds an arbitrary (often irreducible) CFG of n blocks.
// Every block counts its executions per lane in %cnt, mixes the count into
// a lane-local accumulator (written to @Out) and adds a wave op result to
// a second accumulator (written to @Waves). Branches depend only on
// lane-local values; after 12 blocks every lane leaves for the exit.
func randomModule(rng *rand.Rand, n int, switches bool) *ir.Module {
	k := newKit(ir.U32, 16)
	waves := ir.NewGlobal("Waves", ir.SpaceStorage, ir.Array(ir.U32, -1))
	waves.Binding = 1
	k.m.AddGlobal(waves)
	cnt := k.variable(ir.U32, "cnt", u32c(0))
	acc := k.variable(ir.U32, "acc", u32c(0))
	wacc := k.variable(ir.U32, "wacc", u32c(0))
	blocks := make([]*ir.Block, n)
	for i := range blocks {
		blocks[i] = k.f.NewBlock(fmt.Sprintf("b%d", i))
	}
	exit := k.f.NewBlock("exit")
	target := func() *ir.Block {
		if rng.Intn(5) == 0 {
			return exit
		}
		return blocks[rng.Intn(n)]
	}
	k.b.Br(blocks[0])
	for i, blk := range blocks {
		k.b.SetBlock(blk)
		c := k.b.Binary(ir.OpAdd, k.b.Load(cnt, ""), u32c(1), "c")
		k.b.Store(c, cnt)
		mix := k.b.Binary(ir.OpXor, k.b.Binary(ir.OpMul, c, u32c(int64(i+1)), ""), k.tid, "")
		k.add(acc, k.b.Binary(ir.OpMul, k.b.Load(acc, ""), u32c(3), ""))
		k.add(acc, mix)
		switch rng.Intn(3) {
		case 0:
			k.add(wacc, k.wave("WaveActiveSum", ir.U32, u32c(int64(i+1))))
		case 1:
			k.add(wacc, k.wave("WaveActiveCountBits", ir.U32, ir.ConstBool(ir.Bool, true)))
		default:
			k.add(wacc, k.wave("WavePrefixSum", ir.U32, k.tid))
		}
		choose := k.f.NewBlock(fmt.Sprintf("b%d.choose", i))
		k.b.CondBr(k.b.Cmp(ir.PredUGT, c, u32c(12), ""), exit, choose)
		k.b.SetBlock(choose)
		h := k.b.Binary(ir.OpXor, k.b.Binary(ir.OpMul, k.tid, u32c(2654435761), ""), k.b.Binary(ir.OpMul, c, u32c(40503), ""), "")
		h = k.b.Binary(ir.OpURem, k.b.Binary(ir.OpLShr, h, u32c(7), ""), u32c(3), "h")
		if switches && rng.Intn(2) == 0 {
			k.b.Switch(h, []ir.SwitchCase{{Values: []int64{0}, Target: target()}, {Values: []int64{1}, Target: target()}, {Default: true, Target: target()}})
		} else {
			k.b.CondBr(k.b.Cmp(ir.PredEQ, h, u32c(0), ""), target(), target())
		}
	}
	k.b.SetBlock(exit)
	k.store(k.b.Load(acc, ""))
	k.b.Store(k.b.Load(wacc, ""), k.b.Access(waves, []ir.Value{k.tid}, ""))
	return k.finish()
}

// lanePaths lists, per invocation, the blocks of the wave ops it took part
// in, in order.
func lanePaths(r *Result) map[int][]string {
	out := map[int][]string{}
	for _, op := range r.WaveOps {
		for _, inv := range op.Invocations {
			out[inv] = append(out[inv], op.Block)
		}
	}
	return out
}

// TestRandomCFGs checks properties that hold for any CFG: runs never fail
// or panic; they are deterministic; lane-local results do not depend on
// wave size or policy; each lane's path is the same whatever the wave size;
// every wave op's lanes are active lanes of one wave; without switches the
// two policies agree exactly.
func TestRandomCFGs(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(1))
	for iter := 0; iter < 150; iter++ {
		switches := iter%2 == 1
		m := randomModule(rng, 2+rng.Intn(8), switches)
		var base *Result
		var basePaths map[int][]string
		byPolicy := map[Policy]*Result{}
		for _, ws := range []int{4, 8, 16} {
			for _, p := range Policies() {
				opts := Options{WaveSize: ws, Policy: p, Trace: true}
				r, err := runT(m, nil, opts)
				if err != nil {
					t.Fatalf("iter %d ws %d %s: %v\n%s", iter, ws, p, err, m)
				}
				again, err := Run(m, nil, opts)
				if err != nil {
					t.Fatal(err)
				}
				if ok, diff := r.Equal(again); !ok || len(r.WaveOps) != len(again.WaveOps) {
					t.Fatalf("iter %d: nondeterministic: %s", iter, diff)
				}
				for _, op := range r.WaveOps {
					if op.Mask == 0 || op.Mask>>uint(ws) != 0 {
						t.Fatalf("iter %d: wave op with lanes %v in a wave of %d", iter, op.Lanes, ws)
					}
				}
				if base == nil {
					base, basePaths = r, lanePaths(r)
				} else {
					a, b := base.Buffer("Out"), r.Buffer("Out")
					if d := firstDiff(a.Cells, b.Cells); d >= 0 {
						t.Fatalf("iter %d ws %d %s: lane-local result differs at %d\n%s", iter, ws, p, d, m)
					}
					paths := lanePaths(r)
					for inv, path := range basePaths {
						if fmt.Sprint(path) != fmt.Sprint(paths[inv]) {
							t.Fatalf("iter %d ws %d %s: lane %d path %v vs %v", iter, ws, p, inv, paths[inv], path)
						}
					}
				}
				if ws == 8 {
					byPolicy[p] = r
				}
			}
		}
		if !switches {
			if ok, diff := byPolicy[PolicyMaximal].Equal(byPolicy[PolicySwitchSeparate]); !ok {
				t.Fatalf("iter %d: policies differ without switches: %s", iter, diff)
			}
		}
	}
}

// maximalKeys computes, independently of the scheduler, the maximal
// convergence identity of every dynamic wave op of every lane: the block
// plus, for each cycle containing it (outermost first), how many times the
// lane has executed that cycle's header since it last entered the cycle.
// Two lanes of a wave must execute a wave op together exactly when their
// keys are equal. It relies on every header of randomModule holding a
// wave op (headers are always the b<i> blocks), so the trace shows every
// header execution.
func maximalKeys(t *testing.T, m *ir.Module, r *Result) map[int][]string {
	f := m.Func("main")
	bindex := map[*ir.Block]int{}
	for i, b := range f.Blocks {
		bindex[b] = i
	}
	c := newCFG(f, bindex)
	cyc := c.cycles()
	depth := func(ci int) int {
		d := 0
		for p := cyc[ci].parent; p >= 0; p = cyc[p].parent {
			d++
		}
		return d
	}
	containing := make([][]int, len(f.Blocks)) // cycles per block, outermost first
	for ci, cy := range cyc {
		for _, b := range cy.blocks {
			containing[b] = append(containing[b], ci)
		}
	}
	for b := range containing {
		cs := containing[b]
		for i := 1; i < len(cs); i++ {
			for j := i; j > 0 && depth(cs[j]) < depth(cs[j-1]); j-- {
				cs[j], cs[j-1] = cs[j-1], cs[j]
			}
		}
	}
	keys := map[int][]string{}
	state := map[int]map[int]int{} // lane -> cycle -> header count
	prev := map[int]map[int]bool{}
	for _, op := range r.WaveOps {
		b := bindex[f.Block(op.Block)]
		for _, inv := range op.Invocations {
			if state[inv] == nil {
				state[inv], prev[inv] = map[int]int{}, map[int]bool{}
			}
			cur := map[int]bool{}
			key := fmt.Sprint(op.Block)
			for _, ci := range containing[b] {
				cur[ci] = true
				if !prev[inv][ci] {
					state[inv][ci] = 0
				}
				if cyc[ci].header == b {
					state[inv][ci]++
				}
				key += fmt.Sprintf(" c%d#%d", ci, state[inv][ci])
			}
			prev[inv] = cur
			keys[inv] = append(keys[inv], key)
		}
	}
	return keys
}

// TestRandomMaximalConvergence checks the scheduler against maximalKeys on
// random CFGs (reducible and irreducible) without switches.
func TestRandomMaximalConvergence(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(7))
	for iter := 0; iter < 200; iter++ {
		m := randomModule(rng, 2+rng.Intn(9), false)
		for _, ws := range []int{4, 16} {
			r, err := runT(m, nil, Options{WaveSize: ws, Trace: true})
			if err != nil {
				t.Fatal(err)
			}
			keys := maximalKeys(t, m, r)
			// Which lanes of each wave hold each key.
			want := map[string]map[int]bool{}
			waveOf := func(inv int) int { return inv / ws }
			for inv, ks := range keys {
				for _, k := range ks {
					wk := fmt.Sprint(waveOf(inv), "|", k)
					if want[wk] == nil {
						want[wk] = map[int]bool{}
					}
					want[wk][inv] = true
				}
			}
			pos := map[int]int{}
			for _, op := range r.WaveOps {
				var wk string
				for i, inv := range op.Invocations {
					k := fmt.Sprint(op.Wave, "|", keys[inv][pos[inv]])
					pos[inv]++
					if i == 0 {
						wk = k
					} else if k != wk {
						t.Fatalf("iter %d ws %d: wave op %d in %s merged lanes with keys %q and %q\n%s", iter, ws, op.Seq, op.Block, wk, k, m)
					}
				}
				if len(want[wk]) != len(op.Invocations) {
					t.Fatalf("iter %d ws %d: wave op %d (%s) ran with invocations %v, maximal convergence groups %v\n%s",
						iter, ws, op.Seq, wk, op.Invocations, want[wk], m)
				}
			}
		}
	}
}
