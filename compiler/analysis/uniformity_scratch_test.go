package analysis

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
)

func TestScratchGen(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("N"))
	shape, _ := strconv.Atoi(os.Getenv("SHAPE"))
	rng := rand.New(rand.NewPCG(1, 2))
	f := RandomFunc(rng, "dense", RandOptions{Blocks: n, Shape: Shape(shape)})
	w, _ := os.Create(os.Getenv("OUT"))
	defer w.Close()
	cond := func(_ *Func, n int) ([]string, string) {
		c := "%.c" + strconv.Itoa(n)
		src := "%d"
		if n%10 == 0 {
			src = "%u"
		}
		return []string{c + " = icmp slt i32 " + src + ", " + strconv.Itoa(n%7)}, c
	}
	sw := func(_ *Func, n int) ([]string, string) { return nil, "%d" }
	if err := WriteLL(w, []*Func{f}, &EmitOptions{Cond: cond, SwitchValue: sw}); err != nil {
		t.Fatal(err)
	}
}

func TestScratchStats(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("N"))
	shape, _ := strconv.Atoi(os.Getenv("SHAPE"))
	rng := rand.New(rand.NewPCG(1, 2))
	f := RandomFunc(rng, "dense", RandOptions{Blocks: n, Shape: Shape(shape)})
	ci := Cycles(f.Graph)
	irr := 0
	maxd := 0
	for c := 0; c < ci.Len(); c++ {
		if !ci.IsReducible(c) {
			irr++
		}
		maxd = max(maxd, ci.Depth(c))
	}
	t.Logf("cycles %d irreducible %d maxdepth %d top %d", ci.Len(), irr, maxd, len(ci.TopLevel()))
	for _, c := range ci.TopLevel() {
		t.Logf("top %d: blocks %d entries %d", c, len(ci.Blocks(c)), len(ci.Entries(c)))
	}
}
