package progen_test

import (
	"context"
	"strings"
	"testing"

	"passlens/compiler/ir"
	"passlens/compiler/passes"
	"passlens/compiler/pipeline"
	"passlens/compiler/progen"
)

// TestSM3Program: the SM3 programs are deterministic, parse, verify and go
// through the whole sm3 pipeline: sm3-lower accepts every one (no wave
// operations, no xor/or, no variable shifts, only 2^k - 1 masks).
func TestSM3Program(t *testing.T) {
	spec, err := pipeline.Parse(strings.Join(passes.DefaultPipelines["sm3"], ","))
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(0); seed < 100; seed++ {
		src, threads := progen.SM3Program(seed)
		if again, th := progen.SM3Program(seed); again != src || th != threads {
			t.Fatalf("seed %d: SM3Program is not deterministic", seed)
		}
		m, err := ir.ParseModule("gen.pir", []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		if err := ir.Verify(m); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		res := pipeline.Run(context.Background(), m, spec, pipeline.Options{Target: "sm3", VerifyEach: true})
		if last := res.Snapshots[len(res.Snapshots)-1]; last.Err != nil || last.Pass != passes.SM3Lower.Name {
			t.Errorf("seed %d: the sm3 pipeline stopped at %s: %v", seed, last.Pass, last.Err)
		}
	}
}
