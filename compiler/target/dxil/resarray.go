package dxil

import (
	"passlens/compiler/analysis/uniformity"
	"passlens/compiler/ir"
	"passlens/compiler/llvm"
)

// Resource arrays. The IR has one global per element of a resource
// array (ir.Global.Array); DXIL, as DXC emits it, has one resource range
// per array: every element's createHandle names the array's range id and
// the element's register (the array's first register + k) as its index.
// A dynamic index (the select chain ir.MatchResourceArrayIndex
// recognises) is one createHandle whose index operand is first register
// + i, with the NonUniformIndex flag set when the uniformity analysis
// finds i divergent (the IR does not record NonUniformResourceIndex; a
// divergent index needs the flag, as DXIL requires it wherever the index
// is not uniform). Storage buffers stay LLVM globals read through
// pointers (docs/dxil.md), so a dynamic index into a buffer array is
// still a select between the element globals there.

// rangeIndex is g's resource range id among the module's globals for
// which in holds, in module order, all elements of one array counting as
// one range.
func rangeIndex(m *ir.Module, g *ir.Global, in func(*ir.Global) bool) int {
	if m == nil {
		return 0
	}
	n := 0
	var firsts []*ir.Global
	ids := map[*ir.Global]int{}
	for _, o := range m.Globals {
		if o != g && !in(o) {
			continue
		}
		id := -1
		if o.ArrayLen > 0 {
			for _, f := range firsts {
				if ir.SameResourceArray(f, o) {
					id = ids[f]
					break
				}
			}
			if id < 0 {
				firsts = append(firsts, o)
				ids[o] = n
			}
		}
		if id < 0 {
			id = n
			n++
		}
		if o == g {
			return id
		}
	}
	return n
}

// handleClass is a texture's or sampler's resource class.
func handleClass(g *ir.Global) int {
	switch {
	case ir.IsRWTextureGlobal(g):
		return classUAV
	case ir.IsSamplerKind(g.Kind):
		return classSampler
	}
	return classSRV
}

// textureRange is the range id of a texture or sampler global: among the
// samplers, the read-only textures, or (UAVs) the writable storage
// globals.
func (lw *lowerer) textureRange(g *ir.Global) int {
	var in func(o *ir.Global) bool
	switch handleClass(g) {
	case classUAV:
		in = func(o *ir.Global) bool { return o.Space == ir.SpaceStorage && !o.ReadOnly && !ir.IsSamplerKind(o.Kind) }
	case classSampler:
		in = func(o *ir.Global) bool { return ir.IsImageGlobal(o) && ir.IsSamplerKind(o.Kind) }
	default:
		in = func(o *ir.Global) bool { return ir.IsImageGlobal(o) && !ir.IsSamplerKind(o.Kind) }
	}
	return rangeIndex(lw.f.Module, g, in)
}

// arrayHandle emits createHandle for the dynamic index sel into a
// resource array: the array's range, index first register + i.
func (lw *lowerer) arrayHandle(sel *ir.Instr, ri ir.ResourceArrayIndex, class int, rangeOf func(*ir.Global) int) ir.Value {
	g := ri.Last
	idx := ri.Index
	switch t := idx.Type(); {
	case t.Bits > 32:
		idx = lw.bd.Cast(ir.OpTrunc, idx, ir.U32, sel.Name()+".idx")
	case t.Bits < 32:
		idx = lw.bd.Cast(ir.OpZExt, idx, ir.U32, sel.Name()+".idx")
	}
	if base := max(g.Binding, 0) - g.ArrayIndex; base > 0 {
		idx = lw.bd.Binary(ir.OpAdd, idx, ir.ConstInt(idx.Type(), int64(base)), sel.Name()+".idx")
	}
	args := []ir.Value{ir.ConstInt(ir.I32, opCreateHandle), i8(class), ir.ConstInt(ir.I32, int64(rangeOf(g))),
		idx, ir.ConstBool(ir.Bool, lw.nonUniform[sel])}
	llvm.RegisterExternalIntrinsic("dx.op.createHandle", ir.AttrPure, len(args))
	return lw.bd.Intrinsic("dx.op.createHandle", lw.handleType(), args, g.Array+".handle")
}

// nonUniformIndices finds, in every function of m, the dynamic indices
// into resource arrays whose index is divergent (before the system
// values become dx.op calls the analysis does not know).
func nonUniformIndices(m *ir.Module) map[*ir.Instr]bool {
	out := map[*ir.Instr]bool{}
	for _, f := range m.Funcs {
		var u *uniformity.UniformityInfo
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Op != ir.OpSelect || in.Type().Kind != ir.KPointer {
					continue
				}
				ri, ok := ir.MatchResourceArrayIndex(in)
				if !ok {
					continue
				}
				if u == nil {
					u = uniformity.Uniformity(f)
				}
				out[in] = u.IsDivergent(ri.Index)
			}
		}
	}
	return out
}

// lowerUnboundedArrays rewrites each unbounded resource array
// (ir.UnboundedArray: one global, its elements reached by res.index) as
// a global of an array of its buffers, @Buf = external addrspace(1)
// global [0 x [0 x i32]], and res.index(@Buf, i) as the access of
// element i: buffers are memory in this output, so the index is an
// address computation where DXC makes a handle (createHandle with the
// index) that this output has no counterpart for.
func lowerUnboundedArrays(m *ir.Module) {
	repl := map[*ir.Global]*ir.Global{}
	for i, g := range m.Globals {
		if g.ArrayLen != ir.UnboundedArray {
			continue
		}
		ng := ir.NewGlobal(g.Name(), g.Space, ir.Array(g.ValType, -1))
		ng.Set, ng.Binding, ng.VkSet, ng.VkBinding = g.Set, g.Binding, g.VkSet, g.VkBinding
		ng.ReadOnly, ng.Kind, ng.Loc = g.ReadOnly, g.Kind, g.Loc
		m.Globals[i] = ng
		repl[g] = ng
	}
	if len(repl) == 0 {
		return
	}
	for _, f := range m.Funcs {
		bd := ir.NewBuilder(f)
		for _, b := range f.Blocks {
			for _, in := range append([]*ir.Instr(nil), b.Instrs...) {
				if in.Op == ir.OpIntrinsic && in.Intr != nil && in.Intr.Name == ir.ResIndex {
					if g, ok := in.Args[0].(*ir.Global); ok && repl[g] != nil {
						bd.SetBefore(in)
						a := bd.Access(repl[g], []ir.Value{in.Args[1]}, in.Name())
						f.ReplaceUses(map[ir.Value]ir.Value{in: a})
						in.Remove()
					}
				}
			}
		}
	}
}
