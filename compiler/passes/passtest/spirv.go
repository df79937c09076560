package passtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"passlens/compiler/analysis"
	"passlens/compiler/graph"
	"passlens/compiler/ir"
	"passlens/internal/testtool"
)

// ValidateCF checks control flow against spirv-val, the external authority
// on SPIR-V's structured control flow: a function's CFG skeleton (blocks,
// merge annotations, branches, switches, returns; every condition an
// OpUndef except the constants true/false, which the one-trip loops'
// continue blocks branch on) is written as SPIR-V assembly, assembled with
// spirv-as and validated with spirv-val.

// SPIRVTool returns the path of tool, or skips (fails under CI=true) when
// it is missing.
func SPIRVTool(t testing.TB, tool string) string {
	t.Helper()
	return testtool.Require(t, tool, "spirv-tools")
}

// CFGSkeletonSPIRV writes f's control flow as a SPIR-V compute shader.
func CFGSkeletonSPIRV(f *ir.Function) string {
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
	fg := analysis.NewFuncGraph(f)
	var order []*ir.Block
	seen := map[*ir.Block]bool{}
	for _, i := range graph.DepthFirst(fg.Graph).RPO() {
		order = append(order, f.Blocks[i])
		seen[f.Blocks[i]] = true
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

// ValidateCF assembles and validates the skeleton of every function
// of m and returns spirv-val's complaint ("" if valid).
func ValidateCF(t testing.TB, m *ir.Module) string {
	t.Helper()
	as, val := SPIRVTool(t, "spirv-as"), SPIRVTool(t, "spirv-val")
	dir := t.TempDir()
	for _, f := range m.Funcs {
		if f.IsDeclaration() {
			continue
		}
		src := filepath.Join(dir, "cf.spvasm")
		bin := filepath.Join(dir, "cf.spv")
		text := CFGSkeletonSPIRV(f)
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
