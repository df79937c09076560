package dxil

import "passlens/compiler/ir"

// pruneUnreachable drops the functions no entry point reaches through
// calls. After the dxil pipeline's inline pass the HLSL helpers are
// usually dead, and they may still have vector signatures, which DXIL
// cannot express; a DXIL container holds only what its entry points run.
// A module without entry points (a library) keeps every function.
func pruneUnreachable(m *ir.Module) {
	reach := map[*ir.Function]bool{}
	var work []*ir.Function
	for _, f := range m.Funcs {
		if f.Entry != nil {
			reach[f] = true
			work = append(work, f)
		}
	}
	if len(work) == 0 {
		return
	}
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Op == ir.OpCall && in.Callee != nil && !reach[in.Callee] {
					reach[in.Callee] = true
					work = append(work, in.Callee)
				}
			}
		}
	}
	kept := m.Funcs[:0]
	for _, f := range m.Funcs {
		if reach[f] {
			kept = append(kept, f)
		}
	}
	m.Funcs = kept
}
