package interp

import (
	"context"
	"fmt"
	"math/bits"
	"strings"

	"passlens/compiler/ir"
)

// This file is the SIMT engine: a wave runs its lanes as lane groups (one
// execution mask each), picks the next group by the rule of doc.go, merges
// groups that may reconverge, and executes one block of one group at a
// time. Calls push a frame that runs to completion for the calling group;
// barriers suspend the wave until every wave of the workgroup arrives.

// machine is the state of one Run.
type machine struct {
	mod      *ir.Module
	entry    *ir.Function
	opts     Options
	ctx      context.Context
	mem      *memory
	funcs    map[*ir.Function]*funcInfo
	globals  []*ir.Global
	gindex   map[*ir.Global]int
	shared   []uint64 // per global: pointer shared by all lanes (0 for per-lane globals)
	steps    int64
	maxSteps int64
	tokens   uint64 // source of fresh iteration tokens
	swInst   uint64 // source of switch instance ids
	result   *Result
	groupID  [3]int
	// numThreads is the work-group size of a compute run, dispatch the
	// number of groups (for the OpenCL work-item functions and the AMDGPU
	// dispatch packet).
	numThreads [3]int
	dispatch   [3]int
	argBufs    []argBuffer // buffers of pointer parameters (kernelargs.go)
	localArgs  []localArg  // local-memory pointer parameters, fresh per group
	// dispatchPtr and implicitPtr are the byte objects that
	// llvm.amdgcn.dispatch.ptr and implicitarg.ptr return (llvmintr.go).
	dispatchPtr, implicitPtr uint64
	// images and samplers are what texture and sampler globals' objects
	// stand for (texture_input.go), by object id.
	images   map[int]*image
	samplers map[int]*samplerState
}

// group is a set of lanes executing together. Its context says which
// iteration of each enclosing region the lanes are in (one token per
// region on the block's region path, outermost first; 0 = entered but the
// header not yet executed). A pending group has arrived at its region's
// header and waits at the region's end position to start an iteration.
// Tags keep lanes apart under the switch-separate policy.
type group struct {
	mask    uint64
	block   int
	pending bool
	ctx     []uint64
	tags    []swTag
}

// swTag marks lanes that entered switch sw (dynamic instance inst) through
// case label group label.
type swTag struct {
	sw    int
	inst  uint64
	label int
}

// frame is one function activation of a wave.
type frame struct {
	fi      *funcInfo
	regs    [][]uint64 // per slot, size*width cells, allocated on first write
	prev    []int32    // per lane: the block the lane came from (for phis)
	groups  []*group   // groups waiting to run
	cur     *group     // the group executing, at instruction pc of its block
	pc      int
	retMask uint64
	ret     []uint64
	objs    []int // objects allocated by this activation (allocas)
}

// wave is N lanes of one workgroup.
// fenv is the run's floating-point environment.
func (w *wave) fenv() fenv { return fenv{ftz: w.mc.opts.Denorm == DenormFTZ} }

type wave struct {
	mc      *machine
	index   int
	size    int
	inv     []*invocation // per lane; nil for lanes without an invocation
	present uint64
	killed  uint64 // discarded lanes
	helper  uint64 // helper lanes (quad.go)
	demoted uint64 // lanes demoted to helpers by ps.demote (discarded, still running)
	exited  uint64 // lanes that returned from the entry point
	gptr    [][]uint64
	frames  []*frame
	done    bool
	barrier *ir.Instr // the barrier the wave waits at, if any
	// collCode and collFrame are the OpenCL work-group function the wave
	// waits at (with barrier), computed by machine.groupCollective.
	collCode  *icode
	collFrame *frame
	entryRet  []uint64 // the entry point's return values (size*width)
	zero      []uint64
}

func lanesOf(mask uint64) []int {
	var out []int
	for m := mask; m != 0; m &= m - 1 {
		out = append(out, bits.TrailingZeros64(m))
	}
	return out
}

// laneSet prints a mask as {0-3,6}.
func laneSet(mask uint64) string {
	var parts []string
	ls := lanesOf(mask)
	for i := 0; i < len(ls); {
		j := i
		for j+1 < len(ls) && ls[j+1] == ls[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", ls[i], ls[j]))
		} else {
			parts = append(parts, fmt.Sprint(ls[i]))
		}
		i = j + 1
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func (mc *machine) tick() error {
	mc.steps++
	if mc.steps > mc.maxSteps {
		return fmt.Errorf("%w: %d steps executed (an infinite loop? raise Options.MaxSteps)", ErrStepLimit, mc.maxSteps)
	}
	if mc.steps&1023 == 0 {
		if err := mc.ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

func (mc *machine) fresh() uint64 {
	mc.tokens++
	return mc.tokens
}

// newFrame creates an activation of fi for the lanes of mask, starting at
// the entry block.
func (w *wave) newFrame(fi *funcInfo, mask uint64) *frame {
	fr := &frame{fi: fi, regs: make([][]uint64, len(fi.width)), prev: make([]int32, w.size)}
	for i := range fr.prev {
		fr.prev[i] = -1
	}
	if fi.retW > 0 {
		fr.ret = make([]uint64, w.size*fi.retW)
	}
	fr.groups = []*group{{mask: mask, block: 0, ctx: make([]uint64, len(fi.cfg.path[0]))}}
	return fr
}

// reg returns lane l's cells of slot s for reading (zeros if never written).
func (w *wave) reg(fr *frame, s, l int) []uint64 {
	wd := fr.fi.width[s]
	r := fr.regs[s]
	if r == nil {
		if len(w.zero) < wd {
			w.zero = make([]uint64, wd)
		}
		return w.zero[:wd]
	}
	return r[l*wd : (l+1)*wd]
}

// dst returns lane l's cells of slot s for writing.
func (w *wave) dst(fr *frame, s, l int) []uint64 {
	wd := fr.fi.width[s]
	if fr.regs[s] == nil {
		fr.regs[s] = make([]uint64, w.size*wd)
	}
	return fr.regs[s][l*wd : (l+1)*wd]
}

// arg returns lane l's cells of an operand.
func (w *wave) arg(fr *frame, o *operand, l int) []uint64 {
	switch o.kind {
	case opConst:
		return o.cells
	case opGlobal:
		return w.gptr[o.g][l : l+1]
	}
	return w.reg(fr, o.slot, l)
}

// run executes the wave until it finishes or waits at a barrier.
func (w *wave) run() error {
	for !w.done {
		fr := w.frames[len(w.frames)-1]
		if fr.cur == nil {
			if len(fr.groups) == 0 {
				w.finishFrame()
				continue
			}
			w.schedule(fr)
		}
		stop, err := w.execBlock(fr)
		if err != nil {
			return err
		}
		if stop {
			return nil
		}
	}
	return nil
}

// groupKey is the schedule position of a group: its block's number, or
// for a pending group the end number of the region it iterates.
func groupKey(c *cfg, g *group) int {
	if g.pending {
		return c.regions[c.inner[g.block]].end
	}
	return c.num[g.block]
}

func sameContext(a, b *group) bool {
	if a.block != b.block || a.pending != b.pending || len(a.ctx) != len(b.ctx) || len(a.tags) != len(b.tags) {
		return false
	}
	for i := range a.ctx {
		if a.ctx[i] != b.ctx[i] {
			return false
		}
	}
	for i := range a.tags {
		if a.tags[i] != b.tags[i] {
			return false
		}
	}
	return true
}

// schedule picks the group with the smallest schedule position (ties: the
// one holding the lowest lane), merges every waiting group at the same
// block with the same context into it, and makes it current. A group
// starting a region's header begins a new iteration: fresh token.
func (w *wave) schedule(fr *frame) {
	c := fr.fi.cfg
	best := 0
	bk := groupKey(c, fr.groups[0])
	for i, g := range fr.groups[1:] {
		k := groupKey(c, g)
		if k < bk || k == bk && bits.TrailingZeros64(g.mask) < bits.TrailingZeros64(fr.groups[best].mask) {
			best, bk = i+1, k
		}
	}
	g := fr.groups[best]
	kept := make([]*group, 0, len(fr.groups)-1)
	for i, h := range fr.groups {
		if i == best {
			continue
		}
		if sameContext(g, h) {
			g.mask |= h.mask
		} else {
			kept = append(kept, h)
		}
	}
	fr.groups = kept
	if r := c.inner[g.block]; r > 0 && c.regions[r].header == g.block && len(g.ctx) > 0 {
		g.ctx[len(g.ctx)-1] = w.mc.fresh()
	}
	g.pending = false
	fr.cur, fr.pc = g, 0
}

// finishFrame pops a completed activation and resumes its caller.
func (w *wave) finishFrame() {
	child := w.frames[len(w.frames)-1]
	w.frames = w.frames[:len(w.frames)-1]
	for _, id := range child.objs {
		w.mc.mem.free(id)
	}
	if len(w.frames) == 0 {
		w.entryRet = child.ret
		w.done = true
		return
	}
	parent := w.frames[len(w.frames)-1]
	g := parent.cur
	ic := parent.fi.code[g.block][parent.pc]
	mask := child.retMask & g.mask &^ w.killed
	if ic.res >= 0 {
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			copy(w.dst(parent, ic.res, l), child.ret[l*child.fi.retW:(l+1)*child.fi.retW])
		}
	}
	g.mask = mask
	parent.pc++
	if mask == 0 {
		parent.cur = nil
	}
}

// errAt builds an error located at an instruction of the current group.
func (w *wave) errAt(fr *frame, ic *icode, mask uint64, err error) error {
	if e, ok := err.(*Error); ok && e.Func != "" {
		return e
	}
	e := &Error{Func: fr.fi.fn.Name(), Wave: w.index, Group: w.mc.groupID, Lanes: mask, Err: err}
	if fr.cur != nil {
		e.Block = fr.fi.fn.Blocks[fr.cur.block].Name()
	}
	if ic != nil {
		e.Instr = ir.InstrString(ic.in)
		e.Loc = ic.in.Loc
	}
	return e
}

// execBlock runs the current group from its pc until it leaves the block,
// calls a function or reaches a synchronizing barrier (stop = true).
func (w *wave) execBlock(fr *frame) (stop bool, err error) {
	g := fr.cur
	code := fr.fi.code[g.block]
	if fr.pc == 0 {
		n := fr.fi.fn.Blocks[g.block].FirstNonPhi()
		if n > 0 {
			if err := w.mc.tick(); err != nil {
				return false, w.errAt(fr, code[0], g.mask, err)
			}
			if err := w.phis(fr, code[:n], g.mask); err != nil {
				return false, w.errAt(fr, code[0], g.mask, err)
			}
			fr.pc = n
		}
	}
	for fr.pc < len(code) {
		ic := code[fr.pc]
		if err := w.mc.tick(); err != nil {
			return false, w.errAt(fr, ic, g.mask, err)
		}
		in := ic.in
		switch in.Op {
		case ir.OpCall:
			if in.Callee != nil && in.Callee.IsDeclaration() {
				// OpenCL built-ins left as declarations (opencl.go).
				if coll := isCLGroupCollective(in); coll || isCLSyncBarrier(in) {
					if err := w.checkBarrier(fr, g); err != nil {
						return false, w.errAt(fr, ic, g.mask, err)
					}
					if coll {
						// Computed by runGroup once every wave is here.
						w.collCode, w.collFrame = ic, fr
					} else {
						w.traceOp(fr, ic, g.mask)
					}
					fr.pc++
					w.barrier = in
					return true, nil
				}
				if err := w.builtinCall(fr, ic, g.mask); err != nil {
					return false, w.errAt(fr, ic, g.mask, err)
				}
				fr.pc++
				continue
			}
			if len(w.frames) >= maxCallDepth {
				return false, w.errAt(fr, ic, g.mask, fmt.Errorf("%w: call depth exceeds %d (recursion?)", ErrUnsupported, maxCallDepth))
			}
			fi, err := w.mc.funcInfo(in.Callee)
			if err != nil {
				return false, err
			}
			child := w.newFrame(fi, g.mask)
			for m := g.mask; m != 0; m &= m - 1 {
				l := bits.TrailingZeros64(m)
				for i, ps := range fi.params {
					copy(w.dst(child, ps, l), w.arg(fr, &ic.args[i], l))
				}
			}
			w.frames = append(w.frames, child)
			return false, nil
		case ir.OpBr, ir.OpCondBr, ir.OpSwitch:
			w.branch(fr, ic)
			fr.cur = nil
			return false, nil
		case ir.OpRet:
			fr.retMask |= g.mask
			if len(ic.args) > 0 && fr.fi.retW > 0 {
				for m := g.mask; m != 0; m &= m - 1 {
					l := bits.TrailingZeros64(m)
					copy(fr.ret[l*fr.fi.retW:(l+1)*fr.fi.retW], w.arg(fr, &ic.args[0], l))
				}
			}
			if len(w.frames) == 1 {
				w.exited |= g.mask
			}
			fr.cur = nil
			return false, nil
		case ir.OpDiscard:
			w.killed |= g.mask
			fr.cur = nil
			return false, nil
		case ir.OpUnreachable:
			return false, w.errAt(fr, ic, g.mask, fmt.Errorf("%w: lanes %s reached unreachable", ErrUndefined, laneSet(g.mask)))
		case ir.OpIntrinsic:
			if isSyncBarrier(in.Intr.Name) {
				if err := w.checkBarrier(fr, g); err != nil {
					return false, w.errAt(fr, ic, g.mask, err)
				}
				w.traceOp(fr, ic, g.mask)
				fr.pc++
				w.barrier = in
				return true, nil
			}
		}
		if err := w.exec(fr, ic, g.mask); err != nil {
			return false, w.errAt(fr, ic, g.mask, err)
		}
		fr.pc++
	}
	return false, w.errAt(fr, nil, g.mask, fmt.Errorf("%w: block has no terminator", ErrMalformed))
}

const maxCallDepth = 64

// phis evaluates a block's phis for the lanes of mask, each lane taking the
// value of the edge it came along (all phis read before any is written).
func (w *wave) phis(fr *frame, code []*icode, mask uint64) error {
	tmp := make([][]uint64, len(code))
	for i, ic := range code {
		buf := make([]uint64, 0, ic.w*bits.OnesCount64(mask))
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			p := int(fr.prev[l])
			k := -1
			for j, pb := range ic.preds {
				if pb == p {
					k = j
					break
				}
			}
			if k < 0 {
				from := "the function entry"
				if p >= 0 {
					from = "%" + fr.fi.fn.Blocks[p].Name()
				}
				return w.errAt(fr, ic, 1<<uint(l), fmt.Errorf("%w: phi has no value for lane %d coming from %s", ErrUndefined, l, from))
			}
			buf = append(buf, w.arg(fr, &ic.args[k], l)...)
		}
		tmp[i] = buf
	}
	for i, ic := range code {
		off := 0
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			copy(w.dst(fr, ic.res, l), tmp[i][off:off+ic.w])
			off += ic.w
		}
	}
	return nil
}

// branch executes a br/condbr/switch: lanes are partitioned by target (and,
// under the switch-separate policy, by case label) into new waiting groups.
func (w *wave) branch(fr *frame, ic *icode) {
	g := fr.cur
	in := ic.in
	switch in.Op {
	case ir.OpBr:
		w.transfer(fr, g, ic.succ[0], g.mask, nil)
	case ir.OpCondBr:
		var t uint64
		for m := g.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			if w.arg(fr, &ic.args[0], l)[0]&1 != 0 {
				t |= 1 << uint(l)
			}
		}
		if t != 0 {
			w.transfer(fr, g, ic.succ[0], t, nil)
		}
		if e := g.mask &^ t; e != 0 {
			w.transfer(fr, g, ic.succ[1], e, nil)
		}
	case ir.OpSwitch:
		sel := ic.args[0]
		st := sel.typ
		labelMasks := make([]uint64, len(in.Cases))
		for m := g.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			v := w.arg(fr, &sel, l)[0]
			labelMasks[caseIndex(in, v, st)] |= 1 << uint(l)
		}
		separate := w.mc.opts.Policy == PolicySwitchSeparate
		var inst uint64
		if separate {
			w.mc.swInst++
			inst = w.mc.swInst
		}
		// Without tags, label groups sharing a target become one group.
		byTarget := map[int]uint64{}
		var order []int
		for ci, lm := range labelMasks {
			if lm == 0 {
				continue
			}
			if separate {
				w.transfer(fr, g, ic.cases[ci], lm, &swTag{sw: ic.sw, inst: inst, label: ci})
				continue
			}
			if _, ok := byTarget[ic.cases[ci]]; !ok {
				order = append(order, ic.cases[ci])
			}
			byTarget[ic.cases[ci]] |= lm
		}
		for _, t := range order {
			w.transfer(fr, g, t, byTarget[t], nil)
		}
	}
}

// caseIndex finds the case label group a selector value selects.
func caseIndex(in *ir.Instr, v uint64, t *ir.Type) int {
	def := -1
	b := bitsOf(t)
	for ci, c := range in.Cases {
		for _, cv := range c.Values {
			if uint64(cv)&widthMask(b) == v&widthMask(b) {
				return ci
			}
		}
		if c.Default {
			def = ci
		}
	}
	return def
}

// transfer moves the lanes of mask from g's block to block to, adjusting
// the region context along the edge: regions left are dropped, regions
// entered start with token 0, and lanes arriving at a region's header
// become pending: they wait at the region's end position until no lane
// with the same context can still arrive there.
func (w *wave) transfer(fr *frame, g *group, to int, mask uint64, tag *swTag) {
	c := fr.fi.cfg
	from := g.block
	pb, ps := c.path[from], c.path[to]
	k := 0
	for k < len(pb) && k < len(ps) && pb[k] == ps[k] {
		k++
	}
	ng := &group{mask: mask, block: to}
	if k == len(ps) && k > 0 && c.regions[ps[k-1]].header == to {
		ng.ctx = append([]uint64(nil), g.ctx[:k]...)
		ng.pending = true
	} else {
		ng.ctx = make([]uint64, len(ps))
		copy(ng.ctx, g.ctx[:k])
		// Entering a region at its header also waits at the region's end:
		// lanes that entered an irreducible region through another entry
		// (token 0, header not yet executed) may still reach the header
		// and must execute it together with these.
		if len(ps) > k && c.regions[ps[len(ps)-1]].header == to {
			ng.pending = true
		}
	}
	for _, t := range g.tags {
		if fr.fi.switches[t.sw].in[to] {
			ng.tags = append(ng.tags, t)
		}
	}
	if tag != nil && fr.fi.switches[tag.sw].in[to] {
		ng.tags = append(ng.tags, *tag)
	}
	for m := mask; m != 0; m &= m - 1 {
		fr.prev[bits.TrailingZeros64(m)] = int32(from)
	}
	fr.groups = append(fr.groups, ng)
}

func isSyncBarrier(name string) bool {
	switch name {
	case "GroupMemoryBarrierWithGroupSync", "DeviceMemoryBarrierWithGroupSync", "AllMemoryBarrierWithGroupSync", "llvm.amdgcn.s.barrier":
		return true
	}
	return false
}

// checkBarrier requires every lane of the wave that has not been discarded
// to execute the barrier together.
func (w *wave) checkBarrier(fr *frame, g *group) error {
	want := w.present &^ w.killed
	if g.mask == want {
		return nil
	}
	missing := want &^ g.mask
	return fmt.Errorf("%w: lanes %s of wave %d reached the barrier but lanes %s %s", ErrDivergentBarrier,
		laneSet(g.mask), w.index, laneSet(missing), w.whereAre(missing))
}

// whereAre describes where the lanes of mask are, for error messages.
func (w *wave) whereAre(mask uint64) string {
	var parts []string
	if x := mask & w.exited; x != 0 {
		parts = append(parts, laneSet(x)+" have returned")
	}
	for _, fr := range w.frames {
		for _, g := range fr.groups {
			if x := mask & g.mask; x != 0 {
				parts = append(parts, fmt.Sprintf("%s wait at @%s %%%s", laneSet(x), fr.fi.fn.Name(), fr.fi.fn.Blocks[g.block].Name()))
			}
		}
		if fr.cur != nil && fr != w.frames[len(w.frames)-1] {
			if x := mask & fr.cur.mask; x != 0 {
				parts = append(parts, fmt.Sprintf("%s are in a call from @%s %%%s", laneSet(x), fr.fi.fn.Name(), fr.fi.fn.Blocks[fr.cur.block].Name()))
			}
		}
	}
	if len(parts) == 0 {
		return "are elsewhere"
	}
	return "are elsewhere: " + strings.Join(parts, "; ")
}

// opName is the name a wave operation is traced under: the intrinsic's,
// or the demangled name of an OpenCL built-in.
func opName(in *ir.Instr) string {
	if in.Intr != nil {
		return in.Intr.Name
	}
	if in.Callee != nil {
		if b, ok := demangleCL(in.Callee.Name()); ok {
			return b.name
		}
		return in.Callee.Name()
	}
	return in.Op.String()
}

// traceOp records a wave operation for Result.WaveOps.
func (w *wave) traceOp(fr *frame, ic *icode, mask uint64) {
	if !w.mc.opts.Trace {
		return
	}
	if len(w.mc.result.WaveOps) >= MaxTrace {
		w.mc.result.WaveOpsDropped++
		return
	}
	op := WaveOp{
		Seq:   len(w.mc.result.WaveOps),
		Group: w.mc.groupID,
		Wave:  w.index,
		Func:  fr.fi.fn.Name(),
		Block: fr.fi.fn.Blocks[fr.cur.block].Name(),
		Instr: ic.in,
		Name:  opName(ic.in),
		Mask:  mask,
		Type:  ic.in.Type(),
	}
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		op.Lanes = append(op.Lanes, l)
		if w.inv[l] != nil {
			op.Invocations = append(op.Invocations, w.inv[l].index)
		} else {
			op.Invocations = append(op.Invocations, -1)
		}
		if ic.res >= 0 {
			op.Results = append(op.Results, append([]uint64(nil), w.reg(fr, ic.res, l)...))
		}
	}
	w.mc.result.WaveOps = append(w.mc.result.WaveOps, op)
}
