package passes

import (
	"fmt"
	"strings"
	"testing"

	"passlens/compiler/ir"
	"passlens/compiler/ir/irtest"
	"passlens/compiler/passes/passtest"
	"passlens/compiler/target"
)

// TestStructurizeStructured: on the pass's cases (their outputs and runs
// are checked by TestPassCases) the result is structured, and dispatched
// only when exits alone cannot fix it.
func TestStructurizeStructured(t *testing.T) {
	t.Parallel()
	cases := []struct{ file, passes string }{
		// An irreducible cycle (two entries): dispatched.
		{"irreducible", "structurize"},
		// The SM3 order: phis become variables first.
		{"irreducible", "out-of-ssa,structurize"},
		// Reducible but unannotated (LLVM style): dispatched too.
		{"unannotated", "structurize"},
		// For SM3 (no switch instruction): a chain of ifs.
		{"irreducible", "out-of-ssa,structurize<ifs>"},
		// Only multi-level exits: fixed in place, not dispatched.
		{"emb_break2", "structurize"},
	}
	for _, tc := range cases {
		m := cfLoad(t, tc.file)
		for _, step := range strings.Split(tc.passes, ",") {
			name, opt, _ := strings.Cut(step, "<")
			m, _ = cfApply(t, Lookup(name), m, strings.TrimSuffix(opt, ">"))
		}
		f := m.Func("main")
		if ps := structureProblems(f); len(ps) > 0 {
			t.Errorf("%s: still unstructured: %v", tc.file, ps)
		}
		dispatched := f.Block("dispatch.loop") != nil
		if want := tc.file != "emb_break2"; dispatched != want {
			t.Errorf("%s: dispatched = %v, want %v", tc.file, dispatched, want)
		}
	}
}

// TestStructurizeIfsOption: with structurize<ifs> (what the sm3 pipeline
// asks for) the dispatcher has no switch, whatever the target; without it
// the dispatcher is a switch even for sm3 (the pass does not look at the
// target); a bad option is an error.
func TestStructurizeIfsOption(t *testing.T) {
	t.Parallel()
	hasSwitch := func(m *ir.Module) bool {
		for _, b := range m.Func("main").Blocks {
			if b.Terminator().Op == ir.OpSwitch {
				return true
			}
		}
		return false
	}
	m := cfLoad(t, "irreducible")
	if _, err := Structurize.Run(m, &Context{Target: target.SPIRV, Options: map[string]string{"structurize": "ifs"}}); err != nil {
		t.Fatal(err)
	}
	if hasSwitch(m) {
		t.Fatalf("switch with structurize<ifs>:\n%s", m)
	}
	sw := cfLoad(t, "irreducible")
	if _, err := Structurize.Run(sw, &Context{Target: target.SM3}); err != nil {
		t.Fatal(err)
	}
	if !hasSwitch(sw) {
		t.Fatalf("no switch dispatcher without the ifs option:\n%s", sw)
	}
	if err := ir.Verify(m); err != nil {
		t.Fatal(err)
	}
	if _, err := Structurize.Run(cfLoad(t, "irreducible"), &Context{Options: map[string]string{"structurize": "tree"}}); err == nil {
		t.Fatal("unknown option accepted")
	}
}

// TestStructurizeLeavesStructured: structured functions (annotations valid,
// exits single-level, switch fallthrough included) are not touched.
func TestStructurizeLeavesStructured(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"seed", "swap", "lost_copy", "sw_nested", "sw_plain", "switch_loop_continue", "emb_ifbreak.eliminate-multilevel-break.want"} {
		m := cfLoad(t, name)
		if ps := structureProblems(m.Func("main")); len(ps) > 0 {
			t.Errorf("%s reported unstructured: %v", name, ps)
		}
		if out, changed := cfApply(t, Structurize, m, ""); changed || out.String() != m.String() {
			t.Errorf("structurize changed %s", name)
		}
	}
}

// TestStructurizeProblems names what makes the inputs unstructured.
func TestStructurizeProblems(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"irreducible": "irreducible cycle entered at %A",
		"unannotated": "condbr without a merge annotation",
		"emb_break2":  "multi-level exit to %outer.exit",
		"emb_ifbreak": "multi-level exit to %out",
	} {
		var got []string
		for _, p := range structureProblems(cfLoad(t, name).Func("main")) {
			got = append(got, p.String())
		}
		if !strings.Contains(strings.Join(got, "; "), want) {
			t.Errorf("%s: problems %v, want one saying %q", name, got, want)
		}
	}
}

// TestStructurizeRandomCFGs dispatches random CFGs (irreducible loops,
// unreachable blocks, duplicate edges, phis, unannotated branches) and
// requires a verified, structured result that round-trips, with results
// unchanged on every run the interpreter can make.
func TestStructurizeRandomCFGs(t *testing.T) {
	t.Parallel()
	n := 150
	if testing.Short() {
		n = 40
	}
	for seed := 0; seed < n; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			m := passtest.RandomCFGModule(uint64(seed))
			if err := ir.Verify(m); err != nil {
				t.Fatalf("generator: %v\n%s", err, m)
			}
			in := cfInput(m, cfData)
			out, changed := cfApply(t, Structurize, m, "")
			if !changed {
				t.Fatalf("random CFG left alone:\n%s", m)
			}
			if ps := structureProblems(out.Func("main")); len(ps) > 0 {
				t.Fatalf("still unstructured: %v\n%s", ps, out)
			}
			cfSameRun(t, m, out, in)
		})
	}
}

// TestCFPassesOnRandomModules runs the control-flow passes on the IR package's
// random modules (structured and unstructured functions): the output must
// verify, be structured, round-trip, and report changes exactly.
func TestCFPassesOnRandomModules(t *testing.T) {
	t.Parallel()
	n := 80
	if testing.Short() {
		n = 20
	}
	seqs := [][]string{
		{"switch-to-if<all>", "eliminate-multilevel-break", "out-of-ssa", "structurize"},
		{"switch-to-if<all>", "eliminate-multilevel-break"},
		{"eliminate-multilevel-break"},
		{"out-of-ssa"},
		{"structurize"},
		{"out-of-ssa", "structurize"},
	}
	for seed := 0; seed < n; seed++ {
		for _, seq := range seqs {
			t.Run(fmt.Sprintf("seed%d/%s", seed, strings.Join(seq, ",")), func(t *testing.T) {
				m := irtest.RandomModule(int64(seed), irtest.RandomOptions{Unstructured: seed%2 == 0, PlainNames: true})
				for _, step := range seq {
					name, opt, _ := strings.Cut(step, "<")
					m, _ = cfApply(t, Lookup(name), m, strings.TrimSuffix(opt, ">"))
					text := m.String()
					back, err := ir.ParseModule("reparse", []byte(text))
					if err != nil || back.String() != text {
						t.Fatalf("%s output does not round-trip: %v", name, err)
					}
				}
				if seq[len(seq)-1] == "structurize" {
					for _, f := range m.Funcs {
						if ps := structureProblems(f); !f.IsDeclaration() && len(ps) > 0 {
							t.Fatalf("@%s unstructured after structurize: %v\n%s", f.Name(), ps, f)
						}
					}
				}
			})
		}
	}
}
