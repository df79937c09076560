package backend

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"passlens/bench/dumpgen"
	"passlens/compiler/passdump"
	"passlens/internal/testtool"
	"passlens/tui"
)

// optDump runs opt-22 with -print-after-all on the irreducible sample and
// indexes the log.
func optDump(t *testing.T, passes string) *passdump.Log {
	t.Helper()
	opt := testtool.Require(t, "opt-22", "llvm-22")
	in, _ := filepath.Abs("../../samples/irreducible.ll")
	out, err := exec.Command(opt, "-passes="+passes, "-mtriple=amdgcn--", "-S", in, "-o", os.DevNull, "-print-after-all").CombinedOutput()
	if err != nil {
		t.Fatalf("opt: %v\n%s", err, out)
	}
	l, err := passdump.Parse("opt.log", out)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestDumpDriverSteps(t *testing.T) {
	l := optDump(t, "sroa,instcombine,simplifycfg")
	d := NewDumpDriver(l)
	c, err := d.Compile(context.Background(), "log", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Steps) != len(l.Steps) {
		t.Fatalf("%d steps, log has %d", len(c.Steps), len(l.Steps))
	}
	for i := range c.Steps {
		if c.Steps[i].Text != "" {
			t.Fatalf("step %d carries text before it is shown", i)
		}
		if err := d.LoadStep(c, i); err != nil {
			t.Fatal(err)
		}
		want, _, _ := l.Text(i)
		if c.Steps[i].Text != want || c.Steps[i].Lang != "llvm" || len(c.Steps[i].Funcs) == 0 {
			t.Fatalf("step %d: text or funcs not loaded", i)
		}
	}
	held := 0
	for _, s := range c.Steps {
		if s.Text != "" {
			held++
		}
	}
	if held > keepLoaded {
		t.Fatalf("%d step texts held, want at most %d", held, keepLoaded)
	}
	last := len(c.Steps) - 1
	a, err := d.Analyze(context.Background(), c, last, "")
	if err != nil {
		t.Fatal(err)
	}
	if a.Dom == nil || len(a.Blocks) == 0 || a.Divergent == nil {
		t.Fatalf("analysis %+v", a)
	}
	if _, err := d.Run(context.Background(), c, last, tui.RunOptions{WaveSize: 32}); err != nil && strings.Contains(err.Error(), "panic") {
		t.Fatal(err)
	}
}

// TestDumpDriverUnavailable: a step whose text the importer refuses shows
// as text, and its analyses say why.
func TestDumpDriverUnavailable(t *testing.T) {
	l, err := passdump.Parse("bad.log", []byte("; *** IR Dump After X on f ***\ndefine void @f() {\n  this is not IR\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	d := NewDumpDriver(l)
	c, _ := d.Compile(context.Background(), "log", nil)
	if err := d.LoadStep(c, 0); err != nil || !strings.Contains(c.Steps[0].Text, "this is not IR") {
		t.Fatalf("text %q, %v", c.Steps[0].Text, err)
	}
	_, err = d.Analyze(context.Background(), c, 0, "f")
	if err == nil || !strings.HasPrefix(err.Error(), "unavailable: ") || !strings.Contains(err.Error(), "bad.log:step0:2:3: ") {
		t.Fatalf("error %v, want unavailable: with the importer's location", err)
	}
}

// TestRunDriverWhatIf: --run with opt's -passes=; turning a pass off
// re-runs opt without it; a tool error is a message, not a crash.
func TestRunDriverWhatIf(t *testing.T) {
	opt := testtool.Require(t, "opt-22", "llvm-22")
	in, _ := filepath.Abs("../../samples/irreducible.ll")
	cmd, err := passdump.ParseCommand(opt + " -passes=sroa,instcombine,simplifycfg -mtriple=amdgcn-- -S " + in + " -o " + os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	d := NewRunDriver(cmd)
	pl := d.DefaultPipeline("log")
	if len(pl) != 3 || pl[1].Name != "instcombine" {
		t.Fatalf("pipeline %+v", pl)
	}
	c, err := d.Compile(context.Background(), "log", pl)
	if err != nil {
		t.Fatal(err)
	}
	has := func(c *tui.Compiled, pass string) bool {
		for _, s := range c.Steps {
			if strings.HasPrefix(s.Pass, pass) {
				return true
			}
		}
		return false
	}
	if !has(c, "InstCombinePass") {
		t.Fatalf("no InstCombinePass step")
	}
	pl[1].Enabled = false
	c2, err := d.Compile(context.Background(), "log", pl)
	if err != nil {
		t.Fatal(err)
	}
	if has(c2, "InstCombinePass") || !has(c2, "SROAPass") {
		t.Fatalf("what-if steps: %+v", c2.Steps)
	}
	bad, _ := passdump.ParseCommand(opt + " -passes=no-such-pass " + in)
	bc, err := NewRunDriver(bad).Compile(context.Background(), "log", nil)
	if err != nil || len(bc.Steps) == 0 {
		t.Fatalf("tool error: %v %+v", err, bc)
	}
	if f := bc.Steps[len(bc.Steps)-1]; f.Status != tui.StepFailed || !strings.Contains(f.Text, "no-such-pass") || strings.Contains(f.Text, "closed_path") {
		t.Fatalf("the failed step does not show (only) the tool's message: %+v", f)
	}
}

// TestDumpDriverMIR: llc's machine-IR steps get trees and a CFG from the
// blocks' successors.
func TestDumpDriverMIR(t *testing.T) {
	llc := testtool.Require(t, "llc-22", "llvm-22")
	in, _ := filepath.Abs("../../samples/irreducible.ll")
	out, err := exec.Command(llc, "-mtriple=amdgcn--", "-mcpu=gfx1100", in, "-o", os.DevNull, "-print-after-all").CombinedOutput()
	if err != nil {
		t.Fatalf("llc: %v\n%s", err, out)
	}
	l, err := passdump.Parse("llc.log", out)
	if err != nil {
		t.Fatal(err)
	}
	d := NewDumpDriver(l)
	c, _ := d.Compile(context.Background(), "log", nil)
	n := 0
	for i, s := range l.Steps {
		if s.Lang != passdump.LangMIR {
			continue
		}
		a, err := d.Analyze(context.Background(), c, i, "")
		if err != nil {
			t.Fatalf("step %d %s: %v", i, s.Pass, err)
		}
		edges := 0
		for _, ss := range a.Succs {
			edges += len(ss)
		}
		if len(a.Blocks) < 2 || edges == 0 || a.Dom == nil {
			t.Fatalf("step %d: %d blocks, %d edges", i, len(a.Blocks), edges)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no machine IR step")
	}
}

// TestDumpDriverReload: R (a new compile) re-reads a log file that changed.
func TestDumpDriverReload(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log.txt")
	one := "; *** IR Dump After A on f ***\ndefine void @f() {\n  ret void\n}\n"
	os.WriteFile(p, []byte(one), 0o644)
	l, err := passdump.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	d := NewDumpDriver(l)
	c, _ := d.Compile(context.Background(), "log", nil)
	if len(c.Steps) != 1 {
		t.Fatalf("%d steps", len(c.Steps))
	}
	os.WriteFile(p, []byte(one+"; *** IR Dump After B on f ***\ndefine void @f() {\n  unreachable\n}\n"), 0o644)
	future := time.Now().Add(time.Hour)
	os.Chtimes(p, future, future)
	c2, err := d.Compile(context.Background(), "log", nil)
	if err != nil || len(c2.Steps) != 2 || c2.Steps[1].Status != tui.StepChanged {
		t.Fatalf("after the log changed: %v %+v", err, c2)
	}
}

// TestDumpDriverSPIRV: spirv-opt steps are read into passlens IR
// (compiler/spvread): every step has trees, a CFG and a uniformity overlay
// whose values are the step's SPIR-V ids (so the overlay names lines of
// the step's text), and runs in the lanes pane.
func TestDumpDriverSPIRV(t *testing.T) {
	glslang := testtool.Require(t, "glslangValidator", "glslang-tools")
	spvopt := testtool.Require(t, "spirv-opt", "spirv-tools")
	dir := t.TempDir()
	src, _ := filepath.Abs("../../compiler/passdump/testdata/shader.frag")
	spv := filepath.Join(dir, "in.spv")
	if out, err := exec.Command(glslang, "-V", "--target-env", "vulkan1.1", src, "-o", spv).CombinedOutput(); err != nil {
		t.Fatalf("glslang: %v\n%s", err, out)
	}
	out, err := exec.Command(spvopt, "--print-all", "-O", spv, "-o", filepath.Join(dir, "out.spv")).CombinedOutput()
	if err != nil {
		t.Fatalf("spirv-opt: %v\n%s", err, out)
	}
	l, err := passdump.Parse("spv.log", out)
	if err != nil {
		t.Fatal(err)
	}
	d := NewDumpDriver(l)
	c, _ := d.Compile(context.Background(), "log", nil)
	a, err := d.Analyze(context.Background(), c, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	if a.Func != "main" || len(a.Blocks) < 3 || a.Dom == nil || a.Cycles == nil || len(a.BackEdges) == 0 {
		t.Fatalf("analysis of the input step: %+v", a)
	}
	for i := range c.Steps {
		a, err := d.Analyze(context.Background(), c, i, "main")
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if err := d.LoadStep(c, i); err != nil {
			t.Fatal(err)
		}
		// The loop's exit depends on a uniform count, its if on the
		// divergent input color: some value is divergent, and every
		// divergent value is defined on a line of the step's text.
		if len(a.Divergent) == 0 {
			t.Errorf("step %d: no divergent value", i)
		}
		for v := range a.Divergent {
			if !strings.Contains(c.Steps[i].Text, v+" = ") && !strings.Contains(c.Steps[i].Text, v+" = OpLabel") {
				t.Errorf("step %d: divergent %s is not defined in the step's text", i, v)
			}
		}
		if _, err := d.Run(context.Background(), c, i, tui.RunOptions{Policy: "maximal", WaveSize: 4}); err != nil {
			t.Errorf("step %d: run: %v", i, err)
		}
	}
}

// A progressively opened log compiles to its first part (Partial), then,
// once WaitComplete returns, to the whole log; the first part's steps are
// the whole log's first steps.
func TestProgressiveDumpDriver(t *testing.T) {
	var buf bytes.Buffer
	if err := dumpgen.Write(&buf, dumpgen.Options{Size: 1, Funcs: 6, FuncPass: 8, LoopPass: 2, ModPasses: 2}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "x.log")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	pr, err := passdump.OpenProgressive(p, int64(buf.Len())/4)
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewProgressiveDumpDriver(pr, p)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	first, err := d.Compile(ctx, "log", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.WaitComplete(ctx); err != nil {
		t.Fatal(err)
	}
	whole, err := d.Compile(ctx, "log", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Partial(first) || d.Partial(whole) || len(first.Steps) >= len(whole.Steps) {
		t.Fatalf("first part %d steps (partial %v), whole %d (partial %v)", len(first.Steps), d.Partial(first), len(whole.Steps), d.Partial(whole))
	}
	for i := range first.Steps {
		if err := d.LoadStep(first, i); err != nil {
			t.Fatal(err)
		}
		if err := d.LoadStep(whole, i); err != nil {
			t.Fatal(err)
		}
		if first.Steps[i].Pass != whole.Steps[i].Pass || first.Steps[i].Text != whole.Steps[i].Text {
			t.Fatalf("step %d differs between the first part and the whole log", i)
		}
	}
}
