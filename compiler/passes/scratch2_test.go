package passes

import (
	"fmt"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
)

func TestScratchRandom(t *testing.T) {
	type step struct{ p *Pass; opt string }
	seqs := [][]step{
		{{SwitchToIf, "all"}},
		{{SwitchToIf, "all"}, {EliminateMultilevelBreak, ""}},
		{{EliminateMultilevelBreak, ""}},
		{{OutOfSSA, ""}},
		{{Structurize, ""}},
		{{OutOfSSA, ""}, {Structurize, ""}},
	}
	ran, diffd := 0, 0
	for seed := 0; seed < 200; seed++ {
		opts := ir.RandomOptions{Unstructured: seed%3 == 0, PlainNames: seed%2 == 0}
		for si, seq := range seqs {
			t.Run(fmt.Sprintf("seed%d/%d", seed, si), func(t *testing.T) {
				m := ir.RandomModule(int64(seed), opts)
				orig := ir.CloneModule(m)
				for _, st := range seq {
					before := m.String()
					ctx := &Context{}
					if st.opt != "" {
						ctx.Options = map[string]string{st.p.Name: st.opt}
					}
					changed, err := st.p.Run(m, ctx)
					if err != nil {
						t.Fatalf("%s: %v\n%s", st.p.Name, err, before)
					}
					after := m.String()
					if verr := ir.Verify(m); verr != nil {
						t.Fatalf("%s: output does not verify: %v\ninput:\n%s\noutput:\n%s", st.p.Name, verr, before, after)
					}
					if changed != (before != after) {
						t.Errorf("%s changed=%v text changed=%v", st.p.Name, changed, before != after)
					}
					m2, err := ir.ParseModule("r", []byte(after))
					if err != nil || m2.String() != after {
						t.Fatalf("%s: no round trip: %v", st.p.Name, err)
					}
				}
				for _, e := range []string{"main", "ps_main", "vs_main"} {
					in := &interp.Input{Rect: &interp.Rect{Width: 2, Height: 2}, VertexCount: 4}
					if e == "main" {
						in = nil
					}
					rb, err := interp.Run(orig, in, interp.Options{Entry: e, MaxSteps: 200000})
					if err != nil {
						if seed < 6 && si == 0 { t.Log("orig run:", err) }
						continue
					}
					ran++
					ra, err := interp.Run(m, in, interp.Options{Entry: e, MaxSteps: 400000})
					if err != nil {
						t.Fatalf("after run failed: %v\n%s\n%s", err, orig, m)
					}
					if ok, why := rb.Equal(ra); !ok {
						diffd++
						t.Errorf("differ %s: %s\n%s\n%s", e, why, orig, m)
					}
				}
			})
		}
	}
	t.Log("ran", ran, "differ", diffd)
}
