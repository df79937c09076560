package passes

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"passlens/compiler/target"
)

func TestRegistryTable(t *testing.T) {
	t.Parallel()
	if err := checkTable(); err != nil {
		t.Fatal(err)
	}
	for _, p := range All {
		if p.Doc == "" {
			t.Errorf("pass %s has no Doc", p.Name)
		}
		if strings.Contains(p.Summary, "\n") {
			t.Errorf("pass %s: Summary must be one line", p.Name)
		}
	}
}

// TestDefaultPipelinesAreRegistered requires every pass named in a default
// pipeline to exist, except the target passes that register themselves
// from their back end (compiler/target/all's tests check those with every
// back end linked in), and each pass's Targets to list exactly the targets
// whose default pipeline uses it.
func TestDefaultPipelinesAreRegistered(t *testing.T) {
	t.Parallel()
	targetPasses := []string{"sm3-lower"}
	for _, tgt := range Targets {
		for _, n := range DefaultPipelines[tgt] {
			name, _, _ := strings.Cut(n, "<")
			if Lookup(name) == nil && !slices.Contains(targetPasses, name) {
				t.Errorf("default %s pipeline names unregistered pass %q", tgt, name)
			}
		}
	}
	for _, p := range All {
		var want []target.Name
		for _, tgt := range Targets {
			for _, n := range DefaultPipelines[tgt] {
				if name, _, _ := strings.Cut(n, "<"); name == p.Name {
					want = append(want, tgt)
					break
				}
			}
		}
		got := append([]target.Name(nil), p.Targets...)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("pass %s: Targets = %v, but the default pipelines of %v use it", p.Name, p.Targets, want)
		}
	}
}

func TestDefaultPipelinesSatisfyOrder(t *testing.T) {
	t.Parallel()
	for _, tgt := range Targets {
		var names []string
		for _, n := range DefaultPipelines[tgt] {
			name, _, _ := strings.Cut(n, "<")
			names = append(names, name)
		}
		if errs := CheckOrder(names); len(errs) > 0 {
			t.Errorf("default %s pipeline: %v", tgt, errs)
		}
	}
}

func TestCheckOrder(t *testing.T) {
	t.Parallel()
	errs := CheckOrder([]string{"inline", "eliminate-multilevel-break", "switch-to-if"})
	if len(errs) != 1 {
		t.Fatalf("want one violation, got %v", errs)
	}
	var oe *OrderError
	if !errors.As(errs[0], &oe) || oe.Rule.Before != "switch-to-if" || oe.BeforeIndex != 2 || oe.AfterIndex != 1 {
		t.Fatalf("bad violation: %#v", errs[0])
	}
	if !strings.Contains(errs[0].Error(), "'switch-to-if' (step 3) must run before 'eliminate-multilevel-break' (step 2)") {
		t.Errorf("message: %s", errs[0])
	}
	// A pass repeated before and after is still a violation.
	if errs := CheckOrder([]string{"simplify", "out-of-ssa", "simplify"}); len(errs) != 1 {
		t.Errorf("simplify after out-of-ssa must be rejected, got %v", errs)
	}
	if errs := CheckOrder([]string{"simplify", "simplify", "out-of-ssa"}); len(errs) != 0 {
		t.Errorf("unexpected violations %v", errs)
	}
}

func TestSuggest(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want string
	}{
		{"simplfy", "simplify"},
		{"SROA", "sroa"},
		{"inlin", "inline"},
		{"scalarise", "scalarize"},
	} {
		got := Suggest(c.in)
		if len(got) == 0 || got[0] != c.want {
			t.Errorf("Suggest(%q) = %v, want %q first", c.in, got, c.want)
		}
	}
	_, err := Resolve("simplfy")
	if err == nil || err.Error() != "unknown pass 'simplfy' (did you mean 'simplify'?)" {
		t.Errorf("Resolve error: %v", err)
	}
	_, err = Resolve("zzzzzzzzzz")
	if err == nil || !strings.Contains(err.Error(), "known passes: inline, sroa") {
		t.Errorf("Resolve error without suggestion: %v", err)
	}
}
