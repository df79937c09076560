package interp

// This file creates the run-wide resources from the input: storage buffers
// (sized and filled from Input.Buffers), uniform globals (Input.Uniforms),
// and copies the buffers into the result at the end.

import (
	"fmt"
	"sort"
	"strings"

	"passlens/compiler/ir"
)

// elemOf returns the element type and count of a storage global's value
// type: [? x T] and [N x T] are arrays of T, anything else one element.
func elemOf(t *ir.Type) (*ir.Type, int, bool) {
	if t.Kind == ir.KArray {
		return t.Elem, t.Len, t.Len < 0
	}
	return t, 1, false
}

// resources creates storage and uniform objects from the input.
func (mc *machine) resources(in *Input, invocations int) error {
	used := make([]bool, len(in.Buffers))
	for i := range in.Buffers {
		// Buffers for an entry point's parameters are kernelArgs's.
		used[i] = isArgBuffer(mc.entry, &in.Buffers[i])
	}
	for gi, g := range mc.globals {
		switch {
		case ir.IsImageGlobal(g):
			// bindImages.
		case g.Space == ir.SpaceStorage:
			elem, count, runtime := elemOf(g.ValType)
			tailed := runtimeElem(elem) != nil // ends in a runtime array (ByteAddressBuffer-like struct)
			if hasRuntimeArray(elem) && (runtime || !tailed) {
				return &Error{Msg: fmt.Sprintf("storage global @%s: a runtime-sized array inside %s is only supported as its last member", g.Name(), g.ValType), Err: ErrUnsupported}
			}
			var bi *BufferInput
			unbounded := g.ArrayLen == ir.UnboundedArray
			for i := range in.Buffers {
				b := &in.Buffers[i]
				if b.Name != "" && b.Name == g.Name() || unbounded && b.Name == g.Name()+".0" || b.Name == "" && b.Binding != nil && *b.Binding == g.Binding && (b.Set == nil && g.Set <= 0 || b.Set != nil && *b.Set == g.Set) {
					if used[i] {
						continue
					}
					bi, used[i] = b, true
					break
				}
			}
			count, err := bufferCount("buffer @"+g.Name(), bi, elem, count, runtime, invocations)
			if err != nil {
				return err
			}
			tail := 0
			if tailed {
				tail = max(DefaultBufferCount, invocations)
				if bi != nil && bi.Tail > 0 {
					tail = bi.Tail
				} else if bi != nil && len(bi.Data) > 0 {
					tail = inferTail(elem, bi.Data)
				}
				if tail > maxInvocations*4 {
					return inputErr("buffer @%s: a tail of %d elements is too long", g.Name(), tail)
				}
			} else if bi != nil && bi.Tail > 0 {
				return inputErr("buffer @%s: tail given but %s does not end in a runtime-sized array", g.Name(), elem)
			}
			size := cellsFor(g.ValType, tail)
			if runtime {
				size = cellsFor(g.ValType, count)
			}
			p := mc.mem.allocCells(size, g.ValType, g.Space, "@"+g.Name())
			o := mc.mem.objs[ptrObj(p)]
			o.ro = g.ReadOnly
			if bi != nil && len(bi.Data) > 0 {
				if err := fillBuffer(o.cells, elem, count, cellsFor(elem, tail), bi.Data, "buffer @"+g.Name()); err != nil {
					return &Error{Msg: err.Error(), Err: ErrInput}
				}
			}
			mc.shared[gi] = p
			if unbounded {
				if err := mc.unboundedElements(g, o, in, used, invocations); err != nil {
					return err
				}
			}
		case g.Space == ir.SpaceUniform:
			p := mc.mem.alloc(g.ValType, 0, g.Space, "@"+g.Name())
			o := mc.mem.objs[ptrObj(p)]
			o.ro = true
			if g.Init != nil {
				fillConst(g.Init, o.cells)
			}
			mc.shared[gi] = p
		}
	}
	for i, u := range used {
		if !u {
			b := in.Buffers[i]
			who := b.Name
			if who == "" && b.Binding != nil {
				set := 0
				if b.Set != nil {
					set = *b.Set
				}
				who = fmt.Sprintf("binding %d set %d", *b.Binding, set)
			}
			if len(mc.entry.Params) > 0 {
				return inputErr("buffer %q matches no storage global and no pointer parameter of @%s (name a global, or give a parameter's name or arg index)", who, mc.entry.Name())
			}
			return inputErr("buffer %q matches no storage global of the module", who)
		}
	}
	if err := mc.bindImages(in); err != nil {
		return err
	}
	return mc.uniforms(in)
}

func hasRuntimeArray(t *ir.Type) bool {
	return t.Contains(func(u *ir.Type) bool { return u.Kind == ir.KArray && u.Len < 0 })
}

// inferTail finds the length of the trailing runtime array of a
// ByteAddressBuffer-like struct from its data: the length of the runtime
// member's list, or what a flat list of scalars leaves for it.
func inferTail(elem *ir.Type, data []any) int {
	e := slots(runtimeElem(elem))
	if allScalars(data) {
		if e == 0 {
			return 0
		}
		return max(0, (len(data)-slots(elem)+e-1)/e)
	}
	if len(data) != 1 || elem.Kind != ir.KStruct {
		return 0
	}
	last := elem.Fields[len(elem.Fields)-1]
	var v any
	if m, ok := asMap(data[0]); ok {
		v = m[last.Name]
	} else if l, ok := asList(data[0]); ok && len(l) == len(elem.Fields) {
		v = l[len(l)-1]
	}
	if l, ok := asList(v); ok {
		if inner := runtimeElem(last.Type); last.Type.Kind == ir.KStruct && inner != nil {
			return inferTail(last.Type, []any{v})
		}
		return len(l)
	}
	return 0
}

// fillBuffer converts buffer data (count elements of n cells each): one
// value per element, or a flat list of scalars.
func fillBuffer(cells []uint64, elem *ir.Type, count, n int, data []any, what string) error {
	if allScalars(data) && n > 1 {
		if len(data) > count*n {
			return fmt.Errorf("%s: %d scalars for %d elements of %s", what, len(data), count, elem)
		}
		leaves := leafTypes(elem, tailLen(elem, n), nil)
		for i, x := range data {
			c, err := scalarFromValue(x, leaves[i%n], fmt.Sprintf("%s[%d]", what, i/n))
			if err != nil {
				return err
			}
			cells[i] = c
		}
		return nil
	}
	if len(data) > count {
		return fmt.Errorf("%s: %d values for %d elements", what, len(data), count)
	}
	for i, x := range data {
		if err := fillValue(x, elem, cells[i*n:(i+1)*n], fmt.Sprintf("%s[%d]", what, i)); err != nil {
			return err
		}
	}
	return nil
}

// uniforms applies Input.Uniforms: "name" sets a uniform global, "name.m"
// or "m" a member of a uniform struct global.
func (mc *machine) uniforms(in *Input) error {
	// Whole globals first, then members (so "cb" then "cb.x" composes),
	// each in sorted order.
	keys := make([]string, 0, len(in.Uniforms))
	for k := range in.Uniforms {
		keys = append(keys, k)
	}
	sort.SliceStable(keys, func(i, j int) bool {
		wi, wj := mc.isUniformGlobal(keys[i]), mc.isUniformGlobal(keys[j])
		if wi != wj {
			return wi
		}
		return keys[i] < keys[j]
	})
	for _, key := range keys {
		v := in.Uniforms[key]
		type hit struct {
			gi  int
			off int
			t   *ir.Type
		}
		var hits []hit
		for gi, g := range mc.globals {
			if g.Space != ir.SpaceUniform {
				continue
			}
			if key == g.Name() {
				hits = append(hits, hit{gi, 0, g.ValType})
				continue
			}
			if g.ValType.Kind != ir.KStruct {
				continue
			}
			member := key
			if rest, ok := strings.CutPrefix(key, g.Name()+"."); ok {
				member = rest
			}
			if i := fieldIndex(g.ValType, member); i >= 0 {
				off, ft, _ := component(g.ValType, i)
				hits = append(hits, hit{gi, off, ft})
			}
		}
		switch len(hits) {
		case 0:
			return inputErr("uniform %q matches no uniform global or member", key)
		case 1:
		default:
			return inputErr("uniform %q is ambiguous: qualify it as global.member", key)
		}
		h := hits[0]
		cells, err := fromValue(v, h.t, "uniform "+key)
		if err != nil {
			return &Error{Msg: err.Error(), Err: ErrInput}
		}
		o := mc.mem.objs[ptrObj(mc.shared[h.gi])]
		copy(o.cells[h.off:], cells)
	}
	return nil
}

func (mc *machine) isUniformGlobal(name string) bool {
	for _, g := range mc.globals {
		if g.Space == ir.SpaceUniform && g.Name() == name {
			return true
		}
	}
	return false
}

// collectBuffers copies every storage global (but read-only textures and
// samplers) into the result; a read-write texture is a buffer of its
// texels (rwtexture.go).
func (mc *machine) collectBuffers() {
	for gi, g := range mc.globals {
		if g.Space != ir.SpaceStorage || ir.IsImageGlobal(g) && !ir.IsRWTextureGlobal(g) {
			continue
		}
		if ir.IsRWTextureGlobal(g) {
			o := mc.mem.objs[ptrObj(mc.shared[gi])]
			mc.result.Buffers = append(mc.result.Buffers, Buffer{Name: g.Name(), Set: g.Set, Binding: g.Binding,
				Elem: g.ValType, Count: len(o.cells) / max(1, slots(g.ValType)), Cells: append([]uint64(nil), o.cells...)})
			continue
		}
		if g.ArrayLen == ir.UnboundedArray {
			mc.collectUnbounded(g, mc.shared[gi])
			continue
		}
		o := mc.mem.objs[ptrObj(mc.shared[gi])]
		elem, _, runtime := elemOf(g.ValType)
		b := Buffer{Name: g.Name(), Set: g.Set, Binding: g.Binding, Elem: elem, Count: 1,
			Cells: append([]uint64(nil), o.cells...)}
		if runtime {
			b.Count = len(o.cells) / max(1, slots(elem))
		} else if g.ValType.Kind == ir.KArray {
			b.Count = g.ValType.Len
		} else {
			b.Tail = tailLen(elem, len(o.cells))
		}
		mc.result.Buffers = append(mc.result.Buffers, b)
	}
}

// bufferCount checks a buffer's input against its element type and gives
// its element count: for a runtime-sized buffer the input's count, else
// its data's length (in elements when the data are flat scalars), else
// max(DefaultBufferCount, invocations); for a sized one its own count,
// which the input may only repeat. what names the buffer in errors.
func bufferCount(what string, bi *BufferInput, elem *ir.Type, count int, runtime bool, invocations int) (int, error) {
	if bi != nil && bi.Type != "" && bi.Type != elem.String() {
		return 0, inputErr("%s: input says element type %s, the module has %s", what, bi.Type, elem)
	}
	if !runtime {
		if bi != nil && bi.Count > 0 && bi.Count != count {
			return 0, inputErr("%s has %d elements, input says %d", what, count, bi.Count)
		}
		return count, nil
	}
	count = max(DefaultBufferCount, invocations)
	if bi != nil {
		switch {
		case bi.Count > 0:
			count = bi.Count
		case len(bi.Data) > 0:
			count = len(bi.Data)
			if allScalars(bi.Data) && slots(elem) > 1 && len(bi.Data)%slots(elem) == 0 {
				count = len(bi.Data) / slots(elem)
			}
		}
	}
	if count > maxInvocations*4 {
		return 0, inputErr("%s: %d elements is too many", what, count)
	}
	return count, nil
}
