// Package vkd3d reads vkd3d's .shader_test conformance files (the format
// is described in ../shared/conformance/README.md): locating the data,
// splitting a file into sections, shader units with their [require]
// shader-model range, features and options and their expected failures,
// [test] commands, and the [uav N]/[srv N] resources with their data as
// a runner needs them. The conformance, lowering, execution and back-end
// tests all read the files through it, so they agree on what a unit is.
//
// The files are test data read at test time from ../shared/conformance
// beside the checkout; they are never copied into the repository.
package vkd3d

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"passlens/internal/testtool"
)

// Where the data comes from, for messages.
const origin = "../shared/conformance beside the checkout (or $PASSLENS_CONFORMANCE); see README.md, \"Conformance data\""

var (
	skipMu  sync.Mutex
	skipped int
	skipWhy string
)

// missing fails (CI=true) or skips t because the data is absent, counting
// the skip for Main's summary.
func missing(t testing.TB, why string) {
	t.Helper()
	skipMu.Lock()
	skipped++
	skipWhy = why
	skipMu.Unlock()
	testtool.Unavailable(t, why+"; it is read from "+origin)
}

// SkipSummary is the one line that says how many tests of this test
// binary were skipped for want of the conformance data, or "".
func SkipSummary() string {
	skipMu.Lock()
	defer skipMu.Unlock()
	if skipped == 0 {
		return ""
	}
	tests := "tests"
	if skipped == 1 {
		tests = "test"
	}
	return fmt.Sprintf("vkd3d: %d conformance %s skipped: %s; the data is read from %s (CI=true makes this a failure)", skipped, tests, skipWhy, origin)
}

// Main runs a package's tests and then prints SkipSummary, once. Packages
// whose tests call Load use it as their TestMain:
//
//	func TestMain(m *testing.M) { vkd3d.Main(m) }
func Main(m *testing.M) {
	code := m.Run()
	if s := SkipSummary(); s != "" {
		fmt.Println(s)
	}
	os.Exit(code)
}

// Dir returns the vkd3d HLSL conformance directory: shared/conformance/
// vkd3d/hlsl beside the checkout, found from the go.mod above the
// working directory.
//
// PASSLENS_CONFORMANCE, when set, names the conformance directory instead
// (the one holding vkd3d/hlsl).
func Dir() (string, error) {
	if env := os.Getenv("PASSLENS_CONFORMANCE"); env != "" {
		hlsl := filepath.Join(env, "vkd3d", "hlsl")
		if _, err := os.Stat(hlsl); err != nil {
			return "", fmt.Errorf("PASSLENS_CONFORMANCE: %w", err)
		}
		return hlsl, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.mod not found above the working directory")
		}
		dir = parent
	}
	hlsl := filepath.Join(dir, "..", "shared", "conformance", "vkd3d", "hlsl")
	if _, err := os.Stat(hlsl); err != nil {
		return "", err
	}
	return hlsl, nil
}

// File is one .shader_test file.
type File struct {
	Name     string // base name, e.g. "arithmetic-int.shader_test"
	Sections []*Section
}

// Load reads every .shader_test file of the conformance directory in
// name order. When the data is not there the test fails under CI=true and
// is skipped otherwise (internal/testtool's rule); Main then prints one
// summary line for the package.
func Load(t testing.TB) []*File {
	t.Helper()
	dir, err := Dir()
	if err != nil {
		missing(t, fmt.Sprintf("vkd3d conformance data not found (%v)", err))
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.shader_test"))
	if err != nil || len(paths) == 0 {
		missing(t, fmt.Sprintf("no .shader_test files in %s", dir))
	}
	var files []*File
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, Parse(filepath.Base(path), string(data)))
	}
	return files
}

// Section is one "[header]" section of a file.
type Section struct {
	Header string   // the text between the brackets
	Line   int      // the header's line (1-based)
	Body   []string // the lines up to the next header, as in the file
}

// Parse splits a file's text into sections. A header is a line that is
// "[...]" after trimming and does not start with a space (indented
// attributes such as "    [numthreads(1, 1, 1)]" are source lines).
func Parse(name, text string) *File {
	f := &File{Name: name}
	for i, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "[") && strings.HasSuffix(trimmed, "]") && !strings.HasPrefix(line, " ") {
			f.Sections = append(f.Sections, &Section{Header: trimmed[1 : len(trimmed)-1], Line: i + 1})
			continue
		}
		if n := len(f.Sections); n > 0 {
			f.Sections[n-1].Body = append(f.Sections[n-1].Body, line)
		}
	}
	return f
}

// Require is the state set by a [require] section; it applies to the
// sections that follow, up to the next [require].
type Require struct {
	MinSM, MaxSM float64  // the shader models [MinSM, MaxSM)
	Features     []string // other requirement lines ("float64", "wave-ops", "format r32-float", ...)
	Options      []string // the words of "options:" lines ("row-major", "backcompat")
}

// NoRequire is the state before any [require] section: every model.
var NoRequire = Require{MinSM: 0, MaxSM: 99}

// ParseRequire reads a [require] section's body: "shader model >= X",
// "shader model < X", "options: ..." and feature lines; comments and
// blank lines are skipped.
func ParseRequire(body []string) Require {
	r := NoRequire
	for _, l := range body {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "%") {
			continue
		}
		if rest, ok := strings.CutPrefix(l, "shader model "); ok {
			if f := strings.Fields(rest); len(f) == 2 {
				v, _ := strconv.ParseFloat(f[1], 64)
				switch f[0] {
				case ">=":
					r.MinSM = v
				case "<":
					r.MaxSM = v
				}
			}
			continue
		}
		if rest, ok := strings.CutPrefix(l, "options:"); ok {
			r.Options = append(r.Options, strings.Fields(rest)...)
			continue
		}
		r.Features = append(r.Features, l)
	}
	return r
}

// SM6 returns the shader model a runner targeting SM 6.x uses under the
// requirement (6, or the minimum if higher) and whether it is in range.
func (r Require) SM6() (float64, bool) {
	sm := max(6.0, r.MinSM)
	return sm, sm < r.MaxSM && sm < 7
}

// Has reports whether the range contains shader model sm.
func (r Require) Has(sm float64) bool { return r.MinSM <= sm && sm < r.MaxSM }

// Stages are the shader kinds a shader section's header starts with.
var Stages = []string{"pixel", "vertex", "compute", "geometry", "hull", "domain", "effect"}

// Stage returns the shader stage a header names ("pixel" for "pixel
// shader fail(sm<6)"), or "" for a section that is not a shader.
func Stage(header string) string {
	for _, s := range Stages {
		if strings.HasPrefix(header, s) {
			return s
		}
	}
	return ""
}

// Source returns a shader section's text with comment lines emptied, so
// line n of the source is line Line+n of the file.
func (s *Section) Source() string {
	var src strings.Builder
	for _, l := range s.Body {
		if !strings.HasPrefix(strings.TrimSpace(l), "%") {
			src.WriteString(l)
		}
		src.WriteString("\n")
	}
	return src.String()
}

// Unit is one shader section with the requirements in force for it.
type Unit struct {
	File   string
	Line   int    // the first source line (the line after the header)
	Stage  string // "pixel", "vertex", "compute", "geometry", "hull", "domain", "effect"
	Header string // e.g. "pixel shader fail(sm<6) todo"
	Src    string // the source, comment lines emptied
	Require
}

// Units returns the file's shader units in order.
func (f *File) Units() []*Unit {
	var units []*Unit
	req := NoRequire
	for _, s := range f.Sections {
		if s.Header == "require" {
			req = ParseRequire(s.Body)
			continue
		}
		if st := Stage(s.Header); st != "" {
			units = append(units, &Unit{File: f.Name, Line: s.Line + 1, Stage: st, Header: s.Header, Src: s.Source(), Require: req})
		}
	}
	return units
}

// OutsideSubset names why a unit is outside passlens's HLSL subset from
// its section alone — "geometry shader", "hull shader", "domain shader",
// "effects", "bytecode" (a -hex shader), or a required feature:
// "geometry shader", "tessellation", "rasterizer-ordered view" (the last
// such requirement wins) — or returns "". The float64, int64 and
// native-16-bit requirements are inside the subset (issue 17 item 3):
// Native16Bit says which units compile with -enable-16bit-types.
func (u *Unit) OutsideSubset() string {
	cat := ""
	switch {
	case u.Stage == "geometry" || u.Stage == "hull" || u.Stage == "domain":
		cat = u.Stage + " shader"
	case u.Stage == "effect":
		cat = "effects"
	case strings.Contains(u.Header, "-hex"):
		cat = "bytecode"
	}
	for _, f := range u.Features {
		switch f {
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

// Native16Bit reports whether the unit requires native 16-bit types;
// vkd3d's shader runner then compiles it with dxc's -enable-16bit-types
// (half, float16_t, int16_t, uint16_t and min16 types are 16-bit).
func (u *Unit) Native16Bit() bool { return slices.Contains(u.Features, "native-16-bit") }

// Profile returns the dxc profile vkd3d's shader runner compiles the unit
// with under shader model 6: its stage's ("cs", "ps", "vs") at the
// [require] minimum model, 6.0 unless higher (SM6) — "cs_6_2" — or "" for
// a stage without an SM6 profile here or a unit outside SM6.
func (u *Unit) Profile() string {
	prefix := map[string]string{"compute": "cs", "pixel": "ps", "vertex": "vs"}[u.Stage]
	sm, ok := u.SM6()
	if prefix == "" || !ok {
		return ""
	}
	return fmt.Sprintf("%s_6_%d", prefix, int(math.Round((sm-6)*10)))
}

// Key is "file:line" of the unit's first source line.
func (u *Unit) Key() string { return fmt.Sprintf("%s:%d", u.File, u.Line) }

// Label is "file:line [header]".
func (u *Unit) Label() string { return fmt.Sprintf("%s:%d [%s]", u.File, u.Line, u.Header) }

// ExpectFail reports whether the unit is expected not to compile at sm.
func (u *Unit) ExpectFail(sm float64) bool { return ExpectFail(u.Header, sm) }

// ExpectFail reports whether a shader header marks the shader as failing
// to compile at shader model sm: "fail", or "fail(COND)" with COND true.
func ExpectFail(header string, sm float64) bool {
	for _, word := range HeaderWords(header) {
		if word == "fail" {
			return true
		}
		if rest, ok := strings.CutPrefix(word, "fail("); ok {
			return SMCond(strings.TrimSuffix(rest, ")"), sm)
		}
	}
	return false
}

// HeaderWords splits "pixel shader fail(sm<4 | sm>=6) todo" into words,
// keeping parenthesized groups together.
func HeaderWords(h string) []string {
	var words []string
	depth, start := 0, 0
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

// SMCond evaluates a condition such as "sm>=6", "sm<4 | sm>=6" or
// "msl & sm>=6" at shader model sm ('|' binds looser than '&'); other
// names (back ends, features) are false.
func SMCond(cond string, sm float64) bool {
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

// Command is one line of a [test] section that applies at a shader
// model, with its prefixes removed.
type Command struct {
	Text string
	Line int // its line in the file
}

// Commands returns the lines of a [test] section that apply at shader
// model sm: comments and blank lines dropped, "if(COND)" lines whose
// condition is false at sm dropped, and the "if(...)" prefix and vkd3d's
// own known-failure markers ("todo", "todo(...)", "bug", "bug(...)", in
// any order) removed — the expected values are still the truth.
func (s *Section) Commands(sm float64) []Command {
	var out []Command
	for i, l := range s.Body {
		if l, ok := command(l, sm); ok {
			out = append(out, Command{Text: l, Line: s.Line + 1 + i})
		}
	}
	return out
}

// command strips a test line's prefixes; ok is false for a comment, a
// blank line or a line whose if() condition is false at sm.
func command(l string, sm float64) (string, bool) {
	l = strings.TrimSpace(l)
	for {
		switch {
		case l == "" || strings.HasPrefix(l, "%"):
			return "", false
		case strings.HasPrefix(l, "if(") || strings.HasPrefix(l, "todo(") || strings.HasPrefix(l, "bug("):
			open := strings.IndexByte(l, '(')
			end := closing(l, open)
			if end < 0 {
				return "", false // malformed: nothing to run
			}
			if strings.HasPrefix(l, "if(") && !SMCond(l[open+1:end], sm) {
				return "", false
			}
			l = strings.TrimSpace(l[end+1:])
		case strings.HasPrefix(l, "todo ") || strings.HasPrefix(l, "bug "):
			_, l, _ = strings.Cut(l, " ")
			l = strings.TrimSpace(l)
		default:
			return l, true
		}
	}
}

// closing returns the index of the parenthesis closing the one at open,
// or -1.
func closing(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}
