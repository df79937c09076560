package dxil

import (
	"strings"

	"passlens/compiler/ir"
)

// sysValueOps maps compute system-value semantics to the DXIL operation
// that reads them: component k of SV_DispatchThreadID is
// dx.op.threadId.i32(i32 93, i32 k), and so on; SV_GroupIndex is a scalar
// read with dx.op.flattenedThreadIdInGroup.i32(i32 96).
var sysValueOps = map[string]opSpec{
	"SV_DISPATCHTHREADID": {opThreadID, "threadId", true},
	"SV_GROUPID":          {opGroupID, "groupId", true},
	"SV_GROUPTHREADID":    {opThreadIDInGroup, "threadIdInGroup", true},
	"SV_GROUPINDEX":       {opFlattenedThreadIDInGroup, "flattenedThreadIdInGroup", true},
}

// lowerSysValues replaces loads of compute system-value inputs (after
// scalarization: a load of "access @g, k" or of a scalar @g) by the
// dx.op call that reads them, and drops the globals that lose every use.
// Other stage inputs and outputs stay global loads/stores (docs/dxil.md).
func lowerSysValues(m *ir.Module) error {
	sys := map[*ir.Global]opSpec{}
	for _, g := range m.Globals {
		if g.Space != ir.SpaceInput {
			continue
		}
		if s, ok := sysValueOps[strings.ToUpper(g.Semantic)]; ok {
			sys[g] = s
		}
	}
	if len(sys) == 0 {
		return nil
	}
	for _, f := range m.Funcs {
		lw := &lowerer{f: f, bd: ir.NewBuilder(f)}
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Op != ir.OpLoad || !in.Type().IsIntegral() {
					continue
				}
				var g *ir.Global
				comp := int64(-1)
				switch p := in.Args[0].(type) {
				case *ir.Global:
					g = p
				case *ir.Instr:
					if p.Op == ir.OpAccess && len(p.Args) == 2 {
						if c, ok := p.Args[1].(*ir.Const); ok && c.Type().IsIntegral() {
							g, _ = p.Args[0].(*ir.Global)
							comp = int64(c.Bits)
						}
					}
				}
				s, ok := sys[g]
				if !ok {
					continue
				}
				var args []ir.Value
				if s.code != opFlattenedThreadIDInGroup {
					if comp < 0 {
						comp = 0
					}
					args = []ir.Value{ir.ConstInt(ir.I32, comp)}
				}
				in.Op = ir.OpIntrinsic
				if err := lw.dxCall(in, s, in.Type(), args); err != nil {
					return err
				}
			}
		}
		removeDead(f)
	}
	dropUnused(m, sys)
	return nil
}

// removeDead deletes access and construct instructions left without users.
func removeDead(f *ir.Function) {
	for {
		used := map[ir.Value]bool{}
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				for _, a := range in.Args {
					used[a] = true
				}
			}
		}
		changed := false
		for _, b := range f.Blocks {
			for _, in := range append([]*ir.Instr(nil), b.Instrs...) {
				if (in.Op == ir.OpAccess || in.Op == ir.OpConstruct) && !used[in] {
					in.Remove()
					changed = true
				}
			}
		}
		if !changed {
			return
		}
	}
}

// dropUnused removes the system-value globals no instruction uses any more.
func dropUnused(m *ir.Module, sys map[*ir.Global]opSpec) {
	used := map[ir.Value]bool{}
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				for _, a := range in.Args {
					used[a] = true
				}
			}
		}
	}
	kept := m.Globals[:0]
	for _, g := range m.Globals {
		if _, isSys := sys[g]; isSys && !used[g] {
			continue
		}
		kept = append(kept, g)
	}
	m.Globals = kept
}
