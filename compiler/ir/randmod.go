package ir

// This file generates random valid modules for tests: print/parse round
// trips, the verifier, and other packages' property tests (passes must
// keep a random module valid; the interpreter must not crash on one).
//
// A function is generated in three phases:
//  1. the CFG shape: structured regions (if/else, switch, loops with
//     break/continue, early returns) with merge annotations, or an
//     arbitrary graph (irreducible loops, unreachable blocks, multi-edges);
//  2. instructions, walking the dominator tree so every operand is a value
//     that dominates its use (or a constant, parameter or global);
//  3. phi incoming values, picked from the blocks dominating each
//     predecessor.
// The result passes Verify; RandomModule panics if it does not, since that
// is a bug in the generator or the verifier.

import (
	"fmt"
	"math"
	"math/rand/v2"

	"passlens/compiler/graph"
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
func RandomModule(seed int64, opts RandomOptions) *Module {
	opts.defaults()
	g := &rgen{r: rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15)), opts: opts}
	m := g.module(seed)
	if err := Verify(m); err != nil {
		panic(fmt.Sprintf("ir.RandomModule(%d): generated an invalid module: %v\n%s", seed, err, m))
	}
	return m
}

type rgen struct {
	r    *rand.Rand
	opts RandomOptions
	m    *Module

	structs []*Type
	valueTs []*Type // types values are generated at
	callees []*Function
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

func (g *rgen) loc() Loc {
	if !g.opts.Locs || g.chance(0.3) {
		return Loc{}
	}
	return Loc{Line: int32(1 + g.n(500)), Col: int32(1 + g.n(80))}
}

// ---- types ----

var scalarTs = []*Type{Bool, I32, U32, F32}

func (g *rgen) vec(elem *Type) *Type { return Vec(elem, 2+g.n(3)) }

// numericT is an i32/u32/f32 scalar or vector.
func (g *rgen) numericT(kinds ...*Type) *Type {
	e := pickOne(g, kinds)
	if g.chance(0.4) {
		return g.vec(e)
	}
	return e
}

func (g *rgen) module(seed int64) *Module {
	m := NewModule(fmt.Sprintf("random-%d.pir", seed))
	g.m = m

	// Struct types.
	s0name := "S0"
	if !g.opts.PlainNames && g.chance(0.3) {
		s0name = "my struct"
	}
	s0 := Struct(s0name, []Field{
		{Name: "f", Type: F32},
		{Name: "v", Type: Vec(F32, 4)},
		{Name: "a", Type: Array(I32, 3)},
		{Name: "m", Type: Mat(F32, 2+g.n(2), 2+g.n(3))},
	})
	s1 := Struct("S1", []Field{
		{Name: "inner", Type: s0},
		{Name: "n", Type: U32},
		{Name: "flag", Type: Bool},
		{Name: "arr", Type: Array(Vec(U32, 2), 2)},
	})
	buf := Struct("Buf", []Field{{Name: "count", Type: U32}, {Name: "data", Type: Array(F32, -1)}})
	g.structs = []*Type{s0, s1}
	for _, s := range []*Type{s0, s1, buf} {
		m.AddStruct(s)
	}
	if g.chance(0.5) {
		// Explicit member offsets (HLSL packoffset), out of order as
		// packoffset allows; only the text round trip uses this type.
		m.AddStruct(Struct("Placed", []Field{
			{Name: "w", Type: Vec(F32, 4), Placed: true, Offset: 48},
			{Name: "x", Type: F32, Placed: true, Offset: 4 * g.n(4)},
		}))
	}
	g.valueTs = []*Type{Bool, I32, U32, F32, Vec(F32, 2), Vec(F32, 3), Vec(F32, 4), Vec(I32, 2), Vec(U32, 3),
		Vec(Bool, 2), Vec(I32, 4), Mat(F32, 3, 3), Array(F32, 4), Array(Vec(I32, 2), 2), s0, s1}

	// Globals.
	add := func(name string, sp AddrSpace, t *Type, set func(*Global)) {
		gl := NewGlobal(name, sp, t)
		gl.Loc = g.loc()
		if set != nil {
			set(gl)
		}
		m.AddGlobal(gl)
	}
	add("cb", SpaceUniform, s1, func(gl *Global) { gl.Set, gl.Binding, gl.Kind = 0, 0, "cbuffer" })
	add("rw", SpaceStorage, Array(U32, -1), func(gl *Global) { gl.Set, gl.Binding, gl.Kind = 0, 1, "RWStructuredBuffer" })
	add("ro", SpaceStorage, Array(F32, -1), func(gl *Global) {
		gl.Set, gl.Binding, gl.ReadOnly, gl.Kind = 1, 2, true, "StructuredBuffer"
	})
	add("buf", SpaceStorage, buf, func(gl *Global) { gl.Binding, gl.Kind = 3, "RWByteAddressBuffer" })
	add("tid", SpaceInput, Vec(U32, 3), func(gl *Global) { gl.Semantic = "SV_DispatchThreadID" })
	add("uv", SpaceInput, Vec(F32, 4), func(gl *Global) { gl.Semantic, gl.Flat = "TEXCOORD0", g.chance(0.5) })
	add("color", SpaceOutput, Vec(F32, 4), func(gl *Global) { gl.Semantic = "SV_Target0" })
	add("shared", SpaceGroupshared, Array(U32, 64), func(gl *Global) {
		if g.chance(0.5) {
			gl.Init = ConstZero(gl.ValType)
		}
	})
	pt := pickOne(g, g.valueTs)
	add("table", SpacePrivate, pt, func(gl *Global) { gl.Init = g.constant(pt, 0) })
	if !g.opts.PlainNames {
		add("weird name", SpacePrivate, F32, func(gl *Global) { gl.Init = ConstF32Bits(0x80000000) })
	}

	// Declarations.
	d := m.NewFunction("ext", F32, []string{"x", "v"}, []*Type{F32, Vec(F32, 4)})
	d.Params[0].Uniform = true
	g.callees = append(g.callees, d)
	m.NewFunction("ext.void", Void, []string{"n"}, []*Type{U32})
	g.callees = append(g.callees, m.Funcs[len(m.Funcs)-1])

	// Helpers, then entry points; each may call the ones before it.
	for i := 0; i < g.opts.Funcs; i++ {
		ret := Void
		if g.chance(0.7) {
			ret = pickOne(g, g.valueTs)
		}
		np := g.n(4)
		var names []string
		var types []*Type
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
	cs := m.NewFunction("main", Void, nil, nil)
	cs.Entry = &EntryPoint{Stage: StageCompute, NumThreads: [3]int{1 + g.n(64), 1 + g.n(4), 1}}
	g.body(cs, false)
	ps := m.NewFunction("ps_main", Void, nil, nil)
	ps.Entry = &EntryPoint{Stage: StagePixel}
	g.body(ps, g.opts.Unstructured && g.chance(0.5))
	vs := m.NewFunction("vs_main", Void, nil, nil)
	vs.Entry = &EntryPoint{Stage: StageVertex}
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
	wideInts   = []*Type{I8, I16, I64, U64}
	wideFloats = []*Type{F16, BF16, F64}
)

func (g *rgen) constant(t *Type, depth int) *Const {
	if depth > 0 || !t.IsScalar() {
		switch {
		case g.chance(0.05):
			return ConstZero(t)
		case g.chance(0.03):
			return ConstUndef(t)
		}
	}
	switch t.Kind {
	case KBool:
		return ConstBool(Bool, g.chance(0.5))
	case KInt:
		switch g.n(4) {
		case 0:
			return ConstInt(t, -1<<(t.Bits-1)) // the most negative value
		case 1:
			return ConstInt(t, int64(g.r.Uint64())) // truncated to the width
		}
		return ConstInt(t, int64(g.n(33))-16)
	case KUint:
		if g.chance(0.2) {
			return ConstInt(t, -1) // all ones: the largest value
		}
		return ConstInt(t, int64(g.n(100)))
	case KFloat:
		switch t.Bits {
		case 16:
			return ConstFloatBits(t, uint64(g.r.Uint32N(1<<16)))
		case 64:
			switch g.n(3) {
			case 0:
				return ConstFloatBits(t, pickOne(g, specialF64))
			case 1:
				return ConstFloatBits(t, g.r.Uint64())
			}
			return ConstFloatBits(t, math.Float64bits(float64(g.n(2000)-1000)/3))
		}
		switch g.n(3) {
		case 0:
			return ConstF32Bits(pickOne(g, specialF32))
		case 1:
			return ConstF32Bits(g.r.Uint32())
		}
		return ConstFloat(F32, float64(g.n(2000)-1000)/8)
	case KPointer:
		return ConstZero(t)
	}
	el := make([]*Const, t.NumElems())
	for i := range el {
		el[i] = g.constant(t.ElemType(i), depth+1)
	}
	return ConstAggregate(t, el)
}

// ---- functions ----

// fgen generates one function body.
type fgen struct {
	*rgen
	f  *Function
	bd *Builder

	// Values available at the insertion point, by type, with an undo log
	// for leaving a dominator subtree.
	avail map[*Type][]Value
	log   []*Type
	ptrs  []Value // pointer values available (globals, allocas, accesses)

	defs map[*Block][]Value // each block's own definitions, in order
	pend []*Instr           // phis waiting for incoming values
	loop []loopCtx
}

type loopCtx struct{ merge, cont *Block }

func (g *rgen) body(f *Function, unstructured bool) {
	fg := &fgen{rgen: g, f: f, bd: NewBuilder(f), avail: map[*Type][]Value{}, defs: map[*Block][]Value{}}
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
func (fg *fgen) setTerm(b *Block, t *Instr) {
	t.Block = b
	t.Loc = fg.loc()
	b.Instrs = append(b.Instrs, t)
}

func (fg *fgen) retInstr() *Instr { return &Instr{Op: OpRet, typ: Void} }

func (fg *fgen) br(to *Block) *Instr {
	return &Instr{Op: OpBr, typ: Void, Succs: []*Block{to}}
}

func (fg *fgen) condbr(a, b *Block) *Instr {
	return &Instr{Op: OpCondBr, typ: Void, Succs: []*Block{a, b}}
}

// region builds a structured single-entry region starting at cur with
// budget constructs in all (nested ones included) and returns its open
// exit block (reachable, without terminator).
func (fg *fgen) region(cur *Block, budget, depth int) *Block {
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
			var els *Block
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
			var cases []SwitchCase
			used := map[int64]bool{}
			ncase := 1 + fg.n(4)
			defAt := fg.n(ncase + 1)
			var arms []*Block
			for i := 0; i <= ncase; i++ {
				var c SwitchCase
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
			t := &Instr{Op: OpSwitch, typ: Void, Cases: cases}
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
			var ht *Instr
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
			if ht.Op == OpBr || fg.chance(0.3) {
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
func (fg *fgen) arm(start, merge *Block, budget, depth int, mayExit bool) {
	end := fg.region(start, budget, depth+1)
	if mayExit && fg.chance(0.3) {
		switch k := fg.n(5); {
		case k == 0:
			fg.setTerm(end, fg.retInstr())
			return
		case k == 1 && fg.f.Entry != nil && fg.f.Entry.Stage == StagePixel:
			fg.setTerm(end, &Instr{Op: OpDiscard, typ: Void})
			return
		case k == 2:
			fg.setTerm(end, &Instr{Op: OpUnreachable, typ: Void})
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
func (fg *fgen) shapeUnstructured(entry *Block) {
	n := 2 + fg.n(fg.opts.Blocks*2+1)
	blocks := []*Block{entry}
	for i := 1; i < n; i++ {
		blocks = append(blocks, fg.f.NewBlock("b"))
	}
	target := func() *Block { return blocks[1+fg.n(n-1)] }
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
			var cases []SwitchCase
			cases = append(cases, SwitchCase{Default: true, Target: target()})
			for v := int64(0); v < int64(1+fg.n(3)); v++ {
				cases = append(cases, SwitchCase{Values: []int64{v * 3}, Target: target()})
			}
			fg.setTerm(b, &Instr{Op: OpSwitch, typ: Void, Cases: cases})
		default:
			fg.setTerm(b, &Instr{Op: OpUnreachable, typ: Void})
		}
	}
}

// ---- filling ----

// fill generates instructions along the dominator tree, then the phi
// incoming values.
func (fg *fgen) fill() {
	f := fg.f
	cfg := f.CFG()
	dom := cfg.Dom()
	reachable := func(i int32) bool { return dom.Contains(int(i)) }
	preds := func(i int32) []int32 {
		var out []int32
		for _, p := range cfg.Preds(f.Blocks[i]) {
			out = append(out, int32(p.Index))
		}
		return out
	}
	children := make([][]int, len(f.Blocks))
	for i := 1; i < len(f.Blocks); i++ {
		if reachable(int32(i)) {
			d := dom.IDom(i)
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
		fg.block(f.Blocks[i], len(preds(int32(i))) > 0)
		for _, c := range children[i] {
			walk(c)
		}
		fg.undo(mark, pmark)
	}
	walk(0)
	// Unreachable blocks: only arguments, globals, constants and their own values.
	for i, b := range f.Blocks {
		if !reachable(int32(i)) {
			mark, pmark := len(fg.log), len(fg.ptrs)
			fg.block(b, len(preds(int32(i))) > 0)
			fg.undo(mark, pmark)
		}
	}
	// Phi incoming values.
	for _, phi := range fg.pend {
		ps := preds(int32(phi.Block.Index))
		seen := map[int32]int{}
		for _, p := range ps {
			seen[p]++
		}
		done := map[int32]bool{}
		for _, p := range ps {
			if done[p] {
				continue
			}
			done[p] = true
			val := fg.incoming(dom, p, phi.typ)
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
func (fg *fgen) incoming(dom *graph.DomTree, p int32, t *Type) Value {
	if dom.Contains(int(p)) {
		cur := p
		for steps := 0; steps < 12; steps++ {
			var cands []Value
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
			cur = int32(dom.IDom(int(cur)))
		}
		for _, a := range fg.f.Params {
			if a.typ == t && fg.chance(0.5) {
				return a
			}
		}
	}
	return fg.constant(t, 0)
}

func (fg *fgen) push(x Value) {
	t := x.Type()
	if t.Kind == KPointer {
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
func (fg *fgen) usedType(ok func(*Type) bool, fallback func() *Type) *Type {
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
func (fg *fgen) pick(t *Type) Value {
	if vs := fg.avail[t]; len(vs) > 0 && fg.chance(0.75) {
		// Prefer recent values so chains of uses form.
		k := len(vs) - 1 - fg.n(min(len(vs), 6))
		return vs[k]
	}
	return fg.constant(t, 0)
}

// block fills b: phis (if it has predecessors), instructions, and the
// terminator's operands.
func (fg *fgen) block(b *Block, hasPreds bool) {
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
	case OpCondBr:
		term.Args = []Value{fg.pick(Bool)}
	case OpSwitch:
		sel := I32
		if fg.chance(0.3) {
			sel = U32
			for _, c := range term.Cases {
				for _, v := range c.Values {
					if v < 0 {
						sel = I32
					}
				}
			}
		}
		term.Args = []Value{fg.pick(sel)}
	case OpRet:
		if fg.f.Ret != Void {
			term.Args = []Value{fg.pick(fg.f.Ret)}
		}
	}
	b.Instrs = append(b.Instrs, term)
}

func (fg *fgen) def(b *Block, in *Instr) {
	if in.HasResult() {
		fg.push(in)
		fg.defs[b] = append(fg.defs[b], in)
	}
}

// loadable reports pointees that can be loaded (no runtime arrays).
func loadable(t *Type) bool { return !holdsRuntimeArray(t) }

// writable reports pointers stores may go through.
func writable(p Value) bool {
	t := p.Type()
	return readOnlyPointer(p) == "" && t.Space != SpaceUniform && t.Space != SpaceInput
}

func (fg *fgen) ptrWhere(ok func(Value) bool) Value {
	var cands []Value
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
	args func(t *Type) []*Type
	ret  func(t *Type) *Type
	in   func(g *rgen) *Type // the type t is drawn from
}

var (
	same   = func(t *Type) *Type { return t }
	one    = func(t *Type) []*Type { return []*Type{t} }
	two    = func(t *Type) []*Type { return []*Type{t, t} }
	three  = func(t *Type) []*Type { return []*Type{t, t, t} }
	none   = func(t *Type) []*Type { return nil }
	floatT = func(g *rgen) *Type { return g.numericT(F32) }
	intT   = func(g *rgen) *Type { return g.numericT(I32, U32) }
	fvecT  = func(g *rgen) *Type { return g.vec(F32) }
	bvecT  = func(g *rgen) *Type { return g.vec(Bool) }
	anyT   = func(g *rgen) *Type { return g.numericT(I32, U32, F32) }
	voidT  = func(g *rgen) *Type { return Void }
)

var intrForms = []intrForm{
	{"sqrt", one, same, floatT}, {"sin", one, same, floatT}, {"frac", one, same, floatT},
	{"abs", one, same, anyT}, {"countbits", one, same, intT}, {"reversebits", one, same, intT},
	{"max", two, same, anyT}, {"min", two, same, anyT}, {"pow", two, same, floatT}, {"atan2", two, same, floatT},
	{"clamp", three, same, anyT}, {"lerp", three, same, floatT}, {"mad", three, same, floatT},
	{"dot", two, func(t *Type) *Type { return F32 }, fvecT},
	{"length", one, func(t *Type) *Type { return F32 }, fvecT},
	{"normalize", one, same, fvecT},
	{"any", one, func(t *Type) *Type { return Bool }, bvecT},
	{"all", one, func(t *Type) *Type { return Bool }, bvecT},
	{"WaveGetLaneIndex", none, func(t *Type) *Type { return U32 }, voidT},
	{"WaveIsFirstLane", none, func(t *Type) *Type { return Bool }, voidT},
	{"WaveActiveSum", one, same, anyT}, {"WaveReadLaneFirst", one, same, anyT},
	{"WaveReadLaneAt", func(t *Type) []*Type { return []*Type{t, U32} }, same, anyT},
	{"WavePrefixSum", one, same, anyT},
	{"WaveActiveBallot", func(t *Type) []*Type { return []*Type{Bool} }, func(t *Type) *Type { return Vec(U32, 4) }, voidT},
	{"GroupMemoryBarrierWithGroupSync", none, func(t *Type) *Type { return Void }, voidT},
	{"llvm.amdgcn.workitem.id.x", none, func(t *Type) *Type { return I32 }, voidT},
}

var (
	intBinOps   = []Op{OpAdd, OpSub, OpMul, OpSDiv, OpUDiv, OpSRem, OpURem, OpShl, OpLShr, OpAShr, OpAnd, OpOr, OpXor}
	floatBinOps = []Op{OpFAdd, OpFSub, OpFMul, OpFDiv, OpFRem}
	boolBinOps  = []Op{OpAnd, OpOr, OpXor}
	atomicKinds = []Pred{AtomicAdd, AtomicMin, AtomicMax, AtomicUMin, AtomicUMax, AtomicAnd, AtomicOr, AtomicXor, AtomicXchg, AtomicCmpXchg}
)

// instr appends one random instruction to b.
func (fg *fgen) instr(b *Block) {
	bd := fg.bd
	var in *Instr
	switch k := fg.n(32); k {
	case 30:
		t := pickOne(fg.rgen, wideInts)
		in = bd.Binary(pickOne(fg.rgen, intBinOps), fg.pick(t), fg.pick(t), fg.name())
	case 31:
		t := pickOne(fg.rgen, wideFloats)
		in = bd.Binary(pickOne(fg.rgen, floatBinOps), fg.pick(t), fg.pick(t), fg.name())
	case 0, 1, 2:
		t := fg.usedType(func(t *Type) bool { return isClass(t, KInt, KUint) }, func() *Type { return fg.numericT(I32, U32) })
		in = bd.Binary(pickOne(fg.rgen, intBinOps), fg.pick(t), fg.pick(t), fg.name())
	case 3, 4:
		t := fg.usedType(func(t *Type) bool { return isClass(t, KFloat) }, func() *Type { return fg.numericT(F32) })
		in = bd.Binary(pickOne(fg.rgen, floatBinOps), fg.pick(t), fg.pick(t), fg.name())
	case 5:
		t := fg.usedType(func(t *Type) bool { return isClass(t, KBool) }, func() *Type { return fg.numericT(Bool) })
		in = bd.Binary(pickOne(fg.rgen, boolBinOps), fg.pick(t), fg.pick(t), fg.name())
	case 6:
		switch fg.n(3) {
		case 0:
			in = bd.Unary(OpNot, fg.pick(fg.numericT(I32, U32, Bool)), fg.name())
		case 1:
			in = bd.Unary(OpNeg, fg.pick(fg.numericT(I32, U32)), fg.name())
		default:
			in = bd.Unary(OpFNeg, fg.pick(fg.numericT(F32)), fg.name())
		}
	case 7, 8:
		if fg.chance(0.5) {
			t := fg.usedType(func(t *Type) bool { return isClass(t, KInt, KUint) }, func() *Type { return fg.numericT(I32, U32) })
			in = bd.Cmp(PredEQ+Pred(fg.n(int(PredUGE-PredEQ+1))), fg.pick(t), fg.pick(t), fg.name())
		} else if fg.chance(0.8) {
			t := fg.usedType(func(t *Type) bool { return isClass(t, KFloat) }, func() *Type { return fg.numericT(F32) })
			in = bd.Cmp(PredOEQ+Pred(fg.n(int(PredFUGE-PredOEQ+1))), fg.pick(t), fg.pick(t), fg.name())
		} else {
			t := fg.numericT(Bool)
			in = bd.Cmp(PredEQ+Pred(fg.n(2)), fg.pick(t), fg.pick(t), fg.name())
		}
	case 9:
		t := fg.usedType(func(t *Type) bool { return true }, func() *Type { return pickOne(fg.rgen, fg.valueTs) })
		c := Bool
		if t.Kind == KVector && fg.chance(0.5) {
			c = Vec(Bool, t.Len)
		}
		in = bd.Select(fg.pick(c), fg.pick(t), fg.pick(t), fg.name())
	case 10, 11:
		in = fg.cast()
	case 12:
		t := pickOne(fg.rgen, fg.valueTs)
		if !t.IsAggregate() {
			t = fg.vec(pickOne(fg.rgen, scalarTs))
		}
		el := make([]Value, t.NumElems())
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
			t = Mat(F32, 2, 3)
		}
		path := fg.path(t)
		if fg.chance(0.5) {
			in = bd.ExtractValue(fg.pick(t), path, fg.name())
		} else {
			in = bd.InsertValue(fg.pick(t), fg.pick(t.IndexPath(path)), path, fg.name())
		}
	case 17:
		in = bd.Copy(fg.pick(fg.usedType(func(t *Type) bool { return true }, func() *Type { return pickOne(fg.rgen, fg.valueTs) })), fg.name())
	case 18:
		in = bd.Alloca(pickOne(fg.rgen, fg.valueTs), fg.name())
		if fg.chance(0.7) {
			fg.def(b, in)
			in = bd.Store(fg.pick(in.typ.Elem), in)
		}
	case 19, 20:
		p := fg.ptrWhere(func(p Value) bool { return loadable(p.Type().Elem) })
		if p == nil {
			return
		}
		in = bd.Load(p, fg.name())
	case 21:
		p := fg.ptrWhere(func(p Value) bool { return loadable(p.Type().Elem) && writable(p) })
		if p == nil {
			return
		}
		in = bd.Store(fg.pick(p.Type().Elem), p)
	case 22, 23:
		in = fg.access()
	case 24:
		if fg.chance(0.5) {
			d := fg.ptrWhere(func(p Value) bool { return loadable(p.Type().Elem) && writable(p) })
			if d == nil {
				return
			}
			s := fg.ptrWhere(func(p Value) bool { return p.Type().Elem == d.Type().Elem })
			in = bd.Memcpy(d, s)
		} else {
			d := fg.ptrWhere(func(p Value) bool { return loadable(p.Type().Elem) && writable(p) })
			if d == nil {
				return
			}
			in = bd.Memset(d, fg.pick(pickOne(fg.rgen, []*Type{I32, U32})))
		}
	case 25:
		in = fg.atomic()
	case 26, 27:
		if len(fg.callees) == 0 {
			return
		}
		c := pickOne(fg.rgen, fg.callees)
		args := make([]Value, len(c.Params))
		for i, p := range c.Params {
			args[i] = fg.pick(p.typ)
		}
		in = bd.Call(c, args, fg.name())
	default:
		form := pickOne(fg.rgen, intrForms)
		t := form.in(fg.rgen)
		at := form.args(t)
		args := make([]Value, len(at))
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
func (fg *fgen) index(n int) Value {
	t := pickOne(fg.rgen, []*Type{I32, U32})
	if fg.chance(0.3) {
		return fg.pick(t)
	}
	return ConstInt(t, int64(fg.n(n)))
}

// path returns a random valid constant index path (1 or 2 deep) into t.
func (fg *fgen) path(t *Type) []int {
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

func (fg *fgen) cast() *Instr {
	bd := fg.bd
	lanes := 1
	if fg.chance(0.4) {
		lanes = 2 + fg.n(3)
	}
	sh := func(e *Type) *Type { return Vec(e, lanes) }
	iu := func() *Type { return pickOne(fg.rgen, []*Type{I32, U32}) }
	type conv struct {
		op       Op
		from, to *Type
	}
	switch fg.n(8) {
	case 6: // width changes (scalars of widths.go)
		c := pickOne(fg.rgen, []conv{
			{OpFPExt, F16, F32}, {OpFPExt, BF16, F32}, {OpFPExt, F32, F64},
			{OpFPTrunc, F32, F16}, {OpFPTrunc, F32, BF16}, {OpFPTrunc, F64, F32},
			{OpSExt, I16, I32}, {OpSExt, I32, I64}, {OpZExt, U32, U64}, {OpZExt, Bool, I8},
			{OpTrunc, I64, I32}, {OpTrunc, I32, I16}, {OpTrunc, I32, I8}, {OpTrunc, U64, U32},
		})
		return bd.Cast(c.op, fg.pick(c.from), c.to, fg.name())
	case 7:
		c := pickOne(fg.rgen, []conv{{OpBitcast, F16, I16}, {OpBitcast, I16, BF16}, {OpBitcast, F64, I64},
			{OpBitcast, U64, F64}, {OpBitcast, Vec(F32, 2), I64}, {OpBitcast, F64, Vec(U32, 2)}})
		return bd.Cast(c.op, fg.pick(c.from), c.to, fg.name())
	case 0:
		op := pickOne(fg.rgen, []Op{OpSIToFP, OpUIToFP})
		return bd.Cast(op, fg.pick(sh(iu())), sh(F32), fg.name())
	case 1:
		op := pickOne(fg.rgen, []Op{OpFPToSI, OpFPToUI})
		return bd.Cast(op, fg.pick(sh(F32)), sh(iu()), fg.name())
	case 2, 3:
		from := pickOne(fg.rgen, []*Type{I32, U32, F32})
		to := pickOne(fg.rgen, []*Type{I32, U32, F32})
		return bd.Cast(OpBitcast, fg.pick(sh(from)), sh(to), fg.name())
	case 4:
		op := pickOne(fg.rgen, []Op{OpZExt, OpSExt})
		return bd.Cast(op, fg.pick(sh(Bool)), sh(iu()), fg.name())
	default:
		return bd.Cast(OpTrunc, fg.pick(sh(iu())), sh(Bool), fg.name())
	}
}

// access builds an access chain from an available pointer to an
// aggregate, one or two steps deep.
func (fg *fgen) access() *Instr {
	base := fg.ptrWhere(func(p Value) bool { return p.Type().Elem.IsAggregate() })
	if base == nil {
		return nil
	}
	var idx []Value
	cur := base.Type().Elem
	for depth := 0; depth < 2 && cur.IsAggregate(); depth++ {
		switch cur.Kind {
		case KStruct:
			i := fg.n(len(cur.Fields))
			c := ConstInt(pickOne(fg.rgen, []*Type{I32, U32}), int64(i))
			if i == 0 && fg.chance(0.2) {
				c = ConstZero(I32)
			}
			idx = append(idx, c)
			cur = cur.Fields[i].Type
		case KArray:
			n := cur.Len
			if n < 0 {
				n = 1 << 20
			}
			idx = append(idx, fg.index(n))
			cur = cur.Elem
		case KVector:
			idx = append(idx, fg.index(cur.Len))
			cur = cur.Elem
		case KMatrix:
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
func (fg *fgen) atomic() *Instr {
	p := fg.ptrWhere(func(p Value) bool {
		t := p.Type()
		return isIntegralScalar(t.Elem) && (t.Space == SpaceStorage || t.Space == SpaceGroupshared) && writable(p)
	})
	if p == nil {
		var base Value
		if fg.chance(0.5) {
			base = fg.m.Global("shared")
		} else {
			base = fg.m.Global("rw")
		}
		p = fg.bd.Access(base, []Value{fg.index(64)}, fg.name())
		fg.def(fg.bd.B, p.(*Instr))
	}
	kind := pickOne(fg.rgen, atomicKinds)
	et := p.Type().Elem
	var cmp Value
	if kind == AtomicCmpXchg {
		cmp = fg.pick(et)
	}
	return fg.bd.Atomic(kind, p, fg.pick(et), cmp, fg.name())
}
