package backend

import (
	"strings"

	"passlens/compiler/analysis"
	"passlens/compiler/ir"
	"passlens/tui"
)

// addUniformity fills the divergence marks and explanations of a from the
// uniformity analysis of f.
func addUniformity(a *tui.Analysis, f *ir.Function) {
	u := analysis.Uniformity(f)
	a.Divergent = map[string]tui.DivKind{}
	values := map[string]ir.Value{}
	blocks := map[string]*ir.Block{}
	for _, p := range f.Params {
		values[p.Ref()] = p
		if u.IsDivergent(p) {
			a.Divergent[p.Ref()] = tui.DivValue
		}
	}
	for _, b := range f.Blocks {
		blocks[b.Ref()] = b
		if u.IsDivergentTerminator(b) {
			a.Divergent[b.Ref()] = tui.DivBranch
		}
		for _, in := range b.Instrs {
			if !in.HasResult() {
				continue
			}
			values[in.Ref()] = in
			if !u.IsDivergent(in) {
				continue
			}
			kind := tui.DivValue
			if r, ok := u.Reason(in); ok {
				switch r.Kind {
				case analysis.DivTemporal:
					kind = tui.DivTemporal
				case analysis.DivCycle:
					kind = tui.DivAssumed
				}
			}
			a.Divergent[in.Ref()] = kind
		}
	}
	a.Explain = func(name string) []string {
		v, ok := values[name]
		if !ok {
			return nil
		}
		steps := u.Explain(v)
		if len(steps) == 0 {
			return nil
		}
		return strings.Split(strings.TrimSpace(u.FormatExplain(steps)), "\n")
	}
	a.ExplainTerminator = func(name string) []string {
		b, ok := blocks[name]
		if !ok {
			return nil
		}
		steps := u.ExplainTerminator(b)
		if len(steps) == 0 {
			return nil
		}
		return strings.Split(strings.TrimSpace(u.FormatExplain(steps)), "\n")
	}
}
