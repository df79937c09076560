package replay

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseLocatesErrors(t *testing.T) {
	for _, tc := range []struct{ script, want string }{
		{"load x\n\n  zap 1\n", "s.replay:3:3: error: unknown command \"zap\""},
		{"goto\n", "s.replay:1:1: error: goto takes at least 1 argument(s)"},
		{"export a b c\n", "s.replay:1:1: error: export takes 1 to 2 arguments"},
		{"# c\n view bogus\n", "s.replay:2:2: error: view: unknown pane \"bogus\""},
		{"input {\"a\": \n", "s.replay:1:1: error: input: inline JSON is not valid"},
	} {
		_, err := Parse("s.replay", tc.script)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %s", tc.script, err, tc.want)
		}
	}
}

func TestMoveRules(t *testing.T) {
	passes := []string{"input", "inline", "simplify", "sroa", "simplify"}
	for _, tc := range []struct {
		line string
		cur  int
		want int
	}{
		{"goto simplify", 0, 2}, // the first occurrence, as documented
		{"goto simplify#2", 0, 4},
		{"goto 3", 0, 3},
		{"step -2", 4, 2},
		{"step", 4, 4},
		{"next", 1, 2},
		{"prev", 0, 0},
		{"first", 3, 0},
		{"last", 0, 4},
	} {
		cmds, err := Parse("t", tc.line)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Move(cmds[0], tc.cur, passes)
		if err != nil || got != tc.want {
			t.Errorf("%s from %d: got %d, %v; want %d", tc.line, tc.cur, got, err, tc.want)
		}
		if tc.line == "goto simplify#2" && StepRef(4, passes) != "simplify#2" || StepRef(3, passes) != "sroa" {
			t.Errorf("StepRef does not round-trip")
		}
	}
}

// TestRecorderPathsRelativeToScript: a recorded script loads its module
// and input relative to where it is saved, and replays from elsewhere.
func TestRecorderPathsRelativeToScript(t *testing.T) {
	dir := t.TempDir()
	mod := filepath.Join(dir, "src", "k.pir")
	os.MkdirAll(filepath.Dir(mod), 0o755)
	data, err := os.ReadFile("../../samples/wave-switch-42-ir.pir")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(mod, data, 0o644)
	in := filepath.Join(dir, "src", "in.json")
	os.WriteFile(in, []byte(`{"dispatch":[1,1,1],"buffers":[{"name":"value","type":"i32","data":[0,0,1,2]}]}`), 0o644)
	r := NewRecorder(mod, "", "", "spirv", "inline,simplify")
	r.InputFile(in)
	r.Goto("simplify")
	r.Run(4, "switch-separate")
	sdir := filepath.Join(dir, "scripts")
	os.MkdirAll(sdir, 0o755)
	script := r.Script(sdir)
	if !strings.Contains(script, "load ../src/k.pir\n") || !strings.Contains(script, "input ../src/in.json\n") {
		t.Fatalf("paths not relative to the script:\n%s", script)
	}
	path := filepath.Join(sdir, "s.replay")
	os.WriteFile(path, []byte(script), 0o644)
	var out bytes.Buffer
	e, err := Play(path, strings.NewReader(script), &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	st, _ := e.State()
	if st.Pass != "simplify" || !strings.Contains(st.RunJSON, `"count": 4,`) {
		t.Fatalf("state %+v", st)
	}
}
