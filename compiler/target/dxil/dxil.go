package dxil

import (
	"fmt"
	"strings"

	"passlens/compiler/ir"
	"passlens/compiler/llvm"
	"passlens/compiler/target"
	"passlens/internal/guard"
)

func init() { target.Register(target.DXIL, Emit) }

// Emit writes a module that went through the dxil pipeline as DXIL-style
// scalar LLVM IR. m is not modified: the back end works on a clone. It
// drops functions no entry point calls (prune.go), gives declarations
// scalar signatures (flatten.go), lowers system-value reads and
// intrinsics to dx.op calls (sysvalue.go, dxop.go), legalizes the
// remaining memory types (legalize.go: no vectors), prints with the LLVM
// bridge and retargets the text (dxil-ms-dx triple, plain entry
// definitions).
func Emit(m *ir.Module) (out *target.Output, err error) {
	defer guard.Recover(&err, "dxil.Emit")
	if m == nil {
		return nil, fmt.Errorf("dxil: no module")
	}
	c := ir.CloneModule(m)
	pruneUnreachable(c)
	flattenDeclarations(c)
	nu := nonUniformIndices(c) // before system values become dx.op calls
	lowerUnboundedArrays(c)
	if err := lowerSysValues(c); err != nil {
		return nil, fmt.Errorf("dxil: %w", err)
	}
	for _, f := range c.Funcs {
		if err := lowerIntrinsicsNU(f, nu); err != nil {
			return nil, fmt.Errorf("dxil: %w", err)
		}
		lowerCounters(f)
	}
	if err := newLegalizer(c).run(); err != nil {
		return nil, fmt.Errorf("dxil: %w", err)
	}
	nameMemOps(c)
	text, err := llvm.Export(c)
	if err != nil {
		return nil, fmt.Errorf("dxil: %w", err)
	}
	return &target.Output{Text: retarget(text), Lang: "llvm", Ext: ".ll"}, nil
}

// lowerIntrinsicsNU rewrites every passlens intrinsic call of f into
// dx.op calls or plain LLVM instructions (dxop.go), knowing which dynamic
// indices into resource arrays are divergent (nonUniformIndices); other
// imported LLVM intrinsics (llvm.* outside llvm.amdgcn) are kept as they
// are.
func lowerIntrinsicsNU(f *ir.Function, nu map[*ir.Instr]bool) error {
	lw := &lowerer{f: f, bd: ir.NewBuilder(f), nonUniform: nu}
	lowered := false
	for _, b := range f.Blocks {
		for _, in := range append([]*ir.Instr(nil), b.Instrs...) {
			if in.Op != ir.OpIntrinsic || in.Intr == nil {
				continue
			}
			n := in.Intr.Name
			if strings.HasPrefix(n, "dx.op.") {
				continue
			}
			if strings.HasPrefix(n, "llvm.") && !strings.HasPrefix(n, "llvm.amdgcn.") && !strings.HasPrefix(n, "llvm.passlens.") {
				continue
			}
			text := ir.InstrString(in)
			if n == ir.BufWord64 {
				if err := lw.bufWord64(in); err != nil {
					return fmt.Errorf("%s@%s: %s: %w", where(f, in), f.Name(), text, err)
				}
				continue
			}
			if n == "buf.length" {
				if err := lw.bufLength(in); err != nil {
					return fmt.Errorf("%s@%s: %s: %w", where(f, in), f.Name(), text, err)
				}
				continue
			}
			if isTexture(n) {
				lowered = true
				if err := lw.texture(in); err != nil {
					return fmt.Errorf("%s@%s: %s: %w", where(f, in), f.Name(), text, err)
				}
				continue
			}
			if err := lw.intrinsic(in); err != nil {
				return fmt.Errorf("%s@%s: %s: %w", where(f, in), f.Name(), text, err)
			}
		}
	}
	if lowered {
		removeDeadVectors(f)
	}
	return nil
}

// where returns "file:line:col: " for an instruction that carries a source
// location (HLSL input), else "".
func where(f *ir.Function, in *ir.Instr) string {
	if in == nil || in.Loc.Line <= 0 {
		return ""
	}
	file := "<input>"
	if f != nil && f.Module != nil && f.Module.Name != "" {
		file = f.Module.Name
	}
	return fmt.Sprintf("%s:%d:%d: ", file, in.Loc.Line, in.Loc.Col)
}

// nameMemOps gives unnamed memset/memcpy instructions unique names: the
// LLVM bridge names the helper values it writes for them after the
// instruction ("%t.byte" when unnamed), which collides when a function
// has two unnamed memsets. Void instructions print no name, so this only
// changes the helpers' names.
func nameMemOps(m *ir.Module) {
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if (in.Op == ir.OpMemset || in.Op == ir.OpMemcpy) && in.Name() == "" {
					in.SetName(f, "mem")
				}
			}
		}
	}
}

// retarget adapts the bridge's AMDGPU-flavoured text to DXIL: the target
// triple, and entry points defined without the amdgpu_* calling
// conventions (DXIL entries are plain "define void @main()").
func retarget(text string) string {
	lines := strings.Split(text, "\n")
	// Entry points get one more attribute group: D3D's fp32 denormal rule
	// (denormals flushed), the interpreter's default mode.
	group := 0
	for _, l := range lines {
		var n int
		if _, err := fmt.Sscanf(l, "attributes #%d", &n); err == nil && n >= group {
			group = n + 1
		}
	}
	entries := false
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "target triple = "):
			lines[i] = "target triple = \"dxil-ms-dx\""
		case strings.HasPrefix(l, "define "):
			for _, cc := range []string{"amdgpu_cs ", "amdgpu_ps ", "amdgpu_vs ", "amdgpu_kernel ", "spir_kernel "} {
				if strings.HasPrefix(l, "define "+cc) && strings.HasSuffix(l, " {") {
					l = strings.Replace(l, "define "+cc, "define ", 1)
					l = strings.TrimSuffix(l, " {") + fmt.Sprintf(" #%d {", group)
					entries = true
				}
			}
			lines[i] = l
		}
	}
	text = strings.Join(lines, "\n")
	if entries {
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		if !strings.Contains(text, "\nattributes #") {
			text += "\n"
		}
		text += fmt.Sprintf("attributes #%d = { \"fp32-denorm-mode\"=\"ftz\" }\n", group)
	}
	return text
}
