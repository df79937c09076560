package interp

import (
	"math"
	"testing"

	"passlens/compiler/ir"
)

// eval1 runs one thread computing build's value and returns its cells
// (stored to Out[0]).
func eval1(t *testing.T, rt *ir.Type, build func(k *kit) ir.Value) []uint64 {
	t.Helper()
	k := newKit(rt, 1)
	k.store(build(k))
	res := k.run(t, nil, Options{WaveSize: 4})
	return res.Buffer("Out").Element(0)
}

func f32bits(f float32) uint64 { return uint64(math.Float32bits(f)) }

// opCase is one scalar or vector computation and its expected cells.
type opCase struct {
	name  string
	rt    *ir.Type
	build func(k *kit) ir.Value
	want  []uint64
}

func runCases(t *testing.T, cases []opCase) {
	t.Helper()
	for _, c := range cases {
		got := eval1(t, c.rt, c.build)
		if len(got) != len(c.want) {
			t.Errorf("%s: got %d cells, want %d", c.name, len(got), len(c.want))
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: got %s, want %s", c.name, FormatValue(c.rt, got), FormatValue(c.rt, c.want))
				break
			}
		}
	}
}

func bin(op ir.Op, x, y ir.Value) func(k *kit) ir.Value {
	return func(k *kit) ir.Value { return k.b.Binary(op, x, y, "") }
}

func TestIntegerOps(t *testing.T) {
	t.Parallel()
	intMin := int64(math.MinInt32)
	runCases(t, []opCase{
		{"add wraps", ir.I32, bin(ir.OpAdd, i32c(math.MaxInt32), i32c(1)), []uint64{0x80000000}},
		{"sub wraps", ir.U32, bin(ir.OpSub, u32c(0), u32c(1)), []uint64{0xFFFFFFFF}},
		{"mul wraps", ir.U32, bin(ir.OpMul, u32c(0x10000), u32c(0x10001)), []uint64{0x10000}},
		{"sdiv truncates", ir.I32, bin(ir.OpSDiv, i32c(-7), i32c(2)), []uint64{0xFFFFFFFD}},
		{"srem sign of dividend", ir.I32, bin(ir.OpSRem, i32c(-7), i32c(2)), []uint64{0xFFFFFFFF}},
		{"sdiv INT_MIN/-1", ir.I32, bin(ir.OpSDiv, i32c(intMin), i32c(-1)), []uint64{0x80000000}},
		{"srem INT_MIN%-1", ir.I32, bin(ir.OpSRem, i32c(intMin), i32c(-1)), []uint64{0}},
		{"sdiv by zero", ir.I32, bin(ir.OpSDiv, i32c(5), i32c(0)), []uint64{0xFFFFFFFF}},
		{"srem by zero", ir.I32, bin(ir.OpSRem, i32c(5), i32c(0)), []uint64{0xFFFFFFFF}},
		{"udiv", ir.U32, bin(ir.OpUDiv, u32c(0xFFFFFFFF), u32c(16)), []uint64{0x0FFFFFFF}},
		{"udiv by zero", ir.U32, bin(ir.OpUDiv, u32c(7), u32c(0)), []uint64{0xFFFFFFFF}},
		{"urem", ir.U32, bin(ir.OpURem, u32c(17), u32c(5)), []uint64{2}},
		{"urem by zero", ir.U32, bin(ir.OpURem, u32c(7), u32c(0)), []uint64{0xFFFFFFFF}},
		{"shl masks amount", ir.U32, bin(ir.OpShl, u32c(1), u32c(33)), []uint64{2}},
		{"lshr", ir.U32, bin(ir.OpLShr, u32c(0x80000000), u32c(31)), []uint64{1}},
		{"ashr", ir.I32, bin(ir.OpAShr, i32c(intMin), i32c(31)), []uint64{0xFFFFFFFF}},
		{"and", ir.U32, bin(ir.OpAnd, u32c(0xF0F0), u32c(0xFF00)), []uint64{0xF000}},
		{"or", ir.U32, bin(ir.OpOr, u32c(0xF0F0), u32c(0x0F00)), []uint64{0xFFF0}},
		{"xor", ir.U32, bin(ir.OpXor, u32c(0xFF), u32c(0x0F)), []uint64{0xF0}},
		{"xor bool", ir.Bool, bin(ir.OpXor, ir.ConstBool(ir.Bool, true), ir.ConstBool(ir.Bool, true)), []uint64{0}},
		{"not", ir.U32, func(k *kit) ir.Value { return k.b.Unary(ir.OpNot, u32c(0), "") }, []uint64{0xFFFFFFFF}},
		{"not bool", ir.Bool, func(k *kit) ir.Value { return k.b.Unary(ir.OpNot, ir.ConstBool(ir.Bool, false), "") }, []uint64{1}},
		{"neg", ir.I32, func(k *kit) ir.Value { return k.b.Unary(ir.OpNeg, i32c(5), "") }, []uint64{0xFFFFFFFB}},
		{"neg INT_MIN", ir.I32, func(k *kit) ir.Value { return k.b.Unary(ir.OpNeg, i32c(intMin), "") }, []uint64{0x80000000}},
		{"vector add", ir.Vec(ir.U32, 2), bin(ir.OpAdd,
			ir.ConstAggregate(ir.Vec(ir.U32, 2), []*ir.Const{u32c(1), u32c(0xFFFFFFFF)}), ir.ConstInt(ir.Vec(ir.U32, 2), 2)),
			[]uint64{3, 1}},
	})
}

func TestFloatOps(t *testing.T) {
	t.Parallel()
	a, b := float32(0.1), float32(0.2)
	sum := a + b
	x, y := float32(1)/float32(3), float32(3)
	prod := x * y
	nan := ir.ConstF32Bits(0x7FC00000)
	runCases(t, []opCase{
		{"fadd rounds to f32", ir.F32, bin(ir.OpFAdd, f32c(0.1), f32c(0.2)), []uint64{f32bits(sum)}},
		{"fmul rounds to f32", ir.F32, func(k *kit) ir.Value {
			third := k.b.Binary(ir.OpFDiv, f32c(1), f32c(3), "")
			return k.b.Binary(ir.OpFMul, third, f32c(3), "")
		}, []uint64{f32bits(prod)}},
		{"fsub", ir.F32, bin(ir.OpFSub, f32c(1), f32c(0.25)), []uint64{f32bits(0.75)}},
		{"fdiv by zero", ir.F32, bin(ir.OpFDiv, f32c(1), f32c(0)), []uint64{0x7F800000}},
		{"fdiv 0/0 is NaN", ir.Bool, func(k *kit) ir.Value {
			q := k.b.Binary(ir.OpFDiv, f32c(0), f32c(0), "")
			return k.b.Cmp(ir.PredUNO, q, q, "")
		}, []uint64{1}},
		{"frem is fmod", ir.F32, bin(ir.OpFRem, f32c(5.5), f32c(2)), []uint64{f32bits(1.5)}},
		{"frem negative", ir.F32, bin(ir.OpFRem, f32c(-5.5), f32c(2)), []uint64{f32bits(-1.5)}},
		{"fneg zero", ir.F32, func(k *kit) ir.Value { return k.b.Unary(ir.OpFNeg, f32c(0), "") }, []uint64{0x80000000}},
		{"subnormal results flushed (fp32 default)", ir.F32, bin(ir.OpFMul, ir.ConstF32Bits(0x00800000), f32c(0.5)), []uint64{0}},
		{"oeq NaN", ir.Bool, func(k *kit) ir.Value { return k.b.Cmp(ir.PredOEQ, nan, nan, "") }, []uint64{0}},
		{"une NaN", ir.Bool, func(k *kit) ir.Value { return k.b.Cmp(ir.PredUNE, nan, f32c(1), "") }, []uint64{1}},
		{"one", ir.Bool, func(k *kit) ir.Value { return k.b.Cmp(ir.PredONE, f32c(1), f32c(2), "") }, []uint64{1}},
		{"olt", ir.Bool, func(k *kit) ir.Value { return k.b.Cmp(ir.PredOLT, f32c(-1), f32c(2), "") }, []uint64{1}},
		{"ole", ir.Bool, func(k *kit) ir.Value { return k.b.Cmp(ir.PredOLE, f32c(2), f32c(2), "") }, []uint64{1}},
		{"ogt NaN", ir.Bool, func(k *kit) ir.Value { return k.b.Cmp(ir.PredOGT, nan, f32c(2), "") }, []uint64{0}},
		{"oge", ir.Bool, func(k *kit) ir.Value { return k.b.Cmp(ir.PredOGE, f32c(3), f32c(2), "") }, []uint64{1}},
		{"ord", ir.Bool, func(k *kit) ir.Value { return k.b.Cmp(ir.PredORD, f32c(3), nan, "") }, []uint64{0}},
		{"ueq NaN", ir.Bool, func(k *kit) ir.Value { return k.b.Cmp(ir.PredUEQ, f32c(3), nan, "") }, []uint64{1}},
		{"ult NaN", ir.Bool, func(k *kit) ir.Value { return k.b.Cmp(ir.PredFULT, nan, f32c(1), "") }, []uint64{1}},
		{"ule", ir.Bool, func(k *kit) ir.Value { return k.b.Cmp(ir.PredFULE, f32c(2), f32c(1), "") }, []uint64{0}},
		{"ugt", ir.Bool, func(k *kit) ir.Value { return k.b.Cmp(ir.PredFUGT, f32c(2), f32c(1), "") }, []uint64{1}},
		{"uge", ir.Bool, func(k *kit) ir.Value { return k.b.Cmp(ir.PredFUGE, f32c(0), f32c(1), "") }, []uint64{0}},
		{"-0 == +0", ir.Bool, func(k *kit) ir.Value { return k.b.Cmp(ir.PredOEQ, ir.ConstF32Bits(0x80000000), f32c(0), "") }, []uint64{1}},
	})
}

func TestIntCompare(t *testing.T) {
	t.Parallel()
	cmp := func(p ir.CmpPred, x, y ir.Value) func(k *kit) ir.Value {
		return func(k *kit) ir.Value { return k.b.Cmp(p, x, y, "") }
	}
	runCases(t, []opCase{
		{"eq", ir.Bool, cmp(ir.PredEQ, u32c(3), u32c(3)), []uint64{1}},
		{"ne", ir.Bool, cmp(ir.PredNE, u32c(3), u32c(3)), []uint64{0}},
		{"slt", ir.Bool, cmp(ir.PredSLT, i32c(-1), i32c(0)), []uint64{1}},
		{"ult", ir.Bool, cmp(ir.PredULT, u32c(0xFFFFFFFF), u32c(0)), []uint64{0}},
		{"sle", ir.Bool, cmp(ir.PredSLE, i32c(-1), i32c(-1)), []uint64{1}},
		{"sgt", ir.Bool, cmp(ir.PredSGT, i32c(-1), i32c(0)), []uint64{0}},
		{"sge", ir.Bool, cmp(ir.PredSGE, i32c(0), i32c(-1)), []uint64{1}},
		{"ule", ir.Bool, cmp(ir.PredULE, u32c(1), u32c(2)), []uint64{1}},
		{"ugt", ir.Bool, cmp(ir.PredUGT, u32c(0x80000000), u32c(1)), []uint64{1}},
		{"uge", ir.Bool, cmp(ir.PredUGE, u32c(1), u32c(2)), []uint64{0}},
		{"vector slt", ir.Vec(ir.Bool, 2), cmp(ir.PredSLT,
			ir.ConstAggregate(ir.Vec(ir.I32, 2), []*ir.Const{i32c(-5), i32c(5)}), ir.ConstInt(ir.Vec(ir.I32, 2), 0)),
			[]uint64{1, 0}},
		{"select vector cond", ir.Vec(ir.U32, 2), func(k *kit) ir.Value {
			c := ir.ConstAggregate(ir.Vec(ir.Bool, 2), []*ir.Const{ir.ConstBool(ir.Bool, true), ir.ConstBool(ir.Bool, false)})
			return k.b.Select(c, ir.ConstInt(ir.Vec(ir.U32, 2), 1), ir.ConstInt(ir.Vec(ir.U32, 2), 2), "")
		}, []uint64{1, 2}},
		{"select scalar cond", ir.Vec(ir.U32, 2), func(k *kit) ir.Value {
			return k.b.Select(ir.ConstBool(ir.Bool, false), ir.ConstInt(ir.Vec(ir.U32, 2), 1), ir.ConstInt(ir.Vec(ir.U32, 2), 2), "")
		}, []uint64{2, 2}},
	})
}

func TestCasts(t *testing.T) {
	t.Parallel()
	cast := func(op ir.Op, x ir.Value, to *ir.Type) func(k *kit) ir.Value {
		return func(k *kit) ir.Value { return k.b.Cast(op, x, to, "") }
	}
	tr := ir.ConstBool(ir.Bool, true)
	runCases(t, []opCase{
		{"fptosi truncates", ir.I32, cast(ir.OpFPToSI, f32c(-3.9), ir.I32), []uint64{0xFFFFFFFD}},
		{"fptosi saturates high", ir.I32, cast(ir.OpFPToSI, f32c(1e10), ir.I32), []uint64{0x7FFFFFFF}},
		{"fptosi saturates low", ir.I32, cast(ir.OpFPToSI, f32c(-1e10), ir.I32), []uint64{0x80000000}},
		{"fptosi NaN", ir.I32, cast(ir.OpFPToSI, ir.ConstF32Bits(0x7FC00000), ir.I32), []uint64{0}},
		{"fptoui negative", ir.U32, cast(ir.OpFPToUI, f32c(-1), ir.U32), []uint64{0}},
		{"fptoui saturates", ir.U32, cast(ir.OpFPToUI, f32c(5e9), ir.U32), []uint64{0xFFFFFFFF}},
		{"fptoui", ir.U32, cast(ir.OpFPToUI, f32c(3e9), ir.U32), []uint64{3000000000}},
		{"sitofp", ir.F32, cast(ir.OpSIToFP, i32c(-1), ir.F32), []uint64{f32bits(-1)}},
		{"sitofp rounds", ir.F32, cast(ir.OpSIToFP, i32c(16777217), ir.F32), []uint64{f32bits(16777216)}},
		{"uitofp", ir.F32, cast(ir.OpUIToFP, u32c(0xFFFFFFFF), ir.F32), []uint64{f32bits(4294967296)}},
		{"bitcast", ir.U32, cast(ir.OpBitcast, f32c(1), ir.U32), []uint64{0x3F800000}},
		{"bitcast vector", ir.Vec(ir.F32, 2), cast(ir.OpBitcast,
			ir.ConstAggregate(ir.Vec(ir.U32, 2), []*ir.Const{u32c(0x3F800000), u32c(0x40000000)}), ir.Vec(ir.F32, 2)),
			[]uint64{f32bits(1), f32bits(2)}},
		{"zext bool", ir.U32, cast(ir.OpZExt, tr, ir.U32), []uint64{1}},
		{"sext bool", ir.I32, cast(ir.OpSExt, tr, ir.I32), []uint64{0xFFFFFFFF}},
		{"trunc to bool", ir.Bool, cast(ir.OpTrunc, u32c(6), ir.Bool), []uint64{0}},
		{"vector cast", ir.Vec(ir.I32, 2), cast(ir.OpFPToSI,
			ir.ConstAggregate(ir.Vec(ir.F32, 2), []*ir.Const{f32c(1.5), f32c(-2.5)}), ir.Vec(ir.I32, 2)),
			[]uint64{1, 0xFFFFFFFE}},
	})
}

func TestAggregates(t *testing.T) {
	t.Parallel()
	v2 := ir.Vec(ir.U32, 2)
	v4 := ir.Vec(ir.U32, 4)
	s := ir.Struct("S", []ir.Field{{Name: "a", Type: ir.U32}, {Name: "b", Type: ir.Vec(ir.F32, 2)}})
	vec := func(xs ...int64) *ir.Const {
		var el []*ir.Const
		for _, x := range xs {
			el = append(el, u32c(x))
		}
		return ir.ConstAggregate(ir.Vec(ir.U32, len(xs)), el)
	}
	runCases(t, []opCase{
		{"construct vector", v4, func(k *kit) ir.Value {
			return k.b.Construct(v4, []ir.Value{u32c(1), u32c(2), u32c(3), k.tid}, "")
		}, []uint64{1, 2, 3, 0}},
		{"construct struct, extract", ir.F32, func(k *kit) ir.Value {
			st := k.b.Construct(s, []ir.Value{u32c(7), ir.ConstAggregate(ir.Vec(ir.F32, 2), []*ir.Const{f32c(1), f32c(2)})}, "")
			return k.b.ExtractValue(st, []int{1, 1}, "")
		}, []uint64{f32bits(2)}},
		{"insertvalue", ir.U32, func(k *kit) ir.Value {
			st := k.b.InsertValue(ir.ConstZero(s), u32c(9), []int{0}, "")
			return k.b.ExtractValue(st, []int{0}, "")
		}, []uint64{9}},
		{"shuffle", v4, func(k *kit) ir.Value { return k.b.Shuffle(vec(1, 2), vec(3, 4), []int{3, 0, 2, 1}, "") },
			[]uint64{4, 1, 3, 2}},
		{"extractelement", ir.U32, func(k *kit) ir.Value { return k.b.ExtractElem(vec(5, 6, 7), u32c(2), "") }, []uint64{7}},
		{"extractelement out of range is 0", ir.U32, func(k *kit) ir.Value { return k.b.ExtractElem(vec(5, 6, 7), u32c(3), "") }, []uint64{0}},
		{"extractelement negative is 0", ir.U32, func(k *kit) ir.Value { return k.b.ExtractElem(vec(5, 6, 7), i32c(-1), "") }, []uint64{0}},
		{"insertelement", v2, func(k *kit) ir.Value { return k.b.InsertElem(vec(5, 6), u32c(9), u32c(1), "") }, []uint64{5, 9}},
		{"insertelement out of range", v2, func(k *kit) ir.Value { return k.b.InsertElem(vec(5, 6), u32c(9), u32c(2), "") }, []uint64{5, 6}},
		{"copy", v2, func(k *kit) ir.Value { return k.b.Copy(vec(5, 6), "") }, []uint64{5, 6}},
		{"matrix row", ir.Vec(ir.F32, 3), func(k *kit) ir.Value {
			return k.b.ExtractValue(mat23(), []int{1}, "")
		}, []uint64{f32bits(4), f32bits(5), f32bits(6)}},
	})
}

// mat23 is the 2x3 matrix [[1,2,3],[4,5,6]].
func mat23() *ir.Const {
	row := func(a, b, c float64) *ir.Const {
		return ir.ConstAggregate(ir.Vec(ir.F32, 3), []*ir.Const{f32c(a), f32c(b), f32c(c)})
	}
	return ir.ConstAggregate(ir.Mat(ir.F32, 2, 3), []*ir.Const{row(1, 2, 3), row(4, 5, 6)})
}

func TestMemory(t *testing.T) {
	t.Parallel()
	arr := ir.Array(ir.U32, 4)
	s := ir.Struct("Rec", []ir.Field{{Name: "n", Type: ir.U32}, {Name: "v", Type: ir.Array(ir.Vec(ir.U32, 2), 3)}})
	runCases(t, []opCase{
		{"alloca store load", ir.U32, func(k *kit) ir.Value {
			p := k.b.Alloca(arr, "a")
			e := k.b.Access(p, []ir.Value{u32c(2)}, "")
			k.b.Store(u32c(11), e)
			return k.b.Load(e, "")
		}, []uint64{11}},
		{"out-of-bounds load is 0, store dropped", ir.Vec(ir.U32, 2), func(k *kit) ir.Value {
			p := k.b.Alloca(arr, "a")
			k.b.Store(ir.ConstAggregate(arr, []*ir.Const{u32c(3), u32c(3), u32c(3), u32c(3)}), p)
			bad := k.b.Access(p, []ir.Value{u32c(4)}, "")
			k.b.Store(u32c(99), bad)
			neg := k.b.Access(p, []ir.Value{i32c(-1)}, "")
			k.b.Store(u32c(99), neg)
			x := k.b.Load(bad, "")
			last := k.b.Load(k.b.Access(p, []ir.Value{u32c(3)}, ""), "")
			return k.b.Construct(ir.Vec(ir.U32, 2), []ir.Value{x, last}, "")
		}, []uint64{0, 3}},
		{"access struct/array/vector", ir.U32, func(k *kit) ir.Value {
			p := k.b.Alloca(s, "r")
			c := k.b.Access(p, []ir.Value{i32c(1), u32c(2), u32c(1)}, "")
			k.b.Store(u32c(42), c)
			whole := k.b.Load(p, "")
			return k.b.ExtractValue(whole, []int{1, 2, 1}, "")
		}, []uint64{42}},
		{"matrix row access", ir.F32, func(k *kit) ir.Value {
			p := k.b.Alloca(ir.Mat(ir.F32, 2, 3), "m")
			k.b.Store(mat23(), p)
			row := k.b.Access(p, []ir.Value{u32c(1)}, "")
			e := k.b.Access(row, []ir.Value{u32c(2)}, "")
			return k.b.Load(e, "")
		}, []uint64{f32bits(6)}},
		{"memcpy", ir.U32, func(k *kit) ir.Value {
			a := k.b.Alloca(arr, "a")
			c := k.b.Alloca(arr, "c")
			k.b.Store(ir.ConstZero(arr), a)
			k.b.Store(u32c(5), k.b.Access(a, []ir.Value{u32c(1)}, ""))
			k.b.Memcpy(c, a)
			return k.b.Load(k.b.Access(c, []ir.Value{u32c(1)}, ""), "")
		}, []uint64{5}},
		{"memset", ir.Vec(ir.U32, 2), func(k *kit) ir.Value {
			p := k.b.Alloca(s, "r")
			k.b.Memset(p, u32c(0xAB))
			n := k.b.Load(k.b.Access(p, []ir.Value{i32c(0)}, ""), "")
			b := k.b.Alloca(ir.Bool, "b")
			k.b.Memset(b, u32c(1))
			bv := k.b.Cast(ir.OpZExt, k.b.Load(b, ""), ir.U32, "")
			return k.b.Construct(ir.Vec(ir.U32, 2), []ir.Value{n, bv}, "")
		}, []uint64{0xABABABAB, 1}},
	})
}

func TestStorageOutOfBounds(t *testing.T) {
	t.Parallel()
	k := newKit(ir.U32, 4)
	// Out has max(64, 4) = 64 elements: Out[tid + 62] is in bounds for
	// tid < 2 only; the other stores are dropped, loads read 0.
	i := k.b.Binary(ir.OpAdd, k.tid, u32c(62), "")
	k.storeAt(i, u32c(7))
	v := k.b.Load(k.b.Access(k.out, []ir.Value{i}, ""), "")
	k.storeAt(k.tid, v)
	res := k.run(t, nil, Options{WaveSize: 4})
	b := res.Buffer("Out")
	if b.Count != 64 {
		t.Fatalf("default buffer count %d, want 64", b.Count)
	}
	if got := outU32(t, res, "Out", 4); !eqU32(got, []uint32{7, 7, 0, 0}) {
		t.Errorf("got %v, want [7 7 0 0]", got)
	}
}

// TestWideTypes covers the scalar widths of the LLVM bridge (ir/widths.go):
// i8, i16, i64, u64, f16, bf16 and f64.
func TestWideTypes(t *testing.T) {
	t.Parallel()
	cast := func(op ir.Op, x ir.Value, to *ir.Type) func(k *kit) ir.Value {
		return func(k *kit) ir.Value { return k.b.Cast(op, x, to, "") }
	}
	f64 := func(f float64) *ir.Const { return ir.ConstFloatBits(ir.F64, math.Float64bits(f)) }
	i64 := func(v int64) *ir.Const { return ir.ConstInt(ir.I64, v) }
	half := func(b uint64) *ir.Const { return ir.ConstFloatBits(ir.F16, b) }
	bf := func(b uint64) *ir.Const { return ir.ConstFloatBits(ir.BF16, b) }
	x, y := 0.1, 0.2
	runCases(t, []opCase{
		{"i64 add wraps", ir.I64, bin(ir.OpAdd, i64(math.MaxInt64), i64(1)), []uint64{1 << 63}},
		{"i64 sdiv by zero", ir.I64, bin(ir.OpSDiv, i64(5), i64(0)), []uint64{math.MaxUint64}},
		{"i64 ashr", ir.I64, bin(ir.OpAShr, i64(math.MinInt64), i64(63)), []uint64{math.MaxUint64}},
		{"u64 mul", ir.U64, bin(ir.OpMul, ir.ConstInt(ir.U64, 1<<32), ir.ConstInt(ir.U64, 1<<32+1)), []uint64{1 << 32}},
		{"i8 add wraps", ir.I8, bin(ir.OpAdd, ir.ConstInt(ir.I8, 127), ir.ConstInt(ir.I8, 1)), []uint64{0x80}},
		{"i16 shl masks amount", ir.I16, bin(ir.OpShl, ir.ConstInt(ir.I16, 1), ir.ConstInt(ir.I16, 17)), []uint64{2}},
		{"trunc i32 to i8", ir.I8, cast(ir.OpTrunc, i32c(300), ir.I8), []uint64{44}},
		{"sext i8", ir.I32, cast(ir.OpSExt, ir.ConstInt(ir.I8, -128), ir.I32), []uint64{0xFFFFFF80}},
		{"zext i8", ir.I32, cast(ir.OpZExt, ir.ConstInt(ir.I8, -128), ir.I32), []uint64{0x80}},
		{"f64 add", ir.F64, bin(ir.OpFAdd, f64(0.1), f64(0.2)), []uint64{math.Float64bits(x + y)}},
		{"fptrunc f64 to f32", ir.F32, cast(ir.OpFPTrunc, f64(0.1), ir.F32), []uint64{f32bits(0.1)}},
		{"fpext f32 to f64", ir.F64, cast(ir.OpFPExt, f32c(0.1), ir.F64), []uint64{math.Float64bits(float64(float32(0.1)))}},
		{"sitofp i64 to f64 rounds", ir.F64, cast(ir.OpSIToFP, i64(1<<53+1), ir.F64), []uint64{math.Float64bits(1 << 53)}},
		{"sitofp i64 to f32 rounds once", ir.F32, cast(ir.OpSIToFP, i64(1<<40+1<<16+1), ir.F32), []uint64{f32bits(float32(int64(1<<40 + 1<<16 + 1)))}},
		{"fptosi f64 to i64 saturates", ir.I64, cast(ir.OpFPToSI, f64(1e300), ir.I64), []uint64{math.MaxInt64}},
		{"fptrunc f32 to f16", ir.F16, cast(ir.OpFPTrunc, f32c(1.5), ir.F16), []uint64{0x3E00}},
		{"fpext f16 to f32", ir.F32, cast(ir.OpFPExt, half(0xC100), ir.F32), []uint64{f32bits(-2.5)}},
		{"f16 add rounds to half", ir.F16, bin(ir.OpFAdd, half(0x3C00), half(0x0C00)), []uint64{0x3C00}}, // 1 + 2^-12
		{"f16 fneg", ir.F16, func(k *kit) ir.Value { return k.b.Unary(ir.OpFNeg, half(0x3C00), "") }, []uint64{0xBC00}},
		{"fptrunc f32 to bf16 ties to even", ir.BF16, cast(ir.OpFPTrunc, f32c(1+1.0/256), ir.BF16), []uint64{0x3F80}},
		{"fptrunc f32 to bf16 ties to even up", ir.BF16, cast(ir.OpFPTrunc, f32c(1+3.0/256), ir.BF16), []uint64{0x3F82}},
		{"bf16 add", ir.BF16, bin(ir.OpFAdd, bf(0x3F80), bf(0x3F80)), []uint64{0x4000}},
		{"fpext bf16", ir.F32, cast(ir.OpFPExt, bf(0xC020), ir.F32), []uint64{f32bits(-2.5)}},
		{"bf16 abs", ir.BF16, intr("abs", ir.BF16, bf(0xC020)), []uint64{0x4020}},
	})
}
