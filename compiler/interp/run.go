package interp

import (
	"context"
	"fmt"
	"math/bits"
	"sort"
	"strconv"
	"strings"

	"passlens/compiler/ir"
	"passlens/internal/guard"
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
	helper      bool // a helper pixel completing a quad (quad.go)
}

// Run executes the module's entry point on the input (nil: all defaults).
func Run(m *ir.Module, in *Input, opts Options) (*Result, error) {
	return RunContext(context.Background(), m, in, opts)
}

// RunContext is Run with cancellation: when ctx is done the run stops
// with an error wrapping ctx.Err().
func RunContext(ctx context.Context, m *ir.Module, in *Input, opts Options) (res *Result, err error) {
	defer guard.Handle("interp.Run", func(e *guard.Error) {
		res, err = nil, e
		if ml, ok := e.Value.(memoryLimit); ok {
			err = &Error{Err: ErrMemoryLimit, Msg: fmt.Sprintf("allocating %s would exceed %d cells", ml.what, MaxMemoryCells)}
		}
	})
	if m == nil {
		return nil, inputErr("no module")
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if in == nil {
		in = &Input{}
	}
	entry, err := pickEntry(m, opts.Entry)
	if err != nil {
		return nil, err
	}
	if err := checkSpecConstants(m, in); err != nil {
		return nil, err
	}
	if opts.WaveSize == 0 && entry.Entry != nil && entry.Entry.WaveSize > 0 {
		opts.WaveSize = entry.Entry.WaveSize // [WaveSize(n)]
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
	if len(entry.Params) > 0 && entry.Entry.Stage != ir.StageCompute {
		return nil, &Error{Func: entry.Name(), Err: ErrUnsupported,
			Msg: "entry point parameters cannot be fed: stage inputs must be input globals with semantics"}
	}
	mc := &machine{
		mod: m, entry: entry, opts: opts, ctx: ctx, mem: newMemory(), funcs: map[*ir.Function]*funcInfo{},
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
	args, err := mc.kernelArgs(entry, in, total)
	if err != nil {
		return nil, err
	}
	if entry.Entry.Stage == ir.StageCompute {
		// The AMDGPU dispatch packet and hidden arguments live for the
		// whole run (objects made while a group runs die with it).
		mc.dispatchPtr = mc.packet(64, mc.dispatchPacket)
		mc.implicitPtr = mc.packet(256, mc.implicitArgs)
	}
	sh, err := mc.newShading(entry, in)
	if err != nil {
		return nil, err
	}
	for _, g := range groups {
		if err := mc.runGroup(fi, g, in, sh, args); err != nil {
			return nil, err
		}
	}
	mc.collectBuffers()
	mc.collectArgBuffers(entry)
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

// invocationCells is the host memory of one invocation's bookkeeping, in
// 8-byte cells; it counts against MaxMemoryCells like buffers do, so that
// the memory limit holds for runs of many small invocations too.
const invocationCells = 24

// checkInvocations refuses a run of n invocations before they are formed:
// more than maxInvocations, or more bookkeeping than the memory limit.
func checkInvocations(n int64, what string) error {
	if n > maxInvocations {
		return inputErr("%s: %d invocations, more than the limit of %d", what, n, maxInvocations)
	}
	if n*invocationCells > MaxMemoryCells {
		return &Error{Err: ErrMemoryLimit, Msg: fmt.Sprintf("%s: %d invocations would exceed the interpreter's memory limit of %d cells (%d MiB)", what, n, MaxMemoryCells, MaxMemoryCells*8>>20)}
	}
	return nil
}

// invocations forms the workgroups of the stage.
func (mc *machine) invocations(f *ir.Function, in *Input) ([]workgroup, error) {
	switch f.Entry.Stage {
	case ir.StageCompute:
		nt := f.Entry.NumThreads
		for i, n := range in.WorkgroupSize {
			if n > 0 {
				nt[i] = n
			}
		}
		mc.numThreads = nt
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
		mc.dispatch = d
		per := nt[0] * nt[1] * nt[2]
		for i := range d {
			if d[i] > MaxDispatch {
				return nil, inputErr("dispatch %v: each size must be at most %d", in.Dispatch, MaxDispatch)
			}
		}
		if err := checkInvocations(int64(d[0])*int64(d[1])*int64(d[2])*int64(per), fmt.Sprintf("dispatch %v x numthreads %v", d, nt)); err != nil {
			return nil, err
		}
		var out []workgroup
		idx := 0
		twoD := quad2D(f.Module, nt)
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
					if twoD {
						wg.invs = quad2DOrder(wg.invs, nt) // quad2d.go
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
			if err := checkInvocations(int64(len(in.Pixels)), "pixels"); err != nil {
				return nil, err
			}
			px = in.Pixels
		default:
			r := in.Rect
			if r == nil {
				r = &Rect{Width: 4, Height: 4}
			}
			if r.Width <= 0 || r.Height <= 0 || r.X < 0 || r.Y < 0 || r.Width > 1<<14 || r.Height > 1<<14 || r.X > 1<<14 || r.Y > 1<<14 {
				return nil, inputErr("bad pixel rect %+v (sizes from 1 and coordinates up to 16384)", *r)
			}
			if err := checkInvocations(int64(r.Width)*int64(r.Height), fmt.Sprintf("rect %dx%d", r.Width, r.Height)); err != nil {
				return nil, err
			}
			for y := r.Y; y < r.Y+r.Height; y++ {
				for x := r.X; x < r.X+r.Width; x++ {
					px = append(px, [2]int{x, y})
				}
			}
		}
		for _, p := range px {
			if p[0] < 0 || p[1] < 0 || p[0] > 1<<14 || p[1] > 1<<14 {
				return nil, inputErr("pixel %v is out of range (0..16384)", p)
			}
		}
		// Pixels shade in 2×2 quads, helpers completing partial ones.
		wg := workgroup{invs: pixelQuads(px)}
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
		if n < 0 {
			return nil, inputErr("bad vertex count %d", n)
		}
		if err := checkInvocations(int64(n), "vertex_count"); err != nil {
			return nil, err
		}
		var wg workgroup
		for i := 0; i < n; i++ {
			wg.invs = append(wg.invs, &invocation{index: i, vertex: i})
		}
		return []workgroup{wg}, nil
	}
	return nil, &Error{Func: f.Name(), Err: ErrUnsupported, Msg: "entry point has no stage"}
}

// objectCells is the host memory of one memory object beyond its cells.
const objectCells = 16

// waveStateCells estimates the host memory of one wave of n lanes, in
// cells: every register slot written for every lane, the per-lane copies
// of private, input and output globals, and bookkeeping.
func (mc *machine) waveStateCells(fi *funcInfo, n int) int {
	regs := 0
	for _, w := range fi.width {
		regs += w
	}
	lane := regs + 2
	for _, g := range mc.globals {
		switch g.Space {
		case ir.SpacePrivate, ir.SpaceInput, ir.SpaceOutput:
			lane += objectCells + 1
		}
	}
	return n*lane + 64 + len(mc.globals)
}

// runGroup runs one workgroup: its waves run in turn, each until it
// finishes or reaches a barrier; when every wave waits at the same barrier
// they all continue. Per-group memory is freed afterwards.
func (mc *machine) runGroup(fi *funcInfo, wg workgroup, in *Input, sh *shading, args [][]uint64) error {
	mark := mc.mem.mark()
	defer mc.mem.truncate(mark)
	mc.groupID = wg.id
	gargs := mc.groupArgs(fi.fn, args)
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
	// The waves' registers and per-lane objects count against the memory
	// limit: a pixel run is one group of every pixel, all waves at once.
	cost := mc.waveStateCells(fi, n) * ((len(wg.invs) + n - 1) / n)
	if mc.mem.live+cost > MaxMemoryCells {
		return &Error{Func: fi.fn.Name(), Group: wg.id, Err: ErrMemoryLimit,
			Msg: fmt.Sprintf("%d invocations at once would exceed the interpreter's memory limit of %d cells (%d MiB); shade fewer pixels or vertices per run", len(wg.invs), MaxMemoryCells, MaxMemoryCells*8>>20)}
	}
	mc.mem.live += cost
	defer func() { mc.mem.live -= cost }()
	var waves []*wave
	for i := 0; i < len(wg.invs); i += n {
		w := &wave{mc: mc, index: len(waves), size: n, inv: make([]*invocation, n), gptr: make([][]uint64, len(mc.globals))}
		for l := 0; l < n && i+l < len(wg.invs); l++ {
			inv := wg.invs[i+l]
			inv.wave, inv.lane = w.index, l
			w.inv[l] = inv
			w.present |= 1 << uint(l)
			if inv.helper {
				w.helper |= 1 << uint(l)
			}
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
		fr := w.newFrame(fi, w.present)
		for i, v := range gargs {
			for l := range w.inv {
				if w.inv[l] != nil {
					copy(w.dst(fr, fi.params[i], l), v)
				}
			}
		}
		w.frames = []*frame{fr}
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
		if err := mc.groupCollective(waves); err != nil {
			return err
		}
		for _, w := range waves {
			w.barrier = nil
		}
	}
	mc.collectLanes(fi, waves, sh)
	return nil
}

// checkSpecConstants rejects an override of a SpecId no global has, and
// a value of the wrong kind, before anything runs (the first in id order).
func checkSpecConstants(m *ir.Module, in *Input) error {
	ids := map[string]*ir.Global{}
	for _, g := range m.Globals {
		if g.SpecID >= 0 {
			ids[strconv.Itoa(g.SpecID)] = g
		}
	}
	keys := make([]string, 0, len(in.SpecConstants))
	for k := range in.SpecConstants {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		g := ids[k]
		if g == nil {
			return inputErr("spec_constants: no specialization constant has SpecId %s", k)
		}
		if _, err := fromValue(in.SpecConstants[k], g.ValType, "spec_constants["+k+"]"); err != nil {
			return &Error{Msg: err.Error(), Err: ErrInput}
		}
	}
	return nil
}
