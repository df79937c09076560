package llvm

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"passlens/compiler/ir"
	"passlens/internal/guard"
)

// Export writes m as LLVM IR for the amdgcn target that opt-22 accepts,
// keeping block and value names. The mapping is chosen so that opt-22's
// print<uniformity> agrees with passlens's uniformity semantics (see
// docs/llvm-bridge.md): uniform parameters become inreg, passlens
// intrinsics become AMDGPU intrinsics with the same divergence behaviour
// or stand-in declarations, and stage inputs become loads from private
// (divergent) or constant (uniform) memory.
func Export(m *ir.Module) (string, error) {
	return exportFuncs(m, m.Funcs)
}

// ExportFunction writes one function (a definition) with the declarations,
// globals and types it refers to.
func ExportFunction(f *ir.Function) (string, error) {
	return exportFuncs(f.Module, []*ir.Function{f})
}

type exporter struct {
	m        *ir.Module
	body     strings.Builder
	decls    map[string]string // callee name -> declaration line
	declList []string
	globals  map[*ir.Global]bool
	structs  map[*ir.Type]bool
	attrSets map[string]int // attribute group text -> number
	attrList []string
}

func exportFuncs(m *ir.Module, funcs []*ir.Function) (out string, err error) {
	defer guard.Handle("llvm export", func(e *guard.Error) { out, err = "", e })
	x := &exporter{m: m, decls: map[string]string{}, globals: map[*ir.Global]bool{},
		structs: map[*ir.Type]bool{}, attrSets: map[string]int{}}
	if m != nil {
		for _, g := range m.Globals {
			x.globals[g] = true
		}
	}
	for _, f := range funcs {
		if f.IsDeclaration() {
			if err := x.declareFunction(f); err != nil {
				return "", err
			}
		}
	}
	x.declList = nil // written in place below
	for _, f := range funcs {
		if f.IsDeclaration() {
			// Module declarations stay in module order.
			x.body.WriteString("\n" + x.decls[f.Name()])
			continue
		}
		if err := x.function(f); err != nil {
			return "", fmt.Errorf("llvm export: @%s: %w", f.Name(), err)
		}
	}
	var sb strings.Builder
	sb.WriteString("target triple = \"amdgcn-amd-amdhsa\"\n")
	if m != nil {
		var named []*ir.Type
		for _, t := range m.Structs {
			if !strings.HasPrefix(t.Name, literalPrefix) {
				named = append(named, t)
			}
		}
		if len(named) > 0 {
			sb.WriteByte('\n')
		}
		for _, t := range named {
			body, err := literalStructStr(t)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(&sb, "%%%s = type %s\n", llName(t.Name), body)
		}
		if len(m.Globals) > 0 {
			sb.WriteByte('\n')
		}
		for _, g := range m.Globals {
			line, err := globalDecl(g)
			if err != nil {
				return "", fmt.Errorf("llvm export: @%s: %w", g.Name(), err)
			}
			sb.WriteString(line)
		}
	}
	sb.WriteString(x.body.String())
	if len(x.declList) > 0 {
		sb.WriteByte('\n')
	}
	for _, n := range x.declList {
		sb.WriteString(x.decls[n])
	}
	if len(x.attrList) > 0 {
		sb.WriteByte('\n')
	}
	for i, a := range x.attrList {
		fmt.Fprintf(&sb, "attributes #%d = { %s }\n", i, a)
	}
	return sb.String(), nil
}

// inputIsUniform reports whether a stage input holds the same value in
// every lane of a wave: only the workgroup id (SV_GroupID) does.
func inputIsUniform(g *ir.Global) bool {
	return strings.EqualFold(g.Semantic, "SV_GroupID")
}

func globalASPrefix(g *ir.Global) string {
	if n := globalAS(g); n != 0 {
		return fmt.Sprintf("addrspace(%d) ", n)
	}
	return ""
}

func globalKind(g *ir.Global) string {
	if g.ReadOnly {
		return "constant"
	}
	return "global"
}

// globalAS is the LLVM address space a global is exported in: stage inputs
// go to private memory (loads are divergent) unless uniform, then to
// constant memory; everything else follows LLVMAddrSpace.
func globalAS(g *ir.Global) int {
	switch g.Space {
	case ir.SpaceInput:
		if inputIsUniform(g) {
			return ASConstant
		}
		return ASPrivate
	case ir.SpaceOutput:
		return ASGlobal
	}
	return LLVMAddrSpace(g.Space)
}

func globalDecl(g *ir.Global) (string, error) {
	vt := g.ValType
	if vt.Kind == ir.KArray && vt.Len < 0 {
		// A runtime-sized buffer ([? x T]) is an external [0 x T], the
		// usual LLVM spelling of an unbounded array; accesses index it
		// with pointer arithmetic (fnExporter.access).
		e, err := llTypeStr(vt.Elem)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("@%s = external %s%s [0 x %s]\n", llName(g.Name()), globalASPrefix(g), globalKind(g), e), nil
	}
	t, err := llTypeStr(vt)
	if err != nil {
		return "", err
	}
	as := ""
	if n := globalAS(g); n != 0 {
		as = fmt.Sprintf("addrspace(%d) ", n)
	}
	kind := "global"
	if g.ReadOnly {
		kind = "constant"
	}
	switch {
	case g.Init != nil:
		c, err := constStr(g.Init)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("@%s = %s%s %s %s\n", llName(g.Name()), as, kind, t, c), nil
	case g.Space == ir.SpaceGroupshared:
		return fmt.Sprintf("@%s = %s%s %s undef\n", llName(g.Name()), as, kind, t), nil
	case g.Space == ir.SpacePrivate || g.Space == ir.SpaceFunction:
		return fmt.Sprintf("@%s = %s%s %s zeroinitializer\n", llName(g.Name()), as, kind, t), nil
	}
	return fmt.Sprintf("@%s = external %s%s %s\n", llName(g.Name()), as, kind, t), nil
}

func (x *exporter) declareFunction(f *ir.Function) error {
	ret, err := llTypeStr(f.Ret)
	if err != nil {
		return err
	}
	var ps []string
	for _, p := range f.Params {
		t, err := llTypeStr(p.Type())
		if err != nil {
			return err
		}
		if p.Uniform {
			t += " inreg"
		}
		ps = append(ps, t)
	}
	x.addDecl(f.Name(), fmt.Sprintf("declare %s @%s(%s)\n", ret, llName(f.Name()), strings.Join(ps, ", ")))
	return nil
}

func (x *exporter) addDecl(name, line string) {
	if _, ok := x.decls[name]; ok {
		return
	}
	x.decls[name] = line
	x.declList = append(x.declList, name)
}

func (x *exporter) attrRef(attrs ...string) string {
	if len(attrs) == 0 {
		return ""
	}
	sort.Strings(attrs)
	key := strings.Join(attrs, " ")
	n, ok := x.attrSets[key]
	if !ok {
		n = len(x.attrList)
		x.attrSets[key] = n
		x.attrList = append(x.attrList, key)
	}
	return " #" + strconv.Itoa(n)
}

// entryCC is the calling convention for a passlens entry point.
func entryCC(f *ir.Function) string {
	if f.Entry == nil {
		return ""
	}
	switch f.Entry.Stage {
	case ir.StageCompute:
		return "amdgpu_cs "
	case ir.StagePixel:
		return "amdgpu_ps "
	case ir.StageVertex:
		return "amdgpu_vs "
	}
	return ""
}
