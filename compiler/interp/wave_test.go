package interp

import (
	"errors"
	"testing"

	"passlens/compiler/ir"
)

// ifThen emits a structured if: condbr c to a then block (running body)
// and the merge block, where the builder is left.
func (k *kit) ifThen(c ir.Value, body func()) {
	then := k.f.NewBlock("if.then")
	merge := k.f.NewBlock("if.merge")
	k.b.CondBr(c, then, merge).SetSelectionMerge(merge)
	k.b.SetBlock(then)
	body()
	if k.b.B.Terminator() == nil {
		k.b.Br(merge)
	}
	k.b.SetBlock(merge)
}

// variable is an alloca-backed local.
func (k *kit) variable(t *ir.Type, name string, init ir.Value) ir.Value {
	p := k.b.Alloca(t, name)
	k.b.Store(init, p)
	return p
}

func (k *kit) add(p ir.Value, v ir.Value) {
	k.b.Store(k.b.Binary(ir.OpAdd, k.b.Load(p, ""), v, ""), p)
}

func (k *kit) wave(name string, rt *ir.Type, args ...ir.Value) ir.Value {
	return k.b.Intrinsic(name, rt, args, name)
}

func (k *kit) toU32(v ir.Value) ir.Value {
	switch v.Type().Kind {
	case ir.KBool:
		return k.b.Cast(ir.OpZExt, v, ir.U32, "")
	case ir.KInt:
		return k.b.Cast(ir.OpBitcast, v, ir.U32, "")
	case ir.KFloat:
		return k.b.Cast(ir.OpBitcast, v, ir.U32, "")
	case ir.KVector:
		return k.toU32(k.b.ExtractValue(v, []int{0}, ""))
	}
	return v
}

// TestWaveOpsDivergent runs each wave op with only the odd lanes of an
// 8-lane wave active, under both policies.
func TestWaveOpsDivergent(t *testing.T) {
	t.Parallel()
	type tc struct {
		name string
		rt   *ir.Type
		arg  func(k *kit, lane ir.Value) []ir.Value
		want map[int]uint32 // per odd lane 1, 3, 5, 7
	}
	all := func(v uint32) map[int]uint32 { return map[int]uint32{1: v, 3: v, 5: v, 7: v} }
	lane := func(k *kit, l ir.Value) []ir.Value { return []ir.Value{l} }
	gt2 := func(k *kit, l ir.Value) []ir.Value { return []ir.Value{k.b.Cmp(ir.PredUGT, l, u32c(2), "")} }
	times10 := func(k *kit, l ir.Value) []ir.Value { return []ir.Value{k.b.Binary(ir.OpMul, l, u32c(10), "")} }
	none := func(k *kit, l ir.Value) []ir.Value { return nil }
	cases := []tc{
		{"WaveActiveSum", ir.U32, lane, all(16)},
		{"WaveActiveProduct", ir.U32, lane, all(105)},
		{"WaveActiveMin", ir.U32, lane, all(1)},
		{"WaveActiveMax", ir.U32, lane, all(7)},
		{"WaveActiveBitAnd", ir.U32, lane, all(1)},
		{"WaveActiveBitOr", ir.U32, lane, all(7)},
		{"WaveActiveBitXor", ir.U32, lane, all(0)},
		{"WaveActiveAllTrue", ir.Bool, gt2, all(0)},
		{"WaveActiveAnyTrue", ir.Bool, gt2, all(1)},
		{"WaveActiveAllEqual", ir.Bool, func(k *kit, l ir.Value) []ir.Value {
			return []ir.Value{k.b.Binary(ir.OpAnd, l, u32c(1), "")}
		}, all(1)},
		{"WaveActiveCountBits", ir.U32, gt2, all(3)},
		{"WaveActiveBallot", ir.Vec(ir.U32, 4), gt2, all(0xA8)},
		{"WaveReadLaneFirst", ir.U32, times10, all(10)},
		{"WaveReadLaneAt", ir.U32, func(k *kit, l ir.Value) []ir.Value {
			return []ir.Value{k.b.Binary(ir.OpMul, l, u32c(10), ""), u32c(5)}
		}, all(50)},
		{"WavePrefixSum", ir.U32, lane, map[int]uint32{1: 0, 3: 1, 5: 4, 7: 9}},
		{"WavePrefixProduct", ir.U32, lane, map[int]uint32{1: 1, 3: 1, 5: 3, 7: 15}},
		{"WavePrefixCountBits", ir.U32, func(k *kit, l ir.Value) []ir.Value {
			return []ir.Value{ir.ConstBool(ir.Bool, true)}
		}, map[int]uint32{1: 0, 3: 1, 5: 2, 7: 3}},
		{"WaveIsFirstLane", ir.Bool, none, map[int]uint32{1: 1, 3: 0, 5: 0, 7: 0}},
		{"WaveGetLaneCount", ir.U32, none, all(8)},
		{"WaveGetLaneIndex", ir.U32, none, map[int]uint32{1: 1, 3: 3, 5: 5, 7: 7}},
	}
	for _, p := range Policies() {
		for _, c := range cases {
			k := newKit(ir.U32, 8)
			l := k.wave("WaveGetLaneIndex", ir.U32)
			odd := k.b.Cmp(ir.PredNE, k.b.Binary(ir.OpAnd, l, u32c(1), ""), u32c(0), "odd")
			k.ifThen(odd, func() {
				k.store(k.toU32(k.wave(c.name, c.rt, c.arg(k, l)...)))
			})
			res := k.run(t, nil, Options{WaveSize: 8, Policy: p})
			got := outU32(t, res, "Out", 8)
			for ln := 0; ln < 8; ln++ {
				want := c.want[ln] // even lanes did not store: 0
				if got[ln] != want {
					t.Errorf("%s/%s: lane %d got %d, want %d (all %v)", p, c.name, ln, got[ln], want, got)
					break
				}
			}
		}
	}
}

// TestWaveOpsValues covers float and vector reductions and the
// per-component AllEqual.
func TestWaveOpsValues(t *testing.T) {
	t.Parallel()
	k := newKit(ir.U32, 4)
	// Float sums run in lane order, rounding each step.
	fs := k.wave("WaveActiveSum", ir.F32, f32c(0.1))
	// Vector sum of <lane, 1>.
	l := k.wave("WaveGetLaneIndex", ir.U32)
	vs := k.wave("WaveActiveSum", ir.Vec(ir.U32, 2), k.b.Construct(ir.Vec(ir.U32, 2), []ir.Value{l, u32c(1)}, ""))
	// AllEqual per component: <1, lane> -> <true, false>.
	ae := k.wave("WaveActiveAllEqual", ir.Vec(ir.Bool, 2), k.b.Construct(ir.Vec(ir.U32, 2), []ir.Value{u32c(1), l}, ""))
	// Float min/max with negative values.
	lf := k.b.Cast(ir.OpUIToFP, l, ir.F32, "")
	nf := k.b.Unary(ir.OpFNeg, lf, "")
	fmin := k.wave("WaveActiveMin", ir.F32, nf)
	fmax := k.wave("WaveActiveMax", ir.F32, nf)
	base := k.b.Binary(ir.OpMul, k.tid, u32c(8), "")
	put := func(i int, v ir.Value) {
		k.storeAt(k.b.Binary(ir.OpAdd, base, u32c(int64(i)), ""), v)
	}
	put(0, k.toU32(fs))
	put(1, k.b.ExtractValue(vs, []int{0}, ""))
	put(2, k.b.ExtractValue(vs, []int{1}, ""))
	put(3, k.toU32(k.b.ExtractValue(ae, []int{0}, "")))
	put(4, k.toU32(k.b.ExtractValue(ae, []int{1}, "")))
	put(5, k.toU32(fmin))
	put(6, k.toU32(fmax))
	res := k.run(t, nil, Options{WaveSize: 4})
	x := float32(0.1)
	s := x + x
	s += x
	s += x
	want := []uint32{uint32(f32bits(s)), 6, 4, 1, 0, uint32(f32bits(-3)), 0x80000000}
	got := outU32(t, res, "Out", 32)
	for lane := 0; lane < 4; lane++ {
		if !eqU32(got[lane*8:lane*8+7], want) {
			t.Errorf("lane %d: got %#x, want %#x", lane, got[lane*8:lane*8+7], want)
		}
	}
}

// loopKit builds: i = 0; do { acc += WaveActiveCountBits(true); i++ } while
// (i <= tid); then stores acc*100 + WaveActiveCountBits(true) after the
// loop, in SSA form, with or without loop annotations.
func loopModule(annotate bool) *ir.Module {
	k := newKit(ir.U32, 4)
	entry := k.b.B
	loop := k.f.NewBlock("loop")
	latch := k.f.NewBlock("loop.latch")
	exit := k.f.NewBlock("exit")
	k.b.Br(loop)
	k.b.SetBlock(loop)
	i := k.b.Phi(ir.U32, "i")
	acc := k.b.Phi(ir.U32, "acc")
	c := k.wave("WaveActiveCountBits", ir.U32, ir.ConstBool(ir.Bool, true))
	accN := k.b.Binary(ir.OpAdd, acc, c, "acc.next")
	iN := k.b.Binary(ir.OpAdd, i, u32c(1), "i.next")
	done := k.b.Cmp(ir.PredUGT, iN, k.tid, "done")
	br := k.b.CondBr(done, exit, latch)
	if annotate {
		br.SetLoopMerge(exit, latch)
	}
	i.AddIncoming(u32c(0), entry)
	i.AddIncoming(iN, latch)
	acc.AddIncoming(u32c(0), entry)
	acc.AddIncoming(accN, latch)
	k.b.SetBlock(latch)
	k.b.Br(loop)
	k.b.SetBlock(exit)
	after := k.wave("WaveActiveCountBits", ir.U32, ir.ConstBool(ir.Bool, true))
	k.store(k.b.Binary(ir.OpAdd, k.b.Binary(ir.OpMul, accN, u32c(100), ""), after, ""))
	return k.finish()
}

func TestWaveInLoop(t *testing.T) {
	t.Parallel()
	for _, annotate := range []bool{false, true} {
		for _, p := range Policies() {
			res, err := runT(loopModule(annotate), nil, Options{WaveSize: 4, Policy: p})
			if err != nil {
				t.Fatal(err)
			}
			// Iteration i runs with the lanes whose tid >= i: 4, 3, 2, 1.
			want := []uint32{404, 704, 904, 1004}
			if got := outU32(t, res, "Out", 4); !eqU32(got, want) {
				t.Errorf("annotated=%v %s: got %v, want %v", annotate, p, got, want)
			}
		}
	}
}

// breakModule: for (i = 0;; i++) if (i == tid) { c = WaveActiveCountBits(true);
// break; }. The break block is outside the CFG cycle but inside the loop
// construct.
func breakModule(annotate bool) *ir.Module {
	k := newKit(ir.U32, 4)
	entry := k.b.B
	loop := k.f.NewBlock("loop")
	brk := k.f.NewBlock("break")
	latch := k.f.NewBlock("latch")
	exit := k.f.NewBlock("exit")
	k.b.Br(loop)
	k.b.SetBlock(loop)
	i := k.b.Phi(ir.U32, "i")
	eq := k.b.Cmp(ir.PredEQ, i, k.tid, "")
	br := k.b.CondBr(eq, brk, latch)
	if annotate {
		br.SetLoopMerge(exit, latch)
	}
	k.b.SetBlock(brk)
	c := k.wave("WaveActiveCountBits", ir.U32, ir.ConstBool(ir.Bool, true))
	k.b.Br(exit)
	k.b.SetBlock(latch)
	iN := k.b.Binary(ir.OpAdd, i, u32c(1), "i.next")
	k.b.Br(loop)
	i.AddIncoming(u32c(0), entry)
	i.AddIncoming(iN, latch)
	k.b.SetBlock(exit)
	k.store(c)
	return k.finish()
}

// TestBreakBlockConvergence shows the two sides of the rule: without a
// loop_merge annotation maximal convergence reconverges lanes that break
// in different iterations at the break block (it is outside the cycle);
// with the annotation the break block belongs to the loop construct and
// each lane executes it alone (HLSL / SPV_KHR_maximal_reconvergence).
func TestBreakBlockConvergence(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		annotate bool
		want     []uint32
	}{{false, []uint32{4, 4, 4, 4}}, {true, []uint32{1, 1, 1, 1}}} {
		res, err := runT(breakModule(tc.annotate), nil, Options{WaveSize: 4})
		if err != nil {
			t.Fatal(err)
		}
		if got := outU32(t, res, "Out", 4); !eqU32(got, tc.want) {
			t.Errorf("annotated=%v: got %v, want %v", tc.annotate, got, tc.want)
		}
	}
}

// TestNestedLoopReconvergence: lanes leave an inner loop after different
// trip counts and reconverge in the same outer iteration.
func TestNestedLoopReconvergence(t *testing.T) {
	t.Parallel()
	k := newKit(ir.U32, 4)
	acc := k.variable(ir.U32, "acc", u32c(0))
	inner := k.variable(ir.U32, "inner", u32c(0))
	i := k.variable(ir.U32, "i", u32c(0))
	j := k.variable(ir.U32, "j", u32c(0))
	oh := k.f.NewBlock("outer")
	ih := k.f.NewBlock("inner")
	ib := k.f.NewBlock("inner.body")
	ie := k.f.NewBlock("inner.exit")
	ol := k.f.NewBlock("outer.latch")
	oe := k.f.NewBlock("outer.exit")
	k.b.Br(oh)
	k.b.SetBlock(oh) // for i in 0..3
	k.b.Store(u32c(0), j)
	k.b.Br(ih).SetLoopMerge(oe, ol)
	k.b.SetBlock(ih) // for j in 0..(tid+i)%3
	jv := k.b.Load(j, "")
	lim := k.b.Binary(ir.OpURem, k.b.Binary(ir.OpAdd, k.tid, k.b.Load(i, ""), ""), u32c(3), "")
	k.b.CondBr(k.b.Cmp(ir.PredULE, jv, lim, ""), ib, ie).SetLoopMerge(ie, ib)
	k.b.SetBlock(ib)
	k.add(inner, k.wave("WaveActiveCountBits", ir.U32, ir.ConstBool(ir.Bool, true)))
	k.add(j, u32c(1))
	k.b.Br(ih)
	k.b.SetBlock(ie)
	k.add(acc, k.wave("WaveActiveCountBits", ir.U32, ir.ConstBool(ir.Bool, true)))
	k.add(i, u32c(1))
	k.b.Br(ol)
	k.b.SetBlock(ol)
	k.b.CondBr(k.b.Cmp(ir.PredULT, k.b.Load(i, ""), u32c(3), ""), oh, oe)
	k.b.SetBlock(oe)
	k.store(k.b.Binary(ir.OpAdd, k.b.Binary(ir.OpMul, k.b.Load(acc, ""), u32c(1000), ""), k.b.Load(inner, ""), ""))
	res := k.run(t, nil, Options{WaveSize: 4})
	// Reference: in outer iteration i lane l runs (l+i)%3+1 inner
	// iterations; inner iteration j is run by lanes with (l+i)%3 >= j.
	want := make([]uint32, 4)
	for l := 0; l < 4; l++ {
		var in uint32
		for it := 0; it < 3; it++ {
			for jj := 0; jj <= (l+it)%3; jj++ {
				for o := 0; o < 4; o++ {
					if (o+it)%3 >= jj {
						in++
					}
				}
			}
		}
		want[l] = 3*4*1000 + in
	}
	if got := outU32(t, res, "Out", 4); !eqU32(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestCallDivergence: a wave op inside a called function sees the lanes
// that called it and diverged inside it; after the call all lanes
// reconverge.
func TestCallDivergence(t *testing.T) {
	t.Parallel()
	k := newKit(ir.U32, 8)
	f := k.m.NewFunction("f", ir.U32, []string{"x"}, []*ir.Type{ir.U32})
	fb := ir.NewBuilder(f)
	fe := f.NewBlock("entry")
	fo := f.NewBlock("odd")
	fv := f.NewBlock("even")
	fb.SetBlock(fe)
	odd := fb.Cmp(ir.PredNE, fb.Binary(ir.OpAnd, f.Params[0], u32c(1), ""), u32c(0), "")
	fb.CondBr(odd, fo, fv)
	fb.SetBlock(fo)
	fb.Ret(fb.Intrinsic("WaveActiveCountBits", ir.U32, []ir.Value{ir.ConstBool(ir.Bool, true)}, ""))
	fb.SetBlock(fv)
	c := fb.Intrinsic("WaveActiveCountBits", ir.U32, []ir.Value{ir.ConstBool(ir.Bool, true)}, "")
	fb.Ret(fb.Binary(ir.OpAdd, c, u32c(100), ""))

	r := k.variable(ir.U32, "r", u32c(1000))
	k.ifThen(k.b.Cmp(ir.PredULT, k.tid, u32c(6), ""), func() {
		k.b.Store(k.b.Call(f, []ir.Value{k.tid}, "call"), r)
	})
	after := k.wave("WaveActiveCountBits", ir.U32, ir.ConstBool(ir.Bool, true))
	k.store(k.b.Binary(ir.OpAdd, k.b.Load(r, ""), k.b.Binary(ir.OpMul, after, u32c(10000), ""), ""))
	res := k.run(t, nil, Options{WaveSize: 8})
	want := []uint32{80103, 80003, 80103, 80003, 80103, 80003, 81000, 81000}
	if got := outU32(t, res, "Out", 8); !eqU32(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestIrreducible runs an irreducible loop (two entries chosen by lane
// parity): values per lane, and full reconvergence after the cycle.
func TestIrreducible(t *testing.T) {
	t.Parallel()
	for _, p := range Policies() {
		k := newKit(ir.U32, 8)
		entry := k.b.B
		a := k.f.NewBlock("A")
		b := k.f.NewBlock("B")
		exit := k.f.NewBlock("exit")
		odd := k.b.Cmp(ir.PredNE, k.b.Binary(ir.OpAnd, k.tid, u32c(1), ""), u32c(0), "")
		k.b.CondBr(odd, a, b)
		k.b.SetBlock(a)
		i := k.b.Phi(ir.U32, "i")
		ia := k.b.Binary(ir.OpAdd, i, u32c(1), "ia")
		k.b.CondBr(k.b.Cmp(ir.PredULT, ia, u32c(5), ""), b, exit)
		k.b.SetBlock(b)
		j := k.b.Phi(ir.U32, "j")
		ib := k.b.Binary(ir.OpAdd, j, u32c(1), "ib")
		k.b.Br(a)
		i.AddIncoming(u32c(0), entry)
		i.AddIncoming(ib, b)
		j.AddIncoming(u32c(0), entry)
		j.AddIncoming(ia, a)
		k.b.SetBlock(exit)
		c := k.wave("WaveActiveCountBits", ir.U32, ir.ConstBool(ir.Bool, true))
		k.store(k.b.Binary(ir.OpAdd, k.b.Binary(ir.OpMul, ia, u32c(100), ""), c, ""))
		res := k.run(t, nil, Options{WaveSize: 8, Policy: p})
		want := []uint32{608, 508, 608, 508, 608, 508, 608, 508}
		if got := outU32(t, res, "Out", 8); !eqU32(got, want) {
			t.Errorf("%s: got %v, want %v", p, got, want)
		}
	}
}

// TestPartialWave: 6 threads in waves of 4; the second wave has 2 lanes.
func TestPartialWave(t *testing.T) {
	t.Parallel()
	k := newKit(ir.U32, 6)
	n := k.wave("WaveGetLaneCount", ir.U32)
	c := k.wave("WaveActiveCountBits", ir.U32, ir.ConstBool(ir.Bool, true))
	k.store(k.b.Binary(ir.OpAdd, k.b.Binary(ir.OpMul, n, u32c(10), ""), c, ""))
	res := k.run(t, nil, Options{WaveSize: 4})
	want := []uint32{44, 44, 44, 44, 42, 42}
	if got := outU32(t, res, "Out", 6); !eqU32(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// seedSwitchModule is the worked example of seed switch-to-if-lowering.md
// (samples/switch-fallthrough.hlsl) with non-inlined helper functions
// appending digits to a private global: it checks fallthrough, a
// conditional break, multi-value labels and calls.
func seedSwitchModule() *ir.Module {
	k := newKit(ir.U32, 16)
	trace := ir.NewGlobal("trace", ir.SpacePrivate, ir.U32)
	k.m.AddGlobal(trace)
	appendFn := func(name string, digit int64) *ir.Function {
		f := k.m.NewFunction(name, ir.Void, nil, nil)
		b := ir.NewBuilder(f)
		b.SetBlock(f.NewBlock("entry"))
		v := b.Binary(ir.OpAdd, b.Binary(ir.OpMul, b.Load(trace, ""), u32c(10), ""), u32c(digit), "")
		b.Store(v, trace)
		b.Ret(nil)
		return f
	}
	first, something, somethingElse, another := appendFn("first", 1), appendFn("something", 2), appendFn("somethingElse", 3), appendFn("anotherThing", 4)
	check := k.m.NewFunction("checkSomething", ir.Bool, []string{"sel"}, []*ir.Type{ir.U32})
	cb := ir.NewBuilder(check)
	cb.SetBlock(check.NewBlock("entry"))
	cb.Ret(cb.Cmp(ir.PredNE, cb.Binary(ir.OpAnd, check.Params[0], u32c(8), ""), u32c(0), ""))

	entry := k.b.B
	hi := k.f.NewBlock("hi")
	sw := k.f.NewBlock("switch")
	c0 := k.f.NewBlock("case0")
	c4 := k.f.NewBlock("case4")
	c4b := k.f.NewBlock("case4.ft")
	def := k.f.NewBlock("default")
	c13 := k.f.NewBlock("case1_3")
	c2 := k.f.NewBlock("case2")
	merge := k.f.NewBlock("merge")
	sel0 := k.b.Binary(ir.OpURem, k.tid, u32c(6), "")
	k.b.CondBr(k.b.Cmp(ir.PredUGE, k.tid, u32c(8), ""), hi, sw).SetSelectionMerge(sw)
	k.b.SetBlock(hi)
	k.b.Br(sw)
	k.b.SetBlock(sw)
	sel := k.b.Phi(ir.U32, "selector")
	sel.AddIncoming(sel0, entry)
	sel.AddIncoming(u32c(4), hi)
	k.b.Store(u32c(0), trace)
	k.b.Switch(sel, []ir.SwitchCase{
		{Values: []int64{0}, Target: c0}, {Values: []int64{4}, Target: c4}, {Default: true, Target: def},
		{Values: []int64{1, 3}, Target: c13}, {Values: []int64{2}, Target: c2},
	}).SetSelectionMerge(merge)
	k.b.SetBlock(c0)
	k.b.Call(first, nil, "")
	k.b.Br(merge)
	k.b.SetBlock(c4)
	cond := k.b.Call(check, []ir.Value{k.tid}, "cond")
	k.b.CondBr(cond, merge, c4b)
	k.b.SetBlock(c4b)
	k.b.Br(def)
	k.b.SetBlock(def)
	k.b.Call(something, nil, "")
	k.b.Br(c13)
	k.b.SetBlock(c13)
	k.b.Call(somethingElse, nil, "")
	k.b.Br(merge)
	k.b.SetBlock(c2)
	k.b.Call(another, nil, "")
	k.b.Br(merge)
	k.b.SetBlock(merge)
	k.store(k.b.Load(trace, ""))
	return k.finish()
}

func TestSeedSwitchExample(t *testing.T) {
	t.Parallel()
	want := []uint32{1, 3, 4, 3, 23, 23, 1, 3, 0, 0, 0, 0, 0, 0, 0, 0}
	for _, p := range Policies() {
		for _, ws := range []int{4, 16, 32} {
			res, err := runT(seedSwitchModule(), nil, Options{WaveSize: ws, Policy: p})
			if err != nil {
				t.Fatal(err)
			}
			if got := outU32(t, res, "Out", 16); !eqU32(got, want) {
				t.Errorf("%s wave %d: got %v, want %v", p, ws, got, want)
			}
		}
	}
}

// TestAMDGPUIntrinsics covers the llvm.amdgcn.* intrinsics of the LLVM
// bridge on one 8-lane wave.
func TestAMDGPUIntrinsics(t *testing.T) {
	t.Parallel()
	k := newKit(ir.U32, 8)
	k.f.Entry.NumThreads = [3]int{8, 1, 1}
	l := k.wave("llvm.amdgcn.workitem.id.x", ir.U32)
	y := k.wave("llvm.amdgcn.workitem.id.y", ir.U32)
	z := k.wave("llvm.amdgcn.workitem.id.z", ir.U32)
	gx := k.wave("llvm.amdgcn.workgroup.id.x", ir.U32)
	gy := k.wave("llvm.amdgcn.workgroup.id.y", ir.U32)
	gz := k.wave("llvm.amdgcn.workgroup.id.z", ir.U32)
	odd := k.b.Cmp(ir.PredNE, k.b.Binary(ir.OpAnd, l, u32c(1), ""), u32c(0), "")
	ballot := k.wave("llvm.amdgcn.ballot", ir.U32, odd)
	lo := k.wave("llvm.amdgcn.mbcnt.lo", ir.U32, u32c(0xFFFFFFFF), u32c(0))
	hi := k.wave("llvm.amdgcn.mbcnt.hi", ir.U32, u32c(0xFFFFFFFF), lo)
	rfl := k.wave("llvm.amdgcn.readfirstlane", ir.U32, k.b.Binary(ir.OpAdd, l, u32c(3), ""))
	rl := k.wave("llvm.amdgcn.readlane", ir.U32, k.b.Binary(ir.OpMul, l, u32c(2), ""), u32c(6))
	ic := k.wave("llvm.amdgcn.icmp", ir.U32, l, u32c(4), u32c(36))                                   // ult: lanes 0-3
	fc := k.wave("llvm.amdgcn.fcmp", ir.U32, k.b.Cast(ir.OpUIToFP, l, ir.F32, ""), f32c(5), u32c(2)) // ogt
	umin := k.wave("llvm.amdgcn.wave.reduce.umin", ir.U32, k.b.Binary(ir.OpAdd, l, u32c(10), ""), u32c(0))
	umax := k.wave("llvm.amdgcn.wave.reduce.umax", ir.U32, l, u32c(0))
	wl := k.wave("llvm.amdgcn.writelane", ir.U32, u32c(77), u32c(2), l)
	pc := k.wave("llvm.amdgcn.s.getpc", ir.U32)
	k.wave("llvm.amdgcn.s.barrier", ir.Void)
	base := k.b.Binary(ir.OpMul, k.tid, u32c(16), "")
	for i, v := range []ir.Value{l, y, z, gx, gy, gz, ballot, hi, rfl, rl, ic, fc, umin, umax, wl, pc} {
		k.storeAt(k.b.Binary(ir.OpAdd, base, u32c(int64(i)), ""), v)
	}
	res := k.run(t, &Input{Dispatch: [3]int{1, 1, 1}, Buffers: []BufferInput{{Name: "Out", Count: 128}}}, Options{WaveSize: 8})
	got := outU32(t, res, "Out", 128)
	for lane := 0; lane < 8; lane++ {
		wlv := uint32(lane)
		if lane == 2 {
			wlv = 77
		}
		want := []uint32{uint32(lane), 0, 0, 0, 0, 0, 0xAA, uint32(lane), 3, 12, 0x0F, 0xC0, 10, 7, wlv, 0}
		if row := got[lane*16 : lane*16+16]; !eqU32(row, want) {
			t.Errorf("lane %d: got %v, want %v", lane, row, want)
		}
	}
}

func TestUnsupportedIntrinsic(t *testing.T) {
	t.Parallel()
	k := newKit(ir.U32, 4)
	k.store(k.wave("llvm.amdgcn.permlane16", ir.U32, k.tid, k.tid, u32c(0), u32c(0)))
	_, err := Run(k.finish(), nil, Options{WaveSize: 4})
	if err == nil || !errors.Is(err, ErrUnsupported) {
		t.Fatalf("got %v, want ErrUnsupported", err)
	}
	t.Log(err)
}

// TestSwitchSeparateInLoop: lanes kept apart by switch-separate inside a
// loop body rejoin at the loop header (the continue leaves the switch
// construct), so a wave op there sees every lane in each iteration.
func TestSwitchSeparateInLoop(t *testing.T) {
	t.Parallel()
	build := func() *ir.Module {
		k := newKit(ir.U32, 8)
		acc := k.variable(ir.U32, "acc", u32c(0))
		i := k.variable(ir.U32, "i", u32c(0))
		head := k.f.NewBlock("head")
		c0 := k.f.NewBlock("case0")
		def := k.f.NewBlock("default")
		cont := k.f.NewBlock("cont")
		exit := k.f.NewBlock("exit")
		k.b.Br(head)
		k.b.SetBlock(head)
		k.add(acc, k.b.Binary(ir.OpMul, k.wave("WaveActiveCountBits", ir.U32, ir.ConstBool(ir.Bool, true)), u32c(100), ""))
		sel := k.b.Binary(ir.OpURem, k.tid, u32c(2), "")
		body := k.f.NewBlock("body")
		k.b.Br(body).SetLoopMerge(exit, cont)
		k.b.SetBlock(body)
		// The default case ends with a continue; the switch's merge %sw.merge
		// is only reached by... nothing: every lane continues.
		swm := k.f.NewBlock("sw.merge")
		k.b.Switch(sel, []ir.SwitchCase{{Values: []int64{0}, Target: c0}, {Default: true, Target: def}}).SetSelectionMerge(swm)
		k.b.SetBlock(swm)
		k.b.Unreachable()
		k.b.SetBlock(body)
		k.b.SetBlock(c0)
		k.add(acc, k.b.Binary(ir.OpMul, k.wave("WaveActiveCountBits", ir.U32, ir.ConstBool(ir.Bool, true)), u32c(10), ""))
		k.b.Br(def)
		k.b.SetBlock(def)
		k.add(acc, k.wave("WaveActiveCountBits", ir.U32, ir.ConstBool(ir.Bool, true)))
		k.b.Br(cont) // continue
		k.b.SetBlock(cont)
		k.add(i, u32c(1))
		k.b.CondBr(k.b.Cmp(ir.PredULT, k.b.Load(i, ""), u32c(3), ""), head, exit)
		k.b.SetBlock(exit)
		k.store(k.b.Load(acc, ""))
		return k.finish()
	}
	for _, tc := range []struct {
		p         Policy
		even, odd uint32
	}{
		// Per iteration: header 8 lanes (800); case0 4 evens (40); default
		// all 8 (maximal) or 4 (separate).
		{PolicyMaximal, 3 * (800 + 40 + 8), 3 * (800 + 8)},
		{PolicySwitchSeparate, 3 * (800 + 40 + 4), 3 * (800 + 4)},
	} {
		res, err := runT(build(), nil, Options{WaveSize: 8, Policy: tc.p})
		if err != nil {
			t.Fatal(err)
		}
		got := outU32(t, res, "Out", 8)
		for l, v := range got {
			want := tc.even
			if l%2 == 1 {
				want = tc.odd
			}
			if v != want {
				t.Errorf("%s: lane %d got %d, want %d (all %v)", tc.p, l, v, want, got)
				break
			}
		}
	}
}
