package backend

import (
	"fmt"
	"strings"

	"passlens/compiler/analysis/uniformity"
	"passlens/compiler/ir"
	"passlens/tui"
)

// addUniformity fills the divergence marks and explanations of a from the
// uniformity analysis of f.
func addUniformity(a *tui.Analysis, f *ir.Function) {
	u := uniformity.Uniformity(f)
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
				case uniformity.DivTemporal:
					kind = tui.DivTemporal
				case uniformity.DivCycle:
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
			return temporalChain(u, v)
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

// temporalChain explains a value that is uniform where it is defined, in
// a cycle, but temporally divergent where it is used outside the cycle
// (lanes leave on different iterations and see different last values):
// the uses, then why the cycle's exit is divergent. nil when v has no
// such use.
func temporalChain(u *uniformity.UniformityInfo, v ir.Value) []string {
	var out []string
	cycle := -1
	for _, t := range u.TemporalDivergence() {
		if t.Value != v {
			continue
		}
		if cycle < 0 {
			cycle = t.Cycle
			out = append(out, fmt.Sprintf("%s is uniform inside the cycle (%s), divergent where it is used outside:", v.Ref(), u.CycleString(t.Cycle)))
		}
		where := ""
		if t.User.Block != nil {
			where = " in " + t.User.Block.Name()
		}
		use := t.User.Ref()
		if !t.User.HasResult() {
			use = "the " + t.User.Op.String()
		}
		out = append(out, fmt.Sprintf("  used by %s%s, after lanes left the cycle on different iterations", use, where))
	}
	if cycle < 0 {
		return nil
	}
	if branch, exit := u.DivergentExitReason(cycle); branch != nil {
		ex := "?"
		if exit != nil {
			ex = exit.Name()
		}
		out = append(out, fmt.Sprintf("the cycle has a divergent exit (%s) because:", ex))
		if steps := u.ExplainTerminator(branch); len(steps) > 0 {
			out = append(out, strings.Split(strings.TrimSpace(u.FormatExplain(steps)), "\n")...)
		}
	}
	return out
}
