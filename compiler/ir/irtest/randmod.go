// Package irtest generates random valid modules for tests: print/parse
// round trips, the verifier, and other packages' property tests (passes
// must keep a random module valid; the interpreter must not crash on one).
// It is test support only: no production package imports it (the deadcode
// gate in .ci/run checks that nothing test-only is linked into passlens).
//
// A function is generated in three phases:
//  1. the CFG shape: structured regions (if/else, switch, loops with
//     break/continue, early returns) with merge annotations, or an
//     arbitrary graph (irreducible loops, unreachable blocks, multi-edges);
//  2. instructions, walking the dominator tree so every operand is a value
//     that dominates its use (or a constant, parameter or global);
//  3. phi incoming values, picked from the blocks dominating each
//     predecessor.
//
// The result passes Verify; RandomModule panics if it does not, since that
// is a bug in the generator or the verifier.
package irtest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"passlens/compiler/analysis"
	"passlens/compiler/ir"
)

// RandomOptions sizes a random module. Zero fields take defaults.
type RandomOptions struct {
	Funcs  int // defined functions besides the entry points (default 2)
	Blocks int // structured constructs per function (default 6)
	Instrs int // instructions per block, at most (default 6)
	// Unstructured makes some functions arbitrary CFGs without merge
	// annotations (irreducible loops, unreachable blocks, duplicate edges).
	Unstructured bool
	// Locs stamps random source locations on globals and instructions.
	Locs bool
	// PlainNames keeps names bare (no names that need quoting).
	PlainNames bool
}

func (o *RandomOptions) defaults() {
	if o.Funcs <= 0 {
		o.Funcs = 2
	}
	if o.Blocks <= 0 {
		o.Blocks = 6
	}
	if o.Instrs <= 0 {
		o.Instrs = 6
	}
}

// RandomModule returns a random module that passes Verify. The same seed
// and options always give the same module.
func RandomModule(seed int64, opts RandomOptions) *ir.Module {
	opts.defaults()
	g := &rgen{r: rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15)), opts: opts}
	m := g.module(seed)
	if err := ir.Verify(m); err != nil {
		panic(fmt.Sprintf("irtest.RandomModule(%d): generated an invalid module: %v\n%s", seed, err, m))
	}
	return m
}

type rgen struct {
	r    *rand.Rand
	opts RandomOptions
	m    *ir.Module

	structs []*ir.Type
	valueTs []*ir.Type // types values are generated at
	callees []*ir.Function
}

func (g *rgen) n(k int) int { return g.r.IntN(k) }

func (g *rgen) chance(p float64) bool { return g.r.Float64() < p }

func pickOne[T any](g *rgen, xs []T) T { return xs[g.n(len(xs))] }

var (
	plainBases = []string{"x", "y", "sum", "acc", "tmp", "v", "a.x", "idx", "p", "cond", "r", "lane"}
	weirdBases = []string{"has space", "quote\"d", "ünï", "-1", "42", "tab\there", "a+b", "semi;colon", "x.y.z"}
)

func (g *rgen) name() string {
	if !g.opts.PlainNames && g.chance(0.08) {
		return pickOne(g, weirdBases)
	}
	if g.chance(0.15) {
		return "" // generated t0, t1, ...
	}
	return pickOne(g, plainBases)
}

func (g *rgen) loc() ir.Loc {
	if !g.opts.Locs || g.chance(0.3) {
		return ir.Loc{}
	}
	return ir.Loc{Line: int32(1 + g.n(500)), Col: int32(1 + g.n(80))}
}

// ---- types ----

var scalarTs = []*ir.Type{ir.Bool, ir.I32, ir.U32, ir.F32}

func (g *rgen) vec(elem *ir.Type) *ir.Type { return ir.Vec(elem, 2+g.n(3)) }

// numericT is an i32/u32/f32 scalar or vector.
func (g *rgen) numericT(kinds ...*ir.Type) *ir.Type {
	e := pickOne(g, kinds)
	if g.chance(0.4) {
		return g.vec(e)
	}
	return e
}

func (g *rgen) module(seed int64) *ir.Module {
	m := ir.NewModule(fmt.Sprintf("random-%d.pir", seed))
	g.m = m

	// Struct types.
	s0name := "S0"
	if !g.opts.PlainNames && g.chance(0.3) {
		s0name = "my struct"
	}
	s0 := ir.Struct(s0name, []ir.Field{
		{Name: "f", Type: ir.F32},
		{Name: "v", Type: ir.Vec(ir.F32, 4)},
		{Name: "a", Type: ir.Array(ir.I32, 3)},
		{Name: "m", Type: ir.Mat(ir.F32, 2+g.n(2), 2+g.n(3))},
	})
	s1 := ir.Struct("S1", []ir.Field{
		{Name: "inner", Type: s0},
		{Name: "n", Type: ir.U32},
		{Name: "flag", Type: ir.Bool},
		{Name: "arr", Type: ir.Array(ir.Vec(ir.U32, 2), 2)},
	})
	buf := ir.Struct("Buf", []ir.Field{{Name: "count", Type: ir.U32}, {Name: "data", Type: ir.Array(ir.F32, -1)}})
	g.structs = []*ir.Type{s0, s1}
	for _, s := range []*ir.Type{s0, s1, buf} {
		m.AddStruct(s)
	}
	if g.chance(0.5) {
		// Explicit member offsets (HLSL packoffset), out of order as
		// packoffset allows; only the text round trip uses this type.
		m.AddStruct(ir.Struct("Placed", []ir.Field{
			{Name: "w", Type: ir.Vec(ir.F32, 4), Placed: true, Offset: 48},
			{Name: "x", Type: ir.F32, Placed: true, Offset: 4 * g.n(4)},
		}))
	}
	g.valueTs = []*ir.Type{ir.Bool, ir.I32, ir.U32, ir.F32, ir.Vec(ir.F32, 2), ir.Vec(ir.F32, 3), ir.Vec(ir.F32, 4), ir.Vec(ir.I32, 2), ir.Vec(ir.U32, 3),
		ir.Vec(ir.Bool, 2), ir.Vec(ir.I32, 4), ir.Mat(ir.F32, 3, 3), ir.Array(ir.F32, 4), ir.Array(ir.Vec(ir.I32, 2), 2), s0, s1}

	// Globals.
	add := func(name string, sp ir.AddrSpace, t *ir.Type, set func(*ir.Global)) {
		gl := ir.NewGlobal(name, sp, t)
		gl.Loc = g.loc()
		if set != nil {
			set(gl)
		}
		m.AddGlobal(gl)
	}
	add("cb", ir.SpaceUniform, s1, func(gl *ir.Global) { gl.Set, gl.Binding, gl.Kind = 0, 0, "cbuffer" })
	add("rw", ir.SpaceStorage, ir.Array(ir.U32, -1), func(gl *ir.Global) { gl.Set, gl.Binding, gl.Kind = 0, 1, "RWStructuredBuffer" })
	add("ro", ir.SpaceStorage, ir.Array(ir.F32, -1), func(gl *ir.Global) {
		gl.Set, gl.Binding, gl.ReadOnly, gl.Kind = 1, 2, true, "StructuredBuffer"
	})
	add("buf", ir.SpaceStorage, buf, func(gl *ir.Global) { gl.Binding, gl.Kind = 3, "RWByteAddressBuffer" })
	add("tid", ir.SpaceInput, ir.Vec(ir.U32, 3), func(gl *ir.Global) { gl.Semantic = "SV_DispatchThreadID" })
	add("uv", ir.SpaceInput, ir.Vec(ir.F32, 4), func(gl *ir.Global) { gl.Semantic, gl.Flat = "TEXCOORD0", g.chance(0.5) })
	add("color", ir.SpaceOutput, ir.Vec(ir.F32, 4), func(gl *ir.Global) { gl.Semantic = "SV_Target0" })
	add("shared", ir.SpaceGroupshared, ir.Array(ir.U32, 64), func(gl *ir.Global) {
		if g.chance(0.5) {
			gl.Init = ir.ConstZero(gl.ValType)
		}
	})
	pt := pickOne(g, g.valueTs)
	add("table", ir.SpacePrivate, pt, func(gl *ir.Global) { gl.Init = g.constant(pt, 0) })
	if !g.opts.PlainNames {
		add("weird name", ir.SpacePrivate, ir.F32, func(gl *ir.Global) { gl.Init = ir.ConstF32Bits(0x80000000) })
	}

	// Declarations.
	d := m.NewFunction("ext", ir.F32, []string{"x", "v"}, []*ir.Type{ir.F32, ir.Vec(ir.F32, 4)})
	d.Params[0].Uniform = true
	g.callees = append(g.callees, d)
	m.NewFunction("ext.void", ir.Void, []string{"n"}, []*ir.Type{ir.U32})
	g.callees = append(g.callees, m.Funcs[len(m.Funcs)-1])

	// Helpers, then entry points; each may call the ones before it.
	for i := 0; i < g.opts.Funcs; i++ {
		ret := ir.Void
		if g.chance(0.7) {
			ret = pickOne(g, g.valueTs)
		}
		np := g.n(4)
		var names []string
		var types []*ir.Type
		for k := 0; k < np; k++ {
			names = append(names, g.name())
			types = append(types, pickOne(g, g.valueTs))
		}
		f := m.NewFunction(fmt.Sprintf("helper%d", i), ret, names, types)
		for _, p := range f.Params {
			p.Uniform = g.chance(0.3)
		}
		g.body(f, g.opts.Unstructured && g.chance(0.5))
		g.callees = append(g.callees, f)
	}
	cs := m.NewFunction("main", ir.Void, nil, nil)
	cs.Entry = &ir.EntryPoint{Stage: ir.StageCompute, NumThreads: [3]int{1 + g.n(64), 1 + g.n(4), 1}}
	g.body(cs, false)
	ps := m.NewFunction("ps_main", ir.Void, nil, nil)
	ps.Entry = &ir.EntryPoint{Stage: ir.StagePixel}
	g.body(ps, g.opts.Unstructured && g.chance(0.5))
	vs := m.NewFunction("vs_main", ir.Void, nil, nil)
	vs.Entry = &ir.EntryPoint{Stage: ir.StageVertex}
	g.body(vs, false)
	return m
}

// ---- constants ----

var specialF32 = []uint32{0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7FC00001, 0xFFFFFFFF,
	0x00000001, 0x007FFFFF, 0x3F800000, 0x3DCCCCCD, 0x7F7FFFFF, 0x4B000000, 0x33800000}

var specialF64 = []uint64{0, 1 << 63, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000,
	0x7FF8000000000001, 1, 0x3FB999999999999A, 0x7FEFFFFFFFFFFFFF, 0x3FF0000000000000}

// Scalar types other than the 32-bit core (widths.go), for the LLVM bridge.
var (
	wideInts   = []*ir.Type{ir.I8, ir.I16, ir.I64, ir.U64}
	wideFloats = []*ir.Type{ir.F16, ir.BF16, ir.F64}
)

func (g *rgen) constant(t *ir.Type, depth int) *ir.Const {
	if depth > 0 || !t.IsScalar() {
		switch {
		case g.chance(0.05):
			return ir.ConstZero(t)
		case g.chance(0.03):
			return ir.ConstUndef(t)
		}
	}
	switch t.Kind {
	case ir.KBool:
		return ir.ConstBool(ir.Bool, g.chance(0.5))
	case ir.KInt:
		switch g.n(4) {
		case 0:
			return ir.ConstInt(t, -1<<(t.Bits-1)) // the most negative value
		case 1:
			return ir.ConstInt(t, int64(g.r.Uint64())) // truncated to the width
		}
		return ir.ConstInt(t, int64(g.n(33))-16)
	case ir.KUint:
		if g.chance(0.2) {
			return ir.ConstInt(t, -1) // all ones: the largest value
		}
		return ir.ConstInt(t, int64(g.n(100)))
	case ir.KFloat:
		switch t.Bits {
		case 16:
			return ir.ConstFloatBits(t, uint64(g.r.Uint32N(1<<16)))
		case 64:
			switch g.n(3) {
			case 0:
				return ir.ConstFloatBits(t, pickOne(g, specialF64))
			case 1:
				return ir.ConstFloatBits(t, g.r.Uint64())
			}
			return ir.ConstFloatBits(t, math.Float64bits(float64(g.n(2000)-1000)/3))
		}
		switch g.n(3) {
		case 0:
			return ir.ConstF32Bits(pickOne(g, specialF32))
		case 1:
			return ir.ConstF32Bits(g.r.Uint32())
		}
		return ir.ConstFloat(ir.F32, float64(g.n(2000)-1000)/8)
	case ir.KPointer:
		return ir.ConstZero(t)
	}
	el := make([]*ir.Const, t.NumElems())
	for i := range el {
		el[i] = g.constant(t.ElemType(i), depth+1)
	}
	return ir.ConstAggregate(t, el)
}

// ---- functions ----

// fgen generates one function body.
type fgen struct {
	*rgen
	f  *ir.Function
	bd *ir.Builder

	// Values available at the insertion point, by type, with an undo log
	// for leaving a dominator subtree.
	avail map[*ir.Type][]ir.Value
	log   []*ir.Type
	ptrs  []ir.Value // pointer values available (globals, allocas, accesses)

	defs map[*ir.Block][]ir.Value // each block's own definitions, in order
	pend []*ir.Instr              // phis waiting for incoming values
	loop []loopCtx
}

type loopCtx struct{ merge, cont *ir.Block }

func (g *rgen) body(f *ir.Function, unstructured bool) {
	fg := &fgen{rgen: g, f: f, bd: ir.NewBuilder(f), avail: map[*ir.Type][]ir.Value{}, defs: map[*ir.Block][]ir.Value{}}
	entry := f.NewBlock("entry")
	if unstructured {
		fg.shapeUnstructured(entry)
	} else {
		exit := fg.region(entry, g.opts.Blocks, 0)
		fg.setTerm(exit, fg.retInstr())
	}
	fg.fill()
	// One value may have the empty name, printed %"".
	if !g.opts.PlainNames && g.chance(0.2) && f.ReserveName("") {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.HasResult() {
					in.SetRawName("")
					return
				}
			}
		}
	}
}

// setTerm appends a terminator (operands filled later, in fill).
func (fg *fgen) setTerm(b *ir.Block, t *ir.Instr) {
	t.Block = b
	t.Loc = fg.loc()
	b.Instrs = append(b.Instrs, t)
}

func (fg *fgen) retInstr() *ir.Instr { return voidInstr(&ir.Instr{Op: ir.OpRet}) }

func (fg *fgen) br(to *ir.Block) *ir.Instr {
	return voidInstr(&ir.Instr{Op: ir.OpBr, Succs: []*ir.Block{to}})
}

func (fg *fgen) condbr(a, b *ir.Block) *ir.Instr {
	return voidInstr(&ir.Instr{Op: ir.OpCondBr, Succs: []*ir.Block{a, b}})
}

// region builds a structured single-entry region starting at cur with
// budget constructs in all (nested ones included) and returns its open
// exit block (reachable, without terminator).
func (fg *fgen) region(cur *ir.Block, budget, depth int) *ir.Block {
	for budget > 0 {
		budget--
		// Nested regions take their constructs out of the same budget, so
		// the size stays linear in it.
		sub := 0
		if depth <= 4 && budget > 0 {
			sub = fg.n(budget + 1)
			budget -= sub
		}
		switch k := fg.n(10); {
		case k < 2: // straight line: split the block
			next := fg.f.NewBlock("bb")
			fg.setTerm(cur, fg.br(next))
			cur = next
		case k < 5: // if / if-else
			then := fg.f.NewBlock("if.then")
			merge := fg.f.NewBlock("if.end")
			var els *ir.Block
			if fg.chance(0.6) {
				els = fg.f.NewBlock("if.else")
			}
			t := fg.condbr(then, merge)
			if els != nil {
				t.Succs[1] = els
			}
			t.SetSelectionMerge(merge)
			fg.setTerm(cur, t)
			if els != nil {
				part := fg.n(sub + 1)
				fg.arm(then, merge, part, depth, true)
				fg.arm(els, merge, sub-part, depth, false)
			} else {
				fg.arm(then, merge, sub, depth, true)
			}
			cur = merge
		case k < 7: // switch
			merge := fg.f.NewBlock("sw.end")
			var cases []ir.SwitchCase
			used := map[int64]bool{}
			ncase := 1 + fg.n(4)
			defAt := fg.n(ncase + 1)
			var arms []*ir.Block
			for i := 0; i <= ncase; i++ {
				var c ir.SwitchCase
				if i == defAt {
					c.Default = true
				}
				if i != defAt || fg.chance(0.3) {
					for nv := 1 + fg.n(2); nv > 0; nv-- {
						v := int64(fg.n(12)) - 2
						if !used[v] {
							used[v] = true
							c.Values = append(c.Values, v)
						}
					}
				}
				if len(c.Values) == 0 && !c.Default {
					continue
				}
				if fg.chance(0.25) {
					c.Target = merge
				} else {
					c.Target = fg.f.NewBlock("sw.case")
					arms = append(arms, c.Target)
				}
				cases = append(cases, c)
			}
			t := voidInstr(&ir.Instr{Op: ir.OpSwitch, Cases: cases})
			t.SetSelectionMerge(merge)
			fg.setTerm(cur, t)
			for i, a := range arms {
				part := sub
				if i < len(arms)-1 {
					part = fg.n(sub + 1)
				}
				sub -= part
				fg.arm(a, merge, part, depth, i != 0)
			}
			cur = merge
		default: // loop
			header := fg.f.NewBlock("loop.header")
			body := fg.f.NewBlock("loop.body")
			cont := fg.f.NewBlock("loop.cont")
			merge := fg.f.NewBlock("loop.end")
			fg.setTerm(cur, fg.br(header))
			var ht *ir.Instr
			if fg.chance(0.8) {
				ht = fg.condbr(body, merge)
				if fg.chance(0.5) {
					ht.Succs[0], ht.Succs[1] = merge, body
				}
			} else {
				ht = fg.br(body)
			}
			ht.SetLoopMerge(merge, cont)
			fg.setTerm(header, ht)
			fg.loop = append(fg.loop, loopCtx{merge, cont})
			end := fg.region(body, sub, depth+1)
			fg.loop = fg.loop[:len(fg.loop)-1]
			fg.setTerm(end, fg.br(cont))
			if ht.Op == ir.OpBr || fg.chance(0.3) {
				fg.setTerm(cont, fg.condbr(header, merge)) // do-while style exit
			} else {
				fg.setTerm(cont, fg.br(header))
			}
			cur = merge
		}
	}
	return cur
}

// arm builds one arm of a selection ending at merge; an arm that may exit
// early sometimes ends with ret, discard, unreachable, break or continue.
func (fg *fgen) arm(start, merge *ir.Block, budget, depth int, mayExit bool) {
	end := fg.region(start, budget, depth+1)
	if mayExit && fg.chance(0.3) {
		switch k := fg.n(5); {
		case k == 0:
			fg.setTerm(end, fg.retInstr())
			return
		case k == 1 && fg.f.Entry != nil && fg.f.Entry.Stage == ir.StagePixel:
			fg.setTerm(end, voidInstr(&ir.Instr{Op: ir.OpDiscard}))
			return
		case k == 2:
			fg.setTerm(end, voidInstr(&ir.Instr{Op: ir.OpUnreachable}))
			return
		case k >= 3 && len(fg.loop) > 0:
			l := fg.loop[len(fg.loop)-1]
			to := l.merge
			if k == 4 {
				to = l.cont
			}
			fg.setTerm(end, fg.br(to))
			return
		}
	}
	fg.setTerm(end, fg.br(merge))
}

// shapeUnstructured makes an arbitrary CFG: random branches between
// blocks (never back to the entry), so there are irreducible cycles,
// unreachable blocks and duplicate edges.
func (fg *fgen) shapeUnstructured(entry *ir.Block) {
	n := 2 + fg.n(fg.opts.Blocks*2+1)
	blocks := []*ir.Block{entry}
	for i := 1; i < n; i++ {
		blocks = append(blocks, fg.f.NewBlock("b"))
	}
	target := func() *ir.Block { return blocks[1+fg.n(n-1)] }
	for i, b := range blocks {
		switch k := fg.n(10); {
		case k < 3 || i == n-1:
			fg.setTerm(b, fg.retInstr())
		case k < 5:
			fg.setTerm(b, fg.br(target()))
		case k < 8:
			t := fg.condbr(target(), target())
			if fg.chance(0.2) {
				t.Succs[1] = t.Succs[0]
			}
			fg.setTerm(b, t)
		case k < 9:
			var cases []ir.SwitchCase
			cases = append(cases, ir.SwitchCase{Default: true, Target: target()})
			for v := int64(0); v < int64(1+fg.n(3)); v++ {
				cases = append(cases, ir.SwitchCase{Values: []int64{v * 3}, Target: target()})
			}
			fg.setTerm(b, voidInstr(&ir.Instr{Op: ir.OpSwitch, Cases: cases}))
		default:
			fg.setTerm(b, voidInstr(&ir.Instr{Op: ir.OpUnreachable}))
		}
	}
}

// ---- filling ----

// fill generates instructions along the dominator tree, then the phi
// incoming values.
func (fg *fgen) fill() {
	f := fg.f
	v := newCFG(f)
	children := make([][]int, len(f.Blocks))
	for i := 1; i < len(f.Blocks); i++ {
		if v.reachable(int32(i)) {
			d := v.dt.IDom(i)
			children[d] = append(children[d], i)
		}
	}
	// Globals and parameters are available everywhere.
	base := func() {
		for _, gl := range fg.m.Globals {
			fg.ptrs = append(fg.ptrs, gl)
		}
		for _, p := range f.Params {
			fg.push(p)
		}
	}
	base()
	var walk func(i int)
	walk = func(i int) {
		mark, pmark := len(fg.log), len(fg.ptrs)
		fg.block(f.Blocks[i], len(v.preds(i)) > 0)
		for _, c := range children[i] {
			walk(c)
		}
		fg.undo(mark, pmark)
	}
	walk(0)
	// Unreachable blocks: only arguments, globals, constants and their own values.
	for i, b := range f.Blocks {
		if !v.reachable(int32(i)) {
			mark, pmark := len(fg.log), len(fg.ptrs)
			fg.block(b, len(v.preds(i)) > 0)
			fg.undo(mark, pmark)
		}
	}
	// Phi incoming values.
	for _, phi := range fg.pend {
		bi := v.g.Index(phi.Block)
		seen := map[int32]int{}
		for _, p := range v.preds(bi) {
			seen[p]++
		}
		done := map[int32]bool{}
		for _, p := range v.preds(bi) {
			if done[p] {
				continue
			}
			done[p] = true
			val := fg.incoming(v, p, phi.Type())
			reps := 1
			if seen[p] > 1 && fg.chance(0.4) {
				reps = seen[p] // LLVM style: one entry per edge
			}
			for ; reps > 0; reps-- {
				phi.AddIncoming(val, f.Blocks[p])
			}
		}
	}
}

// incoming picks a value of type t available at the end of block p.
func (fg *fgen) incoming(v *cfg, p int32, t *ir.Type) ir.Value {
	if v.reachable(p) {
		cur := p
		for steps := 0; steps < 12; steps++ {
			var cands []ir.Value
			for _, d := range fg.defs[fg.f.Blocks[cur]] {
				if d.Type() == t {
					cands = append(cands, d)
				}
			}
			if len(cands) > 0 && fg.chance(0.7) {
				return pickOne(fg.rgen, cands)
			}
			if cur == 0 {
				break
			}
			cur = int32(v.dt.IDom(int(cur)))
		}
		for _, a := range fg.f.Params {
			if a.Type() == t && fg.chance(0.5) {
				return a
			}
		}
	}
	return fg.constant(t, 0)
}

func (fg *fgen) push(x ir.Value) {
	t := x.Type()
	if t.Kind == ir.KPointer {
		fg.ptrs = append(fg.ptrs, x)
		return
	}
	fg.avail[t] = append(fg.avail[t], x)
	fg.log = append(fg.log, t)
}

func (fg *fgen) undo(mark, pmark int) {
	for len(fg.log) > mark {
		t := fg.log[len(fg.log)-1]
		fg.log = fg.log[:len(fg.log)-1]
		fg.avail[t] = fg.avail[t][:len(fg.avail[t])-1]
	}
	fg.ptrs = fg.ptrs[:pmark]
}

// usedType returns the type of a recently defined value that ok accepts,
// or fallback(): drawing operand types from what exists makes instructions
// use each other's results instead of mostly constants.
func (fg *fgen) usedType(ok func(*ir.Type) bool, fallback func() *ir.Type) *ir.Type {
	if fg.chance(0.7) {
		n := len(fg.log)
		for tries := 0; tries < 8 && n > 0; tries++ {
			t := fg.log[n-1-fg.n(min(n, 32))]
			if ok(t) {
				return t
			}
		}
	}
	return fallback()
}

// pick returns a value of type t: a recent available value or a constant.
func (fg *fgen) pick(t *ir.Type) ir.Value {
	if vs := fg.avail[t]; len(vs) > 0 && fg.chance(0.75) {
		// Prefer recent values so chains of uses form.
		k := len(vs) - 1 - fg.n(min(len(vs), 6))
		return vs[k]
	}
	return fg.constant(t, 0)
}

// block fills b: phis (if it has predecessors), instructions, and the
// terminator's operands.
func (fg *fgen) block(b *ir.Block, hasPreds bool) {
	term := b.Instrs[len(b.Instrs)-1]
	b.Instrs = b.Instrs[:len(b.Instrs)-1]
	fg.bd.SetBlock(b)
	if hasPreds {
		for k := fg.n(3); k > 0; k-- {
			fg.bd.Loc = fg.loc()
			phi := fg.bd.Phi(pickOne(fg.rgen, fg.valueTs), fg.name())
			fg.pend = append(fg.pend, phi)
			fg.def(b, phi)
		}
	}
	for k := fg.n(fg.opts.Instrs + 1); k > 0; k-- {
		fg.bd.Loc = fg.loc()
		fg.instr(b)
	}
	switch term.Op {
	case ir.OpCondBr:
		term.Args = []ir.Value{fg.pick(ir.Bool)}
	case ir.OpSwitch:
		sel := ir.I32
		if fg.chance(0.3) {
			sel = ir.U32
			for _, c := range term.Cases {
				for _, v := range c.Values {
					if v < 0 {
						sel = ir.I32
					}
				}
			}
		}
		term.Args = []ir.Value{fg.pick(sel)}
	case ir.OpRet:
		if fg.f.Ret != ir.Void {
			term.Args = []ir.Value{fg.pick(fg.f.Ret)}
		}
	}
	b.Instrs = append(b.Instrs, term)
}

func (fg *fgen) def(b *ir.Block, in *ir.Instr) {
	if in.HasResult() {
		fg.push(in)
		fg.defs[b] = append(fg.defs[b], in)
	}
}

// cfg is the control flow of a function being filled: reachability, the
// dominator tree and the predecessors (one entry per edge, in increasing
// block index), from package analysis.
type cfg struct {
	g          *analysis.FuncGraph
	dt         *analysis.DomTree
	pst, plist []int32
}

func newCFG(f *ir.Function) *cfg {
	g := analysis.NewFuncGraph(f)
	st, l := analysis.PredLists(g.Graph)
	return &cfg{g: g, dt: analysis.Dominators(g.Graph), pst: st, plist: l}
}

func (c *cfg) reachable(b int32) bool { return c.dt.Contains(int(b)) }

func (c *cfg) preds(b int) []int32 { return c.plist[c.pst[b]:c.pst[b+1]] }

// voidInstr gives a terminator built as a literal its Void result type.
func voidInstr(in *ir.Instr) *ir.Instr {
	in.SetType(ir.Void)
	return in
}

func isIntegralScalar(t *ir.Type) bool { return t != nil && (t.Kind == ir.KInt || t.Kind == ir.KUint) }

// loadable reports pointees that can be loaded (no runtime arrays).
func loadable(t *ir.Type) bool { return !ir.HoldsRuntimeArray(t) }

// writable reports pointers stores may go through.
func writable(p ir.Value) bool {
	t := p.Type()
	return ir.ReadOnlyPointer(p) == "" && t.Space != ir.SpaceUniform && t.Space != ir.SpaceInput
}

func (fg *fgen) ptrWhere(ok func(ir.Value) bool) ir.Value {
	var cands []ir.Value
	for _, p := range fg.ptrs {
		if ok(p) {
			cands = append(cands, p)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	return cands[len(cands)-1-fg.n(min(len(cands), 8))]
}

// intrinsic forms: name, argument types from a chosen type t, result type.
type intrForm struct {
	name string
	args func(t *ir.Type) []*ir.Type
	ret  func(t *ir.Type) *ir.Type
	in   func(g *rgen) *ir.Type // the type t is drawn from
}

var (
	same   = func(t *ir.Type) *ir.Type { return t }
	one    = func(t *ir.Type) []*ir.Type { return []*ir.Type{t} }
	two    = func(t *ir.Type) []*ir.Type { return []*ir.Type{t, t} }
	three  = func(t *ir.Type) []*ir.Type { return []*ir.Type{t, t, t} }
	none   = func(t *ir.Type) []*ir.Type { return nil }
	floatT = func(g *rgen) *ir.Type { return g.numericT(ir.F32) }
	intT   = func(g *rgen) *ir.Type { return g.numericT(ir.I32, ir.U32) }
	fvecT  = func(g *rgen) *ir.Type { return g.vec(ir.F32) }
	bvecT  = func(g *rgen) *ir.Type { return g.vec(ir.Bool) }
	anyT   = func(g *rgen) *ir.Type { return g.numericT(ir.I32, ir.U32, ir.F32) }
	voidT  = func(g *rgen) *ir.Type { return ir.Void }
)

var intrForms = []intrForm{
	{"sqrt", one, same, floatT}, {"sin", one, same, floatT}, {"frac", one, same, floatT},
	{"abs", one, same, anyT}, {"countbits", one, same, intT}, {"reversebits", one, same, intT},
	{"max", two, same, anyT}, {"min", two, same, anyT}, {"pow", two, same, floatT}, {"atan2", two, same, floatT},
	{"clamp", three, same, anyT}, {"lerp", three, same, floatT}, {"mad", three, same, floatT},
	{"dot", two, func(t *ir.Type) *ir.Type { return ir.F32 }, fvecT},
	{"length", one, func(t *ir.Type) *ir.Type { return ir.F32 }, fvecT},
	{"normalize", one, same, fvecT},
	{"any", one, func(t *ir.Type) *ir.Type { return ir.Bool }, bvecT},
	{"all", one, func(t *ir.Type) *ir.Type { return ir.Bool }, bvecT},
	{"WaveGetLaneIndex", none, func(t *ir.Type) *ir.Type { return ir.U32 }, voidT},
	{"WaveIsFirstLane", none, func(t *ir.Type) *ir.Type { return ir.Bool }, voidT},
	{"WaveActiveSum", one, same, anyT}, {"WaveReadLaneFirst", one, same, anyT},
	{"WaveReadLaneAt", func(t *ir.Type) []*ir.Type { return []*ir.Type{t, ir.U32} }, same, anyT},
	{"WavePrefixSum", one, same, anyT},
	{"WaveActiveBallot", func(t *ir.Type) []*ir.Type { return []*ir.Type{ir.Bool} }, func(t *ir.Type) *ir.Type { return ir.Vec(ir.U32, 4) }, voidT},
	{"GroupMemoryBarrierWithGroupSync", none, func(t *ir.Type) *ir.Type { return ir.Void }, voidT},
	{"llvm.amdgcn.workitem.id.x", none, func(t *ir.Type) *ir.Type { return ir.I32 }, voidT},
}

var (
	intBinOps   = []ir.Op{ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpSDiv, ir.OpUDiv, ir.OpSRem, ir.OpURem, ir.OpShl, ir.OpLShr, ir.OpAShr, ir.OpAnd, ir.OpOr, ir.OpXor}
	floatBinOps = []ir.Op{ir.OpFAdd, ir.OpFSub, ir.OpFMul, ir.OpFDiv, ir.OpFRem}
	boolBinOps  = []ir.Op{ir.OpAnd, ir.OpOr, ir.OpXor}
	atomicKinds = []ir.AtomicKind{ir.AtomicAdd, ir.AtomicMin, ir.AtomicMax, ir.AtomicUMin, ir.AtomicUMax, ir.AtomicAnd, ir.AtomicOr, ir.AtomicXor, ir.AtomicXchg, ir.AtomicCmpXchg}
)

// instr appends one random instruction to b.
func (fg *fgen) instr(b *ir.Block) {
	bd := fg.bd
	var in *ir.Instr
	switch k := fg.n(32); k {
	case 30:
		t := pickOne(fg.rgen, wideInts)
		in = bd.Binary(pickOne(fg.rgen, intBinOps), fg.pick(t), fg.pick(t), fg.name())
	case 31:
		t := pickOne(fg.rgen, wideFloats)
		in = bd.Binary(pickOne(fg.rgen, floatBinOps), fg.pick(t), fg.pick(t), fg.name())
	case 0, 1, 2:
		t := fg.usedType(func(t *ir.Type) bool { return ir.IsClass(t, ir.KInt, ir.KUint) }, func() *ir.Type { return fg.numericT(ir.I32, ir.U32) })
		in = bd.Binary(pickOne(fg.rgen, intBinOps), fg.pick(t), fg.pick(t), fg.name())
	case 3, 4:
		t := fg.usedType(func(t *ir.Type) bool { return ir.IsClass(t, ir.KFloat) }, func() *ir.Type { return fg.numericT(ir.F32) })
		in = bd.Binary(pickOne(fg.rgen, floatBinOps), fg.pick(t), fg.pick(t), fg.name())
	case 5:
		t := fg.usedType(func(t *ir.Type) bool { return ir.IsClass(t, ir.KBool) }, func() *ir.Type { return fg.numericT(ir.Bool) })
		in = bd.Binary(pickOne(fg.rgen, boolBinOps), fg.pick(t), fg.pick(t), fg.name())
	case 6:
		switch fg.n(3) {
		case 0:
			in = bd.Unary(ir.OpNot, fg.pick(fg.numericT(ir.I32, ir.U32, ir.Bool)), fg.name())
		case 1:
			in = bd.Unary(ir.OpNeg, fg.pick(fg.numericT(ir.I32, ir.U32)), fg.name())
		default:
			in = bd.Unary(ir.OpFNeg, fg.pick(fg.numericT(ir.F32)), fg.name())
		}
	case 7, 8:
		if fg.chance(0.5) {
			t := fg.usedType(func(t *ir.Type) bool { return ir.IsClass(t, ir.KInt, ir.KUint) }, func() *ir.Type { return fg.numericT(ir.I32, ir.U32) })
			in = bd.Cmp(ir.PredEQ+ir.CmpPred(fg.n(int(ir.PredUGE-ir.PredEQ+1))), fg.pick(t), fg.pick(t), fg.name())
		} else if fg.chance(0.8) {
			t := fg.usedType(func(t *ir.Type) bool { return ir.IsClass(t, ir.KFloat) }, func() *ir.Type { return fg.numericT(ir.F32) })
			in = bd.Cmp(ir.PredOEQ+ir.CmpPred(fg.n(int(ir.PredFUGE-ir.PredOEQ+1))), fg.pick(t), fg.pick(t), fg.name())
		} else {
			t := fg.numericT(ir.Bool)
			in = bd.Cmp(ir.PredEQ+ir.CmpPred(fg.n(2)), fg.pick(t), fg.pick(t), fg.name())
		}
	case 9:
		t := fg.usedType(func(t *ir.Type) bool { return true }, func() *ir.Type { return pickOne(fg.rgen, fg.valueTs) })
		c := ir.Bool
		if t.Kind == ir.KVector && fg.chance(0.5) {
			c = ir.Vec(ir.Bool, t.Len)
		}
		in = bd.Select(fg.pick(c), fg.pick(t), fg.pick(t), fg.name())
	case 10, 11:
		in = fg.cast()
	case 12:
		t := pickOne(fg.rgen, fg.valueTs)
		if !t.IsAggregate() {
			t = fg.vec(pickOne(fg.rgen, scalarTs))
		}
		el := make([]ir.Value, t.NumElems())
		for i := range el {
			el[i] = fg.pick(t.ElemType(i))
		}
		in = bd.Construct(t, el, fg.name())
	case 13:
		t := fg.vec(pickOne(fg.rgen, scalarTs))
		idx := fg.index(t.Len)
		if fg.chance(0.5) {
			in = bd.ExtractElem(fg.pick(t), idx, fg.name())
		} else {
			in = bd.InsertElem(fg.pick(t), fg.pick(t.Elem), idx, fg.name())
		}
	case 14:
		e := pickOne(fg.rgen, scalarTs)
		a, c := fg.vec(e), fg.vec(e)
		mask := make([]int, 2+fg.n(3))
		for i := range mask {
			mask[i] = fg.n(a.Len + c.Len)
		}
		in = bd.Shuffle(fg.pick(a), fg.pick(c), mask, fg.name())
	case 15, 16:
		t := pickOne(fg.rgen, fg.valueTs)
		if !t.IsAggregate() {
			t = ir.Mat(ir.F32, 2, 3)
		}
		path := fg.path(t)
		if fg.chance(0.5) {
			in = bd.ExtractValue(fg.pick(t), path, fg.name())
		} else {
			in = bd.InsertValue(fg.pick(t), fg.pick(t.IndexPath(path)), path, fg.name())
		}
	case 17:
		in = bd.Copy(fg.pick(fg.usedType(func(t *ir.Type) bool { return true }, func() *ir.Type { return pickOne(fg.rgen, fg.valueTs) })), fg.name())
	case 18:
		in = bd.Alloca(pickOne(fg.rgen, fg.valueTs), fg.name())
		if fg.chance(0.7) {
			fg.def(b, in)
			in = bd.Store(fg.pick(in.Type().Elem), in)
		}
	case 19, 20:
		p := fg.ptrWhere(func(p ir.Value) bool { return loadable(p.Type().Elem) })
		if p == nil {
			return
		}
		in = bd.Load(p, fg.name())
	case 21:
		p := fg.ptrWhere(func(p ir.Value) bool { return loadable(p.Type().Elem) && writable(p) })
		if p == nil {
			return
		}
		in = bd.Store(fg.pick(p.Type().Elem), p)
	case 22, 23:
		in = fg.access()
	case 24:
		if fg.chance(0.5) {
			d := fg.ptrWhere(func(p ir.Value) bool { return loadable(p.Type().Elem) && writable(p) })
			if d == nil {
				return
			}
			s := fg.ptrWhere(func(p ir.Value) bool { return p.Type().Elem == d.Type().Elem })
			in = bd.Memcpy(d, s)
		} else {
			d := fg.ptrWhere(func(p ir.Value) bool { return loadable(p.Type().Elem) && writable(p) })
			if d == nil {
				return
			}
			in = bd.Memset(d, fg.pick(pickOne(fg.rgen, []*ir.Type{ir.I32, ir.U32})))
		}
	case 25:
		in = fg.atomic()
	case 26, 27:
		if len(fg.callees) == 0 {
			return
		}
		c := pickOne(fg.rgen, fg.callees)
		args := make([]ir.Value, len(c.Params))
		for i, p := range c.Params {
			args[i] = fg.pick(p.Type())
		}
		in = bd.Call(c, args, fg.name())
	default:
		form := pickOne(fg.rgen, intrForms)
		t := form.in(fg.rgen)
		at := form.args(t)
		args := make([]ir.Value, len(at))
		for i, a := range at {
			args[i] = fg.pick(a)
		}
		in = bd.Intrinsic(form.name, form.ret(t), args, fg.name())
	}
	if in != nil {
		fg.def(b, in)
	}
}

// index returns an i32/u32 index below n (constant or dynamic).
func (fg *fgen) index(n int) ir.Value {
	t := pickOne(fg.rgen, []*ir.Type{ir.I32, ir.U32})
	if fg.chance(0.3) {
		return fg.pick(t)
	}
	return ir.ConstInt(t, int64(fg.n(n)))
}

// path returns a random valid constant index path (1 or 2 deep) into t.
func (fg *fgen) path(t *ir.Type) []int {
	var p []int
	cur := t
	for depth := 0; depth < 2 && cur.IsAggregate() && cur.NumElems() > 0; depth++ {
		i := fg.n(cur.NumElems())
		p = append(p, i)
		cur = cur.ElemType(i)
		if fg.chance(0.5) {
			break
		}
	}
	return p
}

func (fg *fgen) cast() *ir.Instr {
	bd := fg.bd
	lanes := 1
	if fg.chance(0.4) {
		lanes = 2 + fg.n(3)
	}
	sh := func(e *ir.Type) *ir.Type { return ir.Vec(e, lanes) }
	iu := func() *ir.Type { return pickOne(fg.rgen, []*ir.Type{ir.I32, ir.U32}) }
	type conv struct {
		op       ir.Op
		from, to *ir.Type
	}
	switch fg.n(8) {
	case 6: // width changes (scalars of widths.go)
		c := pickOne(fg.rgen, []conv{
			{ir.OpFPExt, ir.F16, ir.F32}, {ir.OpFPExt, ir.BF16, ir.F32}, {ir.OpFPExt, ir.F32, ir.F64},
			{ir.OpFPTrunc, ir.F32, ir.F16}, {ir.OpFPTrunc, ir.F32, ir.BF16}, {ir.OpFPTrunc, ir.F64, ir.F32},
			{ir.OpSExt, ir.I16, ir.I32}, {ir.OpSExt, ir.I32, ir.I64}, {ir.OpZExt, ir.U32, ir.U64}, {ir.OpZExt, ir.Bool, ir.I8},
			{ir.OpTrunc, ir.I64, ir.I32}, {ir.OpTrunc, ir.I32, ir.I16}, {ir.OpTrunc, ir.I32, ir.I8}, {ir.OpTrunc, ir.U64, ir.U32},
		})
		return bd.Cast(c.op, fg.pick(c.from), c.to, fg.name())
	case 7:
		c := pickOne(fg.rgen, []conv{{ir.OpBitcast, ir.F16, ir.I16}, {ir.OpBitcast, ir.I16, ir.BF16}, {ir.OpBitcast, ir.F64, ir.I64},
			{ir.OpBitcast, ir.U64, ir.F64}, {ir.OpBitcast, ir.Vec(ir.F32, 2), ir.I64}, {ir.OpBitcast, ir.F64, ir.Vec(ir.U32, 2)}})
		return bd.Cast(c.op, fg.pick(c.from), c.to, fg.name())
	case 0:
		op := pickOne(fg.rgen, []ir.Op{ir.OpSIToFP, ir.OpUIToFP})
		return bd.Cast(op, fg.pick(sh(iu())), sh(ir.F32), fg.name())
	case 1:
		op := pickOne(fg.rgen, []ir.Op{ir.OpFPToSI, ir.OpFPToUI})
		return bd.Cast(op, fg.pick(sh(ir.F32)), sh(iu()), fg.name())
	case 2, 3:
		from := pickOne(fg.rgen, []*ir.Type{ir.I32, ir.U32, ir.F32})
		to := pickOne(fg.rgen, []*ir.Type{ir.I32, ir.U32, ir.F32})
		return bd.Cast(ir.OpBitcast, fg.pick(sh(from)), sh(to), fg.name())
	case 4:
		op := pickOne(fg.rgen, []ir.Op{ir.OpZExt, ir.OpSExt})
		return bd.Cast(op, fg.pick(sh(ir.Bool)), sh(iu()), fg.name())
	default:
		return bd.Cast(ir.OpTrunc, fg.pick(sh(iu())), sh(ir.Bool), fg.name())
	}
}

// access builds an access chain from an available pointer to an
// aggregate, one or two steps deep.
func (fg *fgen) access() *ir.Instr {
	base := fg.ptrWhere(func(p ir.Value) bool { return p.Type().Elem.IsAggregate() })
	if base == nil {
		return nil
	}
	var idx []ir.Value
	cur := base.Type().Elem
	for depth := 0; depth < 2 && cur.IsAggregate(); depth++ {
		switch cur.Kind {
		case ir.KStruct:
			i := fg.n(len(cur.Fields))
			c := ir.ConstInt(pickOne(fg.rgen, []*ir.Type{ir.I32, ir.U32}), int64(i))
			if i == 0 && fg.chance(0.2) {
				c = ir.ConstZero(ir.I32)
			}
			idx = append(idx, c)
			cur = cur.Fields[i].Type
		case ir.KArray:
			n := cur.Len
			if n < 0 {
				n = 1 << 20
			}
			idx = append(idx, fg.index(n))
			cur = cur.Elem
		case ir.KVector:
			idx = append(idx, fg.index(cur.Len))
			cur = cur.Elem
		case ir.KMatrix:
			idx = append(idx, fg.index(cur.Len))
			cur = cur.ElemType(0)
		}
		if fg.chance(0.4) {
			break
		}
	}
	return fg.bd.Access(base, idx, fg.name())
}

// atomic emits an atomic on an element of @rw, @buf or @shared.
func (fg *fgen) atomic() *ir.Instr {
	p := fg.ptrWhere(func(p ir.Value) bool {
		t := p.Type()
		return isIntegralScalar(t.Elem) && (t.Space == ir.SpaceStorage || t.Space == ir.SpaceGroupshared) && writable(p)
	})
	if p == nil {
		var base ir.Value
		if fg.chance(0.5) {
			base = fg.m.Global("shared")
		} else {
			base = fg.m.Global("rw")
		}
		p = fg.bd.Access(base, []ir.Value{fg.index(64)}, fg.name())
		fg.def(fg.bd.B, p.(*ir.Instr))
	}
	kind := pickOne(fg.rgen, atomicKinds)
	et := p.Type().Elem
	var cmp ir.Value
	if kind == ir.AtomicCmpXchg {
		cmp = fg.pick(et)
	}
	return fg.bd.Atomic(kind, p, fg.pick(et), cmp, fg.name())
}
