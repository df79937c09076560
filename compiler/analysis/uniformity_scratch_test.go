package analysis

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"passlens/compiler/ir"
)

func TestScratchDense(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("N"))
	rng := rand.New(rand.NewPCG(uint64(n), 99))
	f := DenseFunc(rng, "dense", n)
	vf := DecorateFunc(rng, f, DenseValueOptions)
	if out := os.Getenv("OUT"); out != "" {
		w, _ := os.Create(out)
		WriteValueLL(w, []*ValueFunc{vf})
		w.Close()
	}
	m := ir.NewModule("x")
	fn := vf.BuildIR(m)
	ci := Cycles(f.Graph)
	irr := 0
	for c := 0; c < ci.Len(); c++ {
		if !ci.IsReducible(c) {
			irr++
		}
	}
	t.Logf("cycles %d irr %d top %d", ci.Len(), irr, len(ci.TopLevel()))
	for _, c := range ci.TopLevel() {
		if len(ci.Blocks(c)) > 100 {
			t.Logf("top %d: %d blocks, %d entries", c, len(ci.Blocks(c)), len(ci.Entries(c)))
		}
	}
	st := time.Now()
	u := Uniformity(fn)
	t.Logf("fast: %v stats %+v", time.Since(st), u.Stats)
	if os.Getenv("REF") != "" {
		st = time.Now()
		r := Uniformity(fn, WithReferenceAlgorithm())
		t.Logf("ref: %v", time.Since(st))
		if d := diffKeys(resultKeys(r), resultKeys(u)); len(d) > 0 {
			t.Fatalf("differ: %v", d[:min(5, len(d))])
		}
	}
}

func TestScratchRecorded(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("N"))
	rng := rand.New(rand.NewPCG(uint64(n), 99))
	f := DenseFunc(rng, "dense", n)
	vf := DecorateFunc(rng, f, DenseValueOptions)
	m := ir.NewModule("x")
	fn := vf.BuildIR(m)
	u := Uniformity(fn)
	ci := u.Cycles
	rec := make([]bool, ci.Len())
	for _, c := range u.res.divExit {
		rec[c] = true
	}
	unrecWithBranch, unrecIrr := 0, 0
	withBranch := make([]bool, ci.Len())
	for b := range u.res.divTerm {
		if u.res.divTerm[b] && len(f.Graph.Succs[b]) > 1 {
			for c := ci.CycleOf(b); c >= 0; c = ci.Parent(c) {
				withBranch[c] = true
			}
		}
	}
	for c := 0; c < ci.Len(); c++ {
		if !rec[c] && withBranch[c] {
			t.Logf("unrecorded cycle %d depth %d blocks %d", c, ci.Depth(c), len(ci.Blocks(c)))
			unrecWithBranch++
			if !ci.IsReducible(c) {
				unrecIrr++
			}
		}
	}
	t.Logf("cycles %d recorded %d unrecorded-with-divergent-branch %d (irreducible %d), assumed %v", ci.Len(), len(u.res.divExit), unrecWithBranch, unrecIrr, u.AssumedDivergentCycles())
}

func TestScratchImmediate(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("N"))
	rng := rand.New(rand.NewPCG(uint64(n), 99))
	f := DenseFunc(rng, "dense", n)
	vf := DecorateFunc(rng, f, DenseValueOptions)
	m := ir.NewModule("x")
	fn := vf.BuildIR(m)
	u := Uniformity(fn)
	c := newCfgCtx(f.Graph)
	ci := u.Cycles
	imm := make([]bool, ci.Len())
	for b := range u.res.divTerm {
		if !u.res.divTerm[b] || len(f.Graph.Succs[b]) < 2 {
			continue
		}
		cb := ci.CycleOf(b)
		if cb < 0 {
			continue
		}
		for _, s := range f.Graph.Succs[b] {
			if !ci.Contains(cb, s) {
				imm[c.exitCycle(s, cb)] = true
			}
		}
	}
	k := 0
	for _, cy := range u.res.divExit {
		if !imm[cy] {
			k++
			t.Logf("cycle %d depth %d blocks %d reducible %v recorded without immediate witness", cy, ci.Depth(int(cy)), len(ci.Blocks(int(cy))), ci.IsReducible(int(cy)))
		}
	}
	t.Logf("recorded %d, without immediate witness %d", len(u.res.divExit), k)
}

func TestScratchBigRandom(t *testing.T) {
	seed, _ := strconv.Atoi(os.Getenv("SEED"))
	maxB, _ := strconv.Atoi(os.Getenv("MAXB"))
	cnt, _ := strconv.Atoi(os.Getenv("CNT"))
	fs := randomValueFuncs(uint64(seed), cnt, maxB, ValueOptions{})
	m := ir.NewModule("rand")
	for _, vf := range fs {
		f := vf.BuildIR(m)
		ref := resultKeys(Uniformity(f, WithReferenceAlgorithm()))
		got := resultKeys(Uniformity(f))
		if d := diffKeys(ref, got); len(d) > 0 {
			t.Fatalf("%s: %v\n%s", f.Name(), d[:min(len(d), 6)], f.String())
		}
	}
}

func TestScratchStructured(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("N"))
	rng := rand.New(rand.NewPCG(uint64(n), 98))
	f := StructuredFunc(rng, "dense", n)
	vf := DecorateFunc(rng, f, DenseValueOptions)
	if out := os.Getenv("OUT"); out != "" {
		w, _ := os.Create(out)
		WriteValueLL(w, []*ValueFunc{vf})
		w.Close()
	}
	m := ir.NewModule("x")
	fn := vf.BuildIR(m)
	ci := Cycles(f.Graph)
	irr := 0
	for c := 0; c < ci.Len(); c++ {
		if !ci.IsReducible(c) {
			irr++
		}
	}
	t.Logf("blocks %d cycles %d irr %d", len(f.Graph.Succs), ci.Len(), irr)
	st := time.Now()
	u := Uniformity(fn)
	t.Logf("fast: %v stats %+v", time.Since(st), u.Stats)
	if os.Getenv("NOJ") != "" {
		st = time.Now()
		u2 := Uniformity(fn, WithoutJumps())
		t.Logf("nojumps: %v stats %+v", time.Since(st), u2.Stats)
	}
	if os.Getenv("REF") != "" {
		st = time.Now()
		r := Uniformity(fn, WithReferenceAlgorithm())
		t.Logf("ref: %v", time.Since(st))
		if d := diffKeys(resultKeys(r), resultKeys(u)); len(d) > 0 {
			t.Fatalf("differ: %v", d[:min(5, len(d))])
		}
	}
}
