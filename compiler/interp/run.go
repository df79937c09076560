package interp

import (
	"context"
	"fmt"
	"math/bits"
	"runtime/debug"
	"sort"
	"strings"

	"passlens/compiler/ir"
)

// This file is the dispatch: it checks the options, picks the entry point,
// creates the resources from the input, forms the invocations of the stage
// (compute threads by workgroup, pixels, vertices), runs each workgroup's
// waves to completion (interleaving them at barriers) and gathers the
// results.

// invocation is one thread, pixel or vertex.
type invocation struct {
	index       int // in run order
	group       [3]int
	groupThread [3]int
	groupIndex  int
	dispatch    [3]int
	pixel       [2]int
	vertex      int
	wave, lane  int
	gptr        []uint64 // per global: this invocation's pointer (per-lane globals)
}

// Run executes the module's entry point on the input (nil: all defaults).
func Run(m *ir.Module, in *Input, opts Options) (*Result, error) {
	return RunContext(context.Background(), m, in, opts)
}

// RunContext is Run with cancellation: when ctx is done the run stops
// with an error wrapping ctx.Err().
func RunContext(ctx context.Context, m *ir.Module, in *Input, opts Options) (res *Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res = nil
			if ml, ok := r.(memoryLimit); ok {
				err = &Error{Err: ErrMemoryLimit, Msg: fmt.Sprintf("allocating %s would exceed %d cells", ml.what, MaxMemoryCells)}
				return
			}
			err = fmt.Errorf("interp: internal error (please report): %v\n%s", r, debug.Stack())
		}
	}()
	if m == nil {
		return nil, inputErr("no module")
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if in == nil {
		in = &Input{}
	}
	if opts.WaveSize == 0 {
		opts.WaveSize = DefaultWaveSize
	}
	if opts.WaveSize < MinWaveSize || opts.WaveSize > MaxWaveSize || bits.OnesCount(uint(opts.WaveSize)) != 1 {
		return nil, inputErr("wave size %d: want a power of two from %d to %d", opts.WaveSize, MinWaveSize, MaxWaveSize)
	}
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = DefaultMaxSteps
	}
	if opts.Policy > PolicySwitchSeparate {
		return nil, inputErr("unknown policy %d", opts.Policy)
	}
	entry, err := pickEntry(m, opts.Entry)
	if err != nil {
		return nil, err
	}
	if len(entry.Params) > 0 {
		return nil, &Error{Func: entry.Name(), Err: ErrUnsupported,
			Msg: "entry point parameters cannot be fed: stage inputs must be input globals with semantics"}
	}
	mc := &machine{
		mod: m, opts: opts, ctx: ctx, mem: newMemory(), funcs: map[*ir.Function]*funcInfo{},
		gindex: map[*ir.Global]int{}, maxSteps: int64(opts.MaxSteps),
		result: &Result{Entry: entry.Name(), Stage: entry.Entry.Stage, WaveSize: opts.WaveSize, Policy: opts.Policy},
	}
	for i, g := range m.Globals {
		mc.globals = append(mc.globals, g)
		mc.gindex[g] = i
	}
	mc.shared = make([]uint64, len(mc.globals))
	fi, err := mc.funcInfo(entry)
	if err != nil {
		return nil, err
	}
	groups, err := mc.invocations(entry, in)
	if err != nil {
		return nil, err
	}
	total := 0
	for _, g := range groups {
		total += len(g.invs)
	}
	if err := mc.resources(in, total); err != nil {
		return nil, err
	}
	sh, err := mc.newShading(entry, in)
	if err != nil {
		return nil, err
	}
	for _, g := range groups {
		if err := mc.runGroup(fi, g, in, sh); err != nil {
			return nil, err
		}
	}
	mc.collectBuffers()
	mc.result.Steps = mc.steps
	return mc.result, nil
}

func pickEntry(m *ir.Module, name string) (*ir.Function, error) {
	eps := m.EntryPoints()
	if name != "" {
		f := m.Func(name)
		if f == nil {
			return nil, inputErr("no function @%s", name)
		}
		if f.Entry == nil {
			return nil, inputErr("@%s is not an entry point", name)
		}
		return f, nil
	}
	switch len(eps) {
	case 0:
		return nil, inputErr("the module has no entry point")
	case 1:
		return eps[0], nil
	}
	var names []string
	for _, f := range eps {
		names = append(names, "@"+f.Name())
	}
	return nil, inputErr("the module has %d entry points (%s): choose one", len(eps), strings.Join(names, ", "))
}

// workgroup is the invocations that run together (share groupshared
// memory and barriers).
type workgroup struct {
	id   [3]int
	invs []*invocation
}

// maxInvocations bounds a run (pixels, vertices or threads) so a typo in
// the input cannot exhaust memory.
const maxInvocations = 1 << 22

// invocations forms the workgroups of the stage.
func (mc *machine) invocations(f *ir.Function, in *Input) ([]workgroup, error) {
	switch f.Entry.Stage {
	case ir.StageCompute:
		nt := f.Entry.NumThreads
		for _, n := range nt {
			if n <= 0 || n > 1024 {
				return nil, &Error{Func: f.Name(), Err: ErrInput, Msg: fmt.Sprintf("numthreads(%d, %d, %d) is invalid", nt[0], nt[1], nt[2])}
			}
		}
		if nt[0]*nt[1]*nt[2] > 1024 {
			return nil, &Error{Func: f.Name(), Err: ErrInput, Msg: fmt.Sprintf("numthreads(%d, %d, %d) exceeds 1024 threads", nt[0], nt[1], nt[2])}
		}
		d := in.Dispatch
		for i := range d {
			if d[i] < 0 {
				return nil, inputErr("dispatch %v has a negative size", d)
			}
			if d[i] == 0 {
				d[i] = 1
			}
		}
		per := nt[0] * nt[1] * nt[2]
		if int64(d[0])*int64(d[1])*int64(d[2])*int64(per) > maxInvocations {
			return nil, inputErr("dispatch %v x numthreads %v is more than %d threads", d, nt, maxInvocations)
		}
		var out []workgroup
		idx := 0
		for gz := 0; gz < d[2]; gz++ {
			for gy := 0; gy < d[1]; gy++ {
				for gx := 0; gx < d[0]; gx++ {
					wg := workgroup{id: [3]int{gx, gy, gz}}
					for gi := 0; gi < per; gi++ {
						t := [3]int{gi % nt[0], gi / nt[0] % nt[1], gi / (nt[0] * nt[1])}
						wg.invs = append(wg.invs, &invocation{
							index: idx, group: wg.id, groupThread: t, groupIndex: gi,
							dispatch: [3]int{gx*nt[0] + t[0], gy*nt[1] + t[1], gz*nt[2] + t[2]},
						})
						idx++
					}
					out = append(out, wg)
				}
			}
		}
		return out, nil
	case ir.StagePixel:
		var px [][2]int
		switch {
		case len(in.Pixels) > 0:
			px = in.Pixels
		default:
			r := in.Rect
			if r == nil {
				r = &Rect{Width: 4, Height: 4}
			}
			if r.Width <= 0 || r.Height <= 0 || r.X < 0 || r.Y < 0 || int64(r.Width)*int64(r.Height) > maxInvocations {
				return nil, inputErr("bad pixel rect %+v", *r)
			}
			for y := r.Y; y < r.Y+r.Height; y++ {
				for x := r.X; x < r.X+r.Width; x++ {
					px = append(px, [2]int{x, y})
				}
			}
		}
		var wg workgroup
		for i, p := range px {
			if p[0] < 0 || p[1] < 0 || p[0] > 1<<14 || p[1] > 1<<14 {
				return nil, inputErr("pixel %v is out of range (0..16384)", p)
			}
			wg.invs = append(wg.invs, &invocation{index: i, pixel: p})
		}
		if len(wg.invs) > maxInvocations {
			return nil, inputErr("more than %d pixels", maxInvocations)
		}
		return []workgroup{wg}, nil
	case ir.StageVertex:
		n := in.VertexCount
		if n == 0 {
			n = len(in.Vertices)
		}
		if n == 0 {
			for _, li := range in.Inputs {
				n = max(n, len(li.PerLane))
			}
		}
		if n == 0 {
			n = 3
		}
		if n < 0 || n > maxInvocations {
			return nil, inputErr("bad vertex count %d", n)
		}
		var wg workgroup
		for i := 0; i < n; i++ {
			wg.invs = append(wg.invs, &invocation{index: i, vertex: i})
		}
		return []workgroup{wg}, nil
	}
	return nil, &Error{Func: f.Name(), Err: ErrUnsupported, Msg: "entry point has no stage"}
}

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
	for gi, g := range mc.globals {
		switch g.Space {
		case ir.SpaceStorage:
			elem, count, runtime := elemOf(g.ValType)
			tailed := runtimeElem(elem) != nil // ends in a runtime array (ByteAddressBuffer-like struct)
			if hasRuntimeArray(elem) && (runtime || !tailed) {
				return &Error{Msg: fmt.Sprintf("storage global @%s: a runtime-sized array inside %s is only supported as its last member", g.Name(), g.ValType), Err: ErrUnsupported}
			}
			var bi *BufferInput
			for i := range in.Buffers {
				b := &in.Buffers[i]
				if b.Name != "" && b.Name == g.Name() || b.Name == "" && b.Binding != nil && *b.Binding == g.Binding && (b.Set == nil && g.Set <= 0 || b.Set != nil && *b.Set == g.Set) {
					if used[i] {
						continue
					}
					bi, used[i] = b, true
					break
				}
			}
			if bi != nil && bi.Type != "" && bi.Type != elem.String() {
				return inputErr("buffer @%s: input says element type %s, the module has %s", g.Name(), bi.Type, elem)
			}
			if runtime {
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
					return inputErr("buffer @%s: %d elements is too many", g.Name(), count)
				}
			} else if bi != nil && bi.Count > 0 && bi.Count != count {
				return inputErr("buffer @%s has %d elements, input says %d", g.Name(), count, bi.Count)
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
		case ir.SpaceUniform:
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
			return inputErr("buffer %q matches no storage global of the module", who)
		}
	}
	return mc.uniforms(in)
}

func hasRuntimeArray(t *ir.Type) bool {
	switch t.Kind {
	case ir.KArray:
		return t.Len < 0 || hasRuntimeArray(t.Elem)
	case ir.KStruct:
		for _, f := range t.Fields {
			if hasRuntimeArray(f.Type) {
				return true
			}
		}
	}
	return false
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

// collectBuffers copies every storage global into the result.
func (mc *machine) collectBuffers() {
	for gi, g := range mc.globals {
		if g.Space != ir.SpaceStorage {
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

// shading holds per-stage input and output plans.
type shading struct {
	stage   ir.Stage
	rect    *Rect
	outputs []int // output globals
	targets map[int]int
}

func (mc *machine) newShading(f *ir.Function, in *Input) (*shading, error) {
	sh := &shading{stage: f.Entry.Stage, targets: map[int]int{}}
	if sh.stage == ir.StagePixel && len(in.Pixels) == 0 {
		sh.rect = in.Rect
		if sh.rect == nil {
			sh.rect = &Rect{Width: 4, Height: 4}
		}
	}
	for i, vtx := range in.Vertices {
		for key := range vtx {
			if !mc.isInputKey(key) {
				return nil, inputErr("vertex %d: %q matches no input global (by semantic or name)", i, key)
			}
		}
	}
	for key, li := range in.Inputs {
		if !mc.isInputKey(key) {
			return nil, inputErr("input %q matches no input global (by semantic or name)", key)
		}
		set := 0
		for _, x := range []bool{li.Value != nil, li.PerLane != nil, li.Corners != nil} {
			if x {
				set++
			}
		}
		if set != 1 {
			return nil, inputErr("input %q: give exactly one of value, per_lane, corners", key)
		}
		if li.Corners != nil && (sh.rect == nil || len(li.Corners) != 4) {
			return nil, inputErr("input %q: corners need a pixel rect and four values", key)
		}
	}
	w, h := 0, 0
	if sh.stage == ir.StagePixel {
		if sh.rect != nil {
			w, h = sh.rect.X+sh.rect.Width, sh.rect.Y+sh.rect.Height
		}
		for _, p := range in.Pixels {
			w, h = max(w, p[0]+1), max(h, p[1]+1)
		}
	}
	for gi, g := range mc.globals {
		if g.Space != ir.SpaceOutput {
			continue
		}
		sh.outputs = append(sh.outputs, gi)
		if sh.stage == ir.StagePixel {
			sem := g.Semantic
			if sem == "" {
				sem = g.Name()
			}
			n := slots(g.ValType)
			if int64(w)*int64(h)*int64(n) > MaxMemoryCells {
				return nil, &Error{Err: ErrMemoryLimit, Msg: fmt.Sprintf("render target %s of %dx%d pixels is too large", sem, w, h)}
			}
			sh.targets[gi] = len(mc.result.Targets)
			mc.result.Targets = append(mc.result.Targets, Target{
				Name: g.Name(), Semantic: sem, Elem: g.ValType, Width: w, Height: h,
				Cells: make([]uint64, w*h*n), Written: make([]bool, w*h),
			})
		}
	}
	return sh, nil
}

// laneValue computes the initial value of a per-lane global for an
// invocation: private globals from their initializer, outputs zero, inputs
// from Input.Inputs or the system value of their semantic.
func (mc *machine) laneValue(g *ir.Global, inv *invocation, in *Input, sh *shading) ([]uint64, error) {
	cells := make([]uint64, slots(g.ValType))
	switch g.Space {
	case ir.SpacePrivate:
		if g.Init != nil {
			fillConst(g.Init, cells)
		}
		return cells, nil
	case ir.SpaceOutput:
		return cells, nil
	}
	// Explicit input first.
	if key, ok := matchInput(g, in.Inputs); ok {
		li := in.Inputs[key]
		what := fmt.Sprintf("input %s", key)
		switch {
		case li.Value != nil:
			return fromValue(li.Value, g.ValType, what)
		case li.PerLane != nil:
			if inv.index >= len(li.PerLane) {
				return cells, nil
			}
			return fromValue(li.PerLane[inv.index], g.ValType, fmt.Sprintf("%s[%d]", what, inv.index))
		default:
			return mc.corners(li.Corners, g.ValType, inv, sh.rect, what)
		}
	}
	if sh.stage == ir.StageVertex && inv.vertex < len(in.Vertices) {
		vtx := in.Vertices[inv.vertex]
		if key, ok := matchInput(g, vtx); ok {
			return fromValue(vtx[key], g.ValType, fmt.Sprintf("vertex %d %s", inv.vertex, key))
		}
	}
	var vals []float64
	switch strings.ToUpper(g.Semantic) {
	case "SV_DISPATCHTHREADID":
		vals = ints3(inv.dispatch)
	case "SV_GROUPTHREADID":
		vals = ints3(inv.groupThread)
	case "SV_GROUPID":
		vals = ints3(inv.group)
	case "SV_GROUPINDEX":
		vals = []float64{float64(inv.groupIndex)}
	case "SV_POSITION":
		if sh.stage == ir.StagePixel {
			vals = []float64{float64(inv.pixel[0]) + 0.5, float64(inv.pixel[1]) + 0.5, 0, 1}
		}
	case "SV_ISFRONTFACE":
		vals = []float64{1}
	case "SV_VERTEXID":
		vals = []float64{float64(inv.vertex)}
	}
	leaves := leafTypes(g.ValType, 0, nil)
	for i, t := range leaves {
		if i < len(vals) {
			cells[i] = arithOf(t).from(vals[i])
		}
	}
	return cells, nil
}

// matchInput finds the key of m that names input global g: its semantic
// (case-insensitive) first, else its name; deterministic whatever the map
// order.
func matchInput[V any](g *ir.Global, m map[string]V) (string, bool) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if g.Semantic != "" && strings.EqualFold(g.Semantic, k) {
			return k, true
		}
	}
	for _, k := range keys {
		if g.Name() == k {
			return k, true
		}
	}
	return "", false
}

// isInputKey reports whether key names some input global.
func (mc *machine) isInputKey(key string) bool {
	for _, g := range mc.globals {
		if g.Space == ir.SpaceInput && (strings.EqualFold(g.Semantic, key) || g.Name() == key) {
			return true
		}
	}
	return false
}

func ints3(v [3]int) []float64 { return []float64{float64(v[0]), float64(v[1]), float64(v[2])} }

// corners interpolates four corner values bilinearly at a pixel centre:
// u = (x + 0.5 - rect.x) / width, v likewise; value = lerp(lerp(tl, tr, u),
// lerp(bl, br, u), v), computed in float64 and rounded once.
func (mc *machine) corners(cs []any, t *ir.Type, inv *invocation, r *Rect, what string) ([]uint64, error) {
	var c [4][]uint64
	for i := range c {
		v, err := fromValue(cs[i], t, fmt.Sprintf("%s corner %d", what, i))
		if err != nil {
			return nil, err
		}
		c[i] = v
	}
	u := (float64(inv.pixel[0]) + 0.5 - float64(r.X)) / float64(r.Width)
	v := (float64(inv.pixel[1]) + 0.5 - float64(r.Y)) / float64(r.Height)
	leaves := leafTypes(t, 0, nil)
	out := make([]uint64, len(leaves))
	for i, lt := range leaves {
		if lt.Kind != ir.KFloat {
			return nil, fmt.Errorf("%s: corners interpolate floats only, not %s", what, t)
		}
		a := arithOf(lt)
		f := func(k int) float64 { return a.f(c[k][i]) }
		top := f(0) + (f(1)-f(0))*u
		bot := f(2) + (f(3)-f(2))*u
		out[i] = a.from(top + (bot-top)*v)
	}
	return out, nil
}

// runGroup runs one workgroup: its waves run in turn, each until it
// finishes or reaches a barrier; when every wave waits at the same barrier
// they all continue. Per-group memory is freed afterwards.
func (mc *machine) runGroup(fi *funcInfo, wg workgroup, in *Input, sh *shading) error {
	mark := mc.mem.mark()
	defer mc.mem.truncate(mark)
	mc.groupID = wg.id
	for gi, g := range mc.globals {
		if g.Space == ir.SpaceGroupshared {
			p := mc.mem.alloc(g.ValType, 0, g.Space, "@"+g.Name())
			if g.Init != nil {
				fillConst(g.Init, mc.mem.objs[ptrObj(p)].cells)
			}
			mc.shared[gi] = p
		}
	}
	n := mc.opts.WaveSize
	var waves []*wave
	for i := 0; i < len(wg.invs); i += n {
		w := &wave{mc: mc, index: len(waves), size: n, inv: make([]*invocation, n), gptr: make([][]uint64, len(mc.globals))}
		for l := 0; l < n && i+l < len(wg.invs); l++ {
			inv := wg.invs[i+l]
			inv.wave, inv.lane = w.index, l
			w.inv[l] = inv
			w.present |= 1 << uint(l)
		}
		for gi, g := range mc.globals {
			w.gptr[gi] = make([]uint64, n)
			switch g.Space {
			case ir.SpacePrivate, ir.SpaceInput, ir.SpaceOutput:
				for l, inv := range w.inv {
					if inv == nil {
						continue
					}
					cells, err := mc.laneValue(g, inv, in, sh)
					if err != nil {
						return &Error{Msg: err.Error(), Err: ErrInput}
					}
					p := mc.mem.alloc(g.ValType, 0, g.Space, "@"+g.Name())
					copy(mc.mem.objs[ptrObj(p)].cells, cells)
					w.gptr[gi][l] = p
				}
			default:
				for l := range w.gptr[gi] {
					w.gptr[gi][l] = mc.shared[gi]
				}
			}
		}
		w.frames = []*frame{w.newFrame(fi, w.present)}
		waves = append(waves, w)
	}
	for {
		for _, w := range waves {
			if !w.done {
				if err := w.run(); err != nil {
					return err
				}
			}
		}
		var at *wave
		for _, w := range waves {
			if w.done {
				continue
			}
			if at == nil {
				at = w
			} else if w.barrier != at.barrier {
				return &Error{Func: fi.fn.Name(), Group: wg.id, Err: ErrDivergentBarrier,
					Msg: fmt.Sprintf("wave %d waits at `%s` but wave %d at `%s`", at.index, ir.InstrString(at.barrier), w.index, ir.InstrString(w.barrier))}
			}
		}
		if at == nil {
			break
		}
		for _, w := range waves {
			if w.done && w.present&^w.killed != 0 {
				return &Error{Func: fi.fn.Name(), Group: wg.id, Err: ErrDivergentBarrier,
					Msg: fmt.Sprintf("wave %d waits at `%s` but wave %d finished without reaching it", at.index, ir.InstrString(at.barrier), w.index)}
			}
		}
		for _, w := range waves {
			w.barrier = nil
		}
	}
	mc.collectLanes(fi, waves, sh)
	return nil
}

// collectLanes records outputs of the group's invocations.
func (mc *machine) collectLanes(fi *funcInfo, waves []*wave, sh *shading) {
	hasRet := fi.retW > 0
	if len(sh.outputs) == 0 && !hasRet {
		return
	}
	for _, w := range waves {
		for l, inv := range w.inv {
			if inv == nil {
				continue
			}
			lane := Lane{Index: inv.index, Group: inv.group, Thread: inv.groupThread, Pixel: inv.pixel,
				Vertex: inv.vertex, Killed: w.killed&(1<<uint(l)) != 0, Wave: w.index, WaveLane: l}
			if !lane.Killed {
				for _, gi := range sh.outputs {
					g := mc.globals[gi]
					o := mc.mem.objs[ptrObj(w.gptr[gi][l])]
					cells := append([]uint64(nil), o.cells...)
					lane.Outputs = append(lane.Outputs, Output{Name: g.Name(), Semantic: g.Semantic, Type: g.ValType, Cells: cells})
					if ti, ok := sh.targets[gi]; ok {
						t := &mc.result.Targets[ti]
						x, y := inv.pixel[0], inv.pixel[1]
						if x < t.Width && y < t.Height {
							copy(t.Pixel(x, y), cells)
							t.Written[y*t.Width+x] = true
						}
					}
				}
				if hasRet && w.entryRet != nil {
					lane.Outputs = append(lane.Outputs, Output{Name: "return", Type: fi.fn.Ret,
						Cells: append([]uint64(nil), w.entryRet[l*fi.retW:(l+1)*fi.retW]...)})
				}
			}
			mc.result.Lanes = append(mc.result.Lanes, lane)
		}
	}
}
