package spvread_test

import (
	"os/exec"
	"path/filepath"
	"testing"

	"passlens/compiler/analysis"
	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/passdump"
	"passlens/compiler/spvread"
	"passlens/internal/testtool"
)

// TestSpirvOptSteps runs spirv-opt -O --print-all on glslang's output of
// every GLSL compute shader of testdata/glsl and reads every step of the
// log: each step's module verifies; each function's dominator and
// post-dominator trees equal those of the CFG that passdump.SPIRVCFG (an
// independent reader of the same text) gives; and each step, run in the
// interpreter, leaves the same buffers as the input step — spirv-opt's
// passes preserve the program, so a reading error shows as a difference.
func TestSpirvOptSteps(t *testing.T) {
	glslang := testtool.Require(t, "glslangValidator", "glslang-tools")
	spvopt := testtool.Require(t, "spirv-opt", "spirv-tools")
	steps := 0
	for _, c := range glslCases {
		t.Run(c.file, func(t *testing.T) {
			dir := t.TempDir()
			spv := filepath.Join(dir, "in.spv")
			if out, err := exec.Command(glslang, "-V", "--target-env", "vulkan1.1", filepath.Join("testdata/glsl", c.file), "-o", spv).CombinedOutput(); err != nil {
				t.Fatalf("glslangValidator: %v\n%s", err, out)
			}
			out, err := exec.Command(spvopt, "--print-all", "-O", spv, "-o", filepath.Join(dir, "out.spv")).CombinedOutput()
			if err != nil {
				t.Fatalf("spirv-opt: %v\n%s", err, out)
			}
			l, err := passdump.Parse("spirv-opt.log", out)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			var first *interp.Result
			zero := 0
			for i := range l.Steps {
				if l.Steps[i].Lang != passdump.LangSPIRV {
					continue
				}
				text, _, err := l.Text(i)
				if err != nil {
					t.Fatal(err)
				}
				m, err := spvread.ReadWith("step", []byte(text), spvread.Options{IDNames: true})
				if err != nil {
					t.Fatalf("step %d (%s): %v", i, l.Steps[i].Pass, err)
				}
				if err := ir.Verify(m); err != nil {
					t.Fatalf("step %d (%s): %v\n%s", i, l.Steps[i].Pass, err, m)
				}
				for _, fn := range l.Functions(i) {
					ft, _ := l.FuncText(i, fn)
					cfg, err := passdump.SPIRVCFG(ft)
					if err != nil {
						t.Fatal(err)
					}
					f := m.Func(fn)
					if f == nil {
						t.Fatalf("step %d: no function %s", i, fn)
					}
					want := treeLines(&analysis.Graph{Names: cfg.Blocks, Succs: cfg.Succs})
					if got := treeLines(analysis.NewFuncGraph(f).Graph); got != want {
						t.Errorf("step %d (%s) %s: trees differ:\n%s\n----\n%s", i, l.Steps[i].Pass, fn, got, want)
					}
				}
				n++
				ep := m.EntryPoints()
				if len(ep) != 1 {
					t.Fatalf("step %d: %d entry points", i, len(ep))
				}
				data := make([]any, c.groups*ep[0].Entry.NumThreads[0])
				for k := range data {
					data[k] = uint32((7*k + 3) % 29)
				}
				in := &interp.Input{Dispatch: [3]int{c.groups, 1, 1},
					Buffers: []interp.BufferInput{{Set: &zero, Binding: &zero, Data: data}}}
				res, err := interp.Run(m, in, interp.Options{WaveSize: 8})
				if err != nil {
					t.Fatalf("step %d (%s): run: %v", i, l.Steps[i].Pass, err)
				}
				if first == nil {
					first = res
					continue
				}
				if d := sameResults(first, res); d != "" {
					t.Errorf("step %d (%s): results differ from the input step's: %s", i, l.Steps[i].Pass, d)
				}
			}
			if n < 10 {
				t.Errorf("only %d SPIR-V steps", n)
			}
			steps += n
		})
	}
	t.Logf("%d spirv-opt steps read, verified, compared and run", steps)
}

// treeLines prints a CFG's dominator and post-dominator trees by block
// name.
func treeLines(g *analysis.Graph) string {
	dom, pdom := analysis.Dominators(g), analysis.PostDominators(g)
	s := ""
	for i, n := range g.Names {
		s += n + " " + nameOf(g, dom.IDom(i)) + " " + nameOf(g, pdom.IDom(i)) + "\n"
	}
	return s
}

func nameOf(g *analysis.Graph, n int) string {
	if n < 0 || n >= len(g.Names) {
		return "-"
	}
	return g.Names[n]
}
