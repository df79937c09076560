package hlsl

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// This test parses and checks every HLSL shader section of the vkd3d
// .shader_test files (read from ../shared/conformance beside the
// checkout; never copied into the repository) and reports how many of the
// shaders that apply to shader model 6 are accepted or rejected as
// expected. Rejections of shaders outside the supported subset (textures,
// doubles, geometry shaders, ...) are classified, not counted as failures.
// Set HLSL_CONFORMANCE_VERBOSE=1 to print every mismatch.

// repoRoot finds the directory holding go.mod above the package.
func repoRoot(t testing.TB) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found")
		}
		dir = parent
	}
}

func conformanceDir(t testing.TB) string {
	dir := filepath.Join(repoRoot(t), "..", "shared", "conformance", "vkd3d", "hlsl")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("conformance data not found at %s: %v", dir, err)
	}
	return dir
}

// shaderUnit is one shader section of a .shader_test file.
type shaderUnit struct {
	file     string
	line     int
	stage    string // "pixel", "vertex", "compute", "geometry", ...
	header   string
	src      string
	minSM    float64 // requirement range [minSM, maxSM)
	maxSM    float64
	features []string
	options  []string
}

// parseShaderTest splits a .shader_test file into shader units, applying
// [require] sections to the shaders that follow them.
func parseShaderTest(name, text string) []*shaderUnit {
	var units []*shaderUnit
	minSM, maxSM := 0.0, 99.0
	var features, options []string
	var cur *shaderUnit
	inRequire := false
	var body strings.Builder
	flush := func() {
		if cur != nil {
			cur.src = body.String()
			units = append(units, cur)
		}
		cur = nil
		body.Reset()
	}
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "[") && strings.HasSuffix(trimmed, "]") && !strings.HasPrefix(line, " ") {
			flush()
			header := trimmed[1 : len(trimmed)-1]
			inRequire = header == "require"
			if inRequire {
				minSM, maxSM = 0, 99
				features, options = nil, nil
				continue
			}
			for _, stage := range []string{"pixel", "vertex", "compute", "geometry", "hull", "domain", "effect"} {
				if strings.HasPrefix(header, stage) {
					cur = &shaderUnit{file: name, line: i + 2, stage: stage, header: header,
						minSM: minSM, maxSM: maxSM, features: features, options: options}
				}
			}
			continue
		}
		if inRequire {
			if strings.HasPrefix(trimmed, "%") || trimmed == "" {
				continue
			}
			if rest, ok := strings.CutPrefix(trimmed, "shader model "); ok {
				f := strings.Fields(rest)
				if len(f) == 2 {
					v, _ := strconv.ParseFloat(f[1], 64)
					switch f[0] {
					case ">=":
						minSM = v
					case "<":
						maxSM = v
					}
				}
				continue
			}
			if rest, ok := strings.CutPrefix(trimmed, "options:"); ok {
				options = append(options, strings.Fields(rest)...)
				continue
			}
			features = append(features, trimmed)
			continue
		}
		if cur != nil {
			if strings.HasPrefix(trimmed, "%") {
				body.WriteString("\n") // keep line numbers
				continue
			}
			body.WriteString(line)
			body.WriteString("\n")
		}
	}
	flush()
	return units
}

// evalSMCond evaluates a condition such as "sm>=6", "sm<4 | sm>=6" or
// "msl & sm>=6" at shader model sm; backend names are false.
func evalSMCond(cond string, sm float64) bool {
	for _, alt := range strings.Split(cond, "|") {
		all := true
		for _, term := range strings.Split(alt, "&") {
			term = strings.TrimSpace(term)
			ok := false
			for _, op := range []string{">=", "<=", "<", ">", "=="} {
				if rest, found := strings.CutPrefix(term, "sm"+op); found {
					v, _ := strconv.ParseFloat(strings.TrimSpace(rest), 64)
					switch op {
					case ">=":
						ok = sm >= v
					case "<=":
						ok = sm <= v
					case "<":
						ok = sm < v
					case ">":
						ok = sm > v
					case "==":
						ok = sm == v
					}
					goto done
				}
			}
			ok = false // a backend or feature name: not us
		done:
			all = all && ok
		}
		if all {
			return true
		}
	}
	return false
}

// expectFail reports whether the header marks the shader as failing at sm.
func expectFail(header string, sm float64) bool {
	for _, word := range splitHeader(header) {
		if word == "fail" {
			return true
		}
		if rest, ok := strings.CutPrefix(word, "fail("); ok {
			return evalSMCond(strings.TrimSuffix(rest, ")"), sm)
		}
	}
	return false
}

// splitHeader splits "pixel shader fail(sm<4 | sm>=6) todo" into words,
// keeping parenthesized groups together.
func splitHeader(h string) []string {
	var words []string
	depth := 0
	start := 0
	for i := 0; i <= len(h); i++ {
		if i == len(h) || h[i] == ' ' && depth == 0 {
			if i > start {
				words = append(words, h[start:i])
			}
			start = i + 1
			continue
		}
		switch h[i] {
		case '(':
			depth++
		case ')':
			depth--
		}
	}
	return words
}

// unsupportedCategory classifies a rejection caused by something outside
// the subset, or returns "".
func unsupportedCategory(u *shaderUnit, diags Diagnostics) string {
	for _, d := range diags {
		if d.Severity != Error {
			continue
		}
		m := d.Message
		if rest, ok := strings.CutPrefix(m, "unsupported type '"); ok {
			name := strings.TrimSuffix(rest, "'")
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
		case strings.Contains(m, "effect"):
			return "effects"
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
	*shaderUnit
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
	dir := conformanceDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.shader_test"))
	if err != nil || len(files) == 0 {
		t.Skipf("no .shader_test files in %s", dir)
	}
	verbose := os.Getenv("HLSL_CONFORMANCE_VERBOSE") != ""
	st := conformanceStats{unsupported: map[string]int{}}
	var subset []*subsetUnit
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		for _, u := range parseShaderTest(name, string(data)) {
			st.units++
			sm := max(6.0, u.minSM)
			if sm >= u.maxSM || sm >= 7 {
				st.notApplicable++
				continue
			}
			st.applicable++
			fail := expectFail(u.header, sm)
			cat := ""
			switch {
			case u.stage == "geometry" || u.stage == "hull" || u.stage == "domain":
				cat = u.stage + " shader"
			case u.stage == "effect":
				cat = "effects"
			case strings.Contains(u.header, "-hex"):
				cat = "bytecode"
			}
			for _, f := range u.features {
				switch {
				case f == "float64":
					cat = "double"
				case f == "int64":
					cat = "int64"
				case f == "native-16-bit":
					cat = "16-bit"
				case f == "geometry-shader":
					cat = "geometry shader"
				case f == "tessellation-shader":
					cat = "tessellation"
				case f == "rov":
					cat = "rasterizer-ordered view"
				}
			}
			if cat != "" {
				st.unsupported[cat]++
				continue
			}
			opts := Options{Entry: "main"}
			switch u.stage {
			case "pixel":
				opts.Stage = StagePixel
			case "vertex":
				opts.Stage = StageVertex
			case "compute":
				opts.Stage = StageCompute
			}
			for _, o := range u.options {
				if o == "row-major" {
					opts.RowMajor = true
				}
			}
			label := fmt.Sprintf("%s:%d [%s]", u.file, u.line, u.header)
			_, diags := Frontend(u.file, []byte(u.src), opts)
			for _, d := range diags {
				if strings.HasPrefix(d.Message, "internal compiler error") {
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
			su := &subsetUnit{shaderUnit: u, label: label, key: fmt.Sprintf("%s:%d", u.file, u.line),
				expectFail: fail, rejected: rejected, firstError: first}
			if rejected {
				su.subsetReason = unsupportedCategory(u, diags)
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
				if c := unsupportedCategory(u, diags); c != "" {
					st.unsupported[c]++
					continue
				}
				st.falseRejected++
				st.mismatches = append(st.mismatches, fmt.Sprintf("REJECTED %s: %s", label, first))
				if verbose {
					var b strings.Builder
					_ = diags.Render(&b, Sources{u.file: []byte(u.src)})
					st.mismatches[len(st.mismatches)-1] += "\n" + b.String()
				}
			case fail && !rejected:
				st.falseAccepted++
				st.mismatches = append(st.mismatches, fmt.Sprintf("ACCEPTED %s (expected failure)", label))
				if verbose {
					st.mismatches[len(st.mismatches)-1] += "\n" + u.src
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
var knownMismatches = map[string]string{
	// DXC rejects this anonymous-struct uniform (with a row_major member)
	// and its initializer at SM6, while it accepts the named-struct and
	// cbuffer variants in the same file; vkd3d does not say why and no
	// DXC is available here to find the rule, so it is not guessed.
	"default-values.shader_test:270": "DXC rejection with no known rule",
}

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

func verdict(accept bool) string {
	if accept {
		return "accept"
	}
	return "reject"
}
