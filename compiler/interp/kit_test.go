package interp

import (
	"fmt"
	"testing"

	"passlens/compiler/ir"
)

// kit builds small compute shaders for tests: a storage buffer @Out of a
// chosen element type, SV_DispatchThreadID in @tid, and a builder placed in
// the entry block after %tid.x has been loaded.
type kit struct {
	m   *ir.Module
	f   *ir.Function
	b   *ir.Builder
	tid ir.Value // u32 tid.x
	out *ir.Global
}

func newKit(outElem *ir.Type, threads int) *kit {
	m := ir.NewModule("test")
	out := ir.NewGlobal("Out", ir.SpaceStorage, ir.Array(outElem, -1))
	out.Set, out.Binding, out.Kind = 0, 0, "RWStructuredBuffer"
	m.AddGlobal(out)
	tid := ir.NewGlobal("tid", ir.SpaceInput, ir.Vec(ir.U32, 3))
	tid.Semantic = "SV_DispatchThreadID"
	m.AddGlobal(tid)
	f := m.NewFunction("main", ir.Void, nil, nil)
	f.Entry = &ir.EntryPoint{Stage: ir.StageCompute, NumThreads: [3]int{threads, 1, 1}}
	b := ir.NewBuilder(f)
	b.SetBlock(f.NewBlock("entry"))
	v := b.Load(tid, "tid")
	x := b.ExtractValue(v, []int{0}, "tid.x")
	return &kit{m: m, f: f, b: b, tid: x, out: out}
}

// store writes v to Out[tid.x].
func (k *kit) store(v ir.Value) {
	p := k.b.Access(k.out, []ir.Value{k.tid}, "out.p")
	k.b.Store(v, p)
}

// storeAt writes v to Out[i].
func (k *kit) storeAt(i ir.Value, v ir.Value) {
	p := k.b.Access(k.out, []ir.Value{i}, "")
	k.b.Store(v, p)
}

func (k *kit) finish() *ir.Module {
	if k.b.B.Terminator() == nil {
		k.b.Ret(nil)
	}
	return k.m
}

func (k *kit) run(t *testing.T, in *Input, opts Options) *Result {
	t.Helper()
	res, err := runT(k.finish(), in, opts)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, k.m)
	}
	return res
}

func u32c(v int64) *ir.Const   { return ir.ConstInt(ir.U32, v) }
func i32c(v int64) *ir.Const   { return ir.ConstInt(ir.I32, v) }
func f32c(v float64) *ir.Const { return ir.ConstFloat(ir.F32, v) }

// outU32 returns the first n elements of a u32/i32 buffer as uint32s.
func outU32(t *testing.T, r *Result, name string, n int) []uint32 {
	t.Helper()
	b := r.Buffer(name)
	if b == nil {
		t.Fatalf("no buffer %s", name)
	}
	out := make([]uint32, n)
	for i := range out {
		out[i] = uint32(b.Cells[i])
	}
	return out
}

func eqU32(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// runT is Run for tests: it records the module's opcodes and intrinsics
// for the coverage check of TestMain.
func runT(m *ir.Module, in *Input, opts Options) (*Result, error) {
	noteCoverage(m)
	if verifyModules {
		if err := ir.Verify(m); err != nil {
			return nil, fmt.Errorf("test module does not verify: %v\n%s", err, m)
		}
	}
	return Run(m, in, opts)
}

// verifyModules makes runT check every test module with the IR verifier.
var verifyModules = true
