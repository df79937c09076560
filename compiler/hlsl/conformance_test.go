package hlsl

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"passlens/internal/vkd3d"
)

// This test parses and checks every HLSL shader section of the vkd3d
// .shader_test files (read from ../shared/conformance beside the
// checkout; never copied into the repository) and reports how many of the
// shaders that apply to shader model 6 are accepted or rejected as
// expected. Rejections of shaders outside the supported subset (textures,
// doubles, geometry shaders, ...) are classified, not counted as failures.
// Set HLSL_CONFORMANCE_VERBOSE=1 to print every mismatch.

// unsupportedCategory classifies a rejection caused by something outside
// the subset, or returns "".
func unsupportedCategory(diags Diagnostics) string {
	for _, d := range diags {
		if d.Severity != Error {
			continue
		}
		m := d.Message
		if rest, ok := strings.CutPrefix(m, "unsupported type '"); ok {
			name, _, _ := strings.Cut(rest, "'")
			if cat, ok := unsupportedObjects[name]; ok {
				return cat
			}
			base, _, _, _ := builtinTypeName(name)
			switch {
			case base == "double" || base == "float64_t":
				return "double"
			case strings.Contains(base, "64"):
				return "int64"
			case strings.HasPrefix(base, "min"):
				return "min-precision"
			default:
				return "16-bit"
			}
		}
		switch {
		case strings.HasPrefix(m, "arrays of ConstantBuffer<"):
			return "ConstantBuffer arrays"
		case strings.Contains(m, "effect"):
			return "effects"
		case strings.HasPrefix(m, "resource of type") && strings.HasSuffix(m, "cannot be used in an initializer list"),
			m == "resources cannot be members of a constant buffer",
			strings.HasPrefix(m, "local resource variable") && strings.HasSuffix(m, "must be initialized"),
			strings.HasPrefix(m, "'Texture") && strings.Contains(m, "is not a valid element type"),
			strings.HasPrefix(m, "cannot assign to resource variable"):
			// Limits of passlens's resource handling that DXC legalizes
			// away (issue 17, item 4); textures now reach them.
			return "resource objects"
		case strings.Contains(m, "geometry shader"):
			return "geometry shader"
		}
	}
	return ""
}

type conformanceStats struct {
	units, applicable, notApplicable int
	okAccepted, okRejected           int // matched expectations
	rejectedBySubset                 int // of okRejected: by an "unsupported" error
	falseRejected, falseAccepted     int
	unsupported                      map[string]int
	mismatches                       []string
}

// subsetUnit is a vkd3d shader unit inside the subset, with passlens's
// verdict.
type subsetUnit struct {
	*vkd3d.Unit
	label      string // "file:line [header]"
	key        string // "file:line"
	expectFail bool   // vkd3d expects a compile failure at SM6
	rejected   bool   // passlens reported an error
	firstError string
	// subsetReason is set when passlens rejects the unit with an
	// "unsupported" error (a subset limit, e.g. a sampler), so the
	// rejection need not be for DXC's reason.
	subsetReason string
}

// checkConformance runs the frontend over every SM6 unit, classifying
// the ones outside the subset, and returns the units inside it.
func checkConformance(t *testing.T) ([]*subsetUnit, conformanceStats) {
	files := vkd3d.Load(t)
	verbose := os.Getenv("HLSL_CONFORMANCE_VERBOSE") != ""
	st := conformanceStats{unsupported: map[string]int{}}
	var subset []*subsetUnit
	for _, file := range files {
		for _, u := range file.Units() {
			st.units++
			sm, ok := u.SM6()
			if !ok {
				st.notApplicable++
				continue
			}
			st.applicable++
			fail := u.ExpectFail(sm)
			cat := u.OutsideSubset()
			if cat != "" {
				st.unsupported[cat]++
				continue
			}
			opts, _ := unitOptions(u)
			label := u.Label()
			_, diags := Frontend(u.File, []byte(u.Src), opts)
			for _, d := range diags {
				if isInternalError(d.Message) {
					t.Errorf("%s: %s", label, d.Message)
				}
			}
			rejected := diags.HasErrors()
			first := ""
			for _, d := range diags {
				if d.Severity == Error {
					first = d.Pos.String() + ": " + d.Message
					break
				}
			}
			su := &subsetUnit{Unit: u, label: label, key: u.Key(),
				expectFail: fail, rejected: rejected, firstError: first}
			if rejected {
				su.subsetReason = unsupportedCategory(diags)
			}
			switch {
			case fail && rejected:
				st.okRejected++
				if su.subsetReason != "" {
					st.rejectedBySubset++
				}
			case !fail && !rejected:
				st.okAccepted++
			case !fail && rejected:
				if c := unsupportedCategory(diags); c != "" {
					st.unsupported[c]++
					continue
				}
				st.falseRejected++
				st.mismatches = append(st.mismatches, fmt.Sprintf("REJECTED %s: %s", label, first))
				if verbose {
					var b strings.Builder
					_ = diags.Render(&b, Sources{u.File: []byte(u.Src)})
					st.mismatches[len(st.mismatches)-1] += "\n" + b.String()
				}
			case fail && !rejected:
				st.falseAccepted++
				st.mismatches = append(st.mismatches, fmt.Sprintf("ACCEPTED %s (expected failure)", label))
				if verbose {
					st.mismatches[len(st.mismatches)-1] += "\n" + u.Src
				}
			}
			subset = append(subset, su)
		}
	}
	return subset, st
}

// knownMismatches are the subset units whose verdict differs from DXC's,
// with the reason; any other mismatch fails the test, and so does a listed
// one that starts to match (the list must stay true).
var knownMismatches = map[string]string{}

func TestConformanceVKD3D(t *testing.T) {
	subset, st := checkConformance(t)
	for _, u := range subset {
		mismatch := u.expectFail != u.rejected
		switch why, known := knownMismatches[u.key]; {
		case mismatch && !known:
			t.Errorf("%s: expected %s, passlens %s (%s)", u.label, verdict(!u.expectFail), verdict(!u.rejected), u.firstError)
		case !mismatch && known:
			t.Errorf("%s: matches now; remove it from knownMismatches (%s)", u.label, why)
		}
	}
	verbose := os.Getenv("HLSL_CONFORMANCE_VERBOSE") != ""
	inSubset := st.okAccepted + st.okRejected + st.falseAccepted + st.falseRejected
	t.Logf("vkd3d HLSL conformance (shader model 6): %d shader units, %d applicable to SM6, %d not applicable",
		st.units, st.applicable, st.notApplicable)
	t.Logf("  within the subset: %d units; %d matched expectations (%d accepted, %d rejected as expected)",
		inSubset, st.okAccepted+st.okRejected, st.okAccepted, st.okRejected)
	t.Logf("  (%d of the expected rejections are by an unsupported-feature error, not necessarily DXC's reason)", st.rejectedBySubset)
	t.Logf("  mismatches: %d wrongly rejected, %d wrongly accepted", st.falseRejected, st.falseAccepted)
	var cats []string
	total := 0
	for c, n := range st.unsupported {
		cats = append(cats, fmt.Sprintf("%s=%d", c, n))
		total += n
	}
	sort.Strings(cats)
	t.Logf("  outside the subset (classified, not counted): %d [%s]", total, strings.Join(cats, ", "))
	if verbose {
		for _, m := range st.mismatches {
			t.Log(m)
		}
	}
	t.Logf("  overall: %d accepted, %d rejected of the %d units checked",
		st.okAccepted+st.falseAccepted, st.okRejected+st.falseRejected, inSubset)
	// Guard against regressions without demanding perfection.
	if matched := st.okAccepted + st.okRejected; inSubset > 0 && matched*100 < inSubset*95 {
		t.Errorf("only %d of %d units matched expectations (want at least 95%%)", matched, inSubset)
	}
}

// unitOptions returns the frontend options for a unit: entry main, its
// stage, and the row-major [require] option; ok is false for a stage the
// frontend does not compile (geometry, hull, domain, effects).
func unitOptions(u *vkd3d.Unit) (opts Options, ok bool) {
	opts = Options{Entry: "main"}
	switch u.Stage {
	case "pixel":
		opts.Stage = StagePixel
	case "vertex":
		opts.Stage = StageVertex
	case "compute":
		opts.Stage = StageCompute
	default:
		return opts, false
	}
	for _, o := range u.Options {
		if o == "row-major" {
			opts.RowMajor = true
		}
	}
	opts.Enable16BitTypes = u.Native16Bit()
	// The profile vkd3d's runner compiles with (cs_6_0, or the
	// [require]d minimum such as ps_6_2): shader-model-gated features are
	// checked as dxc checks them.
	if p, err := ParseProfile(u.Profile()); err == nil {
		opts.Profile = p
	}
	return opts, true
}

func verdict(accept bool) string {
	if accept {
		return "accept"
	}
	return "reject"
}
