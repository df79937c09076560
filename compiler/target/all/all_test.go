package all

import (
	"slices"
	"strings"
	"testing"

	"passlens/compiler/passes"
	"passlens/compiler/target"
)

// Every target with a default pipeline has a back end linked in (a missing
// import once left `compile --target dxil` without one).
func TestEveryPipelineTargetHasABackEnd(t *testing.T) {
	names := target.Names()
	for _, tg := range passes.Targets {
		if !slices.Contains(names, tg) {
			t.Errorf("target %q has a default pipeline but no registered back end (have %v)", tg, names)
		}
	}
}

// With every back end linked in, every pass a default pipeline names is
// registered (target passes register from their back end's package), and
// each has its doc comment and the targets whose pipelines use it.
func TestEveryPipelinePassRegistered(t *testing.T) {
	for _, tg := range passes.Targets {
		for _, step := range passes.DefaultPipelines[tg] {
			name, _, _ := strings.Cut(step, "<")
			p := passes.Lookup(name)
			if p == nil {
				t.Errorf("default %s pipeline names pass %q, which no linked package registers", tg, name)
				continue
			}
			if p.Summary == "" || p.Doc == "" {
				t.Errorf("pass %s has no Summary/Doc from its doc comment", name)
			}
			if !slices.Contains(p.Targets, tg) {
				t.Errorf("pass %s: Targets = %v, missing %s", name, p.Targets, tg)
			}
		}
	}
	if p := passes.Lookup("sm3-lower"); p == nil || !slices.Equal(p.Targets, []target.Name{target.SM3}) {
		t.Errorf("sm3-lower is not registered for the sm3 pipeline: %+v", p)
	}
}
