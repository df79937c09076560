package analysistest

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"passlens/compiler/analysis"
	"slices"
	"strconv"
)

// TermKind is the terminator instruction used for a node when a Func is
// emitted as LLVM IR.
type TermKind uint8

const (
	// TermAuto derives the terminator from the successor count: ret (0),
	// br (1), br i1 (2), switch (3+).
	TermAuto TermKind = iota
	// TermRet is "ret void" (no successors).
	TermRet
	// TermUnreachable is "unreachable" (no successors).
	TermUnreachable
	// TermBr is an unconditional branch (one successor).
	TermBr
	// TermCondBr is "br i1" (two successors, true target first; they may
	// be equal).
	TermCondBr
	// TermSwitch is a switch: Succs[0] is the default, Succs[1:] the cases
	// with values 0, 1, ... (targets may repeat).
	TermSwitch
)

// Func is a named CFG together with the terminator kinds needed to print it
// as LLVM IR.
type Func struct {
	Name  string
	Graph *analysis.Graph
	// Terms optionally gives each node's terminator; missing entries and
	// TermAuto are derived from the successor count.
	Terms []TermKind
}

// Term returns the effective terminator kind of node n.
func (f *Func) Term(n int) TermKind {
	if n < len(f.Terms) && f.Terms[n] != TermAuto {
		return f.Terms[n]
	}
	switch len(f.Graph.Succs[n]) {
	case 0:
		return TermRet
	case 1:
		return TermBr
	case 2:
		return TermCondBr
	}
	return TermSwitch
}

// Shape selects the kind of graph RandomFunc generates.
type Shape uint8

const (
	// ShapeMixed picks one of the random shapes (reducible, irreducible,
	// reducible plus extra edges) per function.
	ShapeMixed Shape = iota
	// ShapeReducible generates every kind of reducible graph (by reversing
	// the T1/T2 reductions) plus unreachable blocks and infinite loops.
	ShapeReducible
	// ShapeIrreducible generates random edges with some locality: irreducible
	// cycles with many entries, unreachable blocks, infinite loops.
	ShapeIrreducible
	// ShapeLocal generates program-like graphs for large sizes: mostly short
	// forward edges, switches, and backward edges of varying reach.
	ShapeLocal
	// ShapeChain is a straight line ending in ret.
	ShapeChain
	// ShapeNested is (Blocks-2)/2 loops nested inside each other.
	ShapeNested
)

// RandOptions configures RandomFunc.
type RandOptions struct {
	Blocks int // number of blocks, at least 1
	Shape  Shape
}

// RandomFunc generates a random function with exactly opts.Blocks blocks,
// named bb0..bbN in layout order, whose entry bb0 has no predecessors (as
// LLVM IR requires). Depending on the shape it contains reducible and
// irreducible cycles, switches with several and duplicate targets, blocks
// unreachable from the entry, infinite loops, several exits (ret and
// unreachable) and self loops. The result is a deterministic function of
// the rng state.
func RandomFunc(rng *rand.Rand, name string, opts RandOptions) *Func {
	n := max(opts.Blocks, 1)
	var succ [][]int
	switch opts.Shape {
	case ShapeChain:
		return finishFunc(rng, name, ChainSuccs(n), false)
	case ShapeNested:
		return finishFunc(rng, name, NestedSuccs(n), false)
	case ShapeLocal:
		return finishFunc(rng, name, localSuccs(rng, n), true)
	}
	shape := opts.Shape
	extraEdges := 0
	if shape == ShapeMixed {
		switch rng.IntN(3) {
		case 0:
			shape = ShapeReducible
		case 1:
			shape = ShapeIrreducible
		default:
			shape, extraEdges = ShapeReducible, 1+rng.IntN(3)
		}
	}
	// Budget: unreachable blocks and injected infinite loops come out of n.
	unreach := 0
	if n > 3 && rng.IntN(3) == 0 {
		unreach = 1 + rng.IntN(n/4+1)
	}
	inf := 0
	if n-unreach > 4 && rng.IntN(4) == 0 {
		inf = 2 + rng.IntN(2)
	}
	core := n - unreach - inf
	if shape == ShapeReducible {
		succ = reducibleSuccs(rng, core)
	} else {
		succ = randomSuccs(rng, core)
	}
	// Extra edges between reachable blocks make reducible graphs irreducible.
	for i := 0; i < extraEdges && core > 2; i++ {
		u, v := rng.IntN(core), 1+rng.IntN(core-1)
		succ[u] = append(succ[u], v)
	}
	// An infinite loop hanging off a random block: a -> b -> a (-> c -> a).
	if inf > 0 {
		first := len(succ)
		for i := 0; i < inf; i++ {
			succ = append(succ, []int{first + (i+1)%inf})
		}
		if rng.IntN(2) == 0 {
			succ[first+1] = append(succ[first+1], first+1) // self loop inside
		}
		u := rng.IntN(first)
		succ[u] = append(succ[u], first+rng.IntN(inf))
	}
	// Unreachable blocks, with edges anywhere except the entry.
	for i := 0; i < unreach; i++ {
		var s []int
		for k := rng.IntN(3); k > 0; k-- {
			s = append(s, 1+rng.IntN(n-1))
		}
		succ = append(succ, s)
	}
	return finishFunc(rng, name, succ, true)
}

// finishFunc adds duplicate successors, shuffles successor order and block
// layout (keeping the entry first) when shuffle is set, and picks terminators.
func finishFunc(rng *rand.Rand, name string, succ [][]int, shuffle bool) *Func {
	n := len(succ)
	if shuffle {
		for u := range succ {
			s := succ[u]
			if len(s) > 0 && len(s) < 6 && rng.IntN(8) == 0 {
				s = append(s, s[rng.IntN(len(s))]) // duplicate target
			}
			rng.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
			succ[u] = s
		}
		perm := make([]int, n) // old index -> new index
		for i := range perm {
			perm[i] = i
		}
		rng.Shuffle(n-1, func(i, j int) { perm[i+1], perm[j+1] = perm[j+1], perm[i+1] })
		ns := make([][]int, n)
		for u, s := range succ {
			t := make([]int, len(s))
			for i, v := range s {
				t[i] = perm[v]
			}
			ns[perm[u]] = t
		}
		succ = ns
	}
	f := &Func{Name: name, Graph: &analysis.Graph{Succs: succ}, Terms: make([]TermKind, n)}
	for u, s := range succ {
		switch len(s) {
		case 0:
			f.Terms[u] = TermRet
			if shuffle && rng.IntN(3) == 0 {
				f.Terms[u] = TermUnreachable
			}
		case 1:
			f.Terms[u] = TermBr
			if shuffle && rng.IntN(8) == 0 {
				f.Terms[u] = TermSwitch
			}
		case 2:
			f.Terms[u] = TermCondBr
			if shuffle && rng.IntN(4) == 0 {
				f.Terms[u] = TermSwitch
			}
		default:
			f.Terms[u] = TermSwitch
		}
	}
	return f
}

// reducibleSuccs generates a reducible flow graph with n nodes, all
// reachable from node 0, by running the T1/T2 reductions backwards from a
// single node: T1⁻¹ adds a self loop; T2⁻¹ splits a node v into v and a new
// node w whose only predecessor is v, distributing v's outgoing edges
// between them (a self loop of v may become v->v, w->v or w->w). Every
// reducible graph can be produced this way; node 0 never gets a
// predecessor.
func reducibleSuccs(rng *rand.Rand, n int) [][]int {
	succ := make([][]int, 1, n)
	for len(succ) < n {
		v := rng.IntN(len(succ))
		if v != 0 && rng.IntN(5) == 0 {
			succ[v] = append(succ[v], v)
			continue
		}
		w := len(succ)
		var sv, sw []int
		for _, x := range succ[v] {
			if x == v {
				switch rng.IntN(5) {
				case 0:
					sv = append(sv, v)
				case 1, 2:
					sw = append(sw, v)
				case 3:
					sw = append(sw, w)
				default:
					sv = append(sv, v)
					sw = append(sw, v)
				}
				continue
			}
			switch r := rng.IntN(10); {
			case r < 4:
				sv = append(sv, x)
			case r < 8 || len(succ[v]) > 4:
				sw = append(sw, x)
			default:
				sv = append(sv, x)
				sw = append(sw, x)
			}
		}
		sv = append(sv, w)
		succ[v] = sv
		succ = append(succ, sw)
	}
	return succ
}

// randomSuccs generates n nodes with random edges (biased towards nearby
// nodes), never into node 0.
func randomSuccs(rng *rand.Rand, n int) [][]int {
	succ := make([][]int, n)
	if n == 1 {
		return succ
	}
	target := func(u int) int {
		if rng.IntN(2) == 0 {
			v := u + rng.IntN(7) - 3
			if v >= 1 && v < n {
				return v
			}
		}
		return 1 + rng.IntN(n-1)
	}
	for u := range succ {
		var k int
		switch r := rng.IntN(20); {
		case r < 2:
			k = 0
		case r < 8:
			k = 1
		case r < 17:
			k = 2
		default:
			k = 3 + rng.IntN(3)
		}
		if u == 0 && k == 0 {
			k = 1
		}
		for ; k > 0; k-- {
			succ[u] = append(succ[u], target(u))
		}
	}
	return succ
}

// localSuccs generates a program-like graph: every block but the exits
// branches to the next block, plus, depending on a random draw, to nearby
// later blocks (diamonds, switches), to earlier blocks (loop latches of
// varying reach, sometimes irreducible) or to far later blocks. A block
// before an exit also branches past it, so every block is reachable.
func localSuccs(rng *rand.Rand, n int) [][]int {
	succ := make([][]int, n)
	fwd := func(i, reach int) int { return min(i+1+rng.IntN(reach), n-1) }
	back := func(i, reach int) int { return max(1, i-rng.IntN(min(i, reach)+1)) }
	for i := 0; i < n-1; i++ {
		s := []int{i + 1}
		switch r := rng.IntN(100); {
		case r < 35:
			s = append(s, fwd(i, 8))
		case r < 60:
		case r < 72 && i > 0:
			s = append(s, back(i, 32))
		case r < 80:
			for k := 2 + rng.IntN(4); k > 0; k-- {
				s = append(s, fwd(i, 16))
			}
		case r < 82 && i > 1 && len(succ[i-1]) > 0:
			s = nil // ret or unreachable
			if !slices.Contains(succ[i-1], i+1) {
				succ[i-1] = append(succ[i-1], i+1)
			}
		case r < 88:
			s = append(s, fwd(i, 64))
		case i > 0:
			s = append(s, back(i, 300))
		}
		succ[i] = s
	}
	return succ
}

// ChainSuccs is 0 -> 1 -> ... -> n-1 (ret).
func ChainSuccs(n int) [][]int {
	succ := make([][]int, n)
	for i := 0; i+1 < n; i++ {
		succ[i] = []int{i + 1}
	}
	return succ
}

// NestedSuccs builds d = (n-2)/2 nested loops: entry -> h1 -> ... -> hd,
// then latches ld .. l1 where li branches back to hi or out to l(i-1)
// (l1 exits to the final ret block). Layout: entry, h1..hd, ld..l1,
// [padding], exit.
func NestedSuccs(n int) [][]int {
	d := (n - 2) / 2
	if d < 1 {
		return ChainSuccs(n)
	}
	succ := make([][]int, n)
	exit := n - 1
	h := func(i int) int { return i }
	l := func(i int) int { return 2*d + 1 - i }
	succ[0] = []int{h(1)}
	for i := 1; i < d; i++ {
		succ[h(i)] = []int{h(i + 1)}
	}
	succ[h(d)] = []int{l(d)}
	for i := d; i > 1; i-- {
		succ[l(i)] = []int{h(i), l(i - 1)}
	}
	succ[l(1)] = []int{h(1), 2*d + 1}
	for i := 2*d + 1; i < exit; i++ {
		succ[i] = []int{i + 1}
	}
	return succ
}

// EmitOptions customises the IR printed by WriteLL. The zero value prints
// "define amdgpu_ps void @NAME(i32 inreg %u, i32 %d)" with conditions
// computed by icmp on %u (uniform) and %d (divergent).
//
// The hooks let callers (e.g. uniformity tests) add phis and choose uniform
// or divergent conditions per block. Local value names starting with "%."
// are reserved for the emitter's defaults.
type EmitOptions struct {
	// Prefix is printed between "define " and the function name; default
	// "amdgpu_ps void".
	Prefix string
	// Params is the parameter list without parentheses; default
	// "i32 inreg %u, i32 %d" (the default conditions use %u and %d).
	Params string
	// BlockPrologue returns lines (e.g. phis) to print first in block n.
	BlockPrologue func(f *Func, n int) []string
	// Cond returns the instructions computing the i1 condition of node n's
	// conditional branch and the operand to branch on.
	Cond func(f *Func, n int) (insts []string, operand string)
	// SwitchValue returns the instructions computing the i32 value of node
	// n's switch and the operand to switch on.
	SwitchValue func(f *Func, n int) (insts []string, operand string)
}

// DefaultCond is the default EmitOptions.Cond: an icmp of %u (even nodes) or
// %d (odd nodes) against a small constant, with a predicate that varies
// with the node.
func DefaultCond(_ *Func, n int) ([]string, string) {
	src := "%u"
	if n%2 == 1 {
		src = "%d"
	}
	preds := [...]string{"eq", "ne", "slt", "ugt"}
	c := "%.c" + strconv.Itoa(n)
	return []string{fmt.Sprintf("%s = icmp %s i32 %s, %d", c, preds[(n/2)%4], src, n%7)}, c
}

// DefaultSwitchValue is the default EmitOptions.SwitchValue: %u for even
// nodes, %d for odd ones.
func DefaultSwitchValue(_ *Func, n int) ([]string, string) {
	if n%2 == 1 {
		return nil, "%d"
	}
	return nil, "%u"
}

// WriteLL prints funcs as one LLVM IR module that opt-22 accepts. Blocks are
// printed in node order with their names as labels. It fails if a
// function's entry has predecessors or a terminator kind does not fit the
// successor count. opts may be nil.
func WriteLL(w io.Writer, funcs []*Func, opts *EmitOptions) error {
	var o EmitOptions
	if opts != nil {
		o = *opts
	}
	if o.Prefix == "" {
		o.Prefix = "amdgpu_ps void"
	}
	if o.Params == "" {
		o.Params = "i32 inreg %u, i32 %d"
	}
	if o.Cond == nil {
		o.Cond = DefaultCond
	}
	if o.SwitchValue == nil {
		o.SwitchValue = DefaultSwitchValue
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	for fi, f := range funcs {
		if err := writeFunc(bw, f, &o); err != nil {
			return err
		}
		if fi+1 < len(funcs) {
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}

func writeFunc(w *bufio.Writer, f *Func, o *EmitOptions) error {
	g := f.Graph
	if err := g.Validate(); err != nil {
		return fmt.Errorf("function %s: %w", f.Name, err)
	}
	for u, ss := range g.Succs {
		for _, v := range ss {
			if v == 0 {
				return fmt.Errorf("function %s: entry block has predecessor %s", f.Name, g.Name(u))
			}
		}
	}
	label := func(n int) string { return "label %" + analysis.LLVMLocalName(g.Name(n)) }
	w.WriteString("define " + o.Prefix + " @" + analysis.LLVMLocalName(f.Name) + "(" + o.Params + ") {\n")
	for n, ss := range g.Succs {
		name := g.Name(n)
		if analysis.IsSlotName(name) {
			w.WriteString(name)
		} else {
			w.WriteString(analysis.LLVMLocalName(name))
		}
		w.WriteString(":\n")
		if o.BlockPrologue != nil {
			for _, l := range o.BlockPrologue(f, n) {
				w.WriteString("  " + l + "\n")
			}
		}
		kind := f.Term(n)
		bad := func() error {
			return fmt.Errorf("function %s: block %s: terminator kind %d with %d successors", f.Name, name, kind, len(ss))
		}
		switch kind {
		case TermRet, TermUnreachable:
			if len(ss) != 0 {
				return bad()
			}
			if kind == TermRet {
				w.WriteString("  ret void\n")
			} else {
				w.WriteString("  unreachable\n")
			}
		case TermBr:
			if len(ss) != 1 {
				return bad()
			}
			w.WriteString("  br " + label(ss[0]) + "\n")
		case TermCondBr:
			if len(ss) != 2 {
				return bad()
			}
			insts, c := o.Cond(f, n)
			for _, l := range insts {
				w.WriteString("  " + l + "\n")
			}
			w.WriteString("  br i1 " + c + ", " + label(ss[0]) + ", " + label(ss[1]) + "\n")
		case TermSwitch:
			if len(ss) == 0 {
				return bad()
			}
			insts, v := o.SwitchValue(f, n)
			for _, l := range insts {
				w.WriteString("  " + l + "\n")
			}
			w.WriteString("  switch i32 " + v + ", " + label(ss[0]) + " [")
			for i, s := range ss[1:] {
				w.WriteString("\n    i32 " + strconv.Itoa(i) + ", " + label(s))
			}
			if len(ss) > 1 {
				w.WriteString("\n  ")
			}
			w.WriteString("]\n")
		default:
			return bad()
		}
	}
	w.WriteString("}\n")
	return nil
}
