package passes

import "passlens/compiler/ir"

// This file exports the control-flow analyses and IR editing helpers that
// the generic passes share, for passes that live with their target (such
// as the SM3 back end's sm3-lower in compiler/target/sm3/sm3lower) and
// register through Register. They are thin wrappers: the implementations
// stay with the passes that use them.

// Construct is one structured construct of a function (a selection, a
// switch or a loop): its header, merge block and, for a loop, its continue
// target. Its blocks are those structurally dominated by the header and
// not by the merge block.
type Construct struct {
	Header, Merge, Continue *ir.Block
	IsLoop                  bool
}

// Constructs is the construct tree of a function, computed from its merge
// annotations (AnalyzeConstructs).
type Constructs struct {
	cs   *cfConstructs
	list []*Construct
	of   map[*Construct]*cfConstruct
	by   map[*ir.Block]*Construct
}

// AnalyzeConstructs computes the structured constructs of f. Annotations
// naming blocks outside f are ignored.
func AnalyzeConstructs(f *ir.Function) *Constructs {
	cs := analyzeCFConstructs(f)
	out := &Constructs{cs: cs, of: map[*Construct]*cfConstruct{}, by: map[*ir.Block]*Construct{}}
	for _, c := range cs.list {
		e := &Construct{Header: c.header, Merge: c.merge, Continue: c.cont, IsLoop: c.kind == ckLoop}
		out.list = append(out.list, e)
		out.of[e] = c
		out.by[c.header] = e
	}
	return out
}

// List returns the constructs in layout order of their headers.
func (cs *Constructs) List() []*Construct { return cs.list }

// ByHeader returns the construct headed by b (nil if none).
func (cs *Constructs) ByHeader(b *ir.Block) *Construct { return cs.by[b] }

// Contains reports whether b belongs to construct c (its header included).
func (cs *Constructs) Contains(c *Construct, b *ir.Block) bool {
	return cs.cs.contains(cs.of[c], b)
}

// DomTree is the dominator tree of a function's CFG from its entry block.
type DomTree struct{ d *domTree }

// NewDomTree computes f's dominator tree.
func NewDomTree(f *ir.Function) *DomTree { return &DomTree{newDomTree(f)} }

// Dominates reports whether a dominates b (every block dominates itself).
func (t *DomTree) Dominates(a, b *ir.Block) bool { return t.d.dominates(a, b) }

// Reachable reports whether b is reachable from the entry block.
func (t *DomTree) Reachable(b *ir.Block) bool { return t.d.reachable(b) }

// Users maps each non-constant value of f to the instructions using it,
// one entry per operand slot (an instruction using a value twice appears
// twice; see UniqueUsers). It is a snapshot: callers that rewrite operands
// keep it up to date or rebuild it.
func Users(f *ir.Function) map[ir.Value][]*ir.Instr { return computeUsers(f) }

// UniqueUsers returns list without repeated instructions, keeping order.
func UniqueUsers(list []*ir.Instr) []*ir.Instr { return uniqueUsers(list) }

// DistinctPreds returns each block's distinct predecessors in layout order.
func DistinctPreds(f *ir.Function) map[*ir.Block][]*ir.Block { return cfDistinctPreds(f) }

// DistinctSuccs returns b's successors, each listed once.
func DistinctSuccs(b *ir.Block) []*ir.Block { return cfDistinctSuccs(b) }

// NewCondBr returns an unattached conditional branch on c.
func NewCondBr(f *ir.Function, c ir.Value, then, els *ir.Block) *ir.Instr {
	return cfCondBr(f, c, then, els)
}

// NewInstr creates an unattached instruction of f whose result is named
// after name, made unique in f ("" gives a generated name).
func NewInstr(f *ir.Function, op ir.Op, t *ir.Type, name string) *ir.Instr {
	return newInstr(f, op, t, name)
}

// CloneInstr returns an unattached copy of in (operands, targets and
// annotations unchanged) whose result name is in's, made unique in f.
func CloneInstr(f *ir.Function, in *ir.Instr) *ir.Instr { return cloneInstr(f, in) }

// InsertAt inserts in into b at index i.
func InsertAt(b *ir.Block, i int, in *ir.Instr) { insertAt(b, i, in) }

// AppendInstr appends in to b and returns it.
func AppendInstr(b *ir.Block, in *ir.Instr) *ir.Instr { return appendInstr(b, in) }

// IndexInBlock returns in's index in its block (-1 if it is not there).
func IndexInBlock(in *ir.Instr) int { return indexInBlock(in) }

// MoveTail moves b.Instrs[from:] to the end of dst and retargets the phi
// entries of the moved terminator's successors from b to dst.
func MoveTail(b *ir.Block, from int, dst *ir.Block) { moveTail(b, from, dst) }

// BaseName is the stem for values derived from v: its name, or "t" for
// unnamed values and constants.
func BaseName(v ir.Value) string { return baseName(v) }
