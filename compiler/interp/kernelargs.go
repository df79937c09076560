package interp

import (
	"fmt"
	"sort"
	"strconv"

	"passlens/compiler/ir"
)

// This file feeds the parameters of an entry point that has them: LLVM
// kernels (amdgpu_kernel, spir_kernel, amdgpu_cs functions imported by
// compiler/llvm) take their buffers and scalars as arguments rather than
// as globals. A pointer parameter to storage or uniform memory is a buffer
// of its own, created once per run like a storage global and bound from
// Input.Buffers by BufferInput.Arg (the parameter's index) or Name (the
// parameter's name); any other parameter is a scalar (or vector) from
// Input.Args by name or index. Every lane receives the same values.

// argBuffer is a buffer created for a pointer parameter.
type argBuffer struct {
	param int
	ptr   uint64
	elem  *ir.Type
}

// kernelArgs creates the parameters' values: one run of cells per
// parameter, the same for every lane.
func (mc *machine) kernelArgs(f *ir.Function, in *Input, invocations int) ([][]uint64, error) {
	vals := make([][]uint64, len(f.Params))
	used := make([]bool, len(in.Buffers))
	for i := range in.Buffers {
		// Buffers for globals were matched by resources.
		used[i] = !isArgBuffer(f, &in.Buffers[i])
	}
	usedArg := map[string]bool{}
	for pi, p := range f.Params {
		t := p.Type()
		if t.Kind != ir.KPointer {
			v, key, err := argValue(p, in.Args)
			if err != nil {
				return nil, &Error{Func: f.Name(), Err: ErrInput, Msg: err.Error()}
			}
			usedArg[key] = key != ""
			vals[pi] = v
			continue
		}
		var bi *BufferInput
		for i := range in.Buffers {
			b := &in.Buffers[i]
			if !used[i] && (b.Arg != nil && *b.Arg == pi || b.Arg == nil && b.Name == p.Name()) {
				bi, used[i] = b, true
				break
			}
		}
		if t.Space == ir.SpaceGroupshared {
			// A __local pointer: fresh zeroed memory in every group.
			la, err := mc.localArg(f, pi, t.Elem, bi)
			if err != nil {
				return nil, err
			}
			mc.localArgs = append(mc.localArgs, la)
			continue
		}
		if t.Space != ir.SpaceStorage && t.Space != ir.SpaceUniform {
			return nil, &Error{Func: f.Name(), Err: ErrUnsupported,
				Msg: fmt.Sprintf("parameter %s points to %s memory; only global (storage), constant (uniform) and local (groupshared) buffers can be passed to a kernel", p.Ref(), t.Space)}
		}
		p, err := mc.argBuffer(f, pi, t.Elem, bi, invocations)
		if err != nil {
			return nil, err
		}
		vals[pi] = []uint64{p}
	}
	for i, u := range used {
		if !u {
			b := in.Buffers[i]
			who := fmt.Sprintf("%q", b.Name)
			if b.Arg != nil {
				who = fmt.Sprintf("for argument %d", *b.Arg)
			}
			return nil, inputErr("buffer %s matches no storage global and no pointer parameter of @%s", who, f.Name())
		}
	}
	keys := make([]string, 0, len(in.Args))
	for key := range in.Args {
		keys = append(keys, key)
	}
	sort.Strings(keys) // the first unknown key, whatever the map order
	for _, key := range keys {
		if !usedArg[key] {
			return nil, inputErr("args: %q names no scalar parameter of @%s", key, f.Name())
		}
	}
	return vals, nil
}

// isArgBuffer reports whether buffer input b is for a parameter of entry
// point f rather than a storage global: it gives Arg, or its Name is a
// parameter's name.
func isArgBuffer(f *ir.Function, b *BufferInput) bool {
	if b.Arg != nil {
		return true
	}
	if b.Name == "" {
		return false
	}
	for _, p := range f.Params {
		if p.Name() == b.Name {
			return true
		}
	}
	return false
}

// argValue finds a scalar parameter's value in args by name, else by
// index; without one it is zero. key is the args key used.
func argValue(p *ir.Param, args map[string]any) ([]uint64, string, error) {
	key := p.Name()
	v, ok := args[key]
	if !ok {
		key = strconv.Itoa(p.Index)
		v, ok = args[key]
	}
	if !ok {
		return make([]uint64, slots(p.Type())), "", nil
	}
	cells, err := fromValue(v, p.Type(), "args "+key)
	return cells, key, err
}

// argBuffer allocates the buffer of pointer parameter pi, whose pointee is
// t ([? x T] for a kernel's global pointer; a plain T is a buffer of T
// elements too), filled from bi.
func (mc *machine) argBuffer(f *ir.Function, pi int, t *ir.Type, bi *BufferInput, invocations int) (uint64, error) {
	p := f.Params[pi]
	what := "argument " + p.Ref()
	elem, count, runtime := elemOf(t)
	if t.Kind != ir.KArray {
		elem, count, runtime = t, 1, true
	}
	if hasRuntimeArray(elem) {
		return 0, &Error{Func: f.Name(), Err: ErrUnsupported, Msg: fmt.Sprintf("%s: a runtime-sized array inside %s", what, elem)}
	}
	if elem == ir.I8 && bi != nil && bi.Type != "" {
		// The importer types a pointer nothing loads, stores or indexes
		// through as i8 (an OpenCL atomic built-in's operand): the input
		// names the element type.
		if st, ok := ir.ParseScalarType(bi.Type); ok {
			elem = st
		}
	}
	count, err := bufferCount(what, bi, elem, count, runtime, invocations)
	if err != nil {
		return 0, err
	}
	at := ir.Array(elem, -1)
	ptr := mc.mem.allocCells(count*slots(elem), at, p.Type().Space, p.Ref())
	o := mc.mem.objs[ptrObj(ptr)]
	o.ro = p.Type().Space == ir.SpaceUniform
	if bi != nil && len(bi.Data) > 0 {
		if err := fillBuffer(o.cells, elem, count, slots(elem), bi.Data, what); err != nil {
			return 0, &Error{Msg: err.Error(), Err: ErrInput}
		}
	}
	mc.argBufs = append(mc.argBufs, argBuffer{param: pi, ptr: ptr, elem: elem})
	return ptr, nil
}

// collectArgBuffers copies the parameters' buffers into the result, after
// the storage globals.
func (mc *machine) collectArgBuffers(f *ir.Function) {
	for _, ab := range mc.argBufs {
		o := mc.mem.objs[ptrObj(ab.ptr)]
		mc.result.Buffers = append(mc.result.Buffers, Buffer{
			Name: f.Params[ab.param].Name(), IsArg: true, Arg: ab.param, Elem: ab.elem,
			Count: len(o.cells) / max(1, slots(ab.elem)), Cells: append([]uint64(nil), o.cells...),
		})
	}
}

// localArg is a pointer parameter to local (groupshared) memory: every
// group gets count zeroed elements.
type localArg struct {
	param int
	elem  *ir.Type
	count int
}

// localArg sizes the local memory of pointer parameter pi: the input's
// count, else max(DefaultBufferCount, threads per group).
func (mc *machine) localArg(f *ir.Function, pi int, t *ir.Type, bi *BufferInput) (localArg, error) {
	elem := t
	if t.Kind == ir.KArray && t.Len < 0 {
		elem = t.Elem
	}
	if hasRuntimeArray(elem) {
		return localArg{}, &Error{Func: f.Name(), Err: ErrUnsupported, Msg: fmt.Sprintf("argument %s: a runtime-sized array inside %s", f.Params[pi].Ref(), elem)}
	}
	nt := mc.numThreads
	count := max(DefaultBufferCount, nt[0]*nt[1]*nt[2])
	if bi != nil {
		if len(bi.Data) > 0 {
			return localArg{}, inputErr("argument %s is local memory: give its count, not data", f.Params[pi].Ref())
		}
		if bi.Count > 0 {
			count = bi.Count
		}
	}
	if count > maxInvocations {
		return localArg{}, inputErr("argument %s: %d elements is too many", f.Params[pi].Ref(), count)
	}
	return localArg{param: pi, elem: elem, count: count}, nil
}

// groupArgs returns the arguments of one group: args with a fresh object
// for every local-memory parameter (allocated after the group's memory
// mark, so it dies with the group).
func (mc *machine) groupArgs(f *ir.Function, args [][]uint64) [][]uint64 {
	if len(mc.localArgs) == 0 {
		return args
	}
	out := append([][]uint64(nil), args...)
	for _, la := range mc.localArgs {
		p := mc.mem.allocCells(la.count*slots(la.elem), ir.Array(la.elem, -1), ir.SpaceGroupshared, f.Params[la.param].Ref())
		out[la.param] = []uint64{p}
	}
	return out
}
