package spirv

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
)

// The vkd3d HLSL conformance shaders through the SPIR-V back end. The
// .shader_test files are read from ../shared/conformance beside the
// checkout (never copied into the repository). Units are split and
// classified as compiler/hlsl's conformance tests do: shaders that apply
// to shader model 6, are not expected to fail, need no feature outside
// the subset (doubles, 64-bit and 16-bit types, geometry and tessellation
// shaders, ROVs) and are pixel, vertex or compute shaders.

// vkd3dUnit is one shader section of a .shader_test file.
type vkd3dUnit struct {
	file, stage, header, src string
	line                     int     // first source line
	minSM, maxSM             float64 // requirement range [minSM, maxSM)
	features, options        []string
}

// vkd3dDir returns the conformance directory or skips the test.
func vkd3dDir(t testing.TB) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "..", "shared", "conformance", "vkd3d", "hlsl"))
	if err == nil {
		_, err = os.Stat(dir)
	}
	if err != nil {
		t.Skipf("vkd3d conformance data not found at %s: %v", dir, err)
	}
	return dir
}

// parseVKD3D splits a .shader_test file into shader units; [require]
// sections apply to the shaders that follow them. Lines starting with %
// are comments (kept as empty lines so line numbers stay right).
func parseVKD3D(name, text string) []*vkd3dUnit {
	var units []*vkd3dUnit
	minSM, maxSM := 0.0, 99.0
	var features, options []string
	var cur *vkd3dUnit
	var body strings.Builder
	inRequire := false
	flush := func() {
		if cur != nil {
			cur.src = body.String()
			units = append(units, cur)
		}
		cur = nil
		body.Reset()
	}
	for i, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "[") && strings.HasSuffix(trimmed, "]") && !strings.HasPrefix(line, " ") {
			flush()
			header := trimmed[1 : len(trimmed)-1]
			if inRequire = header == "require"; inRequire {
				minSM, maxSM, features, options = 0, 99, nil, nil
				continue
			}
			for _, stage := range []string{"pixel", "vertex", "compute", "geometry", "hull", "domain", "effect"} {
				if strings.HasPrefix(header, stage) {
					cur = &vkd3dUnit{file: name, line: i + 2, stage: stage, header: header,
						minSM: minSM, maxSM: maxSM, features: features, options: options}
				}
			}
			continue
		}
		switch {
		case inRequire:
			if strings.HasPrefix(trimmed, "%") || trimmed == "" {
				continue
			}
			if rest, ok := strings.CutPrefix(trimmed, "shader model "); ok {
				if f := strings.Fields(rest); len(f) == 2 {
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
		case cur != nil:
			if strings.HasPrefix(trimmed, "%") {
				line = ""
			}
			body.WriteString(line)
			body.WriteString("\n")
		}
	}
	flush()
	return units
}

// smCond evaluates "sm>=6", "sm<4 | sm>=6" or "msl & sm>=6" at shader
// model sm; other names (back ends, features) are false.
func smCond(cond string, sm float64) bool {
	for _, alt := range strings.Split(cond, "|") {
		all := true
		for _, term := range strings.Split(alt, "&") {
			term = strings.TrimSpace(term)
			ok := false
			for _, op := range []string{">=", "<=", "<", ">", "=="} {
				rest, found := strings.CutPrefix(term, "sm"+op)
				if !found {
					continue
				}
				v, _ := strconv.ParseFloat(strings.TrimSpace(rest), 64)
				ok = map[string]bool{">=": sm >= v, "<=": sm <= v, "<": sm < v, ">": sm > v, "==": sm == v}[op]
				break
			}
			all = all && ok
		}
		if all {
			return true
		}
	}
	return false
}

// expectsFailure reports whether the header marks the shader as failing
// to compile at sm ("fail" or "fail(COND)").
func expectsFailure(header string, sm float64) bool {
	depth, start := 0, 0
	for i := 0; i <= len(header); i++ {
		if i < len(header) && header[i] != ' ' || depth > 0 {
			if i < len(header) {
				switch header[i] {
				case '(':
					depth++
				case ')':
					depth--
				}
			}
			continue
		}
		word := header[start:i]
		start = i + 1
		if word == "fail" {
			return true
		}
		if rest, ok := strings.CutPrefix(word, "fail("); ok {
			return smCond(strings.TrimSuffix(rest, ")"), sm)
		}
	}
	return false
}

// outsideSubset names the reason a unit is outside the HLSL subset
// before compiling it ("" if it is inside).
func (u *vkd3dUnit) outsideSubset() string {
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
		switch f {
		case "float64":
			cat = "double"
		case "int64":
			cat = "int64"
		case "native-16-bit":
			cat = "16-bit"
		case "geometry-shader":
			cat = "geometry shader"
		case "tessellation-shader":
			cat = "tessellation"
		case "rov":
			cat = "rasterizer-ordered view"
		}
	}
	return cat
}

// vkd3dModule is a unit that the HLSL frontend and lowering accept.
type vkd3dModule struct {
	u     *vkd3dUnit
	label string
	m     *ir.Module
}

// vkd3dCounts counts what happened to the units before the back end.
type vkd3dCounts struct {
	units, applicable, outside, rejected, notLowered int
	outsideWhy, notLoweredWhy                        map[string]int
}

// loadVKD3D compiles every applicable unit with the HLSL frontend and
// lowering and returns the modules that lowered (before any pass).
func loadVKD3D(t testing.TB) ([]vkd3dModule, vkd3dCounts) {
	dir := vkd3dDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.shader_test"))
	if err != nil || len(files) == 0 {
		t.Skipf("no .shader_test files in %s", dir)
	}
	c := vkd3dCounts{outsideWhy: map[string]int{}, notLoweredWhy: map[string]int{}}
	var out []vkd3dModule
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range parseVKD3D(filepath.Base(path), string(data)) {
			c.units++
			sm := max(6.0, u.minSM)
			if sm >= u.maxSM || sm >= 7 || expectsFailure(u.header, sm) {
				continue
			}
			c.applicable++
			if why := u.outsideSubset(); why != "" {
				c.outside++
				c.outsideWhy[why]++
				continue
			}
			opts := hlsl.Options{Entry: "main"}
			switch u.stage {
			case "pixel":
				opts.Stage = hlsl.StagePixel
			case "vertex":
				opts.Stage = hlsl.StageVertex
			case "compute":
				opts.Stage = hlsl.StageCompute
			}
			for _, o := range u.options {
				if o == "row-major" {
					opts.RowMajor = true
				}
			}
			// Give the source its .shader_test line numbers.
			src := strings.Repeat("\n", u.line-1) + u.src
			prog, diags := hlsl.Frontend(u.file, []byte(src), opts)
			if diags.HasErrors() {
				c.rejected++
				continue
			}
			m, ld := hlsl.Lower(prog, opts)
			if m == nil || ld.HasErrors() {
				c.notLowered++
				for _, d := range ld {
					if d.Severity == hlsl.Error {
						c.notLoweredWhy[lowerReason(d.Message)]++
						break
					}
				}
				continue
			}
			out = append(out, vkd3dModule{u: u, label: fmt.Sprintf("%s:%d [%s]", u.file, u.line, u.header), m: m})
		}
	}
	return out, c
}

// lowerReason names the kind of a lowering diagnostic.
func lowerReason(msg string) string {
	switch {
	case strings.Contains(msg, "derivative"):
		return "derivatives"
	case strings.Contains(msg, "GetDimensions"):
		return "GetDimensions"
	case strings.Contains(msg, "resources"):
		return "resource aggregates"
	}
	if i := strings.IndexAny(msg, ":'"); i > 0 {
		return strings.TrimSpace(msg[:i])
	}
	return msg
}

// backendReason names the kind of a back-end rejection for the counts:
// the message without the global's name ("system-value semantic
// SV_ClipDistance is not supported for a vertex output in SPIR-V").
func backendReason(msg string) string {
	if strings.HasPrefix(msg, "global @") {
		if i := strings.Index(msg, ": "); i > 0 {
			msg = msg[i+2:]
		}
	}
	return msg
}

// counts renders a reason histogram, most frequent first.
func counts(m map[string]int) string {
	type kv struct {
		k string
		n int
	}
	var all []kv
	for k, n := range m {
		all = append(all, kv{k, n})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].n > all[j].n || all[i].n == all[j].n && all[i].k < all[j].k })
	var parts []string
	for _, e := range all {
		parts = append(parts, fmt.Sprintf("%s=%d", e.k, e.n))
	}
	return strings.Join(parts, ", ")
}

// TestVKD3D compiles every supported vkd3d shader through the spirv
// pipeline and the back end: spirv-val --target-env vulkan1.1 must
// accept every emitted module, and every module the back end rejects
// must be rejected with an *Error that names the function (and, where
// the IR has one, the source position). Rejections are counted by
// reason. The disassembly must equal spirv-dis's, and no OpSwitch may
// fall through a non-empty case (switch-to-if ran). Set VKD3D_VERBOSE=1
// to list every rejection.
func TestVKD3D(t *testing.T) {
	needTool(t, "spirv-val")
	mods, c := loadVKD3D(t)
	verbose := os.Getenv("VKD3D_VERBOSE") != ""
	var emitted, valid int
	pipeFail, rejectWhy := map[string]int{}, map[string]int{}
	var rejections []string
	for _, vm := range mods {
		if err := runSpirvPipeline(vm.m); err != nil {
			t.Errorf("%s: the spirv pipeline fails: %v", vm.label, err)
			pipeFail[firstLine(err.Error())]++
			continue
		}
		words, err := Assemble(vm.m, Options{})
		if err != nil {
			var se *Error
			switch {
			case !errors.As(err, &se):
				t.Errorf("%s: back-end error without a location: %v", vm.label, err)
			case se.Func == "" && se.Line == 0:
				t.Errorf("%s: back-end error names no function or source line: %v", vm.label, err)
			default:
				rejectWhy[backendReason(se.Msg)]++
				rejections = append(rejections, vm.label+": "+err.Error())
			}
			continue
		}
		emitted++
		if msg := spirvVal(t, words, "vulkan1.1"); msg != "" {
			text, _ := Disassemble(words)
			t.Errorf("%s: spirv-val rejects the module:\n%s\n%s", vm.label, msg, text)
			continue
		}
		valid++
		text, err := Disassemble(words)
		if err != nil {
			t.Errorf("%s: Disassemble: %v", vm.label, err)
		} else if want := spirvDis(t, words); text != want {
			t.Errorf("%s: Disassemble differs from spirv-dis:\n%s", vm.label, firstDiff(text, want))
		}
		if err := checkSwitches(words); err != nil {
			t.Errorf("%s: %v", vm.label, err)
		}
	}
	t.Logf("vkd3d shaders (SM6): %d units, %d applicable; %d outside the subset [%s]; %d rejected by the frontend; %d not lowered [%s]",
		c.units, c.applicable, c.outside, counts(c.outsideWhy), c.rejected, c.notLowered, counts(c.notLoweredWhy))
	t.Logf("  %d lowered: %d pipeline failures, %d rejected by the SPIR-V back end [%s], %d emitted, %d accepted by spirv-val",
		len(mods), len(mods)-emitted-len(rejections), len(rejections), counts(rejectWhy), emitted, valid)
	if verbose {
		for _, r := range rejections {
			t.Log(r)
		}
	}
	if len(mods) < 100 {
		t.Errorf("only %d vkd3d shaders lowered; expected several hundred", len(mods))
	}
}
