package passes

import (
	"path/filepath"
	"strings"
	"testing"

	"passlens/compiler/passes/passtest"
)

// This file checks the control-flow passes' output against spirv-val, the
// external authority on SPIR-V's structured control flow: a function's CFG
// skeleton (blocks, merge annotations, branches, switches, returns; every
// condition an OpUndef except the constants true/false, which the one-trip
// loops' continue blocks branch on) is written as SPIR-V assembly,
// assembled with spirv-as and validated with spirv-val (passtest.ValidateCF).

// TestCFOutputsPassSpirvVal validates the control flow of every golden
// output with spirv-val (outputs of passes on unstructured inputs aside).
func TestCFOutputsPassSpirvVal(t *testing.T) {
	t.Parallel()
	passtest.SPIRVTool(t, "spirv-val")
	files, err := filepath.Glob(filepath.Join("testdata", "*", "*.want.pir"))
	if err != nil {
		t.Fatal(err)
	}
	// Outputs that are not SPIR-V by design: out-of-ssa on an irreducible
	// CFG or on a switch whose case label is the loop's continue target
	// (switch_loop_continue's "case 2: continue", which SPIR-V forbids and
	// switch-to-if removes), and switch-to-if before
	// eliminate-multilevel-break.
	unstructured := map[string]bool{"irreducible.out-of-ssa": true, "switch_loop_continue.out-of-ssa": true,
		"switch_loop_continue.switch-to-if": true, "sw_nested.switch-to-if": true,
		// Inline cases whose control flow is not SPIR-V's: return_from_loop's
		// input has a selection merging at the loop's continue target
		// (outside the loop construct).
		"return_from_loop.inline": true, "return_from_loop.inline+sroa+simplify": true,
		"return_from_loop.inline+sroa+simplify+switch-to-if+eliminate-multilevel-break+simplify": true}
	n := 0
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".pir")
		if unstructured[strings.TrimSuffix(name, ".want")] {
			continue
		}
		n++
		t.Run(name, func(t *testing.T) {
			if msg := passtest.ValidateCF(t, cfLoad(t, name)); msg != "" {
				t.Errorf("spirv-val rejects the control flow of %s: %s", name, msg)
			}
		})
	}
	if n < 15 {
		t.Fatalf("only %d golden outputs found", n)
	}
	// Multi-level exits are what spirv-val rejects: the check has teeth.
	for _, name := range []string{"emb_break2", "emb_ifbreak", "switch_loop_continue.switch-to-if.want"} {
		if passtest.ValidateCF(t, cfLoad(t, name)) == "" {
			t.Errorf("spirv-val accepts %s, which has multi-level exits", name)
		}
	}
}

// TestRandomLoweringsPassSpirvVal validates random switches after
// switch-to-if<all>, eliminate-multilevel-break and out-of-ssa, and random
// CFGs (irreducible ones included) after structurize.
func TestRandomLoweringsPassSpirvVal(t *testing.T) {
	t.Parallel()
	passtest.SPIRVTool(t, "spirv-val")
	n := 40
	if testing.Short() {
		n = 10
	}
	for seed := 0; seed < n; seed++ {
		m := passtest.RandomSwitchModule(uint64(seed))
		for _, p := range []*Pass{SwitchToIf, EliminateMultilevelBreak, OutOfSSA} {
			opt := ""
			if p == SwitchToIf {
				opt = "all"
			}
			m, _ = cfApply(t, p, m, opt)
			if p == SwitchToIf {
				continue // multi-level exits remain until the next pass
			}
			if msg := passtest.ValidateCF(t, m); msg != "" {
				t.Fatalf("seed %d after %s: spirv-val rejects: %s\n%s", seed, p.Name, msg, m)
			}
		}
		c, _ := cfApply(t, Structurize, passtest.RandomCFGModule(uint64(seed)), "")
		if msg := passtest.ValidateCF(t, c); msg != "" {
			t.Fatalf("random CFG %d after structurize: spirv-val rejects: %s\n%s", seed, msg, c)
		}
	}
}
