package pipeline

import (
	"context"
	"testing"

	"passlens/samples"
)

// TestFuncModule checks, on every embedded sample through a pipeline, that
// a snapshot's FuncModule holds the function exactly as the whole module
// does (same printed text), every other function only as a declaration of
// the same signature, and that fn "" picks the first function with a body.
// The package's sample has a call and several entry points.
func TestFuncModule(t *testing.T) {
	n, multi := 0, 0
	all := append([]samples.Sample{{File: "sample.pir", Source: []byte(sample)}}, samples.All()...)
	for _, smp := range all {
		text, ok := loadSample(t, smp)
		if !ok {
			continue
		}
		res := Run(context.Background(), parse(t, text), MustParse("inline,sroa,simplify"), Options{VerifyEach: true})
		for _, s := range res.Snapshots {
			whole, err := s.FreshModule()
			if err != nil {
				t.Fatalf("%s after %s: %v", smp.File, s.Pass, err)
			}
			first := ""
			for _, f := range whole.Funcs {
				if f.IsDeclaration() {
					continue
				}
				if first == "" {
					first = f.Name()
				}
				for _, name := range []string{f.Name(), ""} {
					if name == "" && f.Name() != first {
						continue
					}
					m, err := s.FuncModule(name)
					if err != nil {
						t.Fatalf("%s after %s: FuncModule(%q): %v", smp.File, s.Pass, name, err)
					}
					if len(m.Funcs) != len(whole.Funcs) {
						t.Fatalf("%s: FuncModule(%q) has %d functions, the module %d", smp.File, name, len(m.Funcs), len(whole.Funcs))
					}
					for i, g := range m.Funcs {
						w := whole.Funcs[i]
						if g.Name() != w.Name() {
							t.Fatalf("%s: function %d is %s, want %s", smp.File, i, g.Name(), w.Name())
						}
						if g.Name() == f.Name() {
							if g.String() != w.String() {
								t.Errorf("%s after %s: FuncModule(%q) prints %s as\n%s\nwant\n%s", smp.File, s.Pass, name, g.Name(), g.String(), w.String())
							}
							continue
						}
						if !g.IsDeclaration() || g.Ret.String() != w.Ret.String() || len(g.Params) != len(w.Params) {
							t.Errorf("%s after %s: FuncModule(%q): %s is not a declaration of the same signature", smp.File, s.Pass, name, g.Name())
						}
					}
					n++
					if len(whole.Funcs) > 1 {
						multi++
					}
				}
			}
		}
	}
	if n == 0 || multi == 0 {
		t.Fatalf("%d functions checked, %d in a module of several", n, multi)
	}
}
