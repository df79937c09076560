package interp

import (
	"errors"
	"strings"
	"testing"

	"passlens/compiler/ir"
)

// groupIndexKit is a kit whose @gi input is SV_GroupIndex.
func groupIndexKit(threads int) (*kit, ir.Value) {
	k := newKit(ir.U32, threads)
	gi := ir.NewGlobal("gi", ir.SpaceInput, ir.U32)
	gi.Semantic = "SV_GroupIndex"
	k.m.AddGlobal(gi)
	return k, k.b.Load(gi, "gi")
}

// TestBarrierGroupshared: 8 threads in two waves of 4 exchange values
// through groupshared memory. Wave 0 reads what wave 1 wrote before the
// barrier, so it only works if waves interleave at the barrier.
func TestBarrierGroupshared(t *testing.T) {
	t.Parallel()
	for _, barrier := range []string{"GroupMemoryBarrierWithGroupSync", "AllMemoryBarrierWithGroupSync", "DeviceMemoryBarrierWithGroupSync"} {
		k, gi := groupIndexKit(8)
		gs := ir.NewGlobal("shared", ir.SpaceGroupshared, ir.Array(ir.U32, 8))
		k.m.AddGlobal(gs)
		k.b.Store(k.b.Binary(ir.OpMul, gi, u32c(10), ""), k.b.Access(gs, []ir.Value{gi}, ""))
		k.b.Intrinsic(barrier, ir.Void, nil, "")
		next := k.b.Binary(ir.OpURem, k.b.Binary(ir.OpAdd, gi, u32c(1), ""), u32c(8), "")
		v := k.b.Load(k.b.Access(gs, []ir.Value{next}, ""), "")
		// A memory barrier without sync is a no-op, but must run.
		k.b.Intrinsic("GroupMemoryBarrier", ir.Void, nil, "")
		k.b.Intrinsic("DeviceMemoryBarrier", ir.Void, nil, "")
		k.b.Intrinsic("AllMemoryBarrier", ir.Void, nil, "")
		k.store(v)
		res := k.run(t, &Input{Dispatch: [3]int{2, 1, 1}}, Options{WaveSize: 4, Trace: true})
		want := []uint32{10, 20, 30, 40, 50, 60, 70, 0, 10, 20, 30, 40, 50, 60, 70, 0}
		if got := outU32(t, res, "Out", 16); !eqU32(got, want) {
			t.Errorf("%s: got %v, want %v", barrier, got, want)
		}
		// The trace shows each wave at the barrier with all 4 lanes.
		n := 0
		for _, op := range res.WaveOps {
			if op.Name == barrier {
				n++
				if len(op.Lanes) != 4 {
					t.Errorf("barrier trace lanes %v", op.Lanes)
				}
			}
		}
		if n != 4 {
			t.Errorf("%d barrier executions traced, want 4 (2 groups x 2 waves)", n)
		}
	}
}

// TestGroupsharedPerGroup: groupshared memory starts zeroed in every group.
func TestGroupsharedPerGroup(t *testing.T) {
	t.Parallel()
	k, gi := groupIndexKit(4)
	gs := ir.NewGlobal("counter", ir.SpaceGroupshared, ir.U32)
	k.m.AddGlobal(gs)
	old := k.b.Atomic(ir.AtomicAdd, gs, u32c(1), nil, "old")
	_ = gi
	k.b.Intrinsic("GroupMemoryBarrierWithGroupSync", ir.Void, nil, "")
	total := k.b.Load(gs, "")
	k.store(k.b.Binary(ir.OpAdd, k.b.Binary(ir.OpMul, total, u32c(10), ""), old, ""))
	res := k.run(t, &Input{Dispatch: [3]int{3, 1, 1}}, Options{WaveSize: 4})
	want := []uint32{40, 41, 42, 43, 40, 41, 42, 43, 40, 41, 42, 43}
	if got := outU32(t, res, "Out", 12); !eqU32(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestAtomics(t *testing.T) {
	t.Parallel()
	type tc struct {
		kind ir.AtomicKind
		t    *ir.Type
		init uint64
		arg  func(k *kit) ir.Value
		cmp  func(k *kit) ir.Value
		want uint64 // final memory value (4 lanes, lane order)
	}
	lane := func(k *kit) ir.Value { return k.tid }
	cases := []tc{
		{ir.AtomicAdd, ir.U32, 5, lane, nil, 11},
		{ir.AtomicMin, ir.I32, 5, func(k *kit) ir.Value {
			return k.b.Binary(ir.OpSub, k.b.Cast(ir.OpBitcast, k.tid, ir.I32, ""), i32c(2), "")
		}, nil, 0xFFFFFFFE},
		{ir.AtomicMax, ir.I32, 0xFFFFFFF0, func(k *kit) ir.Value { return k.b.Cast(ir.OpBitcast, k.tid, ir.I32, "") }, nil, 3},
		{ir.AtomicUMin, ir.U32, 0xFFFFFFFF, lane, nil, 0},
		{ir.AtomicUMax, ir.U32, 1, lane, nil, 3},
		{ir.AtomicAnd, ir.U32, 0xFF, func(k *kit) ir.Value { return k.b.Unary(ir.OpNot, k.tid, "") }, nil, 0xFC},
		{ir.AtomicOr, ir.U32, 0x100, lane, nil, 0x103},
		{ir.AtomicXor, ir.U32, 0, lane, nil, 0},
		{ir.AtomicXchg, ir.U32, 9, lane, nil, 3},
		// cmpxchg(expected = lane): lanes succeed in order 0, 1, 2, 3.
		{ir.AtomicCmpXchg, ir.U32, 0, func(k *kit) ir.Value { return k.b.Binary(ir.OpAdd, k.tid, u32c(1), "") }, lane, 4},
	}
	for _, c := range cases {
		k := newKit(ir.U32, 4)
		g := ir.NewGlobal("cell", ir.SpaceStorage, c.t)
		g.Binding = 1
		k.m.AddGlobal(g)
		var cmp ir.Value
		if c.cmp != nil {
			cmp = c.cmp(k)
		}
		old := k.b.Atomic(c.kind, g, c.arg(k), cmp, "old")
		k.store(k.toU32(old))
		res := k.run(t, &Input{Buffers: []BufferInput{{Name: "cell", Data: []any{"0x" + strings.ToUpper(hex(c.init))}}}}, Options{WaveSize: 4})
		if got := res.Buffer("cell").Cells[0]; got != c.want {
			t.Errorf("atomic %s: memory %#x, want %#x", c.kind, got, c.want)
		}
	}
}

func hex(v uint64) string {
	const digits = "0123456789abcdef"
	if v == 0 {
		return "0"
	}
	var b []byte
	for ; v > 0; v >>= 4 {
		b = append([]byte{digits[v&15]}, b...)
	}
	return string(b)
}

// TestAtomicOldValues: the returned old values are distinct and ordered by
// lane (the interpreter's deterministic order).
func TestAtomicOldValues(t *testing.T) {
	t.Parallel()
	k := newKit(ir.U32, 8)
	g := ir.NewGlobal("n", ir.SpaceGroupshared, ir.U32)
	k.m.AddGlobal(g)
	k.store(k.b.Atomic(ir.AtomicAdd, g, u32c(2), nil, ""))
	res := k.run(t, nil, Options{WaveSize: 4})
	want := []uint32{0, 2, 4, 6, 8, 10, 12, 14}
	if got := outU32(t, res, "Out", 8); !eqU32(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestDivergentBarrier(t *testing.T) {
	t.Parallel()
	// Lanes 0-1 reach the barrier, 2-3 skip it.
	k, gi := groupIndexKit(4)
	k.ifThen(k.b.Cmp(ir.PredULT, gi, u32c(2), ""), func() {
		k.b.Intrinsic("GroupMemoryBarrierWithGroupSync", ir.Void, nil, "")
	})
	_, err := Run(k.finish(), nil, Options{WaveSize: 4})
	if !errors.Is(err, ErrDivergentBarrier) {
		t.Fatalf("got %v, want ErrDivergentBarrier", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "lanes {0-1}") || !strings.Contains(msg, "{2-3}") || !strings.Contains(msg, "%if.then") {
		t.Errorf("message does not say where: %s", msg)
	}

	// Wave-uniform but group-divergent: wave 0 waits, wave 1 finishes.
	k, gi = groupIndexKit(8)
	k.ifThen(k.b.Cmp(ir.PredULT, gi, u32c(4), ""), func() {
		k.b.Intrinsic("GroupMemoryBarrierWithGroupSync", ir.Void, nil, "")
	})
	_, err = Run(k.finish(), nil, Options{WaveSize: 4})
	if !errors.Is(err, ErrDivergentBarrier) || !strings.Contains(err.Error(), "wave 1 finished") {
		t.Fatalf("got %v, want ErrDivergentBarrier (wave 1 finished)", err)
	}

	// Early return: lanes that return (or are about to) do not count as
	// arrived.
	k, gi = groupIndexKit(4)
	k.ifThen(k.b.Cmp(ir.PredUGE, gi, u32c(3), ""), func() { k.b.Ret(nil) })
	k.b.Intrinsic("GroupMemoryBarrierWithGroupSync", ir.Void, nil, "")
	_, err = Run(k.finish(), nil, Options{WaveSize: 4})
	if !errors.Is(err, ErrDivergentBarrier) || !strings.Contains(err.Error(), "lanes {3}") {
		t.Fatalf("got %v, want ErrDivergentBarrier (lane 3 missing)", err)
	}
	t.Log(err)
}

// TestBarrierInCallee: a barrier in a non-inlined function called from
// uniform control flow.
func TestBarrierInCallee(t *testing.T) {
	t.Parallel()
	k, gi := groupIndexKit(8)
	gs := ir.NewGlobal("shared", ir.SpaceGroupshared, ir.Array(ir.U32, 8))
	k.m.AddGlobal(gs)
	sync := k.m.NewFunction("sync", ir.Void, nil, nil)
	sb := ir.NewBuilder(sync)
	sb.SetBlock(sync.NewBlock("entry"))
	sb.Intrinsic("GroupMemoryBarrierWithGroupSync", ir.Void, nil, "")
	sb.Ret(nil)
	k.b.Store(gi, k.b.Access(gs, []ir.Value{gi}, ""))
	k.b.Call(sync, nil, "")
	rev := k.b.Binary(ir.OpSub, u32c(7), gi, "")
	k.store(k.b.Load(k.b.Access(gs, []ir.Value{rev}, ""), ""))
	res := k.run(t, nil, Options{WaveSize: 4})
	want := []uint32{7, 6, 5, 4, 3, 2, 1, 0}
	if got := outU32(t, res, "Out", 8); !eqU32(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
