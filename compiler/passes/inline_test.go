package passes

import (
	"strings"
	"testing"

	"passlens/compiler/ir"
)

func TestInlineReturnFromLoop(t *testing.T) {
	t.Parallel()
	// A return inside a loop becomes a multi-level break out of the
	// one-case switch the inliner wraps the callee in (the case file's runs
	// and outputs are checked by TestPassCases).
	m := caseAfter(t, "return_from_loop", "inline")
	if !strings.Contains(m.String(), "selection_merge %find.exit\n  switch i32 0 [default: %find.entry]") {
		t.Errorf("want the one-case switch wrapper:\n%s", m)
	}
}

func TestInlineRecursion(t *testing.T) {
	t.Parallel()
	m := cfLoad(t, "recursion")
	_, err := Inline.Run(m, &Context{})
	if err == nil || !strings.Contains(err.Error(), "recursive call chain @a -> @b -> @a") {
		t.Fatalf("want a recursion error naming the cycle, got %v", err)
	}
}

func TestInlineKeepsDeclarationsAndLibraries(t *testing.T) {
	t.Parallel()
	// No entry point: roots are the uncalled functions; calls to
	// declarations stay.
	m := cfLoad(t, "library")
	runPasses(t, m, "inline", "")
	if m.Func("helper") != nil || m.Func("api") == nil || m.Func("ext") == nil {
		t.Fatalf("want @api and @ext kept, @helper inlined away:\n%s", m)
	}
	var calls []string
	for _, b := range m.Func("api").Blocks {
		for _, in := range b.Instrs {
			if in.Op == ir.OpCall {
				calls = append(calls, in.Callee.Name())
			}
		}
	}
	if len(calls) != 1 || calls[0] != "ext" {
		t.Fatalf("want one call of @ext left, got %v", calls)
	}
}
