package lower

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/internal/vkd3d"
)

// The helpers the lowering tests share with the front end's tests (package
// hlsl keeps its own: its internal tests cannot import a package that
// imports hlsl).

// seedsDir holds the front end's fuzz seeds, which FuzzLower starts from.
var seedsDir = filepath.Join("..", "testdata", "fuzz", "seeds")

// compile runs the frontend over src (as "test.hlsl") and returns the
// program and diagnostics; an internal compiler error fails the test.
func compile(t *testing.T, src string, opts hlsl.Options) (*hlsl.Program, hlsl.Diagnostics) {
	t.Helper()
	prog, diags := hlsl.Frontend("test.hlsl", []byte(src), opts)
	noICE(t, diags)
	return prog, diags
}

// render formats diagnostics with source snippets.
func render(prog *hlsl.Program, diags hlsl.Diagnostics) string {
	var b strings.Builder
	var src hlsl.Sources
	if prog != nil {
		src = prog.Sources
	}
	_ = diags.Render(&b, src)
	return b.String()
}

// messages lists "severity: message" lines of the top-level diagnostics.
func messages(diags hlsl.Diagnostics) string {
	var lines []string
	for _, d := range diags {
		lines = append(lines, d.Severity.String()+": "+d.Message)
	}
	return strings.Join(lines, "\n")
}

// expectDiag compiles src and checks its diagnostics: none at all when
// want is empty, else one whose "severity: message" contains want.
func expectDiag(t *testing.T, src string, opts hlsl.Options, want string) {
	t.Helper()
	_, diags := compile(t, src, opts)
	got := messages(diags)
	if want == "" && len(diags) > 0 || want != "" && !strings.Contains(got, want) {
		t.Errorf("%s:\ngot  %s\nwant %q", src, got, want)
	}
}

// isInternalError reports a diagnostic that is a compiler bug: an explicit
// "internal compiler error" check, or a recovered panic (guard's wording,
// "internal error in <where>: ...").
func isInternalError(msg string) bool {
	return strings.HasPrefix(msg, "internal compiler error") || strings.HasPrefix(msg, "internal error in ")
}

// noICE fails the test on an internal compiler error.
func noICE(t *testing.T, diags hlsl.Diagnostics) {
	t.Helper()
	for _, d := range diags {
		if isInternalError(d.Message) {
			t.Fatal(d.Message)
		}
	}
}

// addSeeds adds the front end's fuzz seed shaders (the snippets it adds
// inline are corpus files in testdata/fuzz/FuzzLower).
func addSeeds(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(seedsDir, "*"))
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
}

// fuzzOptions serves includes from the seed directory only.
func fuzzOptions() hlsl.Options {
	return hlsl.Options{
		IncludeDirs: []string{seedsDir},
		ReadFile: func(path string) ([]byte, error) {
			if !strings.HasPrefix(filepath.Clean(path), seedsDir) {
				return nil, os.ErrNotExist
			}
			return os.ReadFile(path)
		},
	}
}

// unitOptions returns the frontend options for a unit: entry main, its
// stage, and the row-major [require] option; ok is false for a stage the
// frontend does not compile (geometry, hull, domain, effects).
func unitOptions(u *vkd3d.Unit) (opts hlsl.Options, ok bool) {
	opts = hlsl.Options{Entry: "main"}
	switch u.Stage {
	case "pixel":
		opts.Stage = hlsl.StagePixel
	case "vertex":
		opts.Stage = hlsl.StageVertex
	case "compute":
		opts.Stage = hlsl.StageCompute
	default:
		return opts, false
	}
	for _, o := range u.Options {
		if o == "row-major" {
			opts.RowMajor = true
		}
	}
	opts.Enable16BitTypes = u.Native16Bit()
	return opts, true
}
