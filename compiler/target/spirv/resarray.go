package spirv

import (
	"passlens/compiler/analysis/uniformity"
	"passlens/compiler/ir"
)

// Resource arrays as arrayed descriptors. The IR keeps one global per
// element of a resource array (RWStructuredBuffer<int> Out[4] is @Out.0 …
// @Out.3, each marked `array "Out" k of 4`, ir.Global.Array), so the
// interpreter binds each element on its own. SPIR-V declares, as DXC
// does, one variable of OpTypeArray of the element's Block struct, image
// or sampler type at one binding (descriptor count = array length):
//
//   - a use of element k is OpAccessChain %Out k, emitted once per
//     function at the top of its first block (fn.elementPtr);
//   - a dynamic index is a chain of selects over the elements (the HLSL
//     lowering's resource arrays: `select (icmp eq %i, k), @Out.k, …` down
//     to the last element): when the chain names every element of one
//     array once and compares one index with each element's own index, it
//     is OpAccessChain %Out %i (the inner selects emit nothing). Where
//     the uniformity analysis finds the index divergent (it may differ
//     between the lanes executing the access, as with
//     NonUniformResourceIndex; the IR does not record that call, and
//     Vulkan requires the decoration wherever the index is not
//     dynamically uniform) the chain, the loads and the sampled images
//     through it are decorated NonUniform, with SPV_EXT_descriptor_indexing's
//     ShaderNonUniform and the *ArrayNonUniformIndexing capability of
//     the descriptor type. The
//     select chain yields the last element for an index past the end;
//     the access chain is then out of bounds, as DXC's is (HLSL leaves it
//     undefined).
//
// Other selects between elements (a chain that passes reshaped) still
// work: each candidate is its element's access chain. That is also what
// a device without the features gets (Options.NoNonUniformIndexing for a
// divergent index, NoImageArrayIndexing for any index into an image
// array: lavapipe in Mesa 22.3 has neither): storage buffers are
// selected as pointers (VariablePointersStorageBuffer), texture reads are
// emitted once per candidate (texture_select.go).

// resArrayKey identifies one resource array of a module.
type resArrayKey struct {
	name         string
	set, binding int // binding: the array's (element 0's); -1 unbound
	space        ir.AddrSpace
	n            int
}

// isArrayElement reports whether g is an element of a resource array
// that SPIR-V binds as an arrayed descriptor.
func isArrayElement(g *ir.Global) bool {
	return g.ArrayLen > 0 && !g.PushConstant && (g.Space == ir.SpaceStorage || g.Space == ir.SpaceUniform)
}

func arrayKey(g *ir.Global, set, binding int) resArrayKey {
	return resArrayKey{name: g.Array, set: set, binding: binding, space: g.Space, n: g.ArrayLen}
}

// arrayVar is the SPIR-V variable of a resource array.
type arrayVar struct {
	id      uint32
	elemPtr uint32 // pointer type of one element (to its Block, image or sampler)
	elem    uint32 // the element type
	sc      uint32
	// nonUniformCap is the capability a NonUniform index into the
	// array needs (storage/uniform buffer, sampled or storage image).
	nonUniformCap uint32
}

// SPV_EXT_descriptor_indexing capabilities (core in SPIR-V 1.5).
const (
	CapUniformBufferArrayNonUniformIndexing = 5306
	CapSampledImageArrayNonUniformIndexing  = 5307
	CapStorageBufferArrayNonUniformIndexing = 5308
	CapStorageImageArrayNonUniformIndexing  = 5309
)

func init() {
	capabilityNames[CapUniformBufferArrayNonUniformIndexing] = "UniformBufferArrayNonUniformIndexing"
	capabilityNames[CapSampledImageArrayNonUniformIndexing] = "SampledImageArrayNonUniformIndexing"
	capabilityNames[CapStorageBufferArrayNonUniformIndexing] = "StorageBufferArrayNonUniformIndexing"
	capabilityNames[CapStorageImageArrayNonUniformIndexing] = "StorageImageArrayNonUniformIndexing"
}

// arrayElementVar makes gv, the gvar of element g of a resource array
// bound at b, point into the array's variable, declaring that on the
// first element (elem: the element's type id in storage class sc).
func (e *enc) arrayElementVar(gv *gvar, elem, sc uint32, b Binding) {
	g := gv.g
	key := arrayKey(g, b.Set, b.Binding)
	av := e.resArrays[key]
	if av == nil {
		at := e.id()
		e.globals.inst(OpTypeArray, at, elem, e.uintConst(uint32(g.ArrayLen)))
		av = &arrayVar{id: e.id(), elemPtr: e.pointerType(sc, elem), elem: elem, sc: sc}
		switch {
		case ir.IsRWTextureGlobal(g):
			av.nonUniformCap = CapStorageImageArrayNonUniformIndexing
		case ir.IsImageGlobal(g):
			av.nonUniformCap = CapSampledImageArrayNonUniformIndexing
		case g.Space == ir.SpaceUniform:
			av.nonUniformCap = CapUniformBufferArrayNonUniformIndexing
		default:
			av.nonUniformCap = CapStorageBufferArrayNonUniformIndexing
		}
		e.globals.inst(OpVariable, e.pointerType(sc, at), av.id, sc)
		e.name(av.id, g.Array)
		e.annots.inst(OpDecorate, av.id, DecDescriptorSet, uint32(b.Set))
		e.annots.inst(OpDecorate, av.id, DecBinding, uint32(b.Binding))
		if e.resArrays == nil {
			e.resArrays = map[resArrayKey]*arrayVar{}
		}
		e.resArrays[key] = av
	}
	gv.arr = av
	if gv.root != 0 {
		gv.root = av.elem // elements of a ConstantBuffer<T> array have one struct each: use the array's
	}
	e.gvars[g] = gv
}

// globalPtr returns the pointer id of a declared global in this
// function: its variable, or for a resource array element the access
// chain to it.
func (fe *fn) globalPtr(gv *gvar) uint32 {
	if gv.arr == nil {
		return gv.id
	}
	if id, ok := fe.elems[gv.g]; ok {
		return id
	}
	id := fe.e.id()
	fe.elemSec.inst(OpAccessChain, gv.arr.elemPtr, id, gv.arr.id, fe.e.uintConst(uint32(gv.g.ArrayIndex)))
	if fe.elems == nil {
		fe.elems = map[*ir.Global]uint32{}
	}
	fe.elems[gv.g] = id
	return id
}

// arraySelect is a select chain recognised as a dynamic index.
type arraySelect struct {
	rep        *ir.Global // an element (the chain's last)
	idx        ir.Value
	nonUniform bool // the index is divergent
}

// findArraySelects records the function's dynamic indices into resource
// arrays (fn.arraySels) and the inner selects of their chains that
// nothing else uses (fn.skipSels: they emit nothing).
func (fe *fn) findArraySelects() {
	users := map[ir.Value][]*ir.Instr{}
	var sels []*ir.Instr
	for _, b := range fe.f.Blocks {
		for _, in := range b.Instrs {
			for _, a := range in.Args {
				users[a] = append(users[a], in)
			}
			if in.Op == ir.OpSelect && in.Type().Kind == ir.KPointer {
				sels = append(sels, in)
			}
		}
	}
	fe.arraySels = map[ir.Value]arraySelect{}
	fe.skipSels = map[*ir.Instr]bool{}
	for _, s := range sels {
		ri, ok := ir.MatchResourceArrayIndex(s)
		if !ok || !isArrayElement(ri.Last) {
			continue
		}
		as, inner := arraySelect{rep: ri.Last, idx: ri.Index}, ri.Inner
		as.nonUniform = fe.isDivergent(as.idx)
		if as.nonUniform && fe.e.opts.NoNonUniformIndexing || ir.IsImageGlobal(as.rep) && fe.e.opts.NoImageArrayIndexing {
			continue // selected between the elements
		}
		fe.arraySels[s] = as
		parent := s
		for _, in := range inner {
			us := users[in]
			if len(us) != 1 || us[0] != parent {
				break
			}
			fe.skipSels[in] = true
			parent = in
		}
	}
}

// arrayIndexPtr emits a recognised dynamic index sel into a resource
// array: OpAccessChain into the array's variable, decorated NonUniform.
func (fe *fn) arrayIndexPtr(sel *ir.Instr, as arraySelect) error {
	e := fe.e
	gv := e.gvars[as.rep]
	if gv == nil || gv.arr == nil {
		return fe.fail("global @%s was not declared as a resource array element", as.rep.Name())
	}
	ix, err := fe.value(as.idx)
	if err != nil {
		return err
	}
	res := fe.resultID(sel)
	fe.op(OpAccessChain, gv.arr.elemPtr, res, gv.arr.id, ix)
	if as.nonUniform {
		e.capability(CapShaderNonUniform)
		e.capability(gv.arr.nonUniformCap)
		e.annots.inst(OpDecorate, res, DecNonUniform)
	}
	g := as.rep
	fe.ptrs[sel] = &ptrInfo{sc: gv.sc, rule: gv.rule, wrapped: gv.wrapped, ptype: gv.arr.elemPtr, nonUniform: as.nonUniform,
		ro: g.Space == ir.SpaceUniform || g.ReadOnly}
	if gv.root != 0 && !gv.wrapped {
		fe.ptrs[sel].root = gv.root
	}
	return nil
}

// imageRef resolves a texture or sampler operand: its global (an element
// for a dynamic index into an array), the pointer to load it from, and
// whether that pointer is NonUniform.
func (fe *fn) imageRef(v ir.Value, sampler bool) (*ir.Global, uint32, bool, error) {
	if as, ok := fe.arraySels[v]; ok {
		if ir.IsSamplerKind(as.rep.Kind) != sampler {
			_, err := fe.imageGlobal(as.rep, sampler)
			return nil, 0, false, err
		}
		return as.rep, fe.resultID(v.(*ir.Instr)), as.nonUniform, nil
	}
	g, err := fe.imageGlobal(v, sampler)
	if err != nil {
		return nil, 0, false, err
	}
	gv := fe.e.gvars[g]
	if gv == nil {
		return nil, 0, false, fe.fail("global @%s was not declared", g.Name())
	}
	return g, fe.globalPtr(gv), false, nil
}

// nonUniform decorates id NonUniform when nu is set.
func (fe *fn) nonUniform(id uint32, nu bool) uint32 {
	if nu {
		fe.e.annots.inst(OpDecorate, id, DecNonUniform)
	}
	return id
}

// CapRuntimeDescriptorArray is SPV_EXT_descriptor_indexing's capability
// for OpTypeRuntimeArray of descriptors.
const CapRuntimeDescriptorArray = 5302

func init() { capabilityNames[CapRuntimeDescriptorArray] = "RuntimeDescriptorArray" }

// unboundedVar declares the variable of an unbounded resource array
// (ir.UnboundedArray): OpTypeRuntimeArray of the element's Block, or an
// OpTypeArray of Options.UnboundedArrayLen elements for a device without
// runtime descriptor arrays. The global itself is element 0.
func (e *enc) unboundedVar(gv *gvar, elem, sc uint32, b Binding) {
	g := gv.g
	at := e.id()
	if n := e.opts.UnboundedArrayLen; n > 0 {
		e.globals.inst(OpTypeArray, at, elem, e.uintConst(uint32(n)))
	} else {
		e.globals.inst(OpTypeRuntimeArray, at, elem)
		e.capability(CapRuntimeDescriptorArray)
	}
	av := &arrayVar{id: e.id(), elemPtr: e.pointerType(sc, elem), elem: elem, sc: sc, nonUniformCap: CapStorageBufferArrayNonUniformIndexing}
	e.globals.inst(OpVariable, e.pointerType(sc, at), av.id, sc)
	e.name(av.id, g.Array)
	e.annots.inst(OpDecorate, av.id, DecDescriptorSet, uint32(b.Set))
	e.annots.inst(OpDecorate, av.id, DecBinding, uint32(b.Binding))
	gv.arr = av
	e.gvars[g] = gv
}

// resIndex emits res.index(@Buf, i): OpAccessChain %Buf %i, NonUniform
// where i is divergent. On a device without non-uniform indexing a
// divergent i selects between the elements' constant-index chains
// (Options.UnboundedArrayLen of them).
func (fe *fn) resIndex(in *ir.Instr) error {
	e := fe.e
	g, ok := in.Args[0].(*ir.Global)
	if !ok || g.ArrayLen != ir.UnboundedArray || e.gvars[g] == nil || e.gvars[g].arr == nil {
		return fe.fail("res.index of %s: not a declared unbounded resource array", in.Args[0].Ref())
	}
	gv := e.gvars[g]
	if _, err := fe.typ(in.Args[1].Type()); err != nil {
		return err
	}
	ix, err := fe.value(in.Args[1])
	if err != nil {
		return err
	}
	_, isConst := in.Args[1].(*ir.Const)
	divergent := !isConst && fe.isDivergent(in.Args[1])
	res := fe.resultID(in)
	pi := &ptrInfo{sc: gv.sc, rule: gv.rule, wrapped: gv.wrapped, ptype: gv.arr.elemPtr, nonUniform: divergent, ro: g.ReadOnly}
	if gv.root != 0 && !gv.wrapped {
		pi.root = gv.root
	}
	fe.ptrs[in] = pi
	if divergent && e.opts.NoNonUniformIndexing {
		n := e.opts.UnboundedArrayLen
		if n <= 0 {
			return fe.fail("a divergent index into the unbounded resource array @%s: the device has neither non-uniform descriptor indexing nor a known element count (Options.UnboundedArrayLen)", g.Name())
		}
		boolT := e.mustType(ir.Bool, rulePlain)
		e.capability(CapVariablePointersStorageBuffer)
		e.capability(CapShaderNonUniform)
		it := in.Args[1].Type()
		p := fe.op(OpAccessChain, gv.arr.elemPtr, 0, gv.arr.id, e.uintConst(uint32(n-1)))
		for k := n - 2; k >= 0; k-- {
			c := fe.op(OpIEqual, boolT, 0, ix, e.constOf(ir.ConstInt(it, int64(k))))
			ck := fe.op(OpAccessChain, gv.arr.elemPtr, 0, gv.arr.id, e.uintConst(uint32(k)))
			dst := uint32(0)
			if k == 0 {
				dst = res
			}
			p = fe.op(OpSelect, gv.arr.elemPtr, dst, c, ck, p)
			e.annots.inst(OpDecorate, p, DecNonUniform)
		}
		if n == 1 {
			fe.op(OpCopyObject, gv.arr.elemPtr, res, p)
		}
		return nil
	}
	fe.op(OpAccessChain, gv.arr.elemPtr, res, gv.arr.id, ix)
	if divergent {
		e.capability(CapShaderNonUniform)
		e.capability(gv.arr.nonUniformCap)
		e.annots.inst(OpDecorate, res, DecNonUniform)
	}
	return nil
}

// isDivergent reports whether v may differ between the lanes of f (the
// uniformity analysis, computed once per function).
func (fe *fn) isDivergent(v ir.Value) bool {
	if fe.unif == nil {
		fe.unif = uniformity.Uniformity(fe.f)
	}
	return fe.unif.IsDivergent(v)
}
