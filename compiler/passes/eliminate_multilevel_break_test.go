package passes

import (
	"strings"
	"testing"

	"passlens/compiler/ir"
)

// TestEliminateMultilevelBreakStructured: on the pass's cases (their
// outputs and runs are checked by TestPassCases) every result has
// single-level exits only and is structured.
func TestEliminateMultilevelBreakStructured(t *testing.T) {
	t.Parallel()
	cases := []struct{ file, passes string }{
		// break 2 (with a value used after the outer loop) and continue 2.
		{"emb_break2", "eliminate-multilevel-break"},
		// A branch to the merge of an enclosing if: the if becomes a loop.
		{"emb_ifbreak", "eliminate-multilevel-break"},
		// The seed's case: continues inside a switch that switch-to-if
		// turned into a loop.
		{"switch_loop_continue", "switch-to-if,eliminate-multilevel-break"},
		{"sw_nested", "switch-to-if,eliminate-multilevel-break"},
	}
	for _, tc := range cases {
		m := cfLoad(t, tc.file)
		for _, step := range strings.Split(tc.passes, ",") {
			m, _ = cfApply(t, Lookup(step), m, "")
		}
		f := m.Func("main")
		if e := multilevelEdges(f, analyzeCFConstructs(f)); len(e) > 0 {
			t.Errorf("%s: multi-level exits remain: %s -> %s", tc.file, e[0].from.Ref(), e[0].to.Ref())
		}
		if ps := structureProblems(f); len(ps) > 0 {
			t.Errorf("%s: not structured after %s: %v", tc.file, tc.passes, ps)
		}
	}
}

// TestEliminateMultilevelBreakDetects checks the classification the pass
// relies on: the inputs have multi-level exits, structured code has none.
func TestEliminateMultilevelBreakDetects(t *testing.T) {
	t.Parallel()
	for name, want := range map[string][]string{
		"emb_break2":  {"%body -> %outer.exit", "%body.2 -> %outer.cont"},
		"emb_ifbreak": {"%early -> %out"},
		"seed":        nil,
		"swap":        nil,
	} {
		f := cfLoad(t, name).Func("main")
		var got []string
		for _, e := range multilevelEdges(f, analyzeCFConstructs(f)) {
			got = append(got, e.from.Ref()+" -> "+e.to.Ref())
		}
		if strings.Join(got, ", ") != strings.Join(want, ", ") {
			t.Errorf("%s: multi-level exits %v, want %v", name, got, want)
		}
	}
}

// TestEliminateMultilevelBreakLeavesStructured: nothing to do, no change.
func TestEliminateMultilevelBreakLeavesStructured(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"seed", "swap", "sw_plain", "sw_nested"} {
		m := cfLoad(t, name)
		if out, changed := cfApply(t, EliminateMultilevelBreak, m, ""); changed || out.String() != m.String() {
			t.Errorf("%s changed:\n%s", name, out)
		}
	}
}

// TestEliminateMultilevelBreakUnstructuredLeftAlone: a jump into the middle
// of another construct is not a multi-level exit; the pass leaves it (for
// structurize) instead of looping or failing.
func TestEliminateMultilevelBreakUnstructuredLeftAlone(t *testing.T) {
	t.Parallel()
	m := cfParse(t, "sideways", `
define void @f(bool %c, bool %d) {
entry:
  selection_merge %end
  condbr bool %c, %a, %b
a:
  br %y
b:
  selection_merge %bm
  condbr bool %d, %y, %bm
y:
  ret
bm:
  br %end
end:
  ret
}
`)
	out, _ := cfApply(t, EliminateMultilevelBreak, m, "")
	f := out.Func("f")
	ps := structureProblems(f)
	if len(ps) == 0 || ps[0].multilevel {
		t.Fatalf("want an unstructured (not multi-level) problem, got %v", ps)
	}
	_ = ir.Verify(out)
}
