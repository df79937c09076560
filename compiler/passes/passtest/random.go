package passtest

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"passlens/compiler/ir"
)

// Random modules for the control-flow passes' tests: compute shaders that
// read @In[tid] and write @Out[tid] (run them with Input(m, Data)).

// RandomSwitchModule builds a compute shader with a switch on
// (In[i] + 3k) & 7, optionally inside a loop over k, whose label groups
// update an accumulator carried in phis.
func RandomSwitchModule(seed uint64) *ir.Module {
	r := rand.New(rand.NewPCG(seed, 77))
	m := ir.NewModule(fmt.Sprintf("random-switch-%d", seed))
	inG, outG, tid, f := computeSkeleton(m)
	b := ir.NewBuilder(f)
	c := func(v int64) ir.Value { return ir.ConstInt(ir.I32, v) }

	entry := f.NewBlock("entry")
	b.SetBlock(entry)
	tv := b.Load(tid, "tid")
	i := b.ExtractValue(tv, []int{0}, "i")
	x := b.Load(b.Access(inG, []ir.Value{i}, "in.p"), "x")

	inLoop := r.IntN(3) != 0
	var loop, loopCont, exit *ir.Block
	var k, acc *ir.Instr
	var accIn ir.Value = c(0)
	hb := entry
	if inLoop {
		loop = f.NewBlock("loop")
		body := f.NewBlock("body")
		loopCont = f.NewBlock("loop.cont")
		exit = f.NewBlock("exit")
		b.Br(loop)
		b.SetBlock(loop)
		k = b.Phi(ir.I32, "k")
		acc = b.Phi(ir.I32, "acc")
		more := b.Cmp(ir.PredSLT, k, c(3), "more")
		t := b.CondBr(more, body, exit)
		t.SetLoopMerge(exit, loopCont)
		b.SetBlock(body)
		accIn = acc
		hb = body
	}
	var kv ir.Value = c(0)
	if k != nil {
		kv = k
	}
	k3 := b.Binary(ir.OpMul, kv, c(3), "k3")
	s0 := b.Binary(ir.OpAdd, x, k3, "s0")
	s := b.Binary(ir.OpAnd, s0, c(7), "s")

	// Label groups: values 0..7 shuffled, dealt into 2..5 groups; some left
	// to default. Default is its own group, shares a group, or is absent.
	vals := r.Perm(8)
	ng := 2 + r.IntN(4)
	type grp struct {
		values []int64
		def    bool
		entry  *ir.Block
		accIn  *ir.Instr
	}
	groups := make([]*grp, ng)
	for g := range groups {
		groups[g] = &grp{}
	}
	for j, v := range vals[:ng+r.IntN(8-ng+1)] {
		g := groups[r.IntN(ng)]
		if j < ng {
			g = groups[j]
		}
		g.values = append(g.values, int64(v))
	}
	switch r.IntN(4) {
	case 0: // no default
	case 1:
		groups[r.IntN(len(groups))].def = true
	default:
		pos := r.IntN(len(groups) + 1)
		groups = slices.Insert(groups, pos, &grp{def: true})
	}
	merge := f.NewBlock("merge")
	for j, g := range groups {
		g.entry = f.NewBlock(fmt.Sprint("case", j))
	}
	var cases []ir.SwitchCase
	hasDefault := false
	for _, g := range groups {
		cases = append(cases, ir.SwitchCase{Values: g.values, Default: g.def, Target: g.entry})
		hasDefault = hasDefault || g.def
	}
	if !hasDefault {
		cases = append(cases, ir.SwitchCase{Default: true, Target: merge})
	}
	b.SetBlock(hb)
	st := b.Switch(s, cases)
	st.SetSelectionMerge(merge)

	// Bodies. Each group's entry has a phi for the accumulator (from the
	// switch and from the previous body if it falls through).
	type edge struct {
		from *ir.Block
		v    ir.Value
	}
	var toMerge, toCont []edge
	var fall *edge
	for j, g := range groups {
		b.SetBlock(g.entry)
		g.accIn = b.Phi(ir.I32, fmt.Sprint("a", j))
		g.accIn.AddIncoming(accIn, hb)
		if fall != nil {
			g.accIn.AddIncoming(fall.v, fall.from)
			fall = nil
		}
		a3 := b.Binary(ir.OpMul, g.accIn, c(3), fmt.Sprint("a", j, "x3"))
		a1 := b.Binary(ir.OpAdd, a3, c(int64(j+1)), fmt.Sprint("a", j, "n"))
		last := j == len(groups)-1
		kind := r.IntN(5)
		switch {
		case kind == 0 && inLoop: // continue
			b.Br(loopCont)
			toCont = append(toCont, edge{b.B, a1})
		case kind <= 1 || last: // break
			b.Br(merge)
			toMerge = append(toMerge, edge{b.B, a1})
		case kind == 2: // fall through
			b.Br(groups[j+1].entry)
			fall = &edge{b.B, a1}
		default: // if (a1 & 1) break/continue; fall through
			bit := b.Binary(ir.OpAnd, a1, c(1), fmt.Sprint("a", j, "b"))
			odd := b.Cmp(ir.PredNE, bit, c(0), fmt.Sprint("a", j, "odd"))
			brk := f.NewBlock(fmt.Sprint("case", j, ".brk"))
			ft := f.NewBlock(fmt.Sprint("case", j, ".ft"))
			t := b.CondBr(odd, brk, ft)
			t.SetSelectionMerge(ft)
			b.SetBlock(brk)
			if inLoop && r.IntN(2) == 0 {
				b.Br(loopCont)
				toCont = append(toCont, edge{brk, a1})
			} else {
				b.Br(merge)
				toMerge = append(toMerge, edge{brk, a1})
			}
			b.SetBlock(ft)
			b.Br(groups[j+1].entry)
			fall = &edge{ft, a1}
		}
	}
	b.SetBlock(merge)
	accSw := b.Phi(ir.I32, "acc.sw")
	for _, e := range toMerge {
		accSw.AddIncoming(e.v, e.from)
	}
	if !hasDefault {
		accSw.AddIncoming(accIn, hb)
	}
	after := b.Binary(ir.OpAdd, accSw, c(1000), "acc.after")
	if inLoop {
		b.Br(loopCont)
		b.SetBlock(loopCont)
		next := b.Phi(ir.I32, "acc.next")
		next.AddIncoming(after, merge)
		for _, e := range toCont {
			next.AddIncoming(e.v, e.from)
		}
		kn := b.Binary(ir.OpAdd, k, c(1), "k.next")
		b.Br(loop)
		k.AddIncoming(c(0), entry)
		k.AddIncoming(kn, loopCont)
		acc.AddIncoming(c(0), entry)
		acc.AddIncoming(next, loopCont)
		b.SetBlock(exit)
		b.Store(acc, b.Access(outG, []ir.Value{i}, "out.p"))
	} else {
		b.Store(after, b.Access(outG, []ir.Value{i}, "out.p"))
	}
	b.Ret(nil)
	// Blocks in a readable order: loop and switch first, exit last.
	if exit != nil {
		blocks := slices.DeleteFunc(slices.Clone(f.Blocks), func(x *ir.Block) bool { return x == exit || x == merge || x == loopCont })
		blocks = append(blocks, merge, loopCont, exit)
		copy(f.Blocks, blocks)
	}
	return m
}

// RandomCFGModule builds a compute shader whose control flow is a random
// graph of blocks (irreducible cycles likely, no annotations): each block
// updates an accumulator and a fuel counter carried in phis and leaves for
// the exit when the fuel runs out, else jumps on (br, condbr or switch on
// the accumulator) to random blocks.
func RandomCFGModule(seed uint64) *ir.Module {
	r := rand.New(rand.NewPCG(seed, 99))
	m := ir.NewModule(fmt.Sprintf("random-cfg-%d", seed))
	inG, outG, tid, f := computeSkeleton(m)
	b := ir.NewBuilder(f)
	c := func(v int64) ir.Value { return ir.ConstInt(ir.I32, v) }

	nb := 3 + r.IntN(6)
	entry := f.NewBlock("entry")
	blocks := make([]*ir.Block, nb)
	for j := range blocks {
		blocks[j] = f.NewBlock(fmt.Sprint("B", j))
	}
	exit := f.NewBlock("exit")
	// Successor choices, decided first so phis know their predecessors.
	type jump struct {
		kind    int // 0 br, 1 condbr, 2 switch
		targets []*ir.Block
	}
	jumps := make([]jump, nb)
	for j := range jumps {
		k := r.IntN(3)
		n := []int{1, 2, 3}[k]
		for range n {
			jumps[j].targets = append(jumps[j].targets, blocks[r.IntN(nb)])
		}
		jumps[j].kind = k
	}
	type state struct {
		from     *ir.Block
		acc, rem ir.Value
	}
	incoming := map[*ir.Block][]state{}

	b.SetBlock(entry)
	tv := b.Load(tid, "tid")
	i := b.ExtractValue(tv, []int{0}, "i")
	x := b.Load(b.Access(inG, []ir.Value{i}, "in.p"), "x")
	b.Br(blocks[0])
	incoming[blocks[0]] = append(incoming[blocks[0]], state{entry, x, c(12 + int64(r.IntN(20)))})

	type pending struct {
		phiAcc, phiRem *ir.Instr
		blk            *ir.Block
	}
	var phis []pending
	for j, blk := range blocks {
		b.SetBlock(blk)
		pa := b.Phi(ir.I32, fmt.Sprint("acc", j))
		pr := b.Phi(ir.I32, fmt.Sprint("rem", j))
		phis = append(phis, pending{pa, pr, blk})
		a5 := b.Binary(ir.OpMul, pa, c(5), "")
		a1 := b.Binary(ir.OpAdd, a5, c(int64(j+1)), "")
		acc := b.Binary(ir.OpAnd, a1, c(1023), fmt.Sprint("acc", j, "n"))
		rem := b.Binary(ir.OpSub, pr, c(1), fmt.Sprint("rem", j, "n"))
		stop := b.Cmp(ir.PredSLE, rem, c(0), "")
		go1 := f.NewBlock(fmt.Sprint("B", j, ".go"))
		b.CondBr(stop, exit, go1)
		incoming[exit] = append(incoming[exit], state{blk, acc, rem})
		b.SetBlock(go1)
		jp := jumps[j]
		switch jp.kind {
		case 0:
			b.Br(jp.targets[0])
		case 1:
			bit := b.Binary(ir.OpAnd, acc, c(1), "")
			odd := b.Cmp(ir.PredNE, bit, c(0), "")
			b.CondBr(odd, jp.targets[0], jp.targets[1])
		case 2:
			sel := b.Binary(ir.OpAnd, acc, c(3), "")
			b.Switch(sel, []ir.SwitchCase{{Values: []int64{0}, Target: jp.targets[0]}, {Values: []int64{1, 2}, Target: jp.targets[1]}, {Default: true, Target: jp.targets[2]}})
		}
		seen := map[*ir.Block]bool{}
		for _, t := range jp.targets {
			if !seen[t] {
				seen[t] = true
				incoming[t] = append(incoming[t], state{go1, acc, rem})
			}
		}
	}
	for _, p := range phis {
		ins := incoming[p.blk]
		if len(ins) == 0 {
			// Unreachable: no predecessor, so no phi.
			f.ReplaceUses(map[ir.Value]ir.Value{p.phiAcc: c(0), p.phiRem: c(0)})
			p.phiAcc.Remove()
			p.phiRem.Remove()
			continue
		}
		for _, s := range ins {
			p.phiAcc.AddIncoming(s.acc, s.from)
			p.phiRem.AddIncoming(s.rem, s.from)
		}
	}
	b.SetBlock(exit)
	res := b.Phi(ir.I32, "res")
	for _, s := range incoming[exit] {
		res.AddIncoming(s.acc, s.from)
	}
	b.Store(res, b.Access(outG, []ir.Value{i}, "out.p"))
	b.Ret(nil)
	return m
}

// computeSkeleton adds the shape every random module shares to m: the
// read-only buffer @In, the buffer @Out, the thread id @tid and an empty
// compute entry @main of 16 threads.
func computeSkeleton(m *ir.Module) (inG, outG, tid *ir.Global, f *ir.Function) {
	inG = ir.NewGlobal("In", ir.SpaceStorage, ir.Array(ir.I32, -1))
	inG.Set, inG.Binding, inG.ReadOnly = 0, 0, true
	outG = ir.NewGlobal("Out", ir.SpaceStorage, ir.Array(ir.I32, -1))
	outG.Set, outG.Binding = 0, 1
	tid = ir.NewGlobal("tid", ir.SpaceInput, ir.Vec(ir.U32, 3))
	tid.Semantic = "SV_DispatchThreadID"
	m.AddGlobal(inG)
	m.AddGlobal(outG)
	m.AddGlobal(tid)
	f = m.NewFunction("main", ir.Void, nil, nil)
	f.Entry = &ir.EntryPoint{Stage: ir.StageCompute, NumThreads: [3]int{16, 1, 1}}
	return inG, outG, tid, f
}
