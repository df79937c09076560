package passes

import (
	"fmt"
	"os"
	"os/exec"
	"passlens/internal/testtool"
	"path/filepath"
	"strings"
	"testing"

	"passlens/compiler/ir"
)

// This file checks the control-flow passes' output against spirv-val, the
// external authority on SPIR-V's structured control flow: a function's CFG
// skeleton (blocks, merge annotations, branches, switches, returns; every
// condition an OpUndef except the constants true/false, which the one-trip
// loops' continue blocks branch on) is written as SPIR-V assembly,
// assembled with spirv-as and validated with spirv-val.

// spirvTool returns the path of tool, or skips (fails under CI=true) when
// it is missing.
func spirvTool(t *testing.T, tool string) string {
	t.Helper()
	return testtool.Require(t, tool, "spirv-tools")
}

// cfgSkeletonSPIRV writes f's control flow as a SPIR-V compute shader.
func cfgSkeletonSPIRV(f *ir.Function) string {
	var sb strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&sb, format+"\n", args...) }
	w("OpCapability Shader")
	w("OpMemoryModel Logical GLSL450")
	w(`OpEntryPoint GLCompute %%main "main"`)
	w("OpExecutionMode %%main LocalSize 1 1 1")
	w("%%void = OpTypeVoid")
	w("%%bool = OpTypeBool")
	w("%%int = OpTypeInt 32 1")
	w("%%fn = OpTypeFunction %%void")
	w("%%cond = OpUndef %%bool")
	w("%%sel = OpUndef %%int")
	w("%%true = OpConstantTrue %%bool")
	w("%%false = OpConstantFalse %%bool")
	w("%%main = OpFunction %%void None %%fn")
	label := map[*ir.Block]string{}
	for i, b := range f.Blocks {
		label[b] = fmt.Sprintf("%%b%d", i)
	}
	// Dominators before the blocks they dominate: reverse postorder, then
	// the unreachable blocks.
	order := reversePostorder(f)
	seen := map[*ir.Block]bool{}
	for _, b := range order {
		seen[b] = true
	}
	for _, b := range f.Blocks {
		if !seen[b] {
			order = append(order, b)
		}
	}
	for _, b := range order {
		w("%s = OpLabel", label[b])
		t := b.Terminator()
		switch t.MergeKind {
		case ir.MergeSelection:
			w("OpSelectionMerge %s None", label[t.Merge])
		case ir.MergeLoop:
			w("OpLoopMerge %s %s None", label[t.Merge], label[t.Continue])
		}
		switch t.Op {
		case ir.OpBr:
			w("OpBranch %s", label[t.Succs[0]])
		case ir.OpCondBr:
			c := "%cond"
			if k, ok := t.Args[0].(*ir.Const); ok {
				c = map[bool]string{true: "%true", false: "%false"}[k.Bool()]
			}
			w("OpBranchConditional %s %s %s", c, label[t.Succs[0]], label[t.Succs[1]])
		case ir.OpSwitch:
			var def string
			var cases []string
			for _, c := range t.Cases {
				if c.Default {
					def = label[c.Target]
				}
				for _, v := range c.Values {
					cases = append(cases, fmt.Sprintf("%d %s", v, label[c.Target]))
				}
			}
			w("OpSwitch %%sel %s %s", def, strings.Join(cases, " "))
		case ir.OpRet, ir.OpDiscard:
			w("OpReturn")
		default:
			w("OpUnreachable")
		}
	}
	w("OpFunctionEnd")
	return sb.String()
}

// spirvValidateCF assembles and validates the skeleton of every function
// of m and returns spirv-val's complaint ("" if valid).
func spirvValidateCF(t *testing.T, m *ir.Module) string {
	t.Helper()
	as, val := spirvTool(t, "spirv-as"), spirvTool(t, "spirv-val")
	dir := t.TempDir()
	for _, f := range m.Funcs {
		if f.IsDeclaration() {
			continue
		}
		src := filepath.Join(dir, "cf.spvasm")
		bin := filepath.Join(dir, "cf.spv")
		text := cfgSkeletonSPIRV(f)
		if err := os.WriteFile(src, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(as, "--target-env", "spv1.3", "-o", bin, src).CombinedOutput(); err != nil {
			t.Fatalf("spirv-as: %v: %s\n%s", err, out, text)
		}
		if out, err := exec.Command(val, "--target-env", "spv1.3", bin).CombinedOutput(); err != nil {
			return fmt.Sprintf("@%s: %s\n%s", f.Name(), strings.TrimSpace(string(out)), text)
		}
	}
	return ""
}

// TestCFOutputsPassSpirvVal validates the control flow of every golden
// output with spirv-val (outputs of passes on unstructured inputs aside).
func TestCFOutputsPassSpirvVal(t *testing.T) {
	spirvTool(t, "spirv-val")
	files, err := filepath.Glob(filepath.Join("testdata", "cf", "golden", "*.want.pir"))
	if err != nil {
		t.Fatal(err)
	}
	// Outputs that are not SPIR-V by design: out-of-ssa on an irreducible
	// CFG or on a switch whose case label is the loop's continue target
	// (switch_loop_continue's "case 2: continue", which SPIR-V forbids and
	// switch-to-if removes), and switch-to-if before
	// eliminate-multilevel-break.
	unstructured := map[string]bool{"irreducible.out-of-ssa": true, "switch_loop_continue.out-of-ssa": true,
		"switch_loop_continue.switch-to-if": true, "sw_nested.switch-to-if": true}
	n := 0
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".pir")
		if unstructured[strings.TrimSuffix(name, ".want")] {
			continue
		}
		n++
		t.Run(name, func(t *testing.T) {
			if msg := spirvValidateCF(t, cfLoad(t, name)); msg != "" {
				t.Errorf("spirv-val rejects the control flow of %s: %s", name, msg)
			}
		})
	}
	if n < 20 {
		t.Fatalf("only %d golden outputs found", n)
	}
	// Multi-level exits are what spirv-val rejects: the check has teeth.
	for _, name := range []string{"emb_break2", "emb_ifbreak", "switch_loop_continue.switch-to-if.want"} {
		if spirvValidateCF(t, cfLoad(t, name)) == "" {
			t.Errorf("spirv-val accepts %s, which has multi-level exits", name)
		}
	}
}

// TestRandomLoweringsPassSpirvVal validates random switches after
// switch-to-if<all>, eliminate-multilevel-break and out-of-ssa, and random
// CFGs (irreducible ones included) after structurize.
func TestRandomLoweringsPassSpirvVal(t *testing.T) {
	spirvTool(t, "spirv-val")
	n := 40
	if testing.Short() {
		n = 10
	}
	for seed := 0; seed < n; seed++ {
		m := randomSwitchModule(uint64(seed))
		for _, p := range []*Pass{SwitchToIf, EliminateMultilevelBreak, OutOfSSA} {
			opt := ""
			if p == SwitchToIf {
				opt = "all"
			}
			m, _ = cfApply(t, p, m, opt)
			if p == SwitchToIf {
				continue // multi-level exits remain until the next pass
			}
			if msg := spirvValidateCF(t, m); msg != "" {
				t.Fatalf("seed %d after %s: spirv-val rejects: %s\n%s", seed, p.Name, msg, m)
			}
		}
		c, _ := cfApply(t, Structurize, randomCFGModule(uint64(seed)), "")
		if msg := spirvValidateCF(t, c); msg != "" {
			t.Fatalf("random CFG %d after structurize: spirv-val rejects: %s\n%s", seed, msg, c)
		}
	}
}
