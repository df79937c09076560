package lower

import (
	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
)

// Buffer methods beyond loads, stores and atomics (hlsl/appendbuf.go):
//
//   - Append(v) on an AppendStructuredBuffer: k = atomic add 1 on the
//     buffer's hidden counter ("<name>.counter", the IncrementCounter
//     counter), then buf[k] = v;
//   - Consume() on a ConsumeStructuredBuffer: k = (atomic add -1) - 1,
//     then buf[k];
//   - GetDimensions on every buffer: the element count is buf.length
//     (ir/buflen.go) — words times 4 for a byte address buffer, whose
//     count is in bytes — and a structured buffer's stride is its element
//     size in D3D's structured layout (each member at its natural
//     alignment, no 16-byte rule).
func (fl *fnLowerer) bufferMethod(x *hlsl.MethodCall, buf ir.Value, args []ir.Value) (ir.Value, bool) {
	m := x.Method
	rt := x.Recv.Type()
	name := exprName(x.Recv)
	switch m.Name {
	case "Append", "Consume":
		c := fl.counterOf(x.Recv)
		if m.Name == "Append" {
			k := fl.b.Atomic(ir.AtomicAdd, c, ir.ConstInt(ir.U32, 1), nil, name+".slot")
			p := fl.b.Access(buf, []ir.Value{k}, name+".p")
			fl.store(&place{ptr: p, t: rt.Elem, mem: true, name: name}, args[0])
			return nil, true
		}
		old := fl.b.Atomic(ir.AtomicAdd, c, ir.ConstInt(ir.U32, -1), nil, name+".count")
		k := fl.b.Binary(ir.OpSub, old, ir.ConstInt(ir.U32, 1), name+".slot")
		p := fl.b.Access(buf, []ir.Value{k}, name+".p")
		return fl.load(&place{ptr: p, t: rt.Elem, mem: true, name: name}), true
	case "GetDimensions":
		n := fl.b.Intrinsic("buf.length", ir.U32, []ir.Value{buf}, name+".length")
		if !rt.Resource.Templated() {
			n = fl.b.Binary(ir.OpMul, n, ir.ConstInt(ir.U32, 4), name+".bytes")
		}
		fl.storeOut(x.Args[0], n, hlsl.TypeUint)
		if len(x.Args) > 1 {
			fl.storeOut(x.Args[1], ir.ConstInt(ir.U32, int64(structuredStride(rt.Elem))), hlsl.TypeUint)
		}
		return nil, true
	}
	return nil, false
}

// structuredStride is the size of t in D3D's structured buffer layout:
// components at their natural alignment, a struct or array padded to its
// largest component alignment.
func structuredStride(t *hlsl.Type) int {
	size, _ := structuredSize(t)
	return size
}

// structuredSize returns t's size and alignment in the structured layout.
func structuredSize(t *hlsl.Type) (size, align int) {
	switch t.Kind {
	case hlsl.KindVector:
		s, a := structuredSize(t.Elem)
		return s * t.Len, a
	case hlsl.KindMatrix:
		s, a := structuredSize(t.Elem)
		return s * t.Rows * t.Cols, a
	case hlsl.KindArray:
		s, a := structuredSize(t.Elem)
		s = (s + a - 1) / a * a
		return s * max(t.Len, 0), a
	case hlsl.KindStruct:
		off, al := 0, 1
		for _, f := range t.Struct.Fields {
			s, a := structuredSize(f.Type)
			off = (off+a-1)/a*a + s
			al = max(al, a)
		}
		return (off + al - 1) / al * al, al
	case hlsl.KindBool:
		return 4, 4
	}
	if w := t.Width(); w > 0 {
		return w / 8, w / 8
	}
	return 4, 4
}

// counterBinding binds the counter global g of buffer v for Vulkan:
// [[vk::counter_binding(n)]] gives binding n in the buffer's set; without
// it the SPIR-V back end gives the counter the lowest free binding of the
// set (spirv.Bindings).
func counterBinding(g *ir.Global, v *hlsl.VarDecl) {
	if !v.Vk.HasCounterBinding {
		return
	}
	set := 0
	switch {
	case v.Vk.HasBinding:
		set = v.Vk.Set
	case v.Register != nil:
		set = v.Register.Space
	}
	g.VkSet, g.VkBinding = set, v.Vk.CounterBinding
}
