package passes

import (
	"passlens/compiler/ir"
)

// EliminateMultilevelBreak is the eliminate-multilevel-break pass: route
// breaks and continues that cross loops or switches through each construct's
// merge.
//
// SPIR-V lets a branch leave only the innermost loop or switch (break), go to
// the innermost loop's continue target (continue), or leave a selection to its
// own merge. A branch that crosses more - the "continue" of an outer loop from
// inside a switch that switch-to-if turned into a one-trip loop, "break 2",
// a break out of an if to the merge of an enclosing if - is a multi-level
// exit. This pass removes them, innermost first, in the manner of Slang's
// eliminateMultiLevelBreak:
//
//   - an exit crossing a loop or switch B becomes a branch to B's merge; B
//     gets a new merge block that receives a flag (bool phi for one target,
//     i32 phi numbering several) saying where the lanes were going, and then
//     branches on it: "if (flag) goto target; else fall to the old merge".
//     From there the target is one level closer; the next round continues
//     outward until every exit is single-level;
//   - an exit to the merge of an enclosing if (which no SPIR-V branch may
//     take) wraps that if in a do{}while(false) loop whose merge is the if's
//     old merge, so the exit becomes an ordinary break.
//
// Values keep their meaning: phis of the old merge and of the targets are
// moved onto the new merge block (undef on the paths that do not feed them),
// and any other use a rerouted definition no longer dominates is repaired by
// SSA reconstruction (phis at the joins). Branches into the middle of a
// construct are unstructured, not multi-level; they are left for structurize.
var EliminateMultilevelBreak = &Pass{
	Name: "eliminate-multilevel-break",
	Run:  runEliminateMultilevelBreak,
}

func runEliminateMultilevelBreak(m *ir.Module, ctx *Context) (bool, error) {
	changed := false
	for _, f := range m.Funcs {
		if f.IsDeclaration() {
			continue
		}
		c, err := eliminateMultilevel(f)
		if err != nil {
			return changed, err
		}
		changed = changed || c
	}
	return changed, nil
}

// mlEdge is a multi-level exit: the edge from -> to leaving construct c
// toward target (the construct whose merge, continue target or header it
// reaches).
type mlEdge struct {
	from, to *ir.Block
	c        *cfConstruct
	target   *cfConstruct
}

// eliminateMultilevel rewrites f's multi-level exits one step at a time,
// recomputing the constructs after each step, then repairs SSA.
func eliminateMultilevel(f *ir.Function) (bool, error) {
	changed := false
	limit := 8*len(f.Blocks) + 64
	for iter := 0; ; iter++ {
		if iter > limit {
			return changed, f.Errorf("eliminate-multilevel-break: no progress after %d rewrites", iter)
		}
		cs := analyzeCFConstructs(f)
		edges := multilevelEdges(f, cs)
		if len(edges) == 0 {
			break
		}
		changed = true
		// An exit to the merge of an if needs that if to become breakable
		// first.
		wrapped := false
		for _, e := range edges {
			if e.target.kind == ckSelection && e.to == e.target.merge {
				wrapSelection(f, cs, e.target)
				wrapped = true
				break
			}
		}
		if wrapped {
			continue
		}
		// Otherwise route the exits of the innermost loop or switch that
		// has some.
		var best *cfConstruct
		for _, e := range edges {
			if b := cfBreakable(e.c); b != nil && (best == nil || b.depth > best.depth) {
				best = b
			}
		}
		if best == nil {
			return changed, f.Errorf("eliminate-multilevel-break: exit %s -> %s crosses no loop or switch", edges[0].from.Ref(), edges[0].to.Ref())
		}
		var mine []mlEdge
		for _, e := range edges {
			if cfBreakable(e.c) == best {
				mine = append(mine, e)
			}
		}
		routeThroughMerge(f, cs, best, mine)
	}
	if changed {
		cfRepairSSA(f)
	}
	return changed, nil
}

// multilevelEdges lists f's multi-level exits in layout order (one entry
// per distinct source and target).
func multilevelEdges(f *ir.Function, cs *cfConstructs) []mlEdge {
	var out []mlEdge
	for _, b := range f.Blocks {
		if i, ok := cs.g.idx[b]; !ok || !cs.sdom.Contains(i) {
			continue
		}
		seen := map[*ir.Block]bool{}
		for _, t := range b.Successors() {
			if seen[t] {
				continue
			}
			seen[t] = true
			if cs.classify(b, t) != edgeMultiLevel {
				continue
			}
			c := cs.from(b)
			out = append(out, mlEdge{from: b, to: t, c: c, target: cs.exitTarget(c, t)})
		}
	}
	return out
}

// routeThroughMerge redirects the given exits of breakable construct b to
// a new merge block that dispatches on a flag: lanes that left normally go
// on to the old merge, the others to their targets, one level further out.
func routeThroughMerge(f *ir.Function, cs *cfConstructs, b *cfConstruct, edges []mlEdge) {
	m := b.merge
	ht := b.header.Terminator()
	loc := ht.Loc
	base := b.header.Name()
	x := cfBlockBefore(f, m, base+".exit")

	// Targets in layout order, numbered from 1.
	var targets []*ir.Block
	num := map[*ir.Block]int{}
	for _, e := range edges {
		if num[e.to] == 0 {
			targets = append(targets, e.to)
			num[e.to] = -1
		}
	}
	cfSortByLayout(f, targets)
	for i, t := range targets {
		num[t] = i + 1
	}

	// Which value each source block sends to x.
	normal := map[*ir.Block]bool{}
	for _, p := range f.Blocks {
		if !cs.contains(b, p) {
			continue
		}
		for _, s := range p.Successors() {
			if s == m {
				normal[p] = true
			}
		}
	}
	illegal := map[*ir.Block][]*ir.Block{} // source -> its multi-level targets
	var sources []*ir.Block
	for _, e := range edges {
		if len(illegal[e.from]) == 0 {
			sources = append(sources, e.from)
		}
		illegal[e.from] = append(illegal[e.from], e.to)
	}
	cfSortByLayout(f, sources)

	// Redirect. A source that would send two different values to x goes
	// through one new edge block per multi-level target.
	type incoming struct {
		pred *ir.Block
		val  int
	}
	var into []incoming
	var normals []*ir.Block
	for _, p := range f.Blocks {
		if normal[p] {
			p.Terminator().ReplaceSuccessor(m, x)
			into = append(into, incoming{p, 0})
			normals = append(normals, p)
		}
	}
	fromTarget := make([][]*ir.Block, len(targets)+1) // target number -> preds of x carrying it
	for _, p := range sources {
		ts := illegal[p]
		direct := !normal[p] && len(ts) == 1
		for _, t := range ts {
			k := num[t]
			pred := p
			if direct {
				p.Terminator().ReplaceSuccessor(t, x)
			} else {
				eb := f.NewBlockAfter(p, p.Name()+".to."+t.Name())
				appendInstr(eb, newBr(f, x))
				p.Terminator().ReplaceSuccessor(t, eb)
				retargetPhiIncoming(t, p, eb)
				pred = eb
			}
			into = append(into, incoming{pred, k})
			fromTarget[k] = append(fromTarget[k], pred)
		}
	}

	// The flag: bool for one target, the target number otherwise.
	bd := ir.NewBuilder(f)
	bd.Loc = loc
	bd.SetBlock(x)
	var flag *ir.Instr
	if len(targets) == 1 {
		flag = bd.Phi(ir.Bool, base+".brk")
		for _, in := range into {
			flag.AddIncoming(ir.ConstBool(ir.Bool, in.val != 0), in.pred)
		}
	} else {
		flag = bd.Phi(ir.I32, base+".dest")
		for _, in := range into {
			flag.AddIncoming(ir.ConstInt(ir.I32, int64(in.val)), in.pred)
		}
	}

	// Dispatch chain: x tests target 1, then target 2, ..., then falls to
	// the old merge. Each test is a selection whose then-block branches on.
	cur := x
	var last *ir.Block
	after := x
	for k, t := range targets {
		next := m
		if k < len(targets)-1 {
			next = f.NewBlockAfter(after, base+".exit")
		}
		e := f.NewBlockAfter(cur, base+".to."+t.Name())
		appendInstr(e, newBr(f, t))
		bd.SetBlock(cur)
		var cond ir.Value = flag
		if len(targets) > 1 {
			cond = bd.Cmp(ir.PredEQ, flag, ir.ConstInt(ir.I32, int64(k+1)), base+".to."+t.Name()+".p")
		}
		br := cfCondBr(f, cond, e, next)
		br.SetSelectionMerge(next)
		br.Loc = loc
		appendInstr(cur, br)
		// Phis of t: the values from the rerouted edges arrive through x.
		moved := map[*ir.Block]bool{}
		for _, p := range fromTarget[k+1] {
			moved[p] = true
		}
		var others []*ir.Block
		for _, in := range into {
			if !moved[in.pred] {
				others = append(others, in.pred)
			}
		}
		cfMovePhiEntries(f, t, moved, x, others, e)
		last, after = cur, e
		if next != m {
			after = next
		}
		cur = next
	}
	// Phis of the old merge: the normal exits' values arrive through x.
	moved := map[*ir.Block]bool{}
	for _, p := range normals {
		moved[p] = true
	}
	var others []*ir.Block
	for _, in := range into {
		if !moved[in.pred] {
			others = append(others, in.pred)
		}
	}
	cfMovePhiEntries(f, m, moved, x, others, last)

	// x is the construct's merge now.
	if b.kind == ckLoop {
		ht.SetLoopMerge(x, b.cont)
	} else {
		ht.SetSelectionMerge(x)
	}
}

// wrapSelection turns if-construct s into the body of a one-trip loop
// whose merge is s's old merge block, so exits from nested constructs to
// that block become breaks:
//
//	h: ...; br h.loop
//	h.loop:  loop_merge m, h.loop.cont; br h.sel
//	h.sel:   selection_merge m.inner; condbr ... (s's branch)
//	m.inner: br h.loop.cont        (s's own exits arrive here)
//	h.loop.cont: condbr false, h.loop, m
func wrapSelection(f *ir.Function, cs *cfConstructs, s *cfConstruct) {
	h, m := s.header, s.merge
	t := h.Terminator()
	loc := t.Loc
	// s's own exits (from blocks directly in s, or from its header) go to
	// the new inner merge; exits from nested constructs become breaks.
	var own []*ir.Block
	for _, p := range f.Blocks {
		if p != h && cs.enclosing(p) != s {
			continue
		}
		for _, x := range p.Successors() {
			if x == m {
				own = append(own, p)
				break
			}
		}
	}
	sel := f.NewBlockAfter(h, h.Name()+".sel")
	loop := f.NewBlockAfter(h, h.Name()+".loop")
	inner := cfBlockBefore(f, m, m.Name()+".inner")
	cont := cfBlockBefore(f, m, h.Name()+".loop.cont")

	// Move the selection's branch into sel.
	t.Remove()
	appendInstr(sel, t)
	for _, x := range t.Successors() {
		retargetPhiIncoming(x, h, sel)
	}
	for i, p := range own {
		if p == h {
			own[i] = sel
		}
	}
	appendInstr(h, newBr(f, loop))
	lt := newBr(f, sel)
	if len(own) == 0 {
		// No path leaves s normally: keep the continue block reachable so
		// the loop has its back edge.
		lt = cfCondBr(f, ir.ConstBool(ir.Bool, true), sel, cont)
	}
	lt.SetLoopMerge(m, cont)
	lt.Loc = loc
	appendInstr(loop, lt)
	moved := map[*ir.Block]bool{}
	for _, p := range own {
		p.Terminator().ReplaceSuccessor(m, inner)
		moved[p] = true
	}
	t.SetSelectionMerge(inner)
	appendInstr(inner, newBr(f, cont))
	ct := cfCondBr(f, ir.ConstBool(ir.Bool, false), loop, m)
	ct.Loc = loc
	appendInstr(cont, ct)
	cfMovePhiEntries(f, m, moved, inner, nil, cont)
}
