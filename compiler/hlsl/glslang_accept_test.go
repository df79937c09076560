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
	}
	var inputs []*input
	for _, u := range subset {
		inputs = append(inputs, &input{key: u.key, stage: u.stage, src: u.src, passlens: !u.rejected, expectFail: u.expectFail})
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
		ex, listed := glslangExplained[in.key]
		seen[in.key] = true
		if in.passlens == r.accepted {
			if listed {
				stale = append(stale, fmt.Sprintf("%s: both %s now; remove it (%s)", in.key, verdict(r.accepted), ex.cat))
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
		c, ok := glslangCategories[ex.cat]
		switch {
		case !ok:
			unexplained = append(unexplained, msg+" [unknown category "+ex.cat+"]")
		case c.onlyGlslang != r.accepted:
			unexplained = append(unexplained, msg+" [category "+ex.cat+" is for the other direction]")
		case !r.accepted && !c.pattern.MatchString(r.firstError):
			unexplained = append(unexplained, fmt.Sprintf("%s [glslang's error does not match category %s: %s]", msg, ex.cat, c.pattern))
		default:
			perCat[ex.cat]++
		}
	}
	for k := range glslangExplained {
		if !seen[k] {
			stale = append(stale, k+": not an input any more")
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
	h := sha256.Sum256([]byte(version + "\x00" + strings.Join(args, " ") + "\x00" + src))
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
		if _, ok := err.(*exec.ExitError); !ok {
			return glslangResult{err: err.Error()}
		}
		r.firstError = firstGlslangError(string(out), srcPath)
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
	pattern     *regexp.Regexp // glslang's first error (when it rejects)
	doc         string
}

var glslangCategories = map[string]glslangCategory{}

// glslangExplained lists every disagreement: input key -> category.
var glslangExplained = map[string]struct{ cat string }{}

func bidx(b bool) int {
	if b {
		return 1
	}
	return 0
}
