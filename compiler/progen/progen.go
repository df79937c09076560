// Package progen generates random structured shader programs as passlens
// IR text for differential testing: the interpreter before and after every
// pass (compiler/difftest), and the interpreter against a Vulkan driver
// running passlens's SPIR-V (compiler/target/spirv). It is test support:
// no production package imports it (the deadcode gate in .ci/run checks
// this).
package progen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Program writes a random structured compute shader as .pir text: a few
// u32 variables (allocas, so sroa and simplify build the phis), nested
// if/else, counted loops with break and continue, switches whose label
// groups hold several values (`case 1, 3:`, a value grouped with
// `default:`) with fallthrough between non-empty cases, also into grouped
// labels (switch-to-if must lower them; the DXIL export must give the
// phis one entry per LLVM edge), early returns, wave operations in
// divergent control flow, calls of a helper with an inout and an out
// parameter (caller temporaries, copied in and out as the HLSL lowering
// does), long chains of operations, and stores of one vector component
// at a dynamic index: into a local vector (sroa's dynamic path), into a
// groupshared vector whose four components four threads write before a
// barrier, and into a storage buffer vector (@vout) whose components
// four threads write. Every operation is defined for every input (shift
// amounts masked, divisors made odd, no WaveReadLaneAt of possibly
// inactive lanes, no two threads writing one component), so results can
// be compared between the interpreter and a Vulkan driver.
//
// Each thread reads in[tid] and writes its variables to
// out[tid*nvars + k] at the end (unless it returned early), and one
// component of @vout[tid/4].
type progGen struct {
	r       *rand.Rand
	sb      strings.Builder
	n       int // name counter
	nvars   int
	threads int
	depth   int
	loops   []loopLabels // enclosing loops (innermost last)
	inSw    int          // >0 inside a switch (no loop break/continue there)
	sm3     bool         // stay within what SM3 (sm3-lower) can express exactly
	helper  bool         // some statement calls @helper (defined after @main)
}

type loopLabels struct{ cont, exit string }

// Vars is the number of u32 variables each program keeps; each thread
// writes them to out[tid*Vars + k].
const Vars = 3

func Program(seed uint64) (src string, threads int) {
	return (&progGen{r: rand.New(rand.NewPCG(seed, 0x5eed)), nvars: Vars}).program(seed)
}

// SM3Program writes a random program like Program that shader model 3
// can run exactly (sm3-lower carries integers as floats): no wave
// operations, no xor/or, constant shifts, masks of the form 2^k - 1,
// differences taken as |a - b| (u32 never wraps below zero), and every
// operation's result masked to 20 bits with mul's second operand below 16,
// so values stay far below 2^24. Some loop headers have a side effect and
// some loops' counters are used after the loop, which decides how
// sm3-lower caps them. The differential test checks the sm3
// pipeline on these (Program's wave operations and bitwise operations end
// that pipeline at sm3-lower).
func SM3Program(seed uint64) (src string, threads int) {
	return (&progGen{r: rand.New(rand.NewPCG(seed, 0x5e3d)), nvars: Vars, sm3: true}).program(seed)
}

func (g *progGen) program(seed uint64) (src string, threads int) {
	g.threads = []int{8, 16, 32}[g.r.IntN(3)]
	g.printf("module \"gen-%d.pir\"\n\n", seed)
	g.printf("@in = global storage [? x u32] binding 0, 0 readonly kind \"StructuredBuffer\"\n")
	g.printf("@out = global storage [? x u32] binding 0, 1 kind \"RWStructuredBuffer\"\n")
	if !g.sm3 {
		g.printf("@vout = global storage [? x <4 x u32>] binding 0, 2 kind \"RWStructuredBuffer\"\n")
		g.printf("@gs = global groupshared [%d x <4 x u32>]\n", g.threads/4)
	}
	g.printf("@tid = global input <3 x u32> semantic \"SV_DispatchThreadID\"\n\n")
	g.printf("define void @main() compute numthreads(%d, 1, 1) {\nentry:\n", g.threads)
	g.printf("  %%tid3 = load ptr<input, <3 x u32>> @tid\n  %%tid = extractvalue <3 x u32> %%tid3, 0\n")
	g.printf("  %%inp = access ptr<storage, [? x u32]> @in, u32 %%tid\n  %%x0 = load ptr<storage, u32> %%inp\n")
	for k := 0; k < g.nvars; k++ {
		g.printf("  %%v%d = alloca u32\n", k)
		init := "%x0"
		if k > 0 {
			init = g.binop("%x0", fmt.Sprint(g.r.IntN(100)))
		}
		g.printf("  store u32 %s, ptr<function, u32> %%v%d\n", init, k)
	}
	g.printf("  %%vec = alloca <4 x u32>\n  store <4 x u32> <%d, %d, %d, %d>, ptr<function, <4 x u32>> %%vec\n",
		g.r.IntN(50), g.r.IntN(50), g.r.IntN(50), g.r.IntN(50))
	if !g.sm3 {
		g.groupshared()
	}
	if !g.stmts(2 + g.r.IntN(4)) {
		g.writeOut()
		g.printf("  ret\n")
	}
	g.printf("}\n")
	if g.helper {
		g.helperFunc()
	}
	return g.sb.String(), g.threads
}

// groupshared makes the four threads of each quad write one component
// each of a groupshared vector at a dynamic index (their local index mod
// 4), waits at a barrier (in the entry block: every thread gets there),
// and reads a component of the whole vector back at another dynamic
// index. A read-modify-write of the whole vector would lose the other
// threads' components.
func (g *progGen) groupshared() {
	lt, q, c, p := g.fresh("%lt"), g.fresh("%q"), g.fresh("%qc"), g.fresh("%gp")
	g.printf("  %s = urem u32 %%tid, %d\n  %s = lshr u32 %s, 2\n  %s = and u32 %s, 3\n", lt, g.threads, q, lt, c, lt)
	g.printf("  %s = access ptr<groupshared, [%d x <4 x u32>]> @gs, u32 %s, u32 %s\n", p, g.threads/4, q, c)
	g.printf("  store u32 %s, ptr<groupshared, u32> %s\n", g.binop("%x0", fmt.Sprint(1+g.r.IntN(30))), p)
	g.printf("  intr void GroupMemoryBarrierWithGroupSync()\n")
	vp, v, i, e := g.fresh("%gvp"), g.fresh("%gv"), g.fresh("%gi"), g.fresh("%ge")
	g.printf("  %s = access ptr<groupshared, [%d x <4 x u32>]> @gs, u32 %s\n  %s = load ptr<groupshared, <4 x u32>> %s\n", vp, g.threads/4, q, v, vp)
	g.printf("  %s = and u32 %%x0, 3\n  %s = extractelement <4 x u32> %s, u32 %s\n", i, e, v, i)
	k := g.r.IntN(g.nvars)
	g.printf("  store u32 %s, ptr<function, u32> %%v%d\n", g.binop(g.load(k), e), k)
}

func (g *progGen) printf(format string, args ...any) { fmt.Fprintf(&g.sb, format, args...) }

func (g *progGen) fresh(base string) string {
	g.n++
	return fmt.Sprintf("%s.%d", base, g.n)
}

func (g *progGen) writeOut() {
	// The local vector's component tid%4 goes into v0.
	wv, wi, we := g.fresh("%wv"), g.fresh("%wi"), g.fresh("%we")
	g.printf("  %s = load ptr<function, <4 x u32>> %%vec\n  %s = and u32 %%tid, 3\n  %s = extractelement <4 x u32> %s, u32 %s\n", wv, wi, we, wv, wi)
	g.printf("  store u32 %s, ptr<function, u32> %%v0\n", g.binop(g.load(0), we))
	if !g.sm3 {
		// One component of @vout[tid/4] per thread: its four threads write
		// the four components.
		q, c, p := g.fresh("%vq"), g.fresh("%vc"), g.fresh("%vp")
		g.printf("  %s = lshr u32 %%tid, 2\n  %s = and u32 %%tid, 3\n", q, c)
		g.printf("  %s = access ptr<storage, [? x <4 x u32>]> @vout, u32 %s, u32 %s\n", p, q, c)
		g.printf("  store u32 %s, ptr<storage, u32> %s\n", g.binop(g.load(1), g.load(2)), p)
	}
	base := g.fresh("%ob")
	g.printf("  %s = mul u32 %%tid, %d\n", base, g.nvars)
	for k := 0; k < g.nvars; k++ {
		v := g.load(k)
		idx := g.fresh("%oi")
		g.printf("  %s = add u32 %s, %d\n", idx, base, k)
		p := g.fresh("%op")
		g.printf("  %s = access ptr<storage, [? x u32]> @out, u32 %s\n", p, idx)
		g.printf("  store u32 %s, ptr<storage, u32> %s\n", v, p)
	}
}

func (g *progGen) load(k int) string {
	v := g.fresh("%l")
	g.printf("  %s = load ptr<function, u32> %%v%d\n", v, k)
	return v
}

// binop emits a defined binary operation of a and b.
func (g *progGen) binop(a, b string) string {
	if g.sm3 {
		return g.sm3binop(a, b)
	}
	r := g.fresh("%e")
	switch g.r.IntN(9) {
	case 0:
		g.printf("  %s = add u32 %s, %s\n", r, a, b)
	case 1:
		g.printf("  %s = sub u32 %s, %s\n", r, a, b)
	case 2:
		g.printf("  %s = mul u32 %s, %s\n", r, a, b)
	case 3:
		g.printf("  %s = xor u32 %s, %s\n", r, a, b)
	case 4:
		m := g.fresh("%m")
		g.printf("  %s = and u32 %s, 31\n  %s = shl u32 %s, %s\n", m, b, r, a, m)
	case 5:
		m := g.fresh("%m")
		g.printf("  %s = and u32 %s, 31\n  %s = lshr u32 %s, %s\n", m, b, r, a, m)
	case 6:
		m := g.fresh("%m")
		g.printf("  %s = or u32 %s, 1\n  %s = udiv u32 %s, %s\n", m, b, r, a, m)
	case 7:
		m := g.fresh("%m")
		g.printf("  %s = or u32 %s, 1\n  %s = urem u32 %s, %s\n", m, b, r, a, m)
	default:
		c := g.fresh("%c")
		g.printf("  %s = icmp ult u32 %s, %s\n  %s = select bool %s, u32 %s, %s\n", c, a, b, r, c, a, b)
	}
	return r
}

// sm3binop emits a binary operation of a and b that SM3 computes exactly,
// its result masked to 20 bits.
func (g *progGen) sm3binop(a, b string) string {
	r := g.fresh("%e")
	switch g.r.IntN(8) {
	case 0:
		g.printf("  %s = add u32 %s, %s\n", r, a, b)
	case 1:
		c, hi, lo := g.fresh("%c"), g.fresh("%hi"), g.fresh("%lo")
		g.printf("  %s = icmp ult u32 %s, %s\n  %s = select bool %s, u32 %s, %s\n  %s = select bool %s, u32 %s, %s\n  %s = sub u32 %s, %s\n",
			c, a, b, hi, c, b, a, lo, c, a, b, r, hi, lo)
	case 2:
		m := g.fresh("%m")
		g.printf("  %s = and u32 %s, 15\n  %s = mul u32 %s, %s\n", m, b, r, a, m)
	case 3:
		g.printf("  %s = shl u32 %s, %d\n", r, a, g.r.IntN(4))
	case 4:
		g.printf("  %s = lshr u32 %s, %d\n", r, a, g.r.IntN(5))
	case 5, 6:
		m, d := g.fresh("%m"), g.fresh("%d")
		op := []string{"udiv", "urem"}[g.r.IntN(2)]
		g.printf("  %s = and u32 %s, 7\n  %s = add u32 %s, 1\n  %s = %s u32 %s, %s\n", m, b, d, m, r, op, a, d)
	default:
		c := g.fresh("%c")
		g.printf("  %s = icmp ult u32 %s, %s\n  %s = select bool %s, u32 %s, %s\n", c, a, b, r, c, a, b)
	}
	k := g.fresh("%k")
	g.printf("  %s = and u32 %s, 1048575\n", k, r)
	return k
}

// expr emits a random u32 expression.
func (g *progGen) expr() string {
	switch g.r.IntN(6) {
	case 0:
		return fmt.Sprint(g.r.IntN(64))
	case 1:
		return "%tid"
	case 2:
		return g.binop(g.load(g.r.IntN(g.nvars)), fmt.Sprint(1+g.r.IntN(16)))
	default:
		return g.binop(g.load(g.r.IntN(g.nvars)), g.load(g.r.IntN(g.nvars)))
	}
}

// cond emits a random bool that usually differs between lanes.
func (g *progGen) cond() string {
	c := g.fresh("%c")
	a := g.expr()
	m := g.fresh("%m")
	mask := 1 + g.r.IntN(7)
	if g.sm3 {
		mask = []int{1, 3, 7}[g.r.IntN(3)]
	}
	g.printf("  %s = and u32 %s, %d\n", m, a, mask)
	g.printf("  %s = icmp %s u32 %s, %d\n", c, []string{"eq", "ne", "ult", "ugt"}[g.r.IntN(4)], m, g.r.IntN(4))
	return c
}

// waveStmt assigns a wave operation's result to a variable.
func (g *progGen) waveStmt() {
	if g.sm3 {
		// SM3 has no waves: an assignment instead.
		g.printf("  store u32 %s, ptr<function, u32> %%v%d\n", g.expr(), g.r.IntN(g.nvars))
		return
	}
	k := g.r.IntN(g.nvars)
	x := g.load(g.r.IntN(g.nvars))
	r := g.fresh("%w")
	switch g.r.IntN(9) {
	case 0:
		g.printf("  %s = intr u32 WaveActiveSum(u32 %s)\n", r, x)
	case 1:
		g.printf("  %s = intr u32 WavePrefixSum(u32 %s)\n", r, x)
	case 2:
		g.printf("  %s = intr u32 WaveActiveMax(u32 %s)\n", r, x)
	case 3:
		g.printf("  %s = intr u32 WaveActiveMin(u32 %s)\n", r, x)
	case 4:
		g.printf("  %s = intr u32 WaveReadLaneFirst(u32 %s)\n", r, x)
	case 5:
		g.printf("  %s = intr u32 WaveActiveBitXor(u32 %s)\n", r, x)
	case 6:
		c := g.cond()
		g.printf("  %s = intr u32 WaveActiveCountBits(bool %s)\n", r, c)
	case 7:
		c := g.cond()
		g.printf("  %s = intr u32 WavePrefixCountBits(bool %s)\n", r, c)
	default:
		l := g.fresh("%lane")
		g.printf("  %s = intr u32 WaveGetLaneIndex()\n", l)
		g.printf("  %s = add u32 %s, %s\n", r, x, l)
	}
	g.printf("  store u32 %s, ptr<function, u32> %%v%d\n", r, k)
}

// stmts emits up to n statements; it reports whether the current block
// was terminated (break, continue or return as the last statement).
func (g *progGen) stmts(n int) bool {
	for i := 0; i < n; i++ {
		if g.stmt() {
			return true
		}
	}
	return false
}

// stmt emits one statement and reports whether it terminated the block.
func (g *progGen) stmt() bool {
	k := g.r.IntN(13)
	if g.depth >= 3 && k >= 4 && k < 10 {
		k = g.r.IntN(4)
	}
	switch {
	case k == 10:
		g.vecStmt()
	case k == 11:
		g.callStmt()
	case k == 12:
		g.chainStmt()
	case k <= 1:
		v := g.r.IntN(g.nvars)
		g.printf("  store u32 %s, ptr<function, u32> %%v%d\n", g.expr(), v)
	case k <= 3:
		g.waveStmt()
	case k <= 5:
		g.ifStmt()
	case k <= 7:
		g.loopStmt()
	case k == 8:
		g.switchStmt()
	default:
		return g.exitStmt()
	}
	return false
}

// vecStmt writes one component of the local vector at a dynamic index
// (through an access, or with insertelement), or reads one into a
// variable.
func (g *progGen) vecStmt() {
	i := g.fresh("%vi")
	g.printf("  %s = and u32 %s, 3\n", i, g.expr())
	switch g.r.IntN(3) {
	case 0:
		p := g.fresh("%vp")
		g.printf("  %s = access ptr<function, <4 x u32>> %%vec, u32 %s\n", p, i)
		g.printf("  store u32 %s, ptr<function, u32> %s\n", g.expr(), p)
	case 1:
		v, n := g.fresh("%vv"), g.fresh("%vn")
		e := g.expr()
		g.printf("  %s = load ptr<function, <4 x u32>> %%vec\n  %s = insertelement <4 x u32> %s, u32 %s, u32 %s\n", v, n, v, e, i)
		g.printf("  store <4 x u32> %s, ptr<function, <4 x u32>> %%vec\n", n)
	default:
		v, e := g.fresh("%vv"), g.fresh("%ve")
		g.printf("  %s = load ptr<function, <4 x u32>> %%vec\n  %s = extractelement <4 x u32> %s, u32 %s\n", v, e, v, i)
		k := g.r.IntN(g.nvars)
		g.printf("  store u32 %s, ptr<function, u32> %%v%d\n", g.binop(g.load(k), e), k)
	}
}

// callStmt calls @helper(x, inout y, out z) as the HLSL lowering does:
// y through a temporary copied in and out, z through a temporary copied
// out; the result, y and z go to variables.
func (g *progGen) callStmt() {
	g.helper = true
	yt, zt := g.fresh("%yt"), g.fresh("%zt")
	a, b, c := g.r.IntN(g.nvars), g.r.IntN(g.nvars), g.r.IntN(g.nvars)
	g.printf("  %s = alloca u32\n  %s = alloca u32\n", yt, zt)
	g.printf("  store u32 %s, ptr<function, u32> %s\n", g.load(a), yt)
	x := g.expr()
	r := g.fresh("%call")
	g.printf("  %s = call u32 @helper(u32 %s, ptr<function, u32> %s, ptr<function, u32> %s)\n", r, x, yt, zt)
	y, z := g.fresh("%yo"), g.fresh("%zo")
	g.printf("  %s = load ptr<function, u32> %s\n  store u32 %s, ptr<function, u32> %%v%d\n", y, yt, y, a)
	g.printf("  %s = load ptr<function, u32> %s\n  store u32 %s, ptr<function, u32> %%v%d\n", z, zt, z, b)
	g.printf("  store u32 %s, ptr<function, u32> %%v%d\n", g.binop(g.load(c), r), c)
}

// helperFunc defines @helper(x, inout y, out z): z and y are written
// from x and y, and it returns early on a condition of x.
func (g *progGen) helperFunc() {
	g.printf("\ndefine u32 @helper(u32 %%hx, ptr<function, u32> %%hy, ptr<function, u32> %%hz) {\nentry:\n")
	y0 := g.fresh("%hy")
	g.printf("  %s = load ptr<function, u32> %%hy\n", y0)
	g.printf("  store u32 %s, ptr<function, u32> %%hz\n", g.binop("%hx", y0))
	g.printf("  store u32 %s, ptr<function, u32> %%hy\n", g.binop(y0, fmt.Sprint(1+g.r.IntN(20))))
	m, c := g.fresh("%hm"), g.fresh("%hc")
	mask := []int{1, 3, 7}[g.r.IntN(3)]
	g.printf("  %s = and u32 %%hx, %d\n  %s = icmp eq u32 %s, %d\n", m, mask, c, m, g.r.IntN(mask+1))
	t, e := g.fresh("h.then"), g.fresh("h.merge")
	g.printf("  selection_merge %%%s\n  condbr bool %s, %%%s, %%%s\n%s:\n", e, c, t, e, t)
	z1 := g.fresh("%hz")
	g.printf("  %s = load ptr<function, u32> %%hz\n", z1)
	g.printf("  ret u32 %s\n%s:\n", g.binop(z1, "%hx"), e)
	y1, z2 := g.fresh("%hy"), g.fresh("%hz")
	g.printf("  %s = load ptr<function, u32> %%hy\n  %s = load ptr<function, u32> %%hz\n", y1, z2)
	g.printf("  ret u32 %s\n}\n", g.binop(y1, z2))
}

// chainStmt assigns a long chain of operations on the variables to one
// of them.
func (g *progGen) chainStmt() {
	acc := g.load(g.r.IntN(g.nvars))
	for n := 8 + g.r.IntN(24); n > 0; n-- {
		b := fmt.Sprint(1 + g.r.IntN(16))
		if g.r.IntN(2) == 0 {
			b = g.load(g.r.IntN(g.nvars))
		}
		acc = g.binop(acc, b)
	}
	g.printf("  store u32 %s, ptr<function, u32> %%v%d\n", acc, g.r.IntN(g.nvars))
}

// exitStmt emits `if (c) { break | continue | return }`.
func (g *progGen) exitStmt() bool {
	c := g.cond()
	t, m := g.fresh("exit.then"), g.fresh("exit.merge")
	g.printf("  selection_merge %%%s\n  condbr bool %s, %%%s, %%%s\n%s:\n", m, c, t, m, t)
	switch {
	case len(g.loops) > 0 && g.inSw == 0 && g.r.IntN(2) == 0:
		l := g.loops[len(g.loops)-1]
		g.printf("  br %%%s\n", []string{l.cont, l.exit}[g.r.IntN(2)])
	case g.r.IntN(3) == 0:
		g.writeOut()
		g.printf("  ret\n")
	default:
		g.waveStmt()
		g.printf("  br %%%s\n", m)
	}
	g.printf("%s:\n", m)
	return false
}

func (g *progGen) ifStmt() {
	g.depth++
	defer func() { g.depth-- }()
	c := g.cond()
	t, e, m := g.fresh("if.then"), g.fresh("if.else"), g.fresh("if.merge")
	g.printf("  selection_merge %%%s\n  condbr bool %s, %%%s, %%%s\n%s:\n", m, c, t, e, t)
	if !g.stmts(1 + g.r.IntN(3)) {
		g.printf("  br %%%s\n", m)
	}
	g.printf("%s:\n", e)
	if !g.stmts(g.r.IntN(3)) {
		g.printf("  br %%%s\n", m)
	}
	g.printf("%s:\n", m)
}

func (g *progGen) loopStmt() {
	g.depth++
	defer func() { g.depth-- }()
	iv := g.fresh("%i")
	h, body, cont, exit := g.fresh("loop.head"), g.fresh("loop.body"), g.fresh("loop.cont"), g.fresh("loop.exit")
	g.printf("  %s = alloca u32\n  store u32 0, ptr<function, u32> %s\n  br %%%s\n%s:\n", iv, iv, h, h)
	cur, c := g.fresh("%iv"), g.fresh("%lc")
	g.printf("  %s = load ptr<function, u32> %s\n", cur, iv)
	if g.sm3 && g.r.IntN(3) == 0 {
		// A header with a side effect (it runs once more than the body):
		// SM3's rep must run it exactly that often.
		hv, hv1, hv2, k := g.fresh("%hv"), g.fresh("%hv"), g.fresh("%hv"), g.r.IntN(g.nvars)
		g.printf("  %s = load ptr<function, u32> %%v%d\n  %s = add u32 %s, 1\n  %s = and u32 %s, 1048575\n  store u32 %s, ptr<function, u32> %%v%d\n",
			hv, k, hv1, hv, hv2, hv1, hv2, k)
	}
	g.printf("  %s = icmp ult u32 %s, %d\n", c, cur, 1+g.r.IntN(5))
	g.printf("  loop_merge %%%s, %%%s\n  condbr bool %s, %%%s, %%%s\n%s:\n", exit, cont, c, body, exit, body)
	// The counter also feeds the body.
	v := g.r.IntN(g.nvars)
	sum := g.fresh("%s")
	old := g.load(v)
	g.printf("  %s = add u32 %s, %s\n  store u32 %s, ptr<function, u32> %%v%d\n", sum, old, cur, sum, v)
	g.loops = append(g.loops, loopLabels{cont, exit})
	sw := g.inSw
	g.inSw = 0
	if !g.stmts(1 + g.r.IntN(3)) {
		g.printf("  br %%%s\n", cont)
	}
	g.inSw = sw
	g.loops = g.loops[:len(g.loops)-1]
	nx, nv := g.fresh("%in"), g.fresh("%inx")
	g.printf("%s:\n  %s = load ptr<function, u32> %s\n  %s = add u32 %s, 1\n", cont, nx, iv, nv, nx)
	g.printf("  store u32 %s, ptr<function, u32> %s\n  br %%%s\n%s:\n", nv, iv, h, exit)
	if g.sm3 && g.r.IntN(3) == 0 {
		// The header's counter used after the loop.
		g.printf("  store u32 %s, ptr<function, u32> %%v%d\n", cur, g.r.IntN(g.nvars))
	}
}

func (g *progGen) switchStmt() {
	g.depth++
	g.inSw++
	defer func() { g.depth--; g.inSw-- }()
	sel := g.fresh("%sel")
	g.printf("  %s = and u32 %s, 7\n", sel, g.expr())
	end := g.fresh("sw.end")
	n := 2 + g.r.IntN(2) // case groups besides default
	labels := make([]string, n+1)
	for i := range labels {
		labels[i] = g.fresh("sw.case")
	}
	defPos := g.r.IntN(n + 1)
	// The values 0..7 in random order, dealt to the groups: one to three
	// per case group (`case 1, 3:`), none or one with the default
	// (`case 5, default:`); the rest reach the default.
	vals := g.r.Perm(8)
	var groups []string
	for i := 0; i <= n; i++ {
		k := 1 + g.r.IntN(3)
		if i == defPos {
			k = g.r.IntN(2)
		}
		k = min(k, len(vals))
		var parts []string
		for _, v := range vals[:k] {
			parts = append(parts, fmt.Sprint(v))
		}
		vals = vals[k:]
		if i == defPos {
			parts = append(parts, "default")
		} else if len(parts) == 0 {
			parts = append(parts, "8") // out of the selector's range: never taken
		}
		if len(parts) == 1 && parts[0] == "default" {
			groups = append(groups, fmt.Sprintf("[default: %%%s]", labels[i]))
			continue
		}
		groups = append(groups, fmt.Sprintf("[case %s: %%%s]", strings.Join(parts, ", "), labels[i]))
	}
	g.printf("  selection_merge %%%s\n  switch u32 %s %s\n", end, sel, strings.Join(groups, " "))
	for i := 0; i <= n; i++ {
		g.printf("%s:\n", labels[i])
		if !g.stmts(1 + g.r.IntN(2)) {
			if i < n && g.r.IntN(2) == 0 {
				g.printf("  br %%%s\n", labels[i+1]) // fallthrough
			} else {
				g.printf("  br %%%s\n", end)
			}
		}
	}
	g.printf("%s:\n", end)
}
