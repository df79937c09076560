// Package difftest is the proof that passes are right: every program runs
// on the interpreter before the first pass and after every pass of every
// target's default pipeline, and the results must be bit-identical.
package difftest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/load"
	"passlens/compiler/passes"
	"passlens/compiler/pipeline"
	"passlens/compiler/progen"
	"passlens/compiler/target"
	"passlens/compiler/target/sm3/sm3lower"
	"passlens/samples"
)

// programCount is the number of compiler/progen programs per run, plus
// half as many SM3 programs: 700 + 350 by default, over 1,000 generated
// programs per CI run (override with PASSLENS_DIFFTEST_N=N, e.g. for the
// 100,000-program run).
func programCount() int {
	if n, err := strconv.Atoi(os.Getenv("PASSLENS_DIFFTEST_N")); err == nil && n > 0 {
		return n
	}
	return 700
}

// program is one module to check with its interpreter input.
type program struct {
	make func() *ir.Module
	in   *interp.Input
}

// programs returns the modules to check: every embedded sample that loads
// (with its shipped input), n generated programs (compiler/progen: loops
// with break/continue, switches with grouped labels and fallthrough,
// early returns, wave ops under divergent control, component stores at
// dynamic indices, calls with inout/out, long chains) and n/2 generated
// programs within SM3's
// exact domain (progen.SM3Program), each run on two groups with random
// input.
func programs(t *testing.T, n int) map[string]program {
	out := map[string]program{}
	for _, s := range samples.All() {
		name := "samples/" + s.Name
		if _, _, err := load.File(name, load.Options{}); err != nil {
			t.Logf("%s does not load, not checked: %v", name, firstLine(err.Error()))
			continue
		}
		var in *interp.Input
		if s.Input != nil {
			in, _ = interp.ParseInput(s.Input)
		}
		out[name] = program{make: func() *ir.Module {
			m, _, _ := load.File(name, load.Options{})
			return m
		}, in: in}
	}
	gen := func(kind string, seeds int, generate func(uint64) (string, int)) {
		for seed := 0; seed < seeds; seed++ {
			src, threads := generate(uint64(seed))
			in := genInput(uint64(seed), threads)
			out[fmt.Sprintf("%s/%d", kind, seed)] = program{make: func() *ir.Module {
				m, err := ir.ParseModule("gen.pir", []byte(src))
				if err != nil {
					t.Fatalf("generated program %s/%d does not parse: %v", kind, seed, err)
				}
				return m
			}, in: in}
		}
	}
	gen("progen", n, progen.Program)
	// Programs SM3 can run exactly, so that the sm3 pipeline reaches
	// sm3-lower's output (Program's wave and bitwise operations end it).
	gen("progen-sm3", n/2, progen.SM3Program)
	return out
}

// genInput is the input of a generated program: two groups of threads and
// small random inputs from the program's seed.
func genInput(seed uint64, threads int) *interp.Input {
	r := rand.New(rand.NewPCG(seed, 2))
	data := make([]any, 2*threads)
	for i := range data {
		data[i] = uint32(r.IntN(64))
	}
	return &interp.Input{Dispatch: [3]int{2, 1, 1}, Buffers: []interp.BufferInput{
		{Name: "in", Data: data},
		{Name: "out", Count: 2 * threads * progen.Vars},
	}}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// runAll runs every entry point of m.
func runAll(m *ir.Module, in *interp.Input) ([]*interp.Result, error) {
	return runAllSteps(m, in, 2_000_000)
}

// runAllSteps runs every entry point of m with a step limit.
func runAllSteps(m *ir.Module, in *interp.Input, steps int) ([]*interp.Result, error) {
	var out []*interp.Result
	for _, f := range m.EntryPoints() {
		r, err := interp.Run(m, in, interp.Options{Entry: f.Name(), WaveSize: 8, MaxSteps: steps})
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// TestPipelinesPreserveResults: for every program and every target's
// default pipeline, the interpreter's results after each pass equal the
// results before the first pass. A pass that fails (e.g. sm3-lower
// rejecting a construct SM3 cannot express) ends that pipeline; it is
// counted, not a mismatch. sm3-lower's output is compared twice: as it is,
// and as sm3lower.RepModel runs it (loops stopped the way SM3's rep
// instruction stops them). A program whose integers leave SM3's exact
// domain (sm3DomainProbe on sm3-lower's input, see domain_test.go) is
// outside that target's semantics: it is counted and named, and its
// sm3-lower output is not compared.
func TestPipelinesPreserveResults(t *testing.T) {
	t.Parallel()
	n := programCount()
	if testing.Short() {
		n = 40
	}
	progs := programs(t, n)
	checked, repeated, skipped, failedSteps, mismatches, modelChecked := 0, 0, 0, 0, 0, 0
	var outOfDomain []string
	// Programs are independent and checked by several workers; mu guards
	// the counters.
	var mu sync.Mutex
	add := func(n *int) { mu.Lock(); *n++; mu.Unlock() }
	report := func(name string, tgt target.Name, pass, format string, args ...any) {
		add(&mismatches)
		t.Errorf("%s, %s pipeline: %s: %s", name, tgt, pass, fmt.Sprintf(format, args...))
	}
	// compare runs m and reports a difference from want; false ends the
	// pipeline's checks.
	compare := func(name string, tgt target.Name, pass string, want []*interp.Result, m *ir.Module, in *interp.Input) bool {
		got, err := runAll(m, in)
		if err != nil {
			var ie *interp.Error
			if errors.As(err, &ie) && errors.Is(err, interp.ErrStepLimit) {
				// Lowering may add work (structurize dispatch loops).
				return true
			}
			report(name, tgt, pass, "run failed: %v", err)
			return false
		}
		for i := range want {
			if ok, diff := want[i].Equal(got[i]); !ok {
				report(name, tgt, pass, "%s", diff)
				return false
			}
		}
		return true
	}
	names := make([]string, 0, len(progs))
	for name := range progs {
		names = append(names, name)
	}
	sort.Strings(names)
	specs := map[target.Name]pipeline.Spec{}
	for _, tgt := range passes.Targets {
		spec, err := pipeline.Parse(strings.Join(passes.DefaultPipelines[tgt], ","))
		if err != nil {
			t.Fatal(err)
		}
		specs[tgt] = spec
	}
	check := func(name string) {
		p := progs[name]
		in := p.in
		want, err := runAll(p.make(), in)
		if err != nil {
			// Programs the interpreter cannot run to completion (step limit,
			// undefined behaviour, unsupported intrinsics) prove nothing.
			add(&skipped)
			return
		}
		// Snapshots whose text was already compared for this program (an
		// unchanged step, or the prefix inline,sroa,simplify that the
		// pipelines share) compute the same results: run each text once.
		same := map[string]bool{}
		for _, tgt := range passes.Targets {
			spec := specs[tgt]
			res := pipeline.Run(context.Background(), p.make(), spec, pipeline.Options{Target: tgt, VerifyEach: true})
			for i, snap := range res.Snapshots[1:] {
				if snap.Err != nil {
					if snap.Err.Kind == pipeline.KindVerify || snap.Err.Kind == pipeline.KindPanic {
						report(name, tgt, snap.Pass, "broke the module: %s", snap.Err.Msg)
					}
					add(&failedSteps)
					break
				}
				text := snap.Text()
				if same[text] && snap.Pass != sm3lower.Pass.Name {
					add(&repeated)
					continue
				}
				m, err := snap.FreshModule()
				if err != nil {
					t.Errorf("%s after %s: snapshot does not parse: %v", name, snap.Pass, err)
					break
				}
				if snap.Pass == sm3lower.Pass.Name {
					prev, err := res.Snapshots[i].FreshModule()
					if err != nil {
						t.Errorf("%s before %s: snapshot does not parse: %v", name, snap.Pass, err)
						break
					}
					where, err := sm3OutOfDomain(prev, in)
					switch {
					case err != nil && errors.Is(err, interp.ErrStepLimit):
						t.Logf("%s: domain probe ran out of steps; compared as in the domain", name)
					case err != nil:
						t.Errorf("%s: domain probe: %v", name, err)
					case where != "":
						mu.Lock()
						outOfDomain = append(outOfDomain, name)
						mu.Unlock()
						t.Logf("%s: outside SM3's exact integer domain, sm3-lower output not compared: %s", name, where)
						continue
					}
					model, err := sm3lower.RepModel(m)
					if err != nil {
						report(name, tgt, snap.Pass, "rep model: %v", err)
					} else if compare(name, tgt, snap.Pass+" (rep model)", want, model, in) {
						add(&modelChecked)
					}
				}
				if !compare(name, tgt, snap.Pass, want, m, in) {
					break
				}
				add(&checked)
				same[text] = true
			}
		}
	}
	work := make(chan string)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for name := range work {
				check(name)
			}
		}()
	}
	for _, name := range names {
		work <- name
	}
	close(work)
	wg.Wait()
	sort.Strings(outOfDomain)
	t.Logf("%d programs, %d not runnable by the interpreter; %d snapshots compared (%d more identical to one compared; %d sm3-lower outputs also as the rep model), %d pipelines ended by a rejecting pass, %d programs outside SM3's exact integer domain %v, %d mismatches",
		len(progs), skipped, checked, repeated, modelChecked, failedSteps, len(outOfDomain), outOfDomain, mismatches)
	if checked == 0 || modelChecked == 0 {
		t.Fatalf("nothing was compared (%d snapshots, %d rep models)", checked, modelChecked)
	}
}
