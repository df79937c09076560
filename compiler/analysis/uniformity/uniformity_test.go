package uniformity_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"passlens/compiler/analysis/analysistest"
	"passlens/compiler/analysis/uniformity"
	"passlens/compiler/analysis/uniformity/uniformitytest"
	"passlens/compiler/ir"
)

// TestUniformitySources checks the divergence policy on passlens IR: stage
// inputs by semantic, memory spaces, atomics, calls, intrinsics, and the
// operand rule of WaveReadLaneAt.
func TestUniformitySources(t *testing.T) {
	m := ir.NewModule("sources")
	in := func(name, sem string, ty *ir.Type) *ir.Global {
		g := ir.NewGlobal(name, ir.SpaceInput, ty)
		g.Semantic = sem
		m.AddGlobal(g)
		return g
	}
	gid := in("gid", "SV_GroupID", ir.Vec(ir.U32, 3))
	tid := in("tid", "SV_DispatchThreadID", ir.Vec(ir.U32, 3))
	uv := in("uv", "TEXCOORD0", ir.Vec(ir.F32, 2))
	cb := ir.NewGlobal("cb", ir.SpaceUniform, ir.Array(ir.F32, 4))
	m.AddGlobal(cb)
	buf := ir.NewGlobal("buf", ir.SpaceStorage, ir.Array(ir.U32, 16))
	m.AddGlobal(buf)
	priv := ir.NewGlobal("priv", ir.SpacePrivate, ir.U32)
	m.AddGlobal(priv)
	callee := m.NewFunction("helper", ir.U32, nil, nil)

	f := m.NewFunction("main", ir.Void, []string{"p"}, []*ir.Type{ir.U32})
	f.Params[0].Uniform = true
	bd := ir.NewBuilder(f)
	bd.SetBlock(f.NewBlock("entry"))
	zero := ir.ConstInt(ir.U32, 0)
	vals := map[string]ir.Value{}
	add := func(name string, v ir.Value) ir.Value { vals[name] = v; return v }
	gidx := add("gidx", bd.Load(bd.Access(gid, []ir.Value{zero}, "gid.p"), "gidx"))
	tidx := add("tidx", bd.Load(bd.Access(tid, []ir.Value{zero}, "tid.p"), "tidx"))
	add("uvx", bd.Load(uv, "uvx"))
	add("cb.uniform", bd.Load(bd.Access(cb, []ir.Value{gidx}, "cb.p"), "cb.uniform"))
	add("cb.divergent", bd.Load(bd.Access(cb, []ir.Value{tidx}, "cb.q"), "cb.divergent"))
	add("buf.uniform", bd.Load(bd.Access(buf, []ir.Value{f.Params[0]}, "buf.p"), "buf.uniform"))
	add("priv", bd.Load(priv, "privx"))
	a := bd.Alloca(ir.U32, "local")
	bd.Store(gidx, a)
	add("alloca.load", bd.Load(a, "alloca.load"))
	add("atomic", bd.Atomic(ir.AtomicAdd, bd.Access(buf, []ir.Value{zero}, "buf.a"), f.Params[0], nil, "old"))
	add("call", bd.Call(callee, nil, "c"))
	add("lane", bd.Intrinsic("WaveGetLaneIndex", ir.U32, nil, "lane"))
	add("sum", bd.Intrinsic("WaveActiveSum", ir.U32, []ir.Value{tidx}, "sum"))
	add("readlane.uniform", bd.Intrinsic("WaveReadLaneAt", ir.U32, []ir.Value{tidx, f.Params[0]}, "rl.u"))
	add("readlane.divergent", bd.Intrinsic("WaveReadLaneAt", ir.U32, []ir.Value{f.Params[0], tidx}, "rl.d"))
	add("uniform.arith", bd.Binary(ir.OpAdd, gidx, f.Params[0], "ua"))
	bd.Ret(nil)

	u := uniformity.Uniformity(f)
	want := map[string]bool{
		"gidx": false, "tidx": true, "uvx": true, "cb.uniform": false, "cb.divergent": true,
		"buf.uniform": false, "priv": true, "alloca.load": true, "atomic": true, "call": true,
		"lane": true, "sum": false, "readlane.uniform": false, "readlane.divergent": true,
		"uniform.arith": false,
	}
	for name, div := range want {
		if got := u.IsDivergent(vals[name]); got != div {
			r, _ := u.Reason(vals[name])
			t.Errorf("%s: divergent %v, want %v (%s)", name, got, div, u.DescribeReason(r))
		}
	}
	if r, _ := u.Reason(vals["tidx"]); r.Kind != uniformity.DivSource || !strings.Contains(r.Source, "SV_DispatchThreadID") {
		t.Errorf("tidx reason %+v", r)
	}
	if r, _ := u.Reason(vals["cb.divergent"]); r.Kind != uniformity.DivOperand {
		t.Errorf("cb.divergent should be divergent through its address, got %+v", r)
	}
	if u.IsDivergent(f.Params[0]) {
		t.Errorf("uniform parameter reported divergent")
	}
}

// TestUniformityConstantPhi checks LLVM's rule that a phi whose incoming
// values are all one value (ignoring undef) is not made divergent by a
// divergent branch, while a phi of different constants is.
func TestUniformityConstantPhi(t *testing.T) {
	m := ir.NewModule("phi")
	f := m.NewFunction("phi", ir.Void, []string{"u", "d"}, []*ir.Type{ir.I32, ir.I32})
	f.Params[0].Uniform = true
	entry, a, b, j := f.NewBlock("entry"), f.NewBlock("a"), f.NewBlock("b"), f.NewBlock("join")
	bd := ir.NewBuilder(f)
	bd.SetBlock(entry)
	bd.CondBr(bd.Cmp(ir.PredSLT, f.Params[1], ir.ConstInt(ir.I32, 1), "c"), a, b)
	bd.SetBlock(a)
	bd.Br(j)
	bd.SetBlock(b)
	bd.Br(j)
	bd.SetBlock(j)
	phi := func(name string, x, y ir.Value) *ir.Instr {
		p := bd.Phi(ir.I32, name)
		p.AddIncoming(x, a)
		p.AddIncoming(y, b)
		return p
	}
	same := phi("same", ir.ConstInt(ir.I32, 3), ir.ConstInt(ir.I32, 3))
	undef := phi("undef", ir.ConstUndef(ir.I32), ir.ConstInt(ir.I32, 3))
	param := phi("param", f.Params[0], f.Params[0])
	diff := phi("diff", ir.ConstInt(ir.I32, 3), ir.ConstInt(ir.I32, 4))
	bd.Ret(nil)
	u := uniformity.Uniformity(f)
	for _, p := range []*ir.Instr{same, undef, param} {
		if u.IsDivergent(p) {
			t.Errorf("%s should be uniform", p.Ref())
		}
	}
	if !u.IsDivergent(diff) {
		t.Errorf("%s should be divergent", diff.Ref())
	}
	steps := u.Explain(diff)
	text := u.FormatExplain(steps)
	if len(steps) != 4 || steps[3].Value != f.Params[1] || !strings.Contains(text, "join block join") {
		t.Errorf("explanation of %%diff:\n%s", text)
	}
}

// TestUniformityWriteOptRoundTrip checks that the sets parsed back from
// WriteOpt are the sets computed directly, on random functions.
func TestUniformityWriteOptRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	m := ir.NewModule("rt")
	for i := 0; i < 300; i++ {
		g := analysistest.RandomFunc(rng, fmt.Sprintf("f%d", i), analysistest.RandOptions{Blocks: 1 + rng.IntN(30)})
		f := uniformitytest.DecorateFunc(rng, g, uniformitytest.ValueOptions{}).BuildIR(m)
		u := uniformity.Uniformity(f)
		var buf bytes.Buffer
		if err := u.WriteOpt(&buf); err != nil {
			t.Fatal(err)
		}
		sets, err := uniformitytest.ParseUniformity(&buf)
		if err != nil || len(sets) != 1 {
			t.Fatalf("%s: parse: %v (%d sets)\n%s", f.Name(), err, len(sets), buf.String())
		}
		if d := uniformitytest.CompareUniformity(uniformitytest.Sets(u), sets[0], uniformitytest.CompareUniformityOptions{Unnamed: true, Temporal: true}); len(d) > 0 {
			t.Fatalf("%s: printed and computed sets differ: %v\n%s", f.Name(), d, buf.String())
		}
	}
}

// TestUniformityMalformed checks that malformed functions are analysed
// without panicking: a declaration, a block without terminator, a branch
// to a block of another function.
func TestUniformityMalformed(t *testing.T) {
	m := ir.NewModule("bad")
	decl := m.NewFunction("decl", ir.I32, []string{"x"}, []*ir.Type{ir.I32})
	if u := uniformity.Uniformity(decl); !u.IsDivergent(decl.Params[0]) || u.HasDivergence() != true {
		t.Errorf("declaration: parameter should be divergent")
	}
	other := m.NewFunction("other", ir.Void, nil, nil)
	ob := other.NewBlock("x")
	f := m.NewFunction("f", ir.Void, []string{"d"}, []*ir.Type{ir.I32})
	bd := ir.NewBuilder(f)
	b0, b1 := f.NewBlock("b0"), f.NewBlock("b1")
	bd.SetBlock(b0)
	bd.CondBr(bd.Cmp(ir.PredEQ, f.Params[0], ir.ConstInt(ir.I32, 0), "c"), b1, ob)
	bd.SetBlock(b1)
	bd.Binary(ir.OpAdd, f.Params[0], ir.ConstInt(ir.I32, 1), "v") // no terminator
	u := uniformity.Uniformity(f)
	var buf bytes.Buffer
	if err := u.WriteOpt(&buf); err != nil {
		t.Fatal(err)
	}
	if !u.IsDivergentTerminator(b0) {
		t.Errorf("b0's terminator should be divergent")
	}
}

// TestUniformityQuadOps: derivatives and quad reads are divergent exactly
// when their operand is, and the explanation says they act over quads.
func TestUniformityQuadOps(t *testing.T) {
	m, err := ir.ParseModule("quad.pir", []byte(`module "quad"

@pos = global input <4 x f32> semantic "SV_Position"
@cb = global uniform f32 binding 0, 0 kind "cbuffer"

define void @main() pixel {
entry:
  %pos = load ptr<input, <4 x f32>> @pos
  %x = extractvalue <4 x f32> %pos, 0
  %k = load ptr<uniform, f32> @cb
  %dx = intr f32 ddx_fine(f32 %x)
  %dk = intr f32 ddx_coarse(f32 %k)
  %qx = intr f32 QuadReadAcrossX(f32 %x)
  %qk = intr f32 QuadReadLaneAt(f32 %k, u32 2)
  ret
}
`))
	if err != nil {
		t.Fatal(err)
	}
	f := m.Func("main")
	u := uniformity.Uniformity(f)
	val := func(name string) ir.Value {
		for _, in := range f.Blocks[0].Instrs {
			if in.Name() == name {
				return in
			}
		}
		t.Fatalf("no %%%s", name)
		return nil
	}
	for _, c := range []struct {
		name, note string
	}{{"dx", "derivative across a 2×2 quad"}, {"qx", "quad operation"}} {
		v := val(c.name)
		if !u.IsDivergent(v) {
			t.Errorf("%%%s should be divergent", c.name)
			continue
		}
		if text := u.FormatExplain(u.Explain(v)); !strings.Contains(text, c.note) || !strings.Contains(text, "uses divergent %x") {
			t.Errorf("explanation of %%%s:\n%s", c.name, text)
		}
	}
	for _, n := range []string{"dk", "qk"} {
		if u.IsDivergent(val(n)) {
			t.Errorf("%%%s of a uniform value should be uniform", n)
		}
	}
}
