package hlsl

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"passlens/internal/testtool"
	"passlens/samples"
)

// TestGlslangAcceptance compares which inputs passlens's frontend and
// glslang's HLSL frontend (glslangValidator -D -V, SPIR-V for Vulkan 1.1)
// accept: every vkd3d unit inside the subset (see checkConformance) and
// every HLSL sample. It prints the 2x2 table and requires every
// disagreement to be explained: the unit is listed in glslangExplained
// with a reason category, and glslang's first error matches that
// category's pattern (so a listed unit that starts failing for another
// reason is caught). Listed units that agree fail the test too (stale).
//
// glslangValidator runs once per input (8 at a time); its verdicts are
// cached under the user cache directory keyed by the glslang version,
// arguments and source (PASSLENS_GLSLANG_NOCACHE=1 bypasses the cache).
// HLSL_GLSLANG_VERBOSE=1 prints every disagreement with glslang's error.
func TestGlslangAcceptance(t *testing.T) {
	glslang := testtool.Require(t, "glslangValidator", "glslang-tools")
	subset, _ := checkConformance(t)
	type input struct {
		key, stage, src string
		passlens        bool // passlens accepts
		expectFail      bool
		subsetReason    string
	}
	var inputs []*input
	for _, u := range subset {
		inputs = append(inputs, &input{key: u.key, stage: u.Stage, src: u.Src, passlens: !u.rejected, expectFail: u.expectFail, subsetReason: u.subsetReason})
	}
	for _, s := range samples.All() {
		if filepath.Ext(s.File) != ".hlsl" {
			continue
		}
		prog, diags := Frontend(s.File, s.Source, Options{})
		in := &input{key: "samples/" + s.File, src: string(s.Source), passlens: !diags.HasErrors()}
		if prog != nil && prog.Entry != nil {
			in.stage = map[Stage]string{StagePixel: "pixel", StageVertex: "vertex", StageCompute: "compute"}[prog.Entry.Stage]
		}
		if in.stage == "" {
			t.Fatalf("%s: no entry stage (%s)", s.File, messages(diags))
		}
		inputs = append(inputs, in)
	}
	version, err := exec.Command(glslang, "--version").Output()
	if err != nil {
		t.Fatalf("glslangValidator --version: %v", err)
	}
	cache := ""
	if os.Getenv("PASSLENS_GLSLANG_NOCACHE") == "" {
		if d, err := os.UserCacheDir(); err == nil {
			cache = filepath.Join(d, "passlens", "glslang-accept")
			_ = os.MkdirAll(cache, 0o755)
		}
	}
	dir := t.TempDir()
	results := make([]glslangResult, len(inputs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i, in := range inputs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i] = runGlslang(glslang, string(version), cache, dir, i, in.stage, in.src)
		}()
	}
	wg.Wait()

	var table [2][2]int // [passlens accepts][glslang accepts]
	seen := map[string]bool{}
	var unexplained, stale []string
	perCat := map[string]int{}
	verbose := os.Getenv("HLSL_GLSLANG_VERBOSE") != ""
	for i, in := range inputs {
		r := results[i]
		if r.err != "" {
			t.Fatalf("%s: %s", in.key, r.err)
		}
		table[bidx(in.passlens)][bidx(r.accepted)]++
		cat, listed := glslangExplained[in.key]
		seen[in.key] = true
		if in.passlens == r.accepted {
			if listed {
				stale = append(stale, fmt.Sprintf("%s: both %s now; remove it (%s)", in.key, verdict(r.accepted), cat))
			}
			continue
		}
		side := "only passlens accepts"
		if r.accepted {
			side = "only glslang accepts"
		}
		msg := fmt.Sprintf("%s (%s; vkd3d expects %s): %s", in.key, side, verdict(!in.expectFail), r.firstError)
		if verbose {
			t.Log(msg)
		}
		if !listed {
			unexplained = append(unexplained, msg)
			continue
		}
		c, ok := glslangCategories[cat]
		switch {
		case !ok:
			unexplained = append(unexplained, msg+" [unknown category "+cat+"]")
		case c.onlyGlslang != r.accepted:
			unexplained = append(unexplained, msg+" [category "+cat+" is for the other direction]")
		case in.expectFail != r.accepted:
			// glslang-limit categories explain valid shaders glslang
			// rejects; glslang-skips-check explains invalid ones it accepts.
			unexplained = append(unexplained, msg+" [category "+cat+" does not fit vkd3d's expectation]")
		case c.subset != (in.subsetReason != ""):
			unexplained = append(unexplained, fmt.Sprintf("%s [category %s does not fit passlens's rejection (subset reason %q)]", msg, cat, in.subsetReason))
		case !r.accepted && !c.pattern.MatchString(r.firstError):
			unexplained = append(unexplained, fmt.Sprintf("%s [glslang's error does not match category %s: %s]", msg, cat, c.pattern))
		default:
			perCat[cat]++
		}
	}
	for k := range glslangExplained {
		if !seen[k] {
			stale = append(stale, k+": not an input any more")
		}
	}
	for c := range glslangCategories {
		if perCat[c] == 0 && len(unexplained) == 0 {
			stale = append(stale, "category "+c+" explains nothing")
		}
	}
	t.Logf("acceptance over %d inputs (%d vkd3d units in the subset, %d samples):", len(inputs), len(subset), len(inputs)-len(subset))
	t.Logf("  both accept %d, only passlens %d, only glslang %d, both reject %d",
		table[1][1], table[1][0], table[0][1], table[0][0])
	var cats []string
	for c, n := range perCat {
		cats = append(cats, fmt.Sprintf("%s=%d", c, n))
	}
	sort.Strings(cats)
	t.Logf("  explained disagreements: %s", strings.Join(cats, ", "))
	sort.Strings(unexplained)
	sort.Strings(stale)
	for _, m := range unexplained {
		t.Errorf("unexplained disagreement: %s", m)
	}
	for _, m := range stale {
		t.Errorf("stale explanation: %s", m)
	}
}

type glslangResult struct {
	accepted   bool
	firstError string
	err        string // the tool could not be run
}

// runGlslang compiles src with glslangValidator for stage (entry main),
// through the cache when there is one.
func runGlslang(glslang, version, cache, dir string, i int, stage, src string) glslangResult {
	sh := map[string]string{"pixel": "frag", "vertex": "vert", "compute": "comp"}[stage]
	if sh == "" {
		return glslangResult{err: "no glslang stage for " + stage}
	}
	args := []string{"-D", "-V", "-S", sh, "-e", "main", "--target-env", "vulkan1.1", "-D__hlsl_dx_compiler=1"}
	h := sha256.Sum256([]byte("v2\x00" + version + "\x00" + strings.Join(args, " ") + "\x00" + src))
	key := hex.EncodeToString(h[:])
	if cache != "" {
		if b, err := os.ReadFile(filepath.Join(cache, key)); err == nil {
			status, first, _ := strings.Cut(string(b), "\n")
			return glslangResult{accepted: status == "accept", firstError: first}
		}
	}
	srcPath := filepath.Join(dir, fmt.Sprintf("u%d.hlsl", i))
	if err := os.WriteFile(srcPath, []byte(src), 0o644); err != nil {
		return glslangResult{err: err.Error()}
	}
	out, err := exec.Command(glslang, append(args, "-o", filepath.Join(dir, fmt.Sprintf("u%d.spv", i)), srcPath)...).CombinedOutput()
	r := glslangResult{accepted: err == nil}
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			return glslangResult{err: err.Error()}
		}
		r.firstError = firstGlslangError(string(out), srcPath)
		if ee.ExitCode() == -1 { // killed by a signal
			r.firstError = "glslangValidator crashed: " + ee.Error()
		}
	}
	if cache != "" {
		status := "reject"
		if r.accepted {
			status = "accept"
		}
		_ = os.WriteFile(filepath.Join(cache, key), []byte(status+"\n"+r.firstError), 0o644)
	}
	return r
}

// firstGlslangError returns glslang's first ERROR line without the file
// name ("4: 'x' : undeclared identifier").
func firstGlslangError(out, path string) string {
	for _, l := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(l, "ERROR: "); ok {
			rest = strings.TrimPrefix(rest, path+":")
			return strings.TrimSpace(rest)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "error") {
			return strings.TrimSpace(strings.ReplaceAll(l, path, ""))
		}
	}
	return strings.TrimSpace(out)
}

// glslangCategory is a reason why passlens and glslang disagree.
type glslangCategory struct {
	onlyGlslang bool           // the category explains inputs only glslang accepts
	subset      bool           // passlens rejects with an "unsupported" (subset) error
	pattern     *regexp.Regexp // glslang's first error (when it rejects)
	doc         string
}

var glslangCategories = map[string]glslangCategory{
	// glslang limitations and bugs: valid SM6 HLSL (vkd3d expects it to
	// compile; DXC does) that glslang rejects.
	"glslang-crash": {pattern: re(`^glslangValidator crashed`),
		doc: "glslangValidator dies with a signal: SIGFPE folding INT_MIN / -1, SIGSEGV on mul(float1, float4x4) and on GetRenderTargetSampleCount()"},
	"glslang-degenerate-matrix": {pattern: re(`'(float|int|uint|bool)' : cannot construct this type`),
		doc: "1xN and Nx1 matrices, float1x1 included (float1x4, float4x1, int1x3): glslang's HLSL frontend cannot construct, cast to or operate on them"},
	"glslang-conversion": {pattern: re(`cannot convert parameter|can't convert|not convertible to, the function's return type|Could not perform requested binary operation|no matching overloaded function found|ambiguous best function`),
		doc: "HLSL implicit conversions, componentwise casts and intrinsic overloads glslang lacks: array reshaping (float[3][2] passed as float[2][3]), brace-less multi-dimensional initializers, casts to arrays, float1 broadcasting, matrix/vector truncation in returns and intrinsic arguments (max, pow, ldexp, smoothstep, step of float2x3 and float3x2), scalar arguments to normalize/reflect/refract/transpose/determinant, and SM5 intrinsics glslang does not declare (EvaluateAttributeCentroid, GetRenderTargetSamplePosition)"},
	"glslang-initializer": {pattern: re(`wrong number of structure members|unsupported construction|Number of constructor parameters does not match|constructing non-array constituent from array argument`),
		doc: "HLSL's componentwise initializer lists and casts: struct initializers flattened across members, casts between arrays, structs, vectors and matrices with enough components, conditions and intrinsics on 1xN/Nx1 matrices (\"unsupported construction\"); glslang requires braces and constructors to follow the aggregate's shape"},
	"glslang-syntax": {pattern: re(`: Expected$|Reserved word`),
		doc: "syntax glslang's HLSL parser does not take: uint64_t vector types (uint64_t2), effect state blocks after a variable (float f { ... };), 'precise' and HLSL type names such as 'matrix' used as identifiers, 'unsigned int', unary minus on a bool literal, a constant expression as Texture2DMS's sample count (Texture2DMS<float4, size - 1>)"},
	"glslang-false-recursion": {pattern: re(`Recursion detected`),
		doc: "a glslang bug: a prototype followed by the definition of the entry point, or a static initializer calling a function, is reported as recursion"},
	"glslang-unsized-array-param": {pattern: re(`function parameter requires array size`),
		doc: "unsized array parameters (float a[]): glslang follows FXC (error X3072); DXC accepts them (DirectXShaderCompiler issue 1938)"},
	"glslang-packoffset": {pattern: re(`'packoffset' : expected`),
		doc: "packoffset spellings DXC accepts: an upper-case register (C2) and rgba components (c0.b)"},
	"glslang-constant-checks": {pattern: re(`array index out of range|array size must be a constant integer expression`),
		doc: "glslang is stricter with constants: a constant out-of-bounds index into a uniform array (DXC warns) and a bool array size (float d[true])"},
	"glslang-uniform-defaults": {pattern: re(`unknown variable`),
		doc: "a cbuffer member's default value naming another member (float4 b = a;): DXC accepts it at SM6 (default values are only reflected), glslang resolves the name as a variable"},
	"glslang-min-precision": {pattern: re(`'min1[026](float|int|uint)\w*' : unknown variable|'detect' : function already has a body`),
		doc: "DXC's minimum-precision types as glslang lacks them: no min16uint4x2-style matrix spellings, and half is float itself rather than a distinct type, so overloads on float4 and half4 collide"},
	"glslang-wide-types": {pattern: re(`: Expected$|'u?int(16|64)_t\d*' : unknown variable|'asuint' : no matching overloaded function found|'asdouble' : double2 conversion not implemented`),
		doc: "the 16- and 64-bit types of the float64, int64 and native-16-bit units (issue 17 item 3): glslang's HLSL frontend does not know int16_t/uint16_t/int64_t/uint64_t as type names (\"Expected\" where the declaration starts, or \"unknown variable\" for a cast), has no asuint overload of a double and no asdouble of vectors"},
	"glslang-templated-store": {pattern: re(`'Store' : no such field in structure`),
		doc: "RWByteAddressBuffer.Store<T> of a 16- or 64-bit value (SM6.2 templated stores): glslang's HLSL frontend has only the untemplated Store/Store2/3/4 of uint"},
	"glslang-register-space": {pattern: re(`expected register number after register type`),
		doc: "register(space0) and register(ps, space0): a space without a register, which DXC accepts at SM6 (the register is allocated)"},
	"glslang-unimplemented": {pattern: re(`unimplemented: (component-level gather compare|partial image updates)`),
		doc: "GatherCmpGreen/Blue/Alpha: glslang implements only the red-channel gather compare; a write to some components of a read-write texture's texel (u[p].xy = ...): glslang does not implement partial image updates"},
	"glslang-sampler-state": {pattern: re(`'sampler/image' : cannot construct this type`),
		doc: "an SM1 sampler_state initializer (sampler s = sampler_state { ... };): DXC parses the state block and ignores it, glslang takes sampler_state for a constructor"},
	"glslang-prototype-entry": {pattern: re(`No function definition \(body\) found`),
		doc: "an entry point declared with its own attributes before its definition: glslang links the prototype instead of the definition"},
	"glslang-lvalue": {pattern: re(`l-value required`),
		doc: "writing a float1 SV_CullDistance output member: glslang maps it to the built-in array and rejects the store"},
	// passlens subset limits: vkd3d expects DXC to reject these, glslang
	// accepts them, and passlens rejects them with an "unsupported" error
	// (samplers, textures, min-precision and 64-bit types) before reaching
	// DXC's reason.
	"passlens-subset": {onlyGlslang: true, subset: true,
		doc: "passlens rejects an object or type outside its subset (sampler, texture, min16int, double) before any check DXC makes; glslang accepts the unit, DXC rejects it for another reason (SM1 tex1D/tex2Dproj, static samplers, object assignment, patch parameters in a pixel shader, unbounded arrays, ...)"},
	// SM6 behaviour glslang does not implement: vkd3d expects DXC to
	// reject these; passlens rejects them as DXC does, glslang accepts.
	"glslang-skips-check": {onlyGlslang: true,
		doc: "checks DXC makes and glslang's HLSL frontend does not: numthreads values, cbuffer and packoffset rules, row_major/column_major misuse, type names as identifiers, Interlocked calls used as values, group-sync barriers outside compute, attribute misuse, unsized arrays without a usable initializer, float shift operands, asint/asuint/asfloat of bool or a double, 64-bit render target outputs, intrinsic shape mismatches, uniform parameters of non-entry functions, register() profile names, conflicting and mixed profile reservations, a space before the register, two resources reserving one register, a used read of a static resource without an initializer"},
}

func re(s string) *regexp.Regexp { return regexp.MustCompile(s) }

// glslangExplained lists every disagreement: input key -> category (in
// glslangCategories). Regenerate after a change with HLSL_GLSLANG_VERBOSE=1.
var glslangExplained = map[string]string{
	"state-block-syntax.shader_test:657":            "glslang-syntax",
	"state-block-syntax.shader_test:57":             "glslang-syntax",
	"state-block-syntax.shader_test:544":            "glslang-syntax",
	"state-block-syntax.shader_test:523":            "glslang-syntax",
	"state-block-syntax.shader_test:476":            "glslang-syntax",
	"state-block-syntax.shader_test:461":            "glslang-syntax",
	"state-block-syntax.shader_test:46":             "glslang-syntax",
	"state-block-syntax.shader_test:446":            "glslang-syntax",
	"state-block-syntax.shader_test:436":            "glslang-syntax",
	"state-block-syntax.shader_test:424":            "glslang-syntax",
	"state-block-syntax.shader_test:412":            "glslang-syntax",
	"state-block-syntax.shader_test:404":            "glslang-syntax",
	"state-block-syntax.shader_test:394":            "glslang-syntax",
	"state-block-syntax.shader_test:384":            "glslang-syntax",
	"state-block-syntax.shader_test:363":            "glslang-syntax",
	"state-block-syntax.shader_test:35":             "glslang-syntax",
	"state-block-syntax.shader_test:330":            "glslang-syntax",
	"state-block-syntax.shader_test:309":            "glslang-syntax",
	"state-block-syntax.shader_test:294":            "glslang-syntax",
	"state-block-syntax.shader_test:250":            "glslang-syntax",
	"state-block-syntax.shader_test:241":            "glslang-syntax",
	"state-block-syntax.shader_test:24":             "glslang-syntax",
	"state-block-syntax.shader_test:211":            "glslang-syntax",
	"state-block-syntax.shader_test:2":              "glslang-syntax",
	"state-block-syntax.shader_test:198":            "glslang-syntax",
	"state-block-syntax.shader_test:178":            "glslang-syntax",
	"state-block-syntax.shader_test:13":             "glslang-sampler-state",
	"state-block-function-syntax.shader_test:61":    "glslang-syntax",
	"state-block-function-syntax.shader_test:50":    "glslang-syntax",
	"state-block-function-syntax.shader_test:40":    "glslang-syntax",
	"state-block-function-syntax.shader_test:4":     "glslang-syntax",
	"state-block-function-syntax.shader_test:31":    "glslang-syntax",
	"state-block-function-syntax.shader_test:22":    "glslang-syntax",
	"arithmetic-int-uniform.shader_test:178":        "glslang-wide-types",
	"arithmetic-int-uniform.shader_test:193":        "glslang-wide-types",
	"arithmetic-int-uniform.shader_test:208":        "glslang-wide-types",
	"arithmetic-int-uniform.shader_test:223":        "glslang-wide-types",
	"arithmetic-int-uniform.shader_test:238":        "glslang-wide-types",
	"arithmetic-int-uniform.shader_test:251":        "glslang-wide-types",
	"arithmetic-int-uniform.shader_test:269":        "glslang-wide-types",
	"arithmetic-int-uniform.shader_test:287":        "glslang-wide-types",
	"arithmetic-int-uniform.shader_test:389":        "glslang-wide-types",
	"arithmetic-int-uniform.shader_test:404":        "glslang-wide-types",
	"arithmetic-int-uniform.shader_test:419":        "glslang-wide-types",
	"arithmetic-uint.shader_test:199":               "glslang-wide-types",
	"arithmetic-uint.shader_test:216":               "glslang-wide-types",
	"arithmetic-uint.shader_test:234":               "glslang-wide-types",
	"arithmetic-uint.shader_test:249":               "glslang-wide-types",
	"arithmetic-uint.shader_test:272":               "glslang-wide-types",
	"arithmetic-uint.shader_test:290":               "glslang-wide-types",
	"arithmetic-uint.shader_test:308":               "glslang-wide-types",
	"bitwise.shader_test:247":                       "glslang-wide-types",
	"bitwise.shader_test:271":                       "glslang-wide-types",
	"bitwise.shader_test:291":                       "glslang-wide-types",
	"bitwise.shader_test:311":                       "glslang-wide-types",
	"bitwise.shader_test:327":                       "glslang-wide-types",
	"cast-64-bit.shader_test:145":                   "glslang-wide-types",
	"cast-64-bit.shader_test:163":                   "glslang-wide-types",
	"cast-64-bit.shader_test:186":                   "glslang-wide-types",
	"cast-64-bit.shader_test:203":                   "glslang-wide-types",
	"cast-64-bit.shader_test:217":                   "glslang-wide-types",
	"cast-64-bit.shader_test:23":                    "glslang-wide-types",
	"cast-64-bit.shader_test:235":                   "glslang-wide-types",
	"cast-64-bit.shader_test:40":                    "glslang-wide-types",
	"cast-64-bit.shader_test:75":                    "glslang-wide-types",
	"cast-64-bit.shader_test:93":                    "glslang-wide-types",
	"cast-to-uint.shader_test:57":                   "glslang-wide-types",
	"cast-to-uint.shader_test:74":                   "glslang-wide-types",
	"cbuffer.shader_test:1015":                      "glslang-wide-types",
	"cbuffer.shader_test:1028":                      "glslang-wide-types",
	"cbuffer.shader_test:1042":                      "glslang-wide-types",
	"getdimensions.shader_test:120":                 "glslang-wide-types",
	"getdimensions.shader_test:150":                 "glslang-wide-types",
	"getdimensions.shader_test:69":                  "glslang-wide-types",
	"getdimensions.shader_test:90":                  "glslang-wide-types",
	"shader-interstage-interface.shader_test:235":   "glslang-wide-types",
	"shader-interstage-interface.shader_test:248":   "glslang-wide-types",
	"shader-interstage-interface.shader_test:283":   "glslang-wide-types",
	"shader-interstage-interface.shader_test:295":   "glslang-wide-types",
	"shader-interstage-interface.shader_test:309":   "glslang-wide-types",
	"tgsm.shader_test:329":                          "glslang-wide-types",
	"uav-rwstructuredbuffer.shader_test:193":        "glslang-wide-types",
	"uav-rwstructuredbuffer.shader_test:224":        "glslang-wide-types",
	"uav-rwstructuredbuffer.shader_test:258":        "glslang-wide-types",
	"uav-rwstructuredbuffer.shader_test:293":        "glslang-wide-types",
	"uav-rwstructuredbuffer.shader_test:334":        "glslang-wide-types",
	"wave-ops-int.shader_test:107":                  "glslang-wide-types",
	"wave-ops-int.shader_test:89":                   "glslang-wide-types",
	"wave-ops-uint.shader_test:358":                 "glslang-wide-types",
	"wave-ops-uint.shader_test:382":                 "glslang-wide-types",
	"wave-ops-uint.shader_test:400":                 "glslang-wide-types",
	"wave-ops-uint.shader_test:418":                 "glslang-wide-types",
	"wave-ops-uint.shader_test:436":                 "glslang-wide-types",
	"wave-ops-uint.shader_test:454":                 "glslang-wide-types",
	"wave-ops-uint.shader_test:472":                 "glslang-wide-types",
	"wave-ops-uint.shader_test:490":                 "glslang-wide-types",
	"wave-ops-uint.shader_test:508":                 "glslang-wide-types",
	"uav-rwbyteaddressbuffer.shader_test:93":        "glslang-templated-store",
	"uav-rwbyteaddressbuffer.shader_test:112":       "glslang-templated-store",
	"wave-ops-uint.shader_test:526":                 "glslang-wide-types",
	"wave-ops-uint.shader_test:553":                 "glslang-wide-types",
	"wave-ops-uint.shader_test:573":                 "glslang-wide-types",
	"wave-ops-uint.shader_test:593":                 "glslang-wide-types",
	"wave-ops-uint.shader_test:613":                 "glslang-wide-types",
	"register-reservations-profile.shader_test:211": "glslang-skips-check",
	"static-initializer.shader_test:70":             "glslang-skips-check",
	"static-initializer.shader_test:144":            "glslang-skips-check",
	"register-reservations-profile.shader_test:232": "glslang-skips-check",
	"register-reservations-profile.shader_test:241": "glslang-skips-check",
	"register-reservations-profile.shader_test:61":  "glslang-skips-check",
	"register-reservations-profile.shader_test:70":  "glslang-skips-check",
	"register-reservations-space.shader_test:145":   "glslang-skips-check",
	"register-reservations-space.shader_test:60":    "glslang-skips-check",
	"register-reservations-space.shader_test:172":   "glslang-skips-check",
	"register-reservations-space.shader_test:69":    "glslang-register-space",
	"register-reservations-space.shader_test:82":    "glslang-register-space",
	"gather-cmp.shader_test:43":                     "glslang-unimplemented",
	"sm6-uav-rwtexture.shader_test:17":              "glslang-unimplemented",
	"texture-load.shader_test:40":                   "glslang-syntax",
	"gather-cmp.shader_test:56":                     "glslang-unimplemented",
	"gather-cmp.shader_test:69":                     "glslang-unimplemented",
	"gather-cmp.shader_test:82":                     "glslang-unimplemented",
	"gather-cmp.shader_test:95":                     "glslang-unimplemented",
	"getdimensions.shader_test:11":                  "glslang-conversion",
	"cbuffer.shader_test:902":                       "glslang-conversion", // ConstantBuffer<s> passed as an s
	"arithmetic-int-uniform.shader_test:375":        "glslang-skips-check",
	"minimum-precision.shader_test:6":               "glslang-min-precision",
	"minimum-precision.shader_test:226":             "glslang-initializer",
	"minimum-precision.shader_test:251":             "glslang-initializer",
	"minimum-precision.shader_test:277":             "glslang-initializer",
	"refract.shader_test:208":                       "glslang-min-precision",
	"switch.shader_test:625":                        "glslang-syntax",
	"asfloat.shader_test:51":                        "glslang-skips-check",
	"asint.shader_test:54":                          "glslang-skips-check",
	"asuint.shader_test:55":                         "glslang-skips-check",
	"rt-format-mismatch.shader_test:190":            "glslang-skips-check",
	"arithmetic-int.shader_test:112":                "glslang-crash",
	"array-dimension.shader_test:4":                 "glslang-constant-checks",
	"array-parameters.shader_test:115":              "glslang-unsized-array-param",
	"array-parameters.shader_test:143":              "glslang-conversion",
	"array-parameters.shader_test:161":              "glslang-conversion",
	"array-parameters.shader_test:62":               "glslang-conversion",
	"array-size-expr.shader_test:2":                 "glslang-conversion",
	"array-size-expr.shader_test:22":                "glslang-conversion",
	"asfloat.shader_test:43":                        "glslang-skips-check",
	"asint.shader_test:44":                          "glslang-skips-check",
	"asuint.shader_test:45":                         "glslang-skips-check",
	"attributes.shader_test:16":                     "glslang-skips-check",
	"attributes.shader_test:21":                     "glslang-skips-check",
	"attributes.shader_test:26":                     "glslang-skips-check",
	"attributes.shader_test:31":                     "glslang-skips-check",
	"attributes.shader_test:53":                     "glslang-skips-check",
	"barriers.shader_test:26":                       "glslang-skips-check",
	"barriers.shader_test:33":                       "glslang-skips-check",
	"barriers.shader_test:40":                       "glslang-skips-check",
	"barriers.shader_test:47":                       "glslang-skips-check",
	"barriers.shader_test:54":                       "glslang-skips-check",
	"bitwise-assignment.shader_test:79":             "glslang-skips-check",
	"bitwise.shader_test:145":                       "glslang-skips-check",
	"bitwise.shader_test:154":                       "glslang-skips-check",
	"cast-componentwise-compatible.shader_test:151": "glslang-conversion",
	"cast-componentwise-compatible.shader_test:167": "glslang-initializer",
	"cast-componentwise-compatible.shader_test:189": "glslang-initializer",
	"cast-componentwise-compatible.shader_test:2":   "glslang-initializer",
	"cast-componentwise-compatible.shader_test:205": "glslang-initializer",
	"cast-componentwise-compatible.shader_test:24":  "glslang-initializer",
	"cast-componentwise-compatible.shader_test:244": "glslang-initializer",
	"cast-componentwise-compatible.shader_test:266": "glslang-initializer",
	"cast-componentwise-compatible.shader_test:283": "glslang-initializer",
	"cast-componentwise-compatible.shader_test:305": "glslang-initializer",
	"cast-componentwise-compatible.shader_test:322": "glslang-initializer",
	"cast-componentwise-compatible.shader_test:337": "glslang-initializer",
	"cast-componentwise-compatible.shader_test:348": "glslang-conversion",
	"cast-componentwise-compatible.shader_test:363": "glslang-conversion",
	"cast-componentwise-compatible.shader_test:374": "glslang-skips-check",
	"cast-componentwise-compatible.shader_test:385": "glslang-degenerate-matrix",
	"cast-componentwise-compatible.shader_test:396": "glslang-degenerate-matrix",
	"cast-componentwise-compatible.shader_test:412": "glslang-initializer",
	"cast-componentwise-compatible.shader_test:428": "glslang-initializer",
	"cast-componentwise-compatible.shader_test:444": "glslang-initializer",
	"cast-componentwise-compatible.shader_test:462": "glslang-initializer",
	"cast-componentwise-compatible.shader_test:485": "glslang-initializer",
	"cast-componentwise-compatible.shader_test:507": "glslang-initializer",
	"cast-componentwise-compatible.shader_test:529": "glslang-degenerate-matrix",
	"cast-componentwise-compatible.shader_test:545": "glslang-degenerate-matrix",
	"cast-componentwise-compatible.shader_test:556": "glslang-initializer",
	"cast-componentwise-compatible.shader_test:572": "glslang-initializer",
	"cbuffer.shader_test:122":                       "glslang-skips-check",
	"cbuffer.shader_test:20":                        "glslang-skips-check",
	"cbuffer.shader_test:205":                       "glslang-skips-check",
	"cbuffer.shader_test:220":                       "glslang-skips-check",
	"cbuffer.shader_test:234":                       "glslang-packoffset",
	"cbuffer.shader_test:299":                       "glslang-skips-check",
	"cbuffer.shader_test:312":                       "glslang-skips-check",
	"cbuffer.shader_test:325":                       "glslang-skips-check",
	"cbuffer.shader_test:338":                       "glslang-skips-check",
	"cbuffer.shader_test:356":                       "glslang-skips-check",
	"cbuffer.shader_test:369":                       "glslang-skips-check",
	"cbuffer.shader_test:383":                       "glslang-conversion",
	"cbuffer.shader_test:418":                       "glslang-packoffset",
	"cbuffer.shader_test:484":                       "glslang-skips-check",
	"cbuffer.shader_test:492":                       "glslang-skips-check",
	"cbuffer.shader_test:503":                       "glslang-skips-check",
	"cbuffer.shader_test:514":                       "glslang-skips-check",
	"cbuffer.shader_test:530":                       "glslang-skips-check",
	"cbuffer.shader_test:790":                       "glslang-skips-check",
	"cbuffer.shader_test:801":                       "passlens-subset",
	"cbuffer.shader_test:860":                       "glslang-skips-check",
	"cf-cond-types.shader_test:106":                 "glslang-initializer",
	"clip-cull-distance.shader_test:255":            "glslang-lvalue",
	"conditional.shader_test:62":                    "glslang-skips-check",
	"default-values.shader_test:142":                "glslang-uniform-defaults",
	"default-values.shader_test:152":                "glslang-uniform-defaults",
	"default-values.shader_test:270":                "glslang-skips-check",
	"default-values.shader_test:325":                "glslang-conversion",
	"determinant.shader_test:2":                     "glslang-conversion",
	"distance.shader_test:107":                      "glslang-skips-check",
	"eval-attrib.shader_test:193":                   "glslang-conversion",
	"initializer-flatten.shader_test:14":            "glslang-initializer",
	"initializer-flatten.shader_test:32":            "glslang-conversion",
	"initializer-flatten.shader_test:45":            "glslang-conversion",
	"initializer-flatten.shader_test:64":            "glslang-conversion",
	"initializer-implicit-array.shader_test:100":    "glslang-skips-check",
	"initializer-implicit-array.shader_test:110":    "glslang-skips-check",
	"initializer-implicit-array.shader_test:126":    "glslang-unsized-array-param",
	"initializer-implicit-array.shader_test:15":     "glslang-conversion",
	"initializer-implicit-array.shader_test:167":    "glslang-skips-check",
	"initializer-implicit-array.shader_test:71":     "glslang-skips-check",
	"initializer-implicit-array.shader_test:81":     "glslang-skips-check",
	"initializer-invalid-arg-count.shader_test:2":   "glslang-conversion",
	"initializer-invalid-arg-count.shader_test:38":  "glslang-initializer",
	"initializer-local-array.shader_test:18":        "glslang-conversion",
	"initializer-local-array.shader_test:2":         "glslang-conversion",
	"initializer-nested.shader_test:14":             "glslang-conversion",
	"initializer-nested.shader_test:31":             "glslang-initializer",
	"initializer-static-array.shader_test:19":       "glslang-conversion",
	"initializer-static-array.shader_test:2":        "glslang-conversion",
	"ldexp.shader_test:36":                          "glslang-conversion",
	"ldexp.shader_test:51":                          "glslang-skips-check",
	"load-level.shader_test:32":                     "glslang-skips-check",
	"loop.shader_test:164":                          "glslang-skips-check",
	"loop.shader_test:177":                          "glslang-skips-check",
	"loop.shader_test:190":                          "glslang-skips-check",
	"loop.shader_test:205":                          "glslang-skips-check",
	"majority-pragma.shader_test:122":               "glslang-skips-check",
	"majority-syntax.shader_test:100":               "glslang-skips-check",
	"majority-syntax.shader_test:26":                "glslang-skips-check",
	"majority-syntax.shader_test:35":                "glslang-skips-check",
	"majority-syntax.shader_test:44":                "glslang-skips-check",
	"majority-syntax.shader_test:52":                "glslang-skips-check",
	"majority-syntax.shader_test:60":                "glslang-skips-check",
	"majority-syntax.shader_test:72":                "glslang-skips-check",
	"majority-syntax.shader_test:84":                "glslang-skips-check",
	"majority-syntax.shader_test:94":                "glslang-skips-check",
	"matrix-semantics.shader_test:15":               "glslang-conversion",
	"matrix-semantics.shader_test:5":                "glslang-conversion",
	"max-min.shader_test:112":                       "glslang-syntax",
	"max-min.shader_test:32":                        "glslang-conversion",
	"mul.shader_test:128":                           "glslang-crash",
	"mul.shader_test:144":                           "glslang-crash",
	"mul.shader_test:160":                           "glslang-degenerate-matrix",
	"mul.shader_test:176":                           "glslang-degenerate-matrix",
	"mul.shader_test:192":                           "glslang-degenerate-matrix",
	"mul.shader_test:208":                           "glslang-degenerate-matrix",
	"mul.shader_test:224":                           "glslang-degenerate-matrix",
	"mul.shader_test:240":                           "glslang-degenerate-matrix",
	"nested-arrays.shader_test:2":                   "glslang-constant-checks",
	"non-const-indexing.shader_test:100":            "glslang-conversion",
	"non-const-indexing.shader_test:144":            "glslang-conversion",
	"non-const-indexing.shader_test:167":            "glslang-conversion",
	"non-const-indexing.shader_test:206":            "glslang-conversion",
	"normalize.shader_test:41":                      "glslang-conversion",
	"normalize.shader_test:54":                      "glslang-conversion",
	"numeric-constructor-truncation.shader_test:14": "glslang-conversion",
	"numthreads.shader_test:103":                    "glslang-skips-check",
	"numthreads.shader_test:112":                    "glslang-false-recursion",
	"numthreads.shader_test:119":                    "glslang-skips-check",
	"numthreads.shader_test:126":                    "glslang-false-recursion",
	"numthreads.shader_test:157":                    "glslang-skips-check",
	"numthreads.shader_test:17":                     "glslang-skips-check",
	"numthreads.shader_test:181":                    "glslang-skips-check",
	"numthreads.shader_test:185":                    "glslang-skips-check",
	"numthreads.shader_test:189":                    "glslang-skips-check",
	"numthreads.shader_test:193":                    "glslang-skips-check",
	"numthreads.shader_test:209":                    "glslang-prototype-entry",
	"numthreads.shader_test:22":                     "glslang-skips-check",
	"numthreads.shader_test:27":                     "glslang-skips-check",
	"numthreads.shader_test:32":                     "glslang-skips-check",
	"numthreads.shader_test:37":                     "glslang-skips-check",
	"numthreads.shader_test:42":                     "glslang-skips-check",
	"numthreads.shader_test:47":                     "glslang-skips-check",
	"numthreads.shader_test:52":                     "glslang-skips-check",
	"numthreads.shader_test:57":                     "glslang-skips-check",
	"numthreads.shader_test:72":                     "glslang-skips-check",
	"numthreads.shader_test:77":                     "glslang-skips-check",
	"numthreads.shader_test:92":                     "glslang-skips-check",
	"object-parameters.shader_test:130":             "glslang-skips-check",
	"object-parameters.shader_test:178":             "glslang-skips-check",
	"object-parameters.shader_test:2":               "glslang-skips-check",
	"object-parameters.shader_test:32":              "glslang-skips-check",
	"object-references.shader_test:2":               "passlens-subset",
	"object-references.shader_test:208":             "passlens-subset",
	"object-references.shader_test:225":             "passlens-subset",
	"patch-syntax.shader_test:115":                  "passlens-subset",
	"patch-syntax.shader_test:209":                  "passlens-subset",
	"patch-syntax.shader_test:33":                   "passlens-subset",
	"patch-syntax.shader_test:48":                   "passlens-subset",
	"patch-syntax.shader_test:73":                   "passlens-subset",
	"patch-syntax.shader_test:88":                   "passlens-subset",
	"pow.shader_test:16":                            "glslang-conversion",
	"precise-modifier.shader_test:2":                "glslang-syntax",
	"precise-modifier.shader_test:30":               "glslang-syntax",
	"reflect.shader_test:51":                        "glslang-conversion",
	"refract.shader_test:86":                        "glslang-conversion",
	"register-reservations-space.shader_test:181":   "glslang-skips-check",
	"return-implicit-conversion.shader_test:12":     "glslang-degenerate-matrix",
	"return-implicit-conversion.shader_test:139":    "glslang-degenerate-matrix",
	"return-implicit-conversion.shader_test:154":    "glslang-degenerate-matrix",
	"return-implicit-conversion.shader_test:169":    "glslang-conversion",
	"return-implicit-conversion.shader_test:180":    "glslang-degenerate-matrix",
	"return-implicit-conversion.shader_test:206":    "glslang-conversion",
	"return-implicit-conversion.shader_test:22":     "glslang-degenerate-matrix",
	"return-implicit-conversion.shader_test:232":    "glslang-degenerate-matrix",
	"return-implicit-conversion.shader_test:32":     "glslang-conversion",
	"return-implicit-conversion.shader_test:42":     "glslang-degenerate-matrix",
	"return-implicit-conversion.shader_test:57":     "glslang-degenerate-matrix",
	"return-implicit-conversion.shader_test:72":     "glslang-conversion",
	"return-implicit-conversion.shader_test:87":     "glslang-conversion",
	"rt-get-sample-info.shader_test:10":             "glslang-crash",
	"rt-get-sample-info.shader_test:28":             "glslang-conversion",
	"sampler.shader_test:121":                       "glslang-skips-check",
	"sampler.shader_test:135":                       "glslang-skips-check",
	"sampler.shader_test:207":                       "glslang-skips-check",
	"sampler.shader_test:232":                       "glslang-skips-check",
	"sampler.shader_test:253":                       "glslang-skips-check",
	"sampler.shader_test:37":                        "glslang-skips-check",
	"sampler.shader_test:46":                        "glslang-skips-check",
	"shape.shader_test:114":                         "glslang-degenerate-matrix",
	"shape.shader_test:129":                         "glslang-degenerate-matrix",
	"shape.shader_test:14":                          "glslang-conversion",
	"shape.shader_test:144":                         "glslang-degenerate-matrix",
	"shape.shader_test:159":                         "glslang-degenerate-matrix",
	"shape.shader_test:206":                         "glslang-degenerate-matrix",
	"shape.shader_test:218":                         "glslang-degenerate-matrix",
	"shape.shader_test:230":                         "glslang-degenerate-matrix",
	"shape.shader_test:242":                         "glslang-degenerate-matrix",
	"shape.shader_test:26":                          "glslang-conversion",
	"shape.shader_test:280":                         "glslang-degenerate-matrix",
	"shape.shader_test:292":                         "glslang-degenerate-matrix",
	"shape.shader_test:304":                         "glslang-degenerate-matrix",
	"shape.shader_test:316":                         "glslang-degenerate-matrix",
	"smoothstep.shader_test:124":                    "glslang-initializer",
	"smoothstep.shader_test:140":                    "glslang-initializer",
	"smoothstep.shader_test:95":                     "glslang-conversion",
	"state-block-syntax.shader_test:108":            "glslang-syntax",
	"state-block-syntax.shader_test:119":            "glslang-syntax",
	"state-block-syntax.shader_test:130":            "glslang-syntax",
	"state-block-syntax.shader_test:141":            "glslang-syntax",
	"state-block-syntax.shader_test:152":            "glslang-syntax",
	"state-block-syntax.shader_test:226":            "glslang-syntax",
	"state-block-syntax.shader_test:262":            "glslang-syntax",
	"state-block-syntax.shader_test:274":            "glslang-syntax",
	"state-block-syntax.shader_test:375":            "glslang-syntax",
	"state-block-syntax.shader_test:489":            "glslang-syntax",
	"static-initializer.shader_test:132":            "glslang-skips-check",
	"static-initializer.shader_test:155":            "passlens-subset",
	"static-initializer.shader_test:2":              "glslang-false-recursion",
	"step.shader_test:31":                           "glslang-skips-check",
	"step.shader_test:42":                           "glslang-conversion",
	"storage-qualifiers.shader_test:2":              "glslang-skips-check",
	"struct-syntax.shader_test:26":                  "glslang-skips-check",
	"struct-syntax.shader_test:37":                  "glslang-skips-check",
	"struct-syntax.shader_test:58":                  "glslang-skips-check",
	"switch.shader_test:284":                        "glslang-skips-check",
	"switch.shader_test:300":                        "glslang-skips-check",
	"transpose.shader_test:13":                      "glslang-conversion",
	"transpose.shader_test:2":                       "glslang-conversion",
	"transpose.shader_test:34":                      "glslang-degenerate-matrix",
	"type-names.shader_test:130":                    "glslang-skips-check",
	"type-names.shader_test:138":                    "glslang-skips-check",
	"type-names.shader_test:146":                    "glslang-skips-check",
	"type-names.shader_test:153":                    "glslang-skips-check",
	"type-names.shader_test:61":                     "glslang-skips-check",
	"type-names.shader_test:77":                     "glslang-syntax",
	"type-names.shader_test:89":                     "glslang-syntax",
	"uav-atomics.shader_test:267":                   "glslang-skips-check",
	"uav-atomics.shader_test:276":                   "glslang-skips-check",
	"uav-atomics.shader_test:295":                   "glslang-skips-check",
	"uav-atomics.shader_test:308":                   "glslang-skips-check",
	"uav-atomics.shader_test:317":                   "glslang-skips-check",
	"uav-rwstructuredbuffer.shader_test:93":         "glslang-skips-check",
	"unbounded-array-5.1.shader_test:14":            "glslang-skips-check",
	"unbounded-array-5.1.shader_test:18":            "glslang-skips-check",
	"unbounded-array-5.1.shader_test:6":             "glslang-skips-check",
	"wave-reconvergence.shader_test:100":            "glslang-syntax",
	"wave-reconvergence.shader_test:32":             "glslang-syntax",
}

func bidx(b bool) int {
	if b {
		return 1
	}
	return 0
}
