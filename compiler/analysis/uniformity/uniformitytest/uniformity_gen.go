package uniformitytest

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"

	"passlens/compiler/analysis"
	"passlens/compiler/analysis/analysistest"
	"passlens/compiler/ir"
)

// This file turns a random CFG (Func) into a random function with values,
// for testing and benchmarking the uniformity analysis against opt-22. The
// same ValueFunc prints as LLVM IR (WriteValueLL) and builds as passlens IR
// (BuildIR), so a test can analyse either the imported text or the built
// function.
//
// Every function has the signature (i32 inreg %u, i32 %d): %u is uniform
// and %d divergent. Blocks get phis whose incoming values come from the
// predecessors (parameters, constants, values available at the end of the
// predecessor, including values defined inside cycles), arithmetic on
// values available from dominating blocks (so values defined in a cycle are
// used after it), calls of llvm.amdgcn.workitem.id.x (a divergence source)
// and llvm.amdgcn.readfirstlane (always uniform), and branch and switch
// conditions computed from uniform, divergent or mixed values.

// ValueOptions tunes DecorateFunc. Zero fields get defaults.
type ValueOptions struct {
	// DivergentCond is the probability that a condition reads %d directly
	// (default 0.2); otherwise it reads %u (UniformCond) or a random
	// available value.
	DivergentCond float64
	// UniformCond is the probability that a condition reads %u (default 0.4).
	UniformCond float64
	// Phis is the probability that a block with predecessors gets phis
	// (default 0.7).
	Phis float64
	// Sources is the probability of a workitem.id.x call per block (default
	// 0.08); AlwaysUniform that of a readfirstlane call (default 0.08).
	Sources       float64
	AlwaysUniform float64
}

func (o *ValueOptions) defaults() {
	if o.DivergentCond == 0 {
		o.DivergentCond = 0.2
	}
	if o.UniformCond == 0 {
		o.UniformCond = 0.4
	}
	if o.Phis == 0 {
		o.Phis = 0.7
	}
	if o.Sources == 0 {
		o.Sources = 0.08
	}
	if o.AlwaysUniform == 0 {
		o.AlwaysUniform = 0.08
	}
}

type vop uint8

const (
	vPhi vop = iota
	vAdd
	vXor
	vMul
	vICmp
	vTid
	vRfl
)

// vref is an operand: a constant, a parameter or an instruction.
type vref struct {
	kind uint8 // 0 constant, 1 %u, 2 %d, 3 instruction
	c    int64
	v    int32
}

type vinst struct {
	op    vop
	name  string
	args  []vref
	preds []int // phi: incoming block of each argument
	pred  string
}

// ValueFunc is a CFG decorated with values.
type ValueFunc struct {
	F     *analysistest.Func
	insts []vinst
	phis  [][]int32 // per block
	body  [][]int32 // per block, after the phis
	cond  []vref    // per block: branch condition or switch value
}

var icmpPreds = [...]string{"eq", "ne", "slt", "ugt", "sle", "uge"}

// DecorateFunc adds random values to f (f is not modified).
func DecorateFunc(rng *rand.Rand, f *analysistest.Func, o ValueOptions) *ValueFunc {
	o.defaults()
	g := f.Graph
	n := g.Len()
	vf := &ValueFunc{F: f, phis: make([][]int32, n), body: make([][]int32, n), cond: make([]vref, n)}
	dt := analysis.Dominators(g)
	defs := make([][]int32, n) // i32 values defined in each block
	add := func(b int, in vinst) vref {
		id := int32(len(vf.insts))
		vf.insts = append(vf.insts, in)
		if in.op != vICmp {
			defs[b] = append(defs[b], id)
		}
		return vref{kind: 3, v: id}
	}
	leaf := func() vref {
		switch rng.IntN(4) {
		case 0:
			return vref{kind: 1}
		case 1:
			return vref{kind: 2}
		default:
			return vref{kind: 0, c: int64(rng.IntN(5))}
		}
	}
	// pick returns a value available at the end of block b (b's own
	// values so far and those of its dominators).
	pick := func(b int) vref {
		if !dt.Contains(b) || rng.IntN(4) == 0 {
			return leaf()
		}
		x := b
		for k := rng.IntN(4); k > 0 && dt.IDom(x) >= 0; k-- {
			x = dt.IDom(x)
		}
		if len(defs[x]) == 0 {
			return leaf()
		}
		return vref{kind: 3, v: defs[x][rng.IntN(len(defs[x]))]}
	}
	preds := g.Preds()
	order := append([]int(nil), dt.Preorder()...)
	for b := 0; b < n; b++ {
		if !dt.Contains(b) {
			order = append(order, b)
		}
	}
	// Pass 1: phi shells, bodies and conditions in dominator-tree preorder.
	for _, b := range order {
		if b != 0 && len(preds[b]) > 0 && rng.Float64() < o.Phis {
			for k := 1 + rng.IntN(2); k > 0; k-- {
				id := add(b, vinst{op: vPhi, name: fmt.Sprintf("p%d.%d", b, k)})
				vf.phis[b] = append(vf.phis[b], id.v)
			}
		}
		for k := rng.IntN(3); k > 0; k-- {
			var in vinst
			switch r := rng.Float64(); {
			case r < o.Sources:
				in = vinst{op: vTid}
			case r < o.Sources+o.AlwaysUniform:
				in = vinst{op: vRfl, args: []vref{pick(b)}}
			default:
				in = vinst{op: vop(int(vAdd) + rng.IntN(3)), args: []vref{pick(b), pick(b)}}
			}
			in.name = fmt.Sprintf("v%d", len(vf.insts))
			vf.body[b] = append(vf.body[b], add(b, in).v)
		}
		var src vref
		switch r := rng.Float64(); {
		case r < o.DivergentCond:
			src = vref{kind: 2}
		case r < o.DivergentCond+o.UniformCond:
			src = vref{kind: 1}
		default:
			src = pick(b)
		}
		switch f.Term(b) {
		case analysistest.TermCondBr:
			c := add(b, vinst{op: vICmp, name: fmt.Sprintf("c%d", b), pred: icmpPreds[rng.IntN(len(icmpPreds))],
				args: []vref{src, {kind: 0, c: int64(rng.IntN(7))}}})
			vf.body[b] = append(vf.body[b], c.v)
			vf.cond[b] = c
		case analysistest.TermSwitch:
			vf.cond[b] = src
		}
	}
	// Pass 2: phi operands, one per CFG edge (equal for duplicate edges).
	for b := 0; b < n; b++ {
		for _, id := range vf.phis[b] {
			chosen := map[int]vref{}
			for _, p := range preds[b] {
				v, ok := chosen[p]
				if !ok {
					v = pick(p)
					chosen[p] = v
				}
				in := &vf.insts[id]
				in.args = append(in.args, v)
				in.preds = append(in.preds, p)
			}
		}
	}
	return vf
}

func (vf *ValueFunc) refLL(r vref) string {
	switch r.kind {
	case 0:
		return strconv.FormatInt(r.c, 10)
	case 1:
		return "%u"
	case 2:
		return "%d"
	}
	return "%" + vf.insts[r.v].name
}

func (vf *ValueFunc) instLL(id int32) string {
	in := &vf.insts[id]
	g := vf.F.Graph
	switch in.op {
	case vPhi:
		var sb strings.Builder
		sb.WriteString("%" + in.name + " = phi i32 ")
		for i, a := range in.args {
			if i > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString("[ " + vf.refLL(a) + ", %" + analysis.LLVMLocalName(g.Name(in.preds[i])) + " ]")
		}
		return sb.String()
	case vAdd, vXor, vMul:
		op := [...]string{vAdd: "add", vXor: "xor", vMul: "mul"}[in.op]
		return "%" + in.name + " = " + op + " i32 " + vf.refLL(in.args[0]) + ", " + vf.refLL(in.args[1])
	case vICmp:
		return "%" + in.name + " = icmp " + in.pred + " i32 " + vf.refLL(in.args[0]) + ", " + vf.refLL(in.args[1])
	case vTid:
		return "%" + in.name + " = call i32 @llvm.amdgcn.workitem.id.x()"
	case vRfl:
		return "%" + in.name + " = call i32 @llvm.amdgcn.readfirstlane.i32(i32 " + vf.refLL(in.args[0]) + ")"
	}
	return ""
}

// WriteValueLL prints fs as one LLVM IR module for opt-22.
func WriteValueLL(w io.Writer, fs []*ValueFunc) error {
	funcs := make([]*analysistest.Func, len(fs))
	byFunc := map[*analysistest.Func]*ValueFunc{}
	for i, vf := range fs {
		funcs[i] = vf.F
		byFunc[vf.F] = vf
	}
	opts := &analysistest.EmitOptions{
		Prefix: "amdgpu_ps void",
		Params: "i32 inreg %u, i32 %d",
		BlockPrologue: func(f *analysistest.Func, n int) []string {
			vf := byFunc[f]
			var out []string
			for _, id := range vf.phis[n] {
				out = append(out, vf.instLL(id))
			}
			for _, id := range vf.body[n] {
				out = append(out, vf.instLL(id))
			}
			return out
		},
		Cond: func(f *analysistest.Func, n int) ([]string, string) {
			vf := byFunc[f]
			return nil, vf.refLL(vf.cond[n])
		},
		SwitchValue: func(f *analysistest.Func, n int) ([]string, string) {
			vf := byFunc[f]
			return nil, vf.refLL(vf.cond[n])
		},
	}
	bw := bufio.NewWriter(w)
	if err := analysistest.WriteLL(bw, funcs, opts); err != nil {
		return err
	}
	bw.WriteString("\ndeclare i32 @llvm.amdgcn.workitem.id.x()\ndeclare i32 @llvm.amdgcn.readfirstlane.i32(i32)\n")
	return bw.Flush()
}

// BuildIR builds the function in m as passlens IR: the same names, block
// layout, successor order and values as WriteValueLL prints.
func (vf *ValueFunc) BuildIR(m *ir.Module) *ir.Function {
	g := vf.F.Graph
	n := g.Len()
	fn := m.NewFunction(vf.F.Name, ir.Void, []string{"u", "d"}, []*ir.Type{ir.I32, ir.I32})
	fn.Params[0].Uniform = true
	blocks := make([]*ir.Block, n)
	for b := 0; b < n; b++ {
		blocks[b] = fn.NewBlock(g.Name(b))
	}
	vals := make([]ir.Value, len(vf.insts))
	ref := func(r vref) ir.Value {
		switch r.kind {
		case 0:
			return ir.ConstInt(ir.I32, r.c)
		case 1:
			return fn.Params[0]
		case 2:
			return fn.Params[1]
		}
		return vals[r.v]
	}
	bd := ir.NewBuilder(fn)
	for b := 0; b < n; b++ {
		bd.SetBlock(blocks[b])
		for _, id := range vf.phis[b] {
			vals[id] = bd.Phi(ir.I32, vf.insts[id].name)
		}
	}
	// Bodies in dominator-tree preorder so operands exist before use.
	dt := analysis.Dominators(g)
	order := append([]int(nil), dt.Preorder()...)
	for b := 0; b < n; b++ {
		if !dt.Contains(b) {
			order = append(order, b)
		}
	}
	preds := map[string]ir.CmpPred{"eq": ir.PredEQ, "ne": ir.PredNE, "slt": ir.PredSLT, "ugt": ir.PredUGT, "sle": ir.PredSLE, "uge": ir.PredUGE}
	for _, b := range order {
		bd.SetBlock(blocks[b])
		for _, id := range vf.body[b] {
			in := &vf.insts[id]
			switch in.op {
			case vAdd, vXor, vMul:
				op := [...]ir.Op{vAdd: ir.OpAdd, vXor: ir.OpXor, vMul: ir.OpMul}[in.op]
				vals[id] = bd.Binary(op, ref(in.args[0]), ref(in.args[1]), in.name)
			case vICmp:
				vals[id] = bd.Cmp(preds[in.pred], ref(in.args[0]), ref(in.args[1]), in.name)
			case vTid:
				vals[id] = bd.Intrinsic("llvm.amdgcn.workitem.id.x", ir.I32, nil, in.name)
			case vRfl:
				vals[id] = bd.Intrinsic("llvm.amdgcn.readfirstlane", ir.I32, []ir.Value{ref(in.args[0])}, in.name)
			}
		}
	}
	for b := 0; b < n; b++ {
		for _, id := range vf.phis[b] {
			phi := vals[id].(*ir.Instr)
			for i, a := range vf.insts[id].args {
				phi.AddIncoming(ref(a), blocks[vf.insts[id].preds[i]])
			}
		}
		bd.SetBlock(blocks[b])
		ss := g.Succs[b]
		switch vf.F.Term(b) {
		case analysistest.TermRet:
			bd.Ret(nil)
		case analysistest.TermUnreachable:
			bd.Unreachable()
		case analysistest.TermBr:
			bd.Br(blocks[ss[0]])
		case analysistest.TermCondBr:
			bd.CondBr(ref(vf.cond[b]), blocks[ss[0]], blocks[ss[1]])
		case analysistest.TermSwitch:
			cases := []ir.SwitchCase{{Default: true, Target: blocks[ss[0]]}}
			for i, s := range ss[1:] {
				cases = append(cases, ir.SwitchCase{Values: []int64{int64(i)}, Target: blocks[s]})
			}
			bd.Switch(ref(vf.cond[b]), cases)
		}
	}
	return fn
}

// DenseFunc generates the CFG of the uniformity benchmark: n blocks in a
// program-like layout where block i always continues to i+1 (so every block
// is reachable and the last one returns) and usually has a second target:
// nearby forward jumps (if/else, early continues), switches, nearby backward
// jumps (loops, overlapping into irreducible cycles) and occasional long
// forward and backward jumps, which tie the loops into large irreducible
// cycles. With DenseValueOptions, most branch conditions are divergent.
// This is the shape on which LLVM's per-branch join computation is
// quadratic: the labels of a divergent branch inside an irreducible cycle
// are propagated through the whole cycle.
func DenseFunc(rng *rand.Rand, name string, n int) *analysistest.Func {
	n = max(n, 2)
	succ := make([][]int, n)
	terms := make([]analysistest.TermKind, n)
	clampF := func(v int) int { return min(v, n-1) }
	clampB := func(v int) int { return max(v, 1) }
	for i := 0; i < n-1; i++ {
		next := i + 1
		switch r := rng.IntN(100); {
		case r < 35:
			succ[i] = []int{next, clampF(i + 2 + rng.IntN(24))}
		case r < 50 && i > 0:
			succ[i] = []int{clampB(i - rng.IntN(48)), next}
		case r < 56:
			succ[i] = []int{next, clampF(i + 2 + rng.IntN(1500))}
		case r < 59 && i > 0:
			succ[i] = []int{clampB(i - rng.IntN(1500)), next}
		case r < 67:
			s := []int{next}
			for k := 2 + rng.IntN(3); k > 0; k-- {
				s = append(s, clampF(i+1+rng.IntN(12)))
			}
			succ[i] = s
		default:
			succ[i] = []int{next}
		}
		switch len(succ[i]) {
		case 1:
			terms[i] = analysistest.TermBr
		case 2:
			terms[i] = analysistest.TermCondBr
		default:
			terms[i] = analysistest.TermSwitch
		}
	}
	terms[n-1] = analysistest.TermRet
	return &analysistest.Func{Name: name, Graph: &analysis.Graph{Succs: succ}, Terms: terms}
}

// DenseValueOptions are the ValueOptions of the uniformity benchmark: most
// conditions divergent, phis in most join blocks.
var DenseValueOptions = ValueOptions{DivergentCond: 0.6, UniformCond: 0.1, Phis: 0.8, Sources: 0.1, AlwaysUniform: 0.02}

// StructuredFunc generates the CFG of a structured program with about n
// blocks, the shape of shader code: sequences of if/else and if-only
// statements, loops with breaks and continues, switches with fallthrough,
// early returns to a shared exit block, and occasionally a loop entered
// through a second block (a small irreducible cycle, as a goto into a loop
// makes). With DenseValueOptions most conditions are divergent. LLVM's join
// computation is quadratic here: each divergent early return keeps its two
// labels apart until the shared exit at the end of the function.
func StructuredFunc(rng *rand.Rand, name string, n int) *analysistest.Func {
	g := &structGen{rng: rng, budget: max(n, 4)}
	entry := g.block()
	exit := g.block()
	g.exit = exit
	cur := g.seq(entry, g.budget-2, 0)
	g.link(cur, exit)
	terms := make([]analysistest.TermKind, len(g.succ))
	for b, s := range g.succ {
		switch {
		case b == exit:
			terms[b] = analysistest.TermRet
		case len(s) == 1:
			terms[b] = analysistest.TermBr
		case len(s) == 2:
			terms[b] = analysistest.TermCondBr
		default:
			terms[b] = analysistest.TermSwitch
		}
	}
	return &analysistest.Func{Name: name, Graph: &analysis.Graph{Succs: g.succ}, Terms: terms}
}

type structGen struct {
	rng    *rand.Rand
	succ   [][]int
	budget int
	exit   int
	loops  []loopCtx
}

type loopCtx struct{ header, after int }

func (g *structGen) block() int {
	g.succ = append(g.succ, nil)
	return len(g.succ) - 1
}

func (g *structGen) link(from int, to ...int) { g.succ[from] = append(g.succ[from], to...) }

// seq emits statements starting in block cur (which has no terminator yet)
// until about budget blocks are used, and returns the block control falls
// out of.
func (g *structGen) seq(cur, budget, depth int) int {
	start := len(g.succ)
	for len(g.succ)-start < budget {
		left := budget - (len(g.succ) - start)
		r := g.rng.IntN(100)
		switch {
		case r < 4 || left < 4 || depth > 40:
			b := g.block()
			g.link(cur, b)
			cur = b
		case r < 24: // if/else
			then, els, merge := g.block(), g.block(), 0
			g.link(cur, then, els)
			sub := g.rng.IntN(min(left, 40)) / 2
			t := g.seq(then, sub, depth+1)
			e := g.seq(els, sub/2, depth+1)
			merge = g.block()
			g.link(t, merge)
			g.link(e, merge)
			cur = merge
		case r < 36: // if without else
			then := g.block()
			sub := g.rng.IntN(min(left, 30))
			t := g.seq(then, sub, depth+1)
			merge := g.block()
			g.link(cur, then, merge)
			g.link(t, merge)
			cur = merge
		case r < 62: // early return
			cont := g.block()
			if g.rng.IntN(2) == 0 {
				g.link(cur, g.exit, cont)
			} else {
				ret := g.block()
				g.link(cur, cont, ret)
				g.link(ret, g.exit)
			}
			cur = cont
		case r < 72: // loop
			h := g.block()
			g.link(cur, h)
			after := g.block()
			g.loops = append(g.loops, loopCtx{h, after})
			body := g.seq(h, g.rng.IntN(min(left, 60)), depth+1)
			g.loops = g.loops[:len(g.loops)-1]
			g.link(body, h, after) // latch
			if g.rng.IntN(12) == 0 && len(g.succ[h]) > 0 {
				// A second entry into the loop body: an irreducible cycle.
				if t := g.succ[h][0]; t != after && t != h {
					g.succ[cur] = append(g.succ[cur], t)
				}
			}
			cur = after
		case r < 80 && len(g.loops) > 0: // break or continue
			l := g.loops[len(g.loops)-1]
			cont := g.block()
			if g.rng.IntN(2) == 0 {
				g.link(cur, l.after, cont)
			} else {
				g.link(cur, l.header, cont)
			}
			cur = cont
		case r < 88: // switch with fallthrough
			k := 2 + g.rng.IntN(3)
			merge := -1
			cases := make([]int, k)
			for i := range cases {
				cases[i] = g.block()
			}
			g.link(cur, cases...)
			ends := make([]int, k)
			for i, c := range cases {
				ends[i] = g.seq(c, g.rng.IntN(min(left, 16)), depth+1)
			}
			merge = g.block()
			for i, e := range ends {
				if i+1 < k && g.rng.IntN(4) == 0 {
					g.link(e, cases[i+1]) // fallthrough
				} else {
					g.link(e, merge)
				}
			}
			cur = merge
		default:
			b := g.block()
			g.link(cur, b)
			cur = b
		}
	}
	return cur
}
