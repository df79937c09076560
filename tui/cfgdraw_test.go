package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCFGWithInstructionsLabelsAndDiff(t *testing.T) {
	t.Parallel()
	m, _ := newModel(t, 120, 40)
	press(t, m, "4")
	e := m.currentEntry()
	if e == nil {
		t.Fatal("no analysis")
	}
	text := strings.Join(e.cfg.lines, "\n")
	for _, want := range []string{
		"%c = icmp ult u32 %x, 3", // instructions in the box
		"→ T: %then   F: %end",    // condbr edge labels
		"%r = phi u32 [%s, %then], [0, %entry]",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("CFG lacks %q:\n%s", want, text)
		}
	}
	// Uniformity overlay: the divergent condbr row and %x are marked.
	press(t, m, "u", "4")
	marked := map[string]bool{}
	for row := range m.graph.marks {
		marked[strings.TrimSpace(strings.Trim(m.graph.lines[row], "│ "))] = true
	}
	if !marked["condbr bool %c, %then, %end"] || !marked["%x = intr u32 WaveGetLaneIndex()"] || marked["br %end"] {
		t.Errorf("divergence marks on %v", marked)
	}
	if e.diffBase == "" {
		t.Errorf("the CFG is not compared with the previous snapshot")
	}
}

func TestCFGDiffAndDOT(t *testing.T) {
	t.Parallel()
	prev := &Analysis{Func: "f", Blocks: []string{"entry", "old", "end"}, Succs: [][]int{{1}, {2}, {}}}
	cur := &Analysis{Func: "f", Blocks: []string{"entry", "end", "new"}, Succs: [][]int{{1, 2}, {}, {1}},
		Divergent: map[string]DivKind{"%entry": DivBranch, "%v": DivValue}}
	bodies := map[string][]string{
		"entry": {"%v = intr u32 WaveGetLaneIndex()", "%c = icmp eq u32 %v, 0", "condbr bool %c, %end, %new"},
		"new":   {"br %end"},
		"end":   {"ret"},
	}
	tl, _ := drawCFGFull(cur, bodies, prev)
	text := strings.Join(tl.lines, "\n")
	for _, want := range []string{"+ %new", "→ + T: %end   + F: %new", "- block %old", "- edge %entry → %old", "- edge %old → %end"} {
		if !strings.Contains(text, want) {
			t.Errorf("CFG diff lacks %q:\n%s", want, text)
		}
	}
	dot := dotCFG(cur, bodies, prev)
	for _, want := range []string{`label="T"`, `label="F"`, `◆ %v = intr u32 WaveGetLaneIndex()\l`, "color=red", "color=darkgreen"} {
		if !strings.Contains(dot, want) {
			t.Errorf("DOT lacks %q:\n%s", want, dot)
		}
	}
}

// TestExportDOTAsksWithAbsoluteDefault: D offers an absolute path (never
// silently the current directory) and writes DOT with instructions.
func TestExportDOTAsksWithAbsoluteDefault(t *testing.T) {
	t.Parallel()
	m, _ := newModel(t, 120, 40)
	press(t, m, "4", "D")
	if m.prompt.kind != promptDOT || !filepath.IsAbs(m.prompt.input.Value()) {
		t.Fatalf("prompt %d with default %q", m.prompt.kind, m.prompt.input.Value())
	}
	path := filepath.Join(t.TempDir(), "f.dot")
	m.prompt.input.SetValue(path)
	press(t, m, "enter")
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), `%c = icmp ult u32 %x, 3\l`) {
		t.Fatalf("DOT: %v\n%s", err, data)
	}
}
