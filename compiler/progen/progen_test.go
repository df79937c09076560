package progen_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"passlens/compiler/ir"
	"passlens/compiler/passes"
	"passlens/compiler/pipeline"
	"passlens/compiler/progen"
	"passlens/compiler/target"
	"passlens/compiler/target/sm3/sm3lower"
)

// TestSM3Program: the SM3 programs are deterministic, parse, verify and go
// through the whole sm3 pipeline: sm3-lower accepts every one (no wave
// operations, no xor/or, no variable shifts, only 2^k - 1 masks).
func TestSM3Program(t *testing.T) {
	spec, err := pipeline.Parse(strings.Join(passes.DefaultPipelines[target.SM3], ","))
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
		res := pipeline.Run(context.Background(), m, spec, pipeline.Options{Target: target.SM3, VerifyEach: true})
		if last := res.Snapshots[len(res.Snapshots)-1]; last.Err != nil || last.Pass != sm3lower.Pass.Name {
			t.Errorf("seed %d: the sm3 pipeline stopped at %s: %v", seed, last.Pass, last.Err)
		}
	}
}

// TestProgramFeatures: over 200 seeds Program is deterministic, writes
// IR that parses and verifies, and produces every construct the
// differential tests rely on it for, each in a good share of programs:
// switch label groups of several values and a value grouped with default,
// a fallthrough into a grouped label, stores of a vector component at a
// dynamic index (local, groupshared, storage), calls with inout/out
// pointers, and long operation chains.
func TestProgramFeatures(t *testing.T) {
	const n = 200
	counts := map[string]int{}
	features := map[string]*regexp.Regexp{
		"grouped case labels":              regexp.MustCompile(`\[case \d+, \d+`),
		"value grouped with default":       regexp.MustCompile(`\[case [\d, ]+, default:`),
		"local component store":            regexp.MustCompile(`access ptr<function, <4 x u32>> %vec, u32 %`),
		"groupshared component":            regexp.MustCompile(`access ptr<groupshared, \[\d+ x <4 x u32>\]> @gs, u32 %\S+, u32 %`),
		"storage component":                regexp.MustCompile(`access ptr<storage, \[\? x <4 x u32>\]> @vout, u32 %\S+, u32 %`),
		"insertelement at a dynamic index": regexp.MustCompile(`insertelement <4 x u32> %\S+, u32 \S+, u32 %`),
		"call with inout/out":              regexp.MustCompile(`call u32 @helper\(u32 \S+, ptr<function, u32> %yt\.\d+, ptr<function, u32> %zt\.\d+\)`),
	}
	for seed := uint64(0); seed < n; seed++ {
		src, threads := progen.Program(seed)
		if again, th := progen.Program(seed); again != src || th != threads {
			t.Fatalf("seed %d: Program is not deterministic", seed)
		}
		m, err := ir.ParseModule("gen.pir", []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		if err := ir.Verify(m); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		for name, re := range features {
			if re.MatchString(src) {
				counts[name]++
			}
		}
		if fallthroughIntoGroup(m) {
			counts["fallthrough into a grouped label"]++
		}
		if longChain(m) {
			counts["chain of 8+ operations"]++
		}
	}
	for _, name := range []string{"grouped case labels", "value grouped with default", "fallthrough into a grouped label",
		"local component store", "groupshared component", "storage component", "insertelement at a dynamic index",
		"call with inout/out", "chain of 8+ operations"} {
		if counts[name] < n/20 {
			t.Errorf("%s in %d of %d programs, want at least %d", name, counts[name], n, n/20)
		}
	}
	t.Logf("feature counts over %d programs: %v", n, counts)
}

// fallthroughIntoGroup reports whether a switch's label group of several
// values (or a value with default) is also reached from another case's
// block (a fallthrough), the shape whose phis need one entry per edge.
func fallthroughIntoGroup(m *ir.Module) bool {
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			t := b.Terminator()
			if t == nil || t.Op != ir.OpSwitch {
				continue
			}
			cases := map[*ir.Block]bool{}
			for _, c := range t.Cases {
				cases[c.Target] = true
			}
			for _, c := range t.Cases {
				edges := len(c.Values)
				if c.Default {
					edges++
				}
				if edges < 2 {
					continue
				}
				for from := range cases {
					for _, s := range from.Successors() {
						if s == c.Target && from != c.Target {
							return true
						}
					}
				}
			}
		}
	}
	return false
}

// longChain reports whether some value is computed by 8 or more binary
// operations in a row, each feeding the next.
func longChain(m *ir.Module) bool {
	depth := map[ir.Value]int{}
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if !in.Op.IsBinary() {
					continue
				}
				d := 0
				for _, a := range in.Args {
					d = max(d, depth[a])
				}
				depth[in] = d + 1
				if d+1 >= 8 {
					return true
				}
			}
		}
	}
	return false
}
