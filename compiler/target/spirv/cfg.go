package spirv

import (
	"fmt"

	"passlens/compiler/analysis"
	"passlens/compiler/ir"
)

// This file prepares a function's control flow for SPIR-V's structured
// rules:
//
//   - blocks are emitted in reverse postorder from the entry, so every
//     block follows its dominators;
//   - unreachable blocks are dropped, except unreachable merge blocks and
//     continue targets named by a reachable header: those are emitted at
//     the end as OpUnreachable (merge) or as a bare branch back to the
//     loop header (continue target), the shapes glslang produces;
//   - every back edge must target a block annotated with loop_merge, and
//     the CFG must be reducible;
//   - a conditional branch or switch without an annotation gets a
//     selection merge when SPIR-V needs one: not when one of its targets
//     is a break (a loop or switch merge), a continue target or a loop
//     header; otherwise the merge is the immediate post-dominator, or
//     failing that a branch target the block dominates that is not the
//     merge of another header.

// deadKind says how an unreachable block that must exist is emitted.
type deadKind uint8

const (
	deadNone     deadKind = iota
	deadMerge             // OpUnreachable
	deadContinue          // OpBranch to the loop header
)

type cfgInfo struct {
	order    []*ir.Block
	reach    map[*ir.Block]bool
	dead     map[*ir.Block]deadKind
	contOf   map[*ir.Block]*ir.Block // dead continue target -> its loop header
	selMerge map[*ir.Block]*ir.Block // block -> selection merge to emit (annotated or derived)
	preds    map[*ir.Block][]*ir.Block
}

// emittedSuccs returns the successors of b as emitted (distinct, in order).
func (c *cfgInfo) emittedSuccs(b *ir.Block) []*ir.Block {
	if c.dead[b] == deadContinue {
		return []*ir.Block{c.contOf[b]}
	}
	if c.dead[b] != deadNone {
		return nil
	}
	var out []*ir.Block
	seen := map[*ir.Block]bool{}
	for _, s := range b.Successors() {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func blockErr(f *ir.Function, b *ir.Block, format string, args ...any) *Error {
	e := &Error{Func: f.Name(), Msg: fmt.Sprintf(format, args...)}
	if b != nil {
		e.Block = b.Name()
	}
	return e
}

// analyzeCFG computes the emission order and the merges of f.
func analyzeCFG(f *ir.Function) (*cfgInfo, error) {
	fg := analysis.NewFuncGraph(f)
	g := fg.Graph
	dfs := fg.CFG.Order()
	dom := fg.CFG.Dom()
	pdom := fg.CFG.PostDom()
	c := &cfgInfo{reach: map[*ir.Block]bool{}, dead: map[*ir.Block]deadKind{}, contOf: map[*ir.Block]*ir.Block{},
		selMerge: map[*ir.Block]*ir.Block{}, preds: map[*ir.Block][]*ir.Block{}}
	rpo := dfs.RPO()
	rpoNum := make([]int, g.Len())
	for i := range rpoNum {
		rpoNum[i] = -1
	}
	for i, n := range rpo {
		b := fg.Block(n)
		c.reach[b] = true
		c.order = append(c.order, b)
		rpoNum[n] = i
	}

	mergeOwner := map[*ir.Block]*ir.Block{} // merge block -> header
	exits := map[*ir.Block]bool{}           // break and continue targets, loop headers
	loopHeader := map[*ir.Block]bool{}
	for _, b := range c.order {
		t := b.Terminator()
		if t == nil {
			return nil, blockErr(f, b, "block has no terminator")
		}
		switch t.MergeKind {
		case ir.MergeLoop:
			if t.Op != ir.OpBr && t.Op != ir.OpCondBr {
				return nil, blockErr(f, b, "loop_merge on a %s (SPIR-V needs a branch)", t.Op)
			}
			if t.Merge == nil || t.Continue == nil {
				return nil, blockErr(f, b, "loop_merge without merge block or continue target")
			}
			if h, ok := mergeOwner[t.Merge]; ok {
				return nil, blockErr(f, b, "%s is already the merge block of %s", t.Merge.Ref(), h.Ref())
			}
			mergeOwner[t.Merge] = b
			loopHeader[b] = true
			exits[t.Merge], exits[t.Continue], exits[b] = true, true, true
			if !c.reach[t.Continue] {
				c.dead[t.Continue] = deadContinue
				c.contOf[t.Continue] = b
			}
			if !c.reach[t.Merge] && c.dead[t.Merge] == deadNone {
				c.dead[t.Merge] = deadMerge
			}
		case ir.MergeSelection:
			if t.Op != ir.OpCondBr && t.Op != ir.OpSwitch {
				continue // nothing to select: the annotation is dropped
			}
			if t.Merge == nil {
				return nil, blockErr(f, b, "selection_merge without merge block")
			}
			if t.Op == ir.OpCondBr && t.Succs[0] == t.Succs[1] {
				continue // emitted as an unconditional branch
			}
			if h, ok := mergeOwner[t.Merge]; ok {
				return nil, blockErr(f, b, "%s is already the merge block of %s", t.Merge.Ref(), h.Ref())
			}
			mergeOwner[t.Merge] = b
			c.selMerge[b] = t.Merge
			if t.Op == ir.OpSwitch {
				exits[t.Merge] = true
			}
			if !c.reach[t.Merge] && c.dead[t.Merge] == deadNone {
				c.dead[t.Merge] = deadMerge
			}
		}
	}

	// Back edges must close annotated loops; retreating edges that are not
	// back edges make the CFG irreducible.
	for _, b := range c.order {
		u := fg.Index(b)
		for _, s := range b.Successors() {
			v := fg.Index(s)
			if v < 0 || rpoNum[v] > rpoNum[u] {
				continue
			}
			if !dom.Dominates(v, u) {
				return nil, blockErr(f, s, "irreducible control flow: %s enters a cycle that %s does not dominate (run structurize)", b.Ref(), s.Ref())
			}
			if !loopHeader[s] {
				return nil, blockErr(f, s, "block is the target of a back edge from %s but has no loop_merge annotation (SPIR-V loops must be structured)", b.Ref())
			}
		}
	}

	// Derive missing selection merges.
	for _, b := range c.order {
		t := b.Terminator()
		if t.MergeKind != ir.MergeNone && !(t.MergeKind == ir.MergeSelection && t.Op != ir.OpCondBr && t.Op != ir.OpSwitch) {
			continue
		}
		switch t.Op {
		case ir.OpCondBr:
			if t.Succs[0] == t.Succs[1] || exits[t.Succs[0]] || exits[t.Succs[1]] {
				continue
			}
		case ir.OpSwitch:
		default:
			continue
		}
		n := fg.Index(b)
		var cands []*ir.Block
		if p := pdom.IDom(n); p >= 0 && p < g.Len() {
			cands = append(cands, fg.Block(p))
		}
		for i := len(t.Successors()) - 1; i >= 0; i-- {
			cands = append(cands, t.Successors()[i])
		}
		var merge *ir.Block
		for _, m := range cands {
			mi := fg.Index(m)
			if m == b || !c.reach[m] || !dom.Dominates(n, mi) || mergeOwner[m] != nil {
				continue
			}
			merge = m
			break
		}
		if merge == nil {
			return nil, blockErr(f, b, "conditional branch needs a selection merge and none can be derived (no post-dominator or branch target is free to be its merge)")
		}
		mergeOwner[merge] = b
		c.selMerge[b] = merge
	}

	for _, b := range f.Blocks {
		if !c.reach[b] && c.dead[b] != deadNone {
			c.order = append(c.order, b)
		}
	}
	for _, b := range c.order {
		for _, s := range c.emittedSuccs(b) {
			c.preds[s] = append(c.preds[s], b)
		}
	}
	return c, nil
}
