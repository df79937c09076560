package passes

import (
	"sort"

	"passlens/compiler/graph"
	"passlens/compiler/ir"
)

// This file holds the control-flow helpers shared by the control-flow
// passes (switch-to-if, eliminate-multilevel-break, out-of-ssa, structurize,
// sm3-lower):
//
//   - cfGraph: an index-based CFG over any edge set, used for structural
//     dominance (the CFG plus header->merge and header->continue edges, as
//     SPIR-V defines constructs); the trees come from compiler/graph;
//   - ssaUpdater and cfRepairSSA: SSA reconstruction after a pass duplicated
//     or rerouted code (Braun et al., "Simple and Efficient Construction of
//     Static Single Assignment Form", applied on demand like LLVM's
//     SSAUpdater);
//   - cfConstructs: the tree of structured constructs given by the merge
//     annotations, and classify, which says whether an edge is a legal
//     single-level exit in SPIR-V's sense or a multi-level one.

// ---- index-based CFG and dominators ----

// cfGraph is a function's structural CFG in index form (indices are layout
// positions): the CFG edges plus header->merge and header->continue edges.
type cfGraph struct {
	f      *ir.Function
	blocks []*ir.Block
	idx    map[*ir.Block]int
	succs  [][]int
	preds  [][]int
}

// newCFGraph builds the structural CFG of f: every header also gets edges
// to its merge block and continue target, so that dominance in
// the graph is SPIR-V's structural dominance: a merge block reached only
// through breaks is still not dominated by an inner header, and constructs
// computed from it nest.
func newCFGraph(f *ir.Function) *cfGraph {
	g := &cfGraph{f: f, blocks: f.Blocks, idx: make(map[*ir.Block]int, len(f.Blocks))}
	for i, b := range f.Blocks {
		g.idx[b] = i
	}
	n := len(f.Blocks)
	g.succs = make([][]int, n)
	g.preds = make([][]int, n)
	add := func(u int, s *ir.Block) {
		if v, ok := g.idx[s]; ok && s != nil {
			g.succs[u] = append(g.succs[u], v)
			g.preds[v] = append(g.preds[v], u)
		}
	}
	for i, b := range f.Blocks {
		t := b.Terminator()
		if t == nil {
			continue
		}
		for _, s := range t.Successors() {
			add(i, s)
		}
		if t.MergeKind != ir.MergeNone {
			add(i, t.Merge)
			if t.MergeKind == ir.MergeLoop {
				add(i, t.Continue)
			}
		}
	}
	return g
}

// dominators returns the dominator tree of g from the entry (node 0), with
// the shared Semi-NCA of compiler/graph. For a structural graph this is
// SPIR-V's structural dominance.
func (g *cfGraph) dominators() *graph.DomTree {
	return graph.Dominators(&graph.Graph{Succs: g.succs})
}

// ---- SSA reconstruction ----

// ssaUpdater rebuilds SSA form for one "variable" that has definitions in
// several blocks (a value and its clones, or the value a phi receives on
// each of several incoming paths). Values are requested at block starts or
// ends; phis are inserted on demand at join points, with undef where no
// definition reaches. The CFG must not change while it is in use. After the
// last request, call finish (which removes trivial phis) and pass every
// obtained value through resolve.
type ssaUpdater struct {
	f      *ir.Function
	typ    *ir.Type
	name   string
	preds  map[*ir.Block][]*ir.Block // distinct predecessors, layout order
	hasDef map[*ir.Block]bool
	end    map[*ir.Block]ir.Value // value live at the end of a block
	start  map[*ir.Block]ir.Value // value live at the start of a block
	busy   map[*ir.Block]bool
	phis   []*ir.Instr
	repl   map[ir.Value]ir.Value
}

// cfDistinctPreds returns each block's distinct predecessors in layout order.
func cfDistinctPreds(f *ir.Function) map[*ir.Block][]*ir.Block {
	c := f.CFG()
	out := make(map[*ir.Block][]*ir.Block, c.Len())
	for _, b := range c.Blocks {
		// One entry per edge, in layout order of the source: a source's
		// edges are adjacent.
		var l []*ir.Block
		for _, p := range c.Preds(b) {
			if len(l) == 0 || l[len(l)-1] != p {
				l = append(l, p)
			}
		}
		if l != nil {
			out[b] = l
		}
	}
	return out
}

func newSSAUpdater(f *ir.Function, preds map[*ir.Block][]*ir.Block, typ *ir.Type, name string) *ssaUpdater {
	return &ssaUpdater{
		f: f, typ: typ, name: name, preds: preds,
		hasDef: map[*ir.Block]bool{}, end: map[*ir.Block]ir.Value{}, start: map[*ir.Block]ir.Value{},
		busy: map[*ir.Block]bool{}, repl: map[ir.Value]ir.Value{},
	}
}

// define records v as the variable's value at the end of b.
func (u *ssaUpdater) define(b *ir.Block, v ir.Value) {
	u.hasDef[b] = true
	u.end[b] = v
}

// atEnd returns the variable's value at the end of b.
func (u *ssaUpdater) atEnd(b *ir.Block) ir.Value {
	if v, ok := u.end[b]; ok {
		return v
	}
	v := u.atStart(b)
	if _, ok := u.end[b]; !ok {
		u.end[b] = v
	}
	return u.end[b]
}

// atStart returns the variable's value at the start of b (before any
// definition b itself holds).
func (u *ssaUpdater) atStart(b *ir.Block) ir.Value {
	if v, ok := u.start[b]; ok {
		return v
	}
	ps := u.preds[b]
	if len(ps) == 0 {
		v := ir.Value(ir.ConstUndef(u.typ))
		u.start[b] = v
		return v
	}
	if len(ps) == 1 && !u.busy[b] {
		u.busy[b] = true
		v := u.atEnd(ps[0])
		delete(u.busy, b)
		if old, ok := u.start[b]; ok {
			// A cycle of single-predecessor blocks came back here and
			// placed a phi; it is the answer.
			return old
		}
		u.start[b] = v
		return v
	}
	phi := ir.NewInstr(u.f, ir.OpPhi, u.typ, u.name)
	insertAt(b, len(b.Phis()), phi)
	u.phis = append(u.phis, phi)
	u.start[b] = phi
	if !u.hasDef[b] {
		u.end[b] = phi
	}
	for _, p := range ps {
		phi.AddIncoming(u.atEnd(p), p)
	}
	return phi
}

// resolve maps a value obtained from the updater to its final form (a
// trivial phi removed by finish is replaced by what it forwarded).
func (u *ssaUpdater) resolve(v ir.Value) ir.Value {
	for i := 0; i < 1<<20; i++ {
		n, ok := u.repl[v]
		if !ok {
			return v
		}
		v = n
	}
	return v
}

// finish removes the inserted phis that turned out trivial (all incoming
// values equal, ignoring the phi itself), repeating until none is left.
func (u *ssaUpdater) finish() {
	for changed := true; changed; {
		changed = false
		for _, phi := range u.phis {
			if phi.Block == nil {
				continue
			}
			var same ir.Value
			trivial := true
			for i, a := range phi.Args {
				a = u.resolve(a)
				phi.Args[i] = a
				if a == ir.Value(phi) {
					continue
				}
				if same == nil || cfSameValue(same, a) {
					same = a
					continue
				}
				trivial = false
				break
			}
			if !trivial {
				continue
			}
			if same == nil {
				same = ir.ConstUndef(u.typ)
			}
			u.repl[phi] = same
			phi.Remove()
			changed = true
		}
	}
	for _, phi := range u.phis {
		if phi.Block != nil {
			for i, a := range phi.Args {
				phi.Args[i] = u.resolve(a)
			}
		}
	}
}

// cfSameValue reports operands that are the same value (identical, or equal
// constants).
func cfSameValue(a, b ir.Value) bool {
	if a == b {
		return true
	}
	ca, ok1 := a.(*ir.Const)
	cb, ok2 := b.(*ir.Const)
	return ok1 && ok2 && ca.Type() == cb.Type() && ca.Literal() == cb.Literal()
}

// cfUse is one operand slot of an instruction.
type cfUse struct {
	in  *ir.Instr
	arg int
}

// cfRepairSSA restores the dominance property after a CFG rewrite: every use
// of an instruction result that its definition no longer dominates gets
// the value rebuilt by an ssaUpdater with the definition as the only
// definition (phis at the joins, undef on paths that bypass it). This is
// correct when the rewrite kept every original path from the definition to
// the use and only added paths on which the use is never reached with that
// value needed, which is what the control-flow passes guarantee. Uses in
// unreachable blocks are left alone. It reports whether anything changed.
func cfRepairSSA(f *ir.Function) bool {
	if f.IsDeclaration() {
		return false
	}
	dt := newDomTree(f)
	pos := map[*ir.Instr]int{}
	for _, b := range f.Blocks {
		for i, in := range b.Instrs {
			pos[in] = i
		}
	}
	bad := map[*ir.Instr][]cfUse{}
	var order []*ir.Instr
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			for k, a := range in.Args {
				d, ok := a.(*ir.Instr)
				if !ok || d.Block == nil || !dt.reachable(d.Block) {
					continue
				}
				useBlock := in.Block
				if in.Op == ir.OpPhi {
					useBlock = in.PhiBlocks[k]
					if !dt.reachable(useBlock) || dt.dominates(d.Block, useBlock) {
						continue
					}
				} else {
					if !dt.reachable(useBlock) {
						continue
					}
					if d.Block == useBlock {
						if pos[d] < pos[in] {
							continue
						}
					} else if dt.dominates(d.Block, useBlock) {
						continue
					}
				}
				if _, seen := bad[d]; !seen {
					order = append(order, d)
				}
				bad[d] = append(bad[d], cfUse{in, k})
			}
		}
	}
	if len(order) == 0 {
		return false
	}
	preds := cfDistinctPreds(f)
	for _, d := range order {
		u := newSSAUpdater(f, preds, d.Type(), d.Name())
		u.define(d.Block, d)
		vals := make([]ir.Value, len(bad[d]))
		for i, use := range bad[d] {
			if use.in.Op == ir.OpPhi {
				vals[i] = u.atEnd(use.in.PhiBlocks[use.arg])
			} else {
				vals[i] = u.atStart(use.in.Block)
			}
		}
		u.finish()
		for i, use := range bad[d] {
			use.in.Args[use.arg] = u.resolve(vals[i])
		}
	}
	return true
}

// ---- small CFG edits ----

// cfBlockBefore creates a block placed right before `before` in layout.
func cfBlockBefore(f *ir.Function, before *ir.Block, name string) *ir.Block {
	b := f.NewBlock(name)
	out := f.Blocks[:0:0]
	for _, x := range f.Blocks[:len(f.Blocks)-1] {
		if x == before {
			out = append(out, b)
		}
		out = append(out, x)
	}
	if len(out) != len(f.Blocks) {
		out = append(out, b)
	}
	copy(f.Blocks, out)
	return b
}

// cfCondBr returns an unattached condbr on c.
func cfCondBr(f *ir.Function, c ir.Value, then, els *ir.Block) *ir.Instr {
	in := ir.NewInstr(f, ir.OpCondBr, ir.Void, "")
	in.Args = []ir.Value{c}
	in.Succs = []*ir.Block{then, els}
	return in
}

// cfSetTerminator swaps b's terminator for t (which may carry a merge
// annotation).
func cfSetTerminator(b *ir.Block, t *ir.Instr) {
	if old := b.Terminator(); old != nil {
		old.Remove()
	}
	appendInstr(b, t)
}

// cfMovePhiEntries reroutes the phi entries of target that come from the
// blocks in moved: those edges now reach target through `via` (a new join
// block whose predecessors are exactly the moved blocks, plus possibly
// others listed in extra that carry undef), then along a chain ending in
// tail -> target. Each phi of target gets a companion phi in via; its
// entries from moved become one entry from tail. via must dominate tail.
func cfMovePhiEntries(f *ir.Function, target *ir.Block, moved map[*ir.Block]bool, via *ir.Block, extra []*ir.Block, tail *ir.Block) {
	for _, phi := range target.Phis() {
		var np *ir.Instr
		args, blocks := phi.Args[:0:0], phi.PhiBlocks[:0:0]
		for i, pb := range phi.PhiBlocks {
			if !moved[pb] {
				args = append(args, phi.Args[i])
				blocks = append(blocks, pb)
				continue
			}
			if np == nil {
				np = ir.NewInstr(f, ir.OpPhi, phi.Type(), phi.Name())
				insertAt(via, len(via.Phis()), np)
			}
			if np.Incoming(pb) == nil {
				np.AddIncoming(phi.Args[i], pb)
			}
		}
		if np == nil {
			continue
		}
		for _, e := range extra {
			if np.Incoming(e) == nil {
				np.AddIncoming(ir.ConstUndef(phi.Type()), e)
			}
		}
		phi.Args = append(args, np)
		phi.PhiBlocks = append(blocks, tail)
	}
}

// cfDistinctSuccs returns b's distinct successors.
func cfDistinctSuccs(b *ir.Block) []*ir.Block {
	var out []*ir.Block
	for _, s := range b.Successors() {
		dup := false
		for _, x := range out {
			dup = dup || x == s
		}
		if !dup {
			out = append(out, s)
		}
	}
	return out
}

// cfSplitEdge puts a new block on every edge p -> t and returns it (p has
// several successors and t has phis, so several predecessors: a critical
// edge). Phi entries of t from p now come from the new block.
func cfSplitEdge(f *ir.Function, p, t *ir.Block) *ir.Block {
	e := f.NewBlockAfter(p, p.Name()+".to."+t.Name())
	br := newBr(f, t)
	if pt := p.Terminator(); pt != nil {
		br.Loc = pt.Loc
		pt.ReplaceSuccessor(t, e)
	}
	appendInstr(e, br)
	retargetPhiIncoming(t, p, e)
	return e
}

// cfRemoveBlocks deletes the given blocks and drops phi entries that came
// from them (only their successors can hold such entries).
func cfRemoveBlocks(f *ir.Function, dead map[*ir.Block]bool) {
	if len(dead) == 0 {
		return
	}
	fixed := map[*ir.Block]bool{}
	for b := range dead {
		for _, s := range b.Successors() {
			if dead[s] || fixed[s] {
				continue
			}
			fixed[s] = true
			for _, phi := range s.Phis() {
				args, blocks := phi.Args[:0], phi.PhiBlocks[:0]
				for i, pb := range phi.PhiBlocks {
					if !dead[pb] {
						args = append(args, phi.Args[i])
						blocks = append(blocks, pb)
					}
				}
				phi.Args, phi.PhiBlocks = args, blocks
			}
		}
	}
	f.RemoveBlocks(dead)
}

// ---- structured constructs ----

// cfKind says what a structured construct is.
type cfKind uint8

const (
	ckSelection cfKind = iota // if (selection_merge on condbr)
	ckSwitch                  // switch (selection_merge on switch); breakable
	ckLoop                    // loop (loop_merge); breakable, has a continue target
)

// cfConstruct is one structured construct: the blocks structurally dominated
// by its header and not by its merge block (SPIR-V §2.11).
type cfConstruct struct {
	header, merge, cont *ir.Block
	kind                cfKind
	parent              *cfConstruct
	depth               int
}

func (c *cfConstruct) breakable() bool { return c.kind != ckSelection }

// cfConstructs is the construct tree of a function.
type cfConstructs struct {
	g        *cfGraph
	sdom     *graph.DomTree
	byHeader map[*ir.Block]*cfConstruct
	list     []*cfConstruct // in layout order of headers
	encl     []*cfConstruct // per block index: innermost construct containing it as a non-header
}

// analyzeCFConstructs computes the constructs of f from its merge annotations.
// Annotations naming blocks outside f are ignored.
func analyzeCFConstructs(f *ir.Function) *cfConstructs {
	g := newCFGraph(f)
	cs := &cfConstructs{g: g, byHeader: map[*ir.Block]*cfConstruct{}}
	if len(f.Blocks) == 0 {
		return cs
	}
	cs.sdom = g.dominators()
	for _, b := range f.Blocks {
		t := b.Terminator()
		if t == nil || t.MergeKind == ir.MergeNone {
			continue
		}
		if _, ok := g.idx[t.Merge]; !ok || t.Merge == nil {
			continue
		}
		c := &cfConstruct{header: b, merge: t.Merge, kind: ckSelection}
		switch {
		case t.MergeKind == ir.MergeLoop:
			if _, ok := g.idx[t.Continue]; !ok || t.Continue == nil {
				continue
			}
			c.kind, c.cont = ckLoop, t.Continue
		case t.Op == ir.OpSwitch:
			c.kind = ckSwitch
		}
		cs.byHeader[b] = c
		cs.list = append(cs.list, c)
	}
	// The innermost construct containing block i (as a non-header) has the
	// nearest header dominating i among those whose merge does not
	// dominate i. Its candidates are the construct headed by i's immediate
	// dominator d and the constructs containing d, innermost first (a
	// construct containing i with a header above d contains d too), so
	// visiting blocks dominators first makes this a walk up the construct
	// nesting, not up the dominator tree.
	cs.encl = make([]*cfConstruct, len(f.Blocks))
	for _, i := range graph.DepthFirst(&graph.Graph{Succs: g.succs}).RPO() {
		d := cs.sdom.IDom(i)
		var in *cfConstruct
		if d >= 0 {
			if c := cs.byHeader[g.blocks[d]]; c != nil && cs.containsIdx(c, i) {
				in = c
			} else {
				for e := cs.encl[d]; e != nil; e = e.parent {
					if cs.containsIdx(e, i) {
						in = e
						break
					}
				}
			}
		}
		cs.encl[i] = in
		if c := cs.byHeader[g.blocks[i]]; c != nil {
			c.parent = in
		}
	}
	for _, c := range cs.list {
		d := 0
		for p := c.parent; p != nil && d <= len(cs.list); p = p.parent {
			d++
		}
		c.depth = d
	}
	return cs
}

func (cs *cfConstructs) containsIdx(c *cfConstruct, i int) bool {
	h, m := cs.g.idx[c.header], cs.g.idx[c.merge]
	return cs.sdom.Dominates(h, i) && !cs.sdom.Dominates(m, i)
}

// contains reports whether b belongs to construct c (its header included).
func (cs *cfConstructs) contains(c *cfConstruct, b *ir.Block) bool {
	i, ok := cs.g.idx[b]
	return ok && cs.containsIdx(c, i)
}

// enclosing returns the innermost construct containing b as a non-header
// block (for a header: the construct its own construct is nested in).
func (cs *cfConstructs) enclosing(b *ir.Block) *cfConstruct {
	if i, ok := cs.g.idx[b]; ok {
		return cs.encl[i]
	}
	return nil
}

// cfBreakable returns c or its nearest ancestor that is a loop or a
// switch.
func cfBreakable(c *cfConstruct) *cfConstruct {
	for ; c != nil; c = c.parent {
		if c.breakable() {
			return c
		}
	}
	return nil
}

// cfLoop returns c or its nearest loop ancestor.
func cfLoop(c *cfConstruct) *cfConstruct {
	for ; c != nil; c = c.parent {
		if c.kind == ckLoop {
			return c
		}
	}
	return nil
}

// edgeClass is classify's verdict on a CFG edge.
type edgeClass uint8

const (
	edgeLegal        edgeClass = iota // inside a construct, to its merge, a break, a continue or a back edge
	edgeMultiLevel                    // leaves several constructs at once toward an enclosing one
	edgeUnstructured                  // enters a construct other than through its header
)

// classify judges the edge b -> t against SPIR-V's structured rules. With
// C the construct the edge leaves from - b's own construct if b is a
// header, else the innermost construct containing b - the edge is legal
// when t is a block of C itself (not inside a nested construct, whose only
// entry is its header), C's merge, the merge of the innermost enclosing
// loop or switch (a break), or the continue target or header of the
// innermost enclosing loop (a continue or back edge). An edge to the
// merge, continue target or header of a construct further out is a
// multi-level exit; anything else (entering a construct sideways, jumping
// into the middle of an enclosing one, a cycle that is not a loop) is
// unstructured.
func (cs *cfConstructs) classify(b, t *ir.Block) edgeClass {
	bi, ok1 := cs.g.idx[b]
	ti, ok2 := cs.g.idx[t]
	if !ok1 || !ok2 {
		return edgeUnstructured
	}
	if cs.sdom.Dominates(ti, bi) {
		// A retreating edge must be a back edge to a loop header.
		if l := cs.byHeader[t]; l == nil || l.kind != ckLoop {
			return edgeUnstructured
		}
	}
	c := cs.from(b)
	if cfLegalFrom(cs, c, t) {
		return edgeLegal
	}
	if cs.exitTarget(c, t) != nil {
		return edgeMultiLevel
	}
	return edgeUnstructured
}

// from returns the construct an edge out of b leaves from: b's own
// construct if b is a header, else the innermost one containing b.
func (cs *cfConstructs) from(b *ir.Block) *cfConstruct {
	if h := cs.byHeader[b]; h != nil {
		return h
	}
	return cs.enclosing(b)
}

// exitTarget returns the construct, c or an ancestor, whose merge block,
// continue target or loop header t is (nil if none): the construct an
// exit from c to t leaves to.
func (cs *cfConstructs) exitTarget(c *cfConstruct, t *ir.Block) *cfConstruct {
	for a := c; a != nil; a = a.parent {
		if t == a.merge || (a.kind == ckLoop && (t == a.cont || t == a.header)) {
			return a
		}
	}
	return nil
}

// cfLegalFrom reports whether a block positioned directly in construct c
// (nil: the function level) may branch to t.
func cfLegalFrom(cs *cfConstructs, c *cfConstruct, t *ir.Block) bool {
	if cs.enclosing(t) == c {
		return true
	}
	if c == nil {
		return false
	}
	if t == c.merge {
		return true
	}
	if br := cfBreakable(c); br != nil && t == br.merge {
		return true
	}
	if l := cfLoop(c); l != nil && (t == l.cont || t == l.header) {
		return true
	}
	return false
}

// cfSortByLayout orders blocks by their position in f.
func cfSortByLayout(f *ir.Function, bs []*ir.Block) {
	pos := make(map[*ir.Block]int, len(f.Blocks))
	for i, b := range f.Blocks {
		pos[b] = i
	}
	sort.SliceStable(bs, func(i, j int) bool { return pos[bs[i]] < pos[bs[j]] })
}
