package spirv

import (
	"fmt"
	"os"
	"passlens/compiler/ir/irtest"
	"passlens/compiler/progen"
	"strconv"
	"testing"

	"passlens/compiler/ir"
)

// randomCount is the number of generated programs per run (override with
// PASSLENS_SPIRV_RANDOM=N).
func randomCount() int {
	if n, err := strconv.Atoi(os.Getenv("PASSLENS_SPIRV_RANDOM")); err == nil && n > 0 {
		return n
	}
	return 300
}

// TestRandomPrograms compiles generated structured programs (loops,
// switches with fallthrough, early exits, wave operations) through the
// spirv pipeline and checks each binary with spirv-val, spirv-dis and the
// no-fallthrough switch check.
func TestRandomPrograms(t *testing.T) {
	t.Parallel()
	needTool(t, "spirv-val")
	n := randomCount()
	for seed := 0; seed < n; seed++ {
		src, _ := progen.Program(uint64(seed))
		m, err := ir.ParseModule(fmt.Sprintf("gen-%d.pir", seed), []byte(src))
		if err != nil {
			t.Fatalf("seed %d: generator wrote unparsable IR: %v\n%s", seed, err, src)
		}
		if err := ir.Verify(m); err != nil {
			t.Fatalf("seed %d: generator wrote invalid IR: %v\n%s", seed, err, src)
		}
		if err := runSpirvPipeline(m); err != nil {
			t.Fatalf("seed %d: pipeline: %v\n%s", seed, err, src)
		}
		checkModule(t, fmt.Sprintf("seed %d", seed), m, Options{})
		if (seed+1)%5000 == 0 {
			t.Logf("%d programs validated", seed+1)
		}
	}
	t.Logf("%d random programs validated", n)
}

// TestRandomIRModules feeds ir.RandomModule (every instruction form, all
// stages, declarations, calls) through the pipeline to each entry point:
// the back end must either produce a module spirv-val accepts or return a
// located *Error, never panic or emit invalid SPIR-V.
func TestRandomIRModules(t *testing.T) {
	t.Parallel()
	needTool(t, "spirv-val")
	ok, rejected := 0, 0
	for seed := int64(0); seed < 100; seed++ {
		m := irtest.RandomModule(seed, irtest.RandomOptions{PlainNames: seed%2 == 0})
		if err := runSpirvPipeline(m); err != nil {
			continue
		}
		for _, ep := range m.EntryPoints() {
			words, err := Assemble(m, Options{Entry: ep.Name()})
			if err != nil {
				if _, isErr := err.(*Error); !isErr {
					t.Fatalf("seed %d @%s: error of type %T: %v", seed, ep.Name(), err, err)
				}
				rejected++
				continue
			}
			if msg := spirvVal(t, words, "vulkan1.1"); msg != "" {
				text, _ := Disassemble(words)
				t.Fatalf("seed %d @%s: spirv-val rejects the module:\n%s\n%s", seed, ep.Name(), msg, text)
			}
			ok++
		}
	}
	t.Logf("random IR modules: %d entry points emitted and validated, %d rejected with an error", ok, rejected)
	if ok < 20 {
		t.Errorf("only %d random entry points emitted", ok)
	}
}
