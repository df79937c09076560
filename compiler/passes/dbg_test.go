package passes

import (
	"testing"

	"passlens/compiler/ir"
)

func TestDbgSimplify(t *testing.T) {
	for _, seed := range []int64{4, 6, 12} {
		m := ir.RandomModule(seed, ir.RandomOptions{PlainNames: seed%2 == 0, Unstructured: seed%3 == 0})
		for _, p := range []string{"inline", "sroa", "simplify", "scalarize"} {
			Lookup(p).Run(m, &Context{})
		}
		for _, f := range m.Funcs {
			if f.IsDeclaration() {
				continue
			}
			steps := []struct {
				n  string
				fn func(*ir.Function) bool
			}{{"instrs", simplifyInstrs}, {"cse", cseFunction}, {"cfg", simplifyCFG}, {"dce", dceFunction}}
			for _, st := range steps {
				before := f.String()
				c := st.fn(f)
				if c && before == f.String() {
					t.Errorf("seed %d %s: %s claims change\n%s", seed, f.Name(), st.n, before)
				}
			}
		}
	}
}
