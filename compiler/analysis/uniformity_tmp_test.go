package analysis

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"passlens/compiler/ir"
)

func TestTmpShapes(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("N"))
	sh, _ := strconv.Atoi(os.Getenv("SHAPE"))
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	f := RandomFunc(rng, "x", RandOptions{Blocks: n, Shape: Shape(sh)})
	vf := DecorateFunc(rng, f, DenseValueOptions)
	fn := vf.BuildIR(ir.NewModule("x"))
	st := time.Now()
	u := Uniformity(fn)
	t.Logf("shape %d n %d: %v %+v", sh, n, time.Since(st), u.Stats)
}
