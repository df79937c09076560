package interp

import (
	"os"
	"path/filepath"
	"testing"

	"passlens/compiler/ir"
	"passlens/internal/golden"
)

// The sample of DXC issue 6957 / llvm-project issue 112056 (testdata/
// switch42.hlsl): with value = [0, 0, 1, 2], case 0 falls through into
// default; the expected HLSL result is [42, 42, 40, 40].

func switch42Globals(m *ir.Module) (value, tid *ir.Global) {
	value = ir.NewGlobal("value", ir.SpaceStorage, ir.Array(ir.I32, -1))
	value.Set, value.Binding, value.Kind = 0, 0, "RWBuffer"
	m.AddGlobal(value)
	tid = ir.NewGlobal("threadID", ir.SpaceInput, ir.Vec(ir.U32, 3))
	tid.Semantic = "SV_DispatchThreadID"
	m.AddGlobal(tid)
	return
}

func switch42Entry(m *ir.Module) (*ir.Function, *ir.Builder) {
	f := m.NewFunction("main", ir.Void, nil, nil)
	f.Entry = &ir.EntryPoint{Stage: ir.StageCompute, NumThreads: [3]int{4, 1, 1}}
	return f, ir.NewBuilder(f)
}

// switch42Module is the original switch, in SSA form with its selection
// merge annotation.
func switch42Module() *ir.Module {
	m := ir.NewModule("switch42.pir")
	value, tid := switch42Globals(m)
	f, b := switch42Entry(m)
	entry := f.NewBlock("entry")
	case0 := f.NewBlock("sw.case0")
	def := f.NewBlock("sw.default")
	merge := f.NewBlock("sw.merge")

	b.SetBlock(entry)
	t := b.Load(tid, "threadID")
	tx := b.ExtractValue(t, []int{0}, "threadID.x")
	p := b.Access(value, []ir.Value{tx}, "value.p")
	sel := b.Load(p, "sel")
	sw := b.Switch(sel, []ir.SwitchCase{{Values: []int64{0}, Target: case0}, {Default: true, Target: def}})
	sw.SetSelectionMerge(merge)

	b.SetBlock(case0)
	s1 := b.Intrinsic("WaveActiveSum", ir.U32, []ir.Value{u32c(1)}, "wsum1")
	b.Br(def)

	b.SetBlock(def)
	sum0 := b.Phi(ir.U32, "sum")
	sum0.AddIncoming(u32c(0), entry)
	sum0.AddIncoming(s1, case0)
	s10 := b.Intrinsic("WaveActiveSum", ir.U32, []ir.Value{u32c(10)}, "wsum10")
	sum1 := b.Binary(ir.OpAdd, sum0, s10, "sum.1")
	b.Br(merge)

	b.SetBlock(merge)
	r := b.Cast(ir.OpBitcast, sum1, ir.I32, "result")
	b.Store(r, p)
	b.Ret(nil)
	return m
}

// switch42AllocaModule is the same switch as a front end emits it before
// mem2reg: `sum` lives in an alloca.
func switch42AllocaModule() *ir.Module {
	m := ir.NewModule("switch42-alloca.pir")
	value, tid := switch42Globals(m)
	f, b := switch42Entry(m)
	entry := f.NewBlock("entry")
	case0 := f.NewBlock("sw.case0")
	def := f.NewBlock("sw.default")
	merge := f.NewBlock("sw.merge")

	b.SetBlock(entry)
	sum := b.Alloca(ir.U32, "sum.addr")
	b.Store(u32c(0), sum)
	t := b.Load(tid, "threadID")
	tx := b.ExtractValue(t, []int{0}, "threadID.x")
	p := b.Access(value, []ir.Value{tx}, "value.p")
	sel := b.Load(p, "sel")
	sw := b.Switch(sel, []ir.SwitchCase{{Values: []int64{0}, Target: case0}, {Default: true, Target: def}})
	sw.SetSelectionMerge(merge)

	addWave := func(k int64) {
		s := b.Intrinsic("WaveActiveSum", ir.U32, []ir.Value{u32c(k)}, "")
		old := b.Load(sum, "")
		b.Store(b.Binary(ir.OpAdd, old, s, ""), sum)
	}
	b.SetBlock(case0)
	addWave(1)
	b.Br(def)
	b.SetBlock(def)
	addWave(10)
	b.Br(merge)

	b.SetBlock(merge)
	v := b.Load(sum, "")
	b.Store(b.Cast(ir.OpBitcast, v, ir.I32, ""), p)
	b.Ret(nil)
	return m
}

// switch42LoweredModule is the switch after the switch-to-if lowering of
// seed switch-to-if-lowering.md: a do { } while (false) loop whose body
// tests the cumulative predicates in source order.
//
//	do {
//	  bool isCase0 = sel == 0;
//	  bool isDefault = true;            // no case label follows default
//	  bool reachesDefault = isCase0 | isDefault;
//	  if (isCase0) { sum += WaveActiveSum(1); }
//	  if (reachesDefault) { sum += WaveActiveSum(10); break; }
//	} while (false);
func switch42LoweredModule() *ir.Module {
	m := ir.NewModule("switch42-lowered.pir")
	value, tid := switch42Globals(m)
	f, b := switch42Entry(m)
	entry := f.NewBlock("entry")
	loop := f.NewBlock("sw.loop")
	body := f.NewBlock("sw.body")
	then0 := f.NewBlock("case0.then")
	merge0 := f.NewBlock("case0.merge")
	then1 := f.NewBlock("default.then")
	merge1 := f.NewBlock("default.merge")
	cont := f.NewBlock("sw.cont")
	exit := f.NewBlock("sw.merge")

	b.SetBlock(entry)
	t := b.Load(tid, "threadID")
	tx := b.ExtractValue(t, []int{0}, "threadID.x")
	p := b.Access(value, []ir.Value{tx}, "value.p")
	sel := b.Load(p, "sel")
	b.Br(loop)

	b.SetBlock(loop)
	isCase0 := b.Cmp(ir.PredEQ, sel, i32c(0), "isCase0")
	isDefault := ir.ConstBool(ir.Bool, true)
	reachesDefault := b.Binary(ir.OpOr, isCase0, isDefault, "reachesDefault")
	b.Br(body).SetLoopMerge(exit, cont)

	b.SetBlock(body)
	b.CondBr(isCase0, then0, merge0).SetSelectionMerge(merge0)

	b.SetBlock(then0)
	s1 := b.Intrinsic("WaveActiveSum", ir.U32, []ir.Value{u32c(1)}, "wsum1")
	b.Br(merge0)

	b.SetBlock(merge0)
	sum0 := b.Phi(ir.U32, "sum")
	sum0.AddIncoming(u32c(0), body)
	sum0.AddIncoming(s1, then0)
	b.CondBr(reachesDefault, then1, merge1).SetSelectionMerge(merge1)

	b.SetBlock(then1)
	s10 := b.Intrinsic("WaveActiveSum", ir.U32, []ir.Value{u32c(10)}, "wsum10")
	sum1 := b.Binary(ir.OpAdd, sum0, s10, "sum.1")
	b.Br(exit) // break

	b.SetBlock(merge1)
	b.Br(cont)

	b.SetBlock(cont)
	b.CondBr(ir.ConstBool(ir.Bool, false), loop, exit) // while (false)

	b.SetBlock(exit)
	res := b.Phi(ir.U32, "sum.out")
	res.AddIncoming(sum1, then1)
	res.AddIncoming(sum0, cont)
	r := b.Cast(ir.OpBitcast, res, ir.I32, "result")
	b.Store(r, p)
	b.Ret(nil)
	return m
}

// unannotated removes every merge annotation of m.
func unannotated(m *ir.Module) *ir.Module {
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			if t := b.Terminator(); t != nil {
				t.ClearMerge()
			}
		}
	}
	return m
}

func switch42Input() *Input {
	return &Input{Buffers: []BufferInput{{Name: "value", Type: "i32", Data: []any{0, 0, 1, 2}}}}
}

func runSwitch42(t *testing.T, m *ir.Module, p Policy) []uint32 {
	t.Helper()
	res, err := runT(m, switch42Input(), Options{WaveSize: 4, Policy: p, Trace: true})
	if err != nil {
		t.Fatalf("%s under %s: %v", m.Name, p, err)
	}
	return outU32(t, res, "value", 4)
}

func TestSwitch42(t *testing.T) {
	t.Parallel()
	want := []uint32{42, 42, 40, 40}
	separated := []uint32{22, 22, 20, 20}
	for _, tc := range []struct {
		name     string
		m        *ir.Module
		maximal  []uint32
		separate []uint32
	}{
		{"switch", switch42Module(), want, separated},
		{"switch-alloca", switch42AllocaModule(), want, separated},
		{"lowered", switch42LoweredModule(), want, want},
		// Without its selection_merge the switch's merge is its immediate
		// post-dominator, sw.default itself: nothing to keep apart.
		{"switch-unannotated", unannotated(switch42Module()), want, want},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := runSwitch42(t, tc.m, PolicyMaximal); !eqU32(got, tc.maximal) {
				t.Errorf("maximal: got %v, want %v", got, tc.maximal)
			}
			if got := runSwitch42(t, tc.m, PolicySwitchSeparate); !eqU32(got, tc.separate) {
				t.Errorf("switch-separate: got %v, want %v", got, tc.separate)
			}
		})
	}
}

// TestSwitch42Trace checks the lanes pane data: which lanes took part in
// each wave op.
func TestSwitch42Trace(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		p     Policy
		lanes [][]int
	}{
		{PolicyMaximal, [][]int{{0, 1}, {0, 1, 2, 3}}},
		{PolicySwitchSeparate, [][]int{{0, 1}, {0, 1}, {2, 3}}},
	} {
		res, err := runT(switch42Module(), switch42Input(), Options{WaveSize: 4, Policy: tc.p, Trace: true})
		if err != nil {
			t.Fatal(err)
		}
		var got [][]int
		for _, op := range res.WaveOps {
			got = append(got, op.Lanes)
		}
		if len(got) != len(tc.lanes) {
			t.Fatalf("%s: wave ops %v, want %v", tc.p, got, tc.lanes)
		}
		for i := range got {
			if len(got[i]) != len(tc.lanes[i]) {
				t.Fatalf("%s: wave ops %v, want %v", tc.p, got, tc.lanes)
			}
			for j := range got[i] {
				if got[i][j] != tc.lanes[i][j] {
					t.Fatalf("%s: wave ops %v, want %v", tc.p, got, tc.lanes)
				}
			}
		}
	}
}

// TestSwitch42Testdata keeps testdata/*.pir equal to the builders (run
// with -update to rewrite them).
func TestSwitch42Testdata(t *testing.T) {
	t.Parallel()
	for file, m := range map[string]*ir.Module{
		"switch42.pir":         switch42Module(),
		"switch42-alloca.pir":  switch42AllocaModule(),
		"switch42-lowered.pir": switch42LoweredModule(),
	} {
		path := filepath.Join("testdata", file)
		text := m.String()
		golden.Check(t, path, []byte(text))
	}
}

// TestSwitch42Parsed runs the .pir files read by the IR parser: they give
// the same results as the builders, under both policies.
func TestSwitch42Parsed(t *testing.T) {
	t.Parallel()
	for file, m := range map[string]*ir.Module{
		"switch42.pir":         switch42Module(),
		"switch42-alloca.pir":  switch42AllocaModule(),
		"switch42-lowered.pir": switch42LoweredModule(),
	} {
		src, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		pm, err := ir.ParseModule(file, src)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range Policies() {
			opts := Options{WaveSize: 4, Policy: p}
			a, err := runT(m, switch42Input(), opts)
			if err != nil {
				t.Fatal(err)
			}
			b, err := runT(pm, switch42Input(), opts)
			if err != nil {
				t.Fatal(err)
			}
			if ok, diff := a.Equal(b); !ok {
				t.Errorf("%s %s: parsed module differs: %s", file, p, diff)
			}
		}
	}
}
