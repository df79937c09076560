package passes

import (
	"slices"

	"passlens/compiler/ir"
)

// CFG clean-up for the simplify pass. Every rewrite keeps the structured
// annotations (selection_merge, loop_merge) valid, because SPIR-V needs
// them and the interpreter reconverges at merge blocks:
//
//   - A constant (or two-identical-target) condbr/switch without an
//     annotation becomes a br. Edges that are loop back edges are never
//     removed this way (the loop's structure would break).
//   - On a selection header, it becomes a br (and the annotation goes) when
//     the live arm is the merge block or contains no nested construct, so
//     every branch to the merge block is a plain fall-through; otherwise the
//     construct stays and only the dead arm is cut: a condbr's dead target
//     becomes a new block holding just `unreachable` (`condbr true, %then,
//     %h.dead`), a switch keeps only its live target as default.
//   - On a loop header, a branch straight to the merge block removes the
//     loop (annotation dropped); a branch into the body keeps the
//     loop_merge on a br.
//   - Unreachable blocks are deleted, except those that a reachable
//     header names as merge block (kept as a lone `unreachable`, the form
//     SPIR-V uses for unreachable merge blocks).
//   - A loop whose continue target or back-edge block became unreachable
//     has no back edge left (the verifier requires exactly one): it runs at
//     most once, so it
//     becomes a selection construct with the same merge block — its
//     `condbr` keeps the condition under a selection_merge, and a `br`
//     becomes `switch i32 0 [default: %body]` — and breaks to the merge
//     stay valid as breaks out of that selection.
//   - A block with a single predecessor that ends in an unannotated `br` to
//     it is merged into that predecessor, unless the block is a merge or
//     continue target or a loop header.
//
// Phis are repaired afterwards (fixPhis): entries for removed edges go, new
// edges get undef.

// simplifyCFGWith runs the clean-ups once with the given branch folder
// (the pass uses foldBranches; tests pass the rebuilding reference
// implementation); it reports whether anything changed.
func simplifyCFGWith(f *ir.Function, fold func(*ir.Function) bool) bool {
	changed := fold(f)
	if removeUnreachable(f) {
		changed = true
	}
	if changed {
		fixPhis(f)
	}
	if mergeBlocks(f) {
		changed = true
		fixPhis(f)
	}
	return changed
}

// liveTarget returns the single successor a terminator can take (constant
// condition or selector, or identical targets), or nil.
func liveTarget(t *ir.Instr) *ir.Block {
	switch t.Op {
	case ir.OpCondBr:
		if t.Succs[0] == t.Succs[1] {
			return t.Succs[0]
		}
		if c, ok := t.Args[0].(*ir.Const); ok && !c.Undef && c.Type().Kind == ir.KBool {
			if c.Bool() {
				return t.Succs[0]
			}
			return t.Succs[1]
		}
	case ir.OpSwitch:
		var def *ir.Block
		all := true
		var first *ir.Block
		for _, sc := range t.Cases {
			if first == nil {
				first = sc.Target
			} else if sc.Target != first {
				all = false
			}
			if sc.Default {
				def = sc.Target
			}
		}
		if all && first != nil && def != nil {
			return first
		}
		c, ok := t.Args[0].(*ir.Const)
		if !ok || c.Undef || !c.Type().IsIntegral() {
			return nil
		}
		v := c.Int()
		for _, sc := range t.Cases {
			for _, x := range sc.Values {
				if x == v || c.Type().Bits == 32 && uint32(x) == uint32(v) {
					return sc.Target
				}
			}
		}
		return def
	}
	return nil
}

// foldBranches folds terminators with a single live target.
//
// It needs dominance (reachability, loop back edges, the extent of a
// selection arm) on the CFG as each fold leaves it. Rebuilding the
// dominator tree after every fold made it quadratic, so it builds one tree
// and visits the blocks in postorder of that tree's depth-first search
// (the reverse of dt.rpo), where a fold cannot change the facts later
// decisions read: a fold only removes edges x->d, and on a reducible CFG a
// removed non-back edge has rpo(d) > rpo(x) > rpo(b) for every block b
// visited later. Every path to b can be shortened to one along which rpo
// increases (cutting at back edges, whose target dominates their source),
// so no such path uses x->d: b's reachability and dominators are those of
// the current CFG. An arm walk from b asks dominates(b, y) for blocks y
// after b; it can be stale only if an earlier fold x not dominated by b
// has rpo(x) < rpo(y) (a path avoiding b to y through x->d may have been
// cut). Then, and on irreducible CFGs, the tree is rebuilt.
func foldBranches(f *ir.Function) bool {
	changed, _ := foldBranchesCounted(f)
	return changed
}

// foldBranchesCounted is foldBranches; it also returns how many dominator
// trees it built (tests check that this stays small).
func foldBranchesCounted(f *ir.Function) (changed bool, builds int) {
	if !hasFoldableBranch(f) {
		return false, 0 // no tree needed
	}
	var dt *domTree
	var folds []int // rpo indices (in dt) of the blocks folded since dt was built
	done := map[*ir.Block]bool{}
	stubs := &stubPlacer{f: f}
	defer stubs.place()
	i := -1
	for {
		if dt == nil {
			dt = newDomTree(f)
			builds++
			folds = folds[:0]
			if !isReducible(dt) {
				stubs.place()
				return foldBranchesRebuilding(f, done) || changed, builds
			}
			i = len(dt.rpo)
		}
		i--
		if i < 0 {
			break
		}
		b := dt.rpo[i]
		if done[b] {
			continue
		}
		t := b.Terminator()
		if t == nil || (t.Op != ir.OpCondBr && t.Op != ir.OpSwitch) {
			done[b] = true
			continue
		}
		taken := liveTarget(t)
		if taken == nil {
			done[b] = true
			continue
		}
		// b is reachable and its dominators are current (see above).
		if dropsBackEdge(dt, b, t, taken) {
			done[b] = true
			continue
		}
		switch t.MergeKind {
		case ir.MergeNone, ir.MergeLoop:
			foldUnmergedOrLoop(f, b, t, taken)
		case ir.MergeSelection:
			m := t.Merge
			if taken == m {
				replaceWithBr(f, b, t, taken, nil)
				break
			}
			has, stale := regionHasConstructsChecked(dt, b, taken, m, folds)
			if !has && stale {
				dt = nil // rebuild, then look at b again
				continue
			}
			if !has {
				replaceWithBr(f, b, t, taken, nil)
			} else if !redirectDeadArms(f, b, t, taken, m, stubs.newBlock) {
				done[b] = true
				continue
			}
		}
		done[b] = true
		changed = true
		folds = append(folds, i)
	}
	return changed, builds
}

// hasFoldableBranch reports whether some terminator of f has a single live
// target.
func hasFoldableBranch(f *ir.Function) bool {
	for _, b := range f.Blocks {
		if t := b.Terminator(); t != nil && (t.Op == ir.OpCondBr || t.Op == ir.OpSwitch) && liveTarget(t) != nil {
			return true
		}
	}
	return false
}

// isReducible reports whether every retreating edge of dt's depth-first
// search (to a block no later in reverse postorder) is a back edge, i.e.
// its target dominates its source.
func isReducible(dt *domTree) bool {
	for u, b := range dt.rpo {
		for _, s := range b.Successors() {
			if v, ok := dt.number(s); ok && v <= u && !dt.dominates(s, b) {
				return false
			}
		}
	}
	return true
}

// foldBranchesRebuilding is foldBranches for irreducible CFGs: it visits
// the blocks in layout order and rebuilds the dominator tree after every
// fold (quadratic, but irreducible shaders are rare). Blocks in skip were
// already handled.
func foldBranchesRebuilding(f *ir.Function, skip map[*ir.Block]bool) bool {
	changed := false
	var dt *domTree
	for _, b := range f.Blocks {
		if skip[b] {
			continue
		}
		t := b.Terminator()
		if t == nil || (t.Op != ir.OpCondBr && t.Op != ir.OpSwitch) {
			continue
		}
		taken := liveTarget(t)
		if taken == nil {
			continue
		}
		if dt == nil {
			dt = newDomTree(f)
		}
		if !dt.reachable(b) {
			continue
		}
		if dropsBackEdge(dt, b, t, taken) {
			continue
		}
		switch t.MergeKind {
		case ir.MergeNone, ir.MergeLoop:
			foldUnmergedOrLoop(f, b, t, taken)
		case ir.MergeSelection:
			m := t.Merge
			if taken == m || !regionHasConstructs(dt, b, taken, m) {
				replaceWithBr(f, b, t, taken, nil)
			} else if !redirectDeadArms(f, b, t, taken, m, f.NewBlockAfter) {
				continue
			}
		}
		changed = true
		dt = nil // the CFG changed
	}
	return changed
}

// isUnreachableStub reports a block that is only `unreachable`.
// dropsBackEdge reports whether folding b's terminator t to taken would
// drop a loop back edge (never done: the loop would stop being one).
func dropsBackEdge(dt *domTree, b *ir.Block, t *ir.Instr, taken *ir.Block) bool {
	for _, s := range t.Successors() {
		if s != taken && isLoopHeader(s) && dt.dominates(s, b) {
			return true
		}
	}
	return false
}

// foldUnmergedOrLoop folds a constant branch without a merge annotation, or
// a loop header's (keeping the loop_merge unless the loop is left).
func foldUnmergedOrLoop(f *ir.Function, b *ir.Block, t *ir.Instr, taken *ir.Block) {
	if t.MergeKind == ir.MergeLoop && taken != t.Merge {
		replaceWithBr(f, b, t, taken, t)
		return
	}
	replaceWithBr(f, b, t, taken, nil)
}

func isUnreachableStub(b *ir.Block) bool {
	return len(b.Instrs) == 1 && b.Instrs[0].Op == ir.OpUnreachable
}

func isLoopHeader(b *ir.Block) bool {
	t := b.Terminator()
	return t != nil && t.MergeKind == ir.MergeLoop
}

// replaceWithBr replaces terminator t of b with `br taken`, copying the
// annotation of keep (if non-nil).
func replaceWithBr(f *ir.Function, b *ir.Block, t *ir.Instr, taken *ir.Block, keep *ir.Instr) {
	br := newBr(f, taken)
	br.Loc = t.Loc
	if keep != nil {
		br.MergeKind, br.Merge, br.Continue = keep.MergeKind, keep.Merge, keep.Continue
	}
	removeTerminator(b, t)
	appendInstr(b, br)
}

// removeTerminator takes terminator t off the end of b without the scan
// of Instr.Remove (blocks grow long when mergeBlocks chains them).
func removeTerminator(b *ir.Block, t *ir.Instr) {
	if n := len(b.Instrs); n > 0 && b.Instrs[n-1] == t {
		b.Instrs[n-1] = nil
		b.Instrs = b.Instrs[:n-1]
		t.Block = nil
		return
	}
	t.Remove()
}

// stubPlacer makes the `.dead` stubs of one foldBranches sweep: each is
// appended to the layout at once (reserving its name) and moved right
// after its header by place, in one pass, instead of one
// f.NewBlockAfter scan per stub.
type stubPlacer struct {
	f     *ir.Function
	after map[*ir.Block]*ir.Block // header -> its stub
}

func (p *stubPlacer) newBlock(h *ir.Block, base string) *ir.Block {
	d := p.f.NewBlock(base)
	if p.after == nil {
		p.after = map[*ir.Block]*ir.Block{}
	}
	p.after[h] = d
	return d
}

// place moves the stubs made so far to their places.
func (p *stubPlacer) place() {
	if len(p.after) == 0 {
		return
	}
	moved := make(map[*ir.Block]bool, len(p.after))
	for _, d := range p.after {
		moved[d] = true
	}
	out := make([]*ir.Block, 0, len(p.f.Blocks))
	for _, b := range p.f.Blocks {
		if moved[b] {
			continue
		}
		out = append(out, b)
		if d := p.after[b]; d != nil {
			out = append(out, d)
		}
	}
	p.f.SetBlocks(out)
	p.after = nil
}

// redirectDeadArms cuts the dead arm of a selection header whose live arm
// holds nested constructs: a condbr's dead target becomes a new block that
// is just `unreachable` (never executed: the condition is constant), a
// switch keeps only its live target as default. Pointing the dead arm at
// the merge block instead would add a path into the merge that bypasses
// the live arm and break the dominance of values the merge uses. It
// reports whether anything changed.
//
// newBlock makes the stub (named after base) placed right after h:
// f.NewBlockAfter, or a batched equivalent (see stubPlacer).
func redirectDeadArms(f *ir.Function, h *ir.Block, t *ir.Instr, taken, merge *ir.Block, newBlock func(h *ir.Block, base string) *ir.Block) bool {
	switch t.Op {
	case ir.OpCondBr:
		changed := false
		for i, s := range t.Succs {
			if s == taken || s == merge || isUnreachableStub(s) {
				continue
			}
			d := newBlock(h, h.Name()+".dead")
			appendInstr(d, ir.NewInstr(f, ir.OpUnreachable, ir.Void, ""))
			t.Succs[i] = d
			changed = true
		}
		return changed
	case ir.OpSwitch:
		if len(t.Cases) == 1 && t.Cases[0].Default && len(t.Cases[0].Values) == 0 && t.Cases[0].Target == taken {
			return false
		}
		t.Cases = []ir.SwitchCase{{Default: true, Target: taken}}
		return true
	}
	return false
}

// regionHasConstructs reports whether the blocks of the arm starting at
// start (dominated by header, reached without passing through merge)
// contain a structured header.
func regionHasConstructs(dt *domTree, header, start, merge *ir.Block) bool {
	seen := map[*ir.Block]bool{merge: true, header: true}
	work := []*ir.Block{start}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] || !dt.dominates(header, b) {
			continue
		}
		seen[b] = true
		if t := b.Terminator(); t != nil {
			if t.MergeKind != ir.MergeNone {
				return true
			}
			work = append(work, t.Successors()...)
		}
	}
	return false
}

// regionHasConstructsChecked is regionHasConstructs on a dominator tree
// built before the folds of the blocks at rpo indices folds (in
// decreasing order). A true answer is always current (folds only remove
// edges, so dominance only grows); stale reports that a false answer may
// not be, because the walk stopped at a block y that b might dominate now.
func regionHasConstructsChecked(dt *domTree, header, start, merge *ir.Block, folds []int) (has, stale bool) {
	seen := map[*ir.Block]bool{merge: true, header: true}
	work := []*ir.Block{start}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] {
			continue
		}
		if !dt.dominates(header, b) {
			// Blocks not in dt are the `unreachable` stubs folds add: they
			// hold no construct and have no successors.
			if y, ok := dt.number(b); ok && !stale {
				for k := len(folds) - 1; k >= 0 && folds[k] < y; k-- {
					if !dt.dominates(header, dt.rpo[folds[k]]) {
						stale = true
						break
					}
				}
			}
			continue
		}
		seen[b] = true
		if t := b.Terminator(); t != nil {
			if t.MergeKind != ir.MergeNone {
				return true, false
			}
			work = append(work, t.Successors()...)
		}
	}
	return false, stale
}

// removeUnreachable deletes blocks not reachable from the entry, keeping
// merge blocks of reachable headers in canonical form and turning loops
// whose continue target became unreachable into selections.
func removeUnreachable(f *ir.Function) bool {
	rpo := reversePostorder(f)
	if len(rpo) == len(f.Blocks) {
		return false
	}
	reach := make(map[*ir.Block]bool, len(rpo))
	for _, b := range rpo {
		reach[b] = true
	}
	changed := repairLoops(f)
	merges := map[*ir.Block]bool{}
	for _, b := range rpo {
		if t := b.Terminator(); t != nil && t.MergeKind != ir.MergeNone && t.Merge != nil {
			merges[t.Merge] = true
		}
	}
	dead := map[*ir.Block]bool{}
	gone := map[*ir.Instr]bool{}
	for _, b := range f.Blocks {
		if reach[b] {
			continue
		}
		if merges[b] {
			if len(b.Instrs) == 1 && b.Instrs[0].Op == ir.OpUnreachable {
				continue
			}
			for _, in := range b.Instrs {
				gone[in] = true
			}
			b.Instrs = nil
			appendInstr(b, ir.NewInstr(f, ir.OpUnreachable, ir.Void, ""))
			changed = true
			continue
		}
		for _, in := range b.Instrs {
			gone[in] = true
		}
		dead[b] = true
		changed = true
	}
	if !changed {
		return false
	}
	f.RemoveBlocks(dead)
	for in := range gone {
		in.Block = nil
	}
	// Uses of deleted values can remain only in phis (entries from the
	// deleted blocks, dropped by fixPhis) or in other unreachable code;
	// make any that remain undef so no operand dangles.
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			for i, a := range in.Args {
				if d, ok := a.(*ir.Instr); ok && gone[d] {
					in.Args[i] = ir.ConstUndef(d.Type())
				}
			}
		}
	}
	return true
}

// repairLoops turns every reachable loop header that has lost its back
// edge (its continue target or back-edge block became unreachable, e.g.
// after a call that never returns was inlined) into a selection header. It
// reports whether it changed anything.
func repairLoops(f *ir.Function) bool {
	var dt *domTree
	changed := false
	for _, b := range f.Blocks {
		t := b.Terminator()
		if t == nil || t.MergeKind != ir.MergeLoop {
			continue
		}
		if dt == nil {
			dt = newDomTree(f)
		}
		if !dt.reachable(b) {
			continue
		}
		back := false
		for _, p := range dt.cfg.Preds(b) {
			if dt.reachable(p) && dt.dominates(b, p) {
				back = true
			}
		}
		if !back || t.Continue == nil || !dt.reachable(t.Continue) {
			loopToSelection(f, b, t)
			changed = true
		}
	}
	return changed
}

// loopToSelection turns loop header terminator t (whose continue target is
// unreachable, so the loop body runs at most once) into a selection header
// with the same merge block.
func loopToSelection(f *ir.Function, h *ir.Block, t *ir.Instr) {
	merge := t.Merge
	switch t.Op {
	case ir.OpCondBr:
		t.SetSelectionMerge(merge)
	case ir.OpBr:
		sw := ir.NewInstr(f, ir.OpSwitch, ir.Void, "")
		sw.Args = []ir.Value{i32c(0)}
		sw.Cases = []ir.SwitchCase{{Default: true, Target: t.Succs[0]}}
		sw.SetSelectionMerge(merge)
		sw.Loc = t.Loc
		t.Remove()
		appendInstr(h, sw)
	default:
		t.ClearMerge()
	}
}

// mergeBlocks merges blocks into their single predecessor where allowed.
func mergeBlocks(f *ir.Function) bool {
	if len(f.Blocks) < 2 {
		return false
	}
	// Predecessor lists by CFG node, updated as blocks merge (the cached
	// CFG's lists are shared and read-only).
	cfg := f.CFG()
	preds := make([][]*ir.Block, cfg.Len())
	for i, b := range cfg.Blocks {
		preds[i] = slices.Clone(cfg.Preds(b))
	}
	refs := annotationTargets(f)
	dead := map[*ir.Block]bool{}
	repl := map[ir.Value]ir.Value{}
	for _, b := range f.Blocks[1:] {
		ps := preds[cfg.Index(b)]
		if len(ps) != 1 || refs[b] || dead[b] {
			continue
		}
		p := ps[0]
		if p == b {
			continue
		}
		pt := p.Terminator()
		if pt == nil || pt.Op != ir.OpBr || pt.MergeKind != ir.MergeNone {
			continue
		}
		bt := b.Terminator()
		if bt == nil || bt.MergeKind == ir.MergeLoop {
			continue
		}
		for _, phi := range b.Phis() {
			v := phi.Incoming(p)
			if v == nil {
				v = ir.ConstUndef(phi.Type())
			}
			if v == ir.Value(phi) {
				v = ir.ConstUndef(phi.Type())
			}
			repl[phi] = v
			phi.Block = nil
		}
		removeTerminator(p, pt)
		for _, in := range b.Instrs[b.FirstNonPhi():] {
			in.Block = p
			p.Instrs = append(p.Instrs, in)
		}
		b.Instrs = nil
		for _, s := range bt.Successors() {
			retargetPhiIncoming(s, b, p)
			si := cfg.Index(s)
			if si < 0 {
				continue
			}
			l := preds[si]
			for i := range l {
				if l[i] == b {
					l[i] = p
				}
			}
		}
		dead[b] = true
	}
	if len(dead) == 0 {
		return false
	}
	f.RemoveBlocks(dead)
	f.ReplaceUses(repl)
	return true
}
