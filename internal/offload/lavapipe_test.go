package offload

import (
	"encoding/binary"
	"fmt"
	"os"
	"strconv"
	"sync"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/target/spirv"
	"passlens/compiler/target/spirv/vkrun"
	"passlens/internal/testtool/spirvval"
)

// The SPIR-V output of an executed test also runs on a real Vulkan driver
// (lavapipe) through compiler/target/spirv/vkrun, the runner the SPIR-V
// back end's own tests use: the storage buffers are filled from the
// test's data at the std430 offsets the back end declares (uniform
// buffers from the same values at its std140 offsets), 16-bit leaves as
// 2 bytes and 64-bit ones as 8, the shader is
// dispatched with the test's group counts, and the buffers read back are
// compared with the test's expected values by the test's own rule. The
// driver has one subgroup size, so a test that requires another wave size
// does not run there.

var (
	deviceOnce sync.Once
	deviceInfo *vkrun.Info
	deviceErr  error
)

// device returns the Vulkan runner's device, or nil (with the reason)
// when there is none.
func device() (*vkrun.Info, error) {
	deviceOnce.Do(func() { deviceInfo, deviceErr = vkrun.DeviceInfo() })
	return deviceInfo, deviceErr
}

var (
	valOnce sync.Once
	val     *spirvval.Validator
	valErr  error
)

// validate checks words as spirv-val --target-env vulkan1.1 does (the
// environment the runner's device is created for; 16- and 64-bit types
// need their capabilities and, for 16-bit storage, SPV_KHR_16bit_storage).
func validate(words []uint32) (skip bool, err error) {
	valOnce.Do(func() { val, valErr = spirvval.Start() })
	if valErr != nil {
		return true, fmt.Errorf("no spirv-val: %v", valErr)
	}
	verr, ioErr := val.Check(words, "vulkan1.1")
	if ioErr != nil {
		return false, ioErr
	}
	if verr != nil {
		return false, fmt.Errorf("spirv-val --target-env vulkan1.1: %v", verr)
	}
	return false, nil
}

// lavapipeEnabled says whether the suite runs on the device: always when
// one is available (OFFLOAD_LAVAPIPE=0 turns it off). Without a device
// the suite still runs on the interpreter; under CI=true a missing
// device is a failure (testtool.Unavailable).
func lavapipeEnabled() bool {
	v, err := strconv.ParseBool(os.Getenv("OFFLOAD_LAVAPIPE"))
	return err != nil || v
}

// leaf is one scalar leaf of a buffer element on the device: its byte
// offset and its size in bytes (2, 4 or 8; a bool is a 32-bit word).
type leaf struct{ off, size int }

// leafSize is the byte size of a scalar leaf of kind/width t.
func leafSize(t *ir.Type) (int, error) {
	if t.Kind == ir.KBool {
		return 4, nil
	}
	switch t.Bits {
	case 16, 32, 64:
		return t.Bits / 8, nil
	}
	return 0, fmt.Errorf("%s leaves are %d-bit", t, t.Bits)
}

// leafOffsets appends every scalar leaf of t (in the interpreter's cell
// order) placed at base in a buffer laid out by the SPIR-V back end's
// rule (std140 when uniform, else std430): 16-bit leaves take 2 bytes,
// 64-bit ones 8, and vectors, arrays and structs of them are placed at
// the offsets and strides spirv.TypeLayout gives (a half3 is 6 bytes
// aligned to 8, a double3 24 bytes aligned to 32), so the device reads
// the values the interpreter reads from the test's tightly packed data.
func leafOffsets(t *ir.Type, std140 bool, base int, out []leaf) ([]leaf, error) {
	switch t.Kind {
	case ir.KBool, ir.KInt, ir.KUint, ir.KFloat:
		n, err := leafSize(t)
		if err != nil {
			return nil, err
		}
		return append(out, leaf{base, n}), nil
	case ir.KVector:
		n, err := leafSize(t.Elem)
		if err != nil {
			return nil, err
		}
		for i := 0; i < t.Len; i++ {
			out = append(out, leaf{base + n*i, n})
		}
		return out, nil
	case ir.KMatrix, ir.KArray:
		l, err := spirv.TypeLayout(t, std140)
		if err != nil {
			return nil, err
		}
		el := t.Elem
		if t.Kind == ir.KMatrix {
			el = ir.Vec(t.Elem, t.Cols) // the IR keeps rows
		}
		for i := 0; i < t.Len; i++ {
			if out, err = leafOffsets(el, std140, base+i*l.Stride, out); err != nil {
				return nil, err
			}
		}
		return out, nil
	case ir.KStruct:
		l, err := spirv.TypeLayout(t, std140)
		if err != nil {
			return nil, err
		}
		for i, f := range t.Fields {
			if out, err = leafOffsets(f.Type, std140, base+l.Offsets[i], out); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("no leaves for %s", t)
}

// putLeaf stores the low size bytes of v at data[off:].
func putLeaf(data []byte, l leaf, v uint64) {
	switch l.size {
	case 2:
		binary.LittleEndian.PutUint16(data[l.off:], uint16(v))
	case 8:
		binary.LittleEndian.PutUint64(data[l.off:], v)
	default:
		binary.LittleEndian.PutUint32(data[l.off:], uint32(v))
	}
}

// getLeaf reads a leaf back as the interpreter's cell (zero-extended).
func getLeaf(data []byte, l leaf) uint64 {
	switch l.size {
	case 2:
		return uint64(binary.LittleEndian.Uint16(data[l.off:]))
	case 8:
		return binary.LittleEndian.Uint64(data[l.off:])
	}
	return uint64(binary.LittleEndian.Uint32(data[l.off:]))
}

// cellOf converts one interpreter input value (a "0x…" string or a bool)
// to its bits (the leaf's width keeps the low ones).
func cellOf(v any) (uint64, error) {
	switch x := v.(type) {
	case bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case string:
		return strconv.ParseUint(x, 0, 64)
	}
	return 0, fmt.Errorf("input value %T", v)
}

// flatten lists the leaf values of one input element (a value or a list).
func flatten(v any) []any {
	if l, ok := v.([]any); ok {
		var out []any
		for _, x := range l {
			out = append(out, flatten(x)...)
		}
		return out
	}
	return []any{v}
}

// runLavapipe runs m (after the spirv pipeline) on the device with the
// input in, and returns the cells of every storage buffer by global name.
// counts gives each storage buffer's element count (the interpreter's).
// An error says why the test cannot run there or that the run failed;
// skip is set for the first kind.
func runLavapipe(m *ir.Module, entry string, in *interp.Input, counts map[string]int) (cells map[string][]uint64, skip bool, err error) {
	opts := spirv.Options{Entry: entry}
	// The elements an unbounded resource array binds: the interpreter's
	// buffers "Buf.0", "Buf.1", ….
	unbounded := map[*ir.Global]int{}
	for _, g := range m.Globals {
		if g.ArrayLen == ir.UnboundedArray {
			n := 0
			for _, ok := counts[fmt.Sprintf("%s.%d", g.Name(), n)]; ok; _, ok = counts[fmt.Sprintf("%s.%d", g.Name(), n)] {
				n++
			}
			unbounded[g] = n
		}
	}
	if dev, err := device(); err == nil {
		// What the device lacks of descriptor indexing is emitted
		// without it (lavapipe: divergent indices into resource arrays,
		// runtime descriptor arrays: sized by the bound elements).
		opts.NoNonUniformIndexing, opts.NoImageArrayIndexing = !dev.NonUniformIndexing, !dev.ImageArrayIndexing
		if !dev.RuntimeDescriptorArrays {
			for _, n := range unbounded {
				if opts.UnboundedArrayLen != 0 && opts.UnboundedArrayLen != n {
					return nil, true, fmt.Errorf("unbounded resource arrays with different element counts on a device without runtime descriptor arrays")
				}
				opts.UnboundedArrayLen = n
			}
		}
	}
	words, err := spirv.Assemble(m, opts)
	if err != nil {
		return nil, false, fmt.Errorf("assemble: %w", err)
	}
	if skip, err := validate(words); err != nil {
		return nil, skip, err
	}
	job := vkrun.Job{SPIRV: words, Entry: entry, Groups: in.Dispatch}
	for i, g := range job.Groups {
		if g == 0 {
			job.Groups[i] = 1
		}
	}
	inputs := map[string][]any{}
	for _, b := range in.Buffers {
		for _, e := range b.Data {
			inputs[b.Name] = append(inputs[b.Name], flatten(e)...)
		}
	}
	// slots holds, per job buffer, what comes back: a storage buffer's
	// leaves by name, a storage image's texels (rw), nothing (name "").
	type slot struct {
		name string
		offs []leaf
		rw   bool
	}
	var slots []slot
	var binds []spirv.Binding
	for _, b := range spirv.Bindings(m) {
		if b.ArrayLen != ir.UnboundedArray {
			binds = append(binds, b)
			continue
		}
		for k := 0; k < unbounded[b.Global]; k++ {
			e := b
			e.ArrayIndex = k
			binds = append(binds, e)
		}
	}
	for _, b := range binds {
		g := b.Global
		if b.Image {
			// A texture or sampler (texture_test.go).
			im, smp, err := vkImageBinding(g, in)
			if err != nil {
				return nil, true, err
			}
			job.Buffers = append(job.Buffers, vkrun.Buffer{Set: b.Set, Binding: b.Binding, ArrayElement: b.ArrayIndex, Image: im, Sampler: smp})
			if ir.IsRWTextureGlobal(g) {
				slots = append(slots, slot{name: g.Name(), rw: true})
			} else {
				slots = append(slots, slot{})
			}
			continue
		}
		name := g.Name()
		if b.ArrayLen == ir.UnboundedArray {
			name = fmt.Sprintf("%s.%d", g.Name(), b.ArrayIndex)
		}
		var offs []leaf
		var size int
		var vals []any
		if b.Uniform {
			if g.ValType.Kind != ir.KStruct {
				return nil, true, fmt.Errorf("uniform %s of %s", g.Name(), g.ValType)
			}
			l, err := spirv.TypeLayout(g.ValType, true)
			if err != nil {
				return nil, true, err
			}
			size = l.Size
			for i, f := range g.ValType.Fields {
				if offs, err = leafOffsets(f.Type, true, l.Offsets[i], offs); err != nil {
					return nil, true, err
				}
				u, ok := in.Uniforms[g.Name()+"."+f.Name]
				if !ok {
					return nil, true, fmt.Errorf("no value for uniform %s.%s", g.Name(), f.Name)
				}
				vals = append(vals, flatten(u)...)
			}
		} else {
			el := g.ValType
			if el.Kind != ir.KArray || el.Len >= 0 {
				return nil, true, fmt.Errorf("storage buffer %s of %s", g.Name(), el)
			}
			n, ok := counts[name]
			if !ok {
				return nil, true, fmt.Errorf("no element count for %s", name)
			}
			al, err := spirv.TypeLayout(ir.Array(el.Elem, max(n, 1)), false)
			if err != nil {
				return nil, true, err
			}
			size = al.Size
			for k := 0; k < n; k++ {
				if offs, err = leafOffsets(el.Elem, false, k*al.Stride, offs); err != nil {
					return nil, true, err
				}
			}
			vals = inputs[name]
		}
		if b.Uniform {
			slots = append(slots, slot{})
		} else {
			slots = append(slots, slot{name: name, offs: offs})
		}
		if len(vals) > len(offs) {
			return nil, true, fmt.Errorf("%s: %d values for %d leaves", g.Name(), len(vals), len(offs))
		}
		data := make([]byte, size)
		for k, v := range vals {
			w, err := cellOf(v)
			if err != nil {
				return nil, true, err
			}
			if offs[k].off+offs[k].size > len(data) {
				return nil, true, fmt.Errorf("%s: value %d lies outside the buffer's %d bytes", g.Name(), k, len(data))
			}
			putLeaf(data, offs[k], w)
		}
		job.Buffers = append(job.Buffers, vkrun.Buffer{Set: b.Set, Binding: b.Binding, ArrayElement: b.ArrayIndex, Uniform: b.Uniform, Data: data})
	}
	out, err := vkrun.Run(job)
	if err != nil {
		return nil, false, fmt.Errorf("vkrun: %w", err)
	}
	cells = map[string][]uint64{}
	for i, s := range slots {
		switch {
		case s.name == "":
		case s.rw:
			// A storage image comes back as its texels.
			c := make([]uint64, len(out[i])/4)
			for j := range c {
				c[j] = uint64(binary.LittleEndian.Uint32(out[i][4*j:]))
			}
			cells[s.name] = c
		default:
			c := make([]uint64, len(s.offs))
			for j, l := range s.offs {
				c[j] = getLeaf(out[i], l)
			}
			cells[s.name] = c
		}
	}
	return cells, false, nil
}
