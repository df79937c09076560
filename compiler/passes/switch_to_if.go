package passes

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"passlens/compiler/graph"
	"passlens/compiler/ir"
)

// SwitchToIf is the switch-to-if pass: lower switches with non-trivial
// fallthrough to if-chains in a do{}while(false) loop.
//
// SPIR-V leaves reconvergence after a switch fallthrough undefined, so lanes
// that fall from one case body into the next may run the second body apart
// from the lanes that entered it directly (wave operations see different lane
// sets). This pass rewrites such a switch into
//
//	do {
//	  <base predicates: isCase0 = sel == 0, isCase1or3 = (sel == 1) | (sel == 3),
//	   isDefault = !(cases after default ORed)>
//	  <cumulative predicates: reachesX = reaches(previous) | isX>
//	  if (isCase0) { ... }        // each if has its own merge block
//	  if (reachesDefault) { ... } // bodies fall off the end into the next check
//	} while (false);              // a real loop: continue block branches on false
//
// so that every lane walks the same sequence of structured ifs. isDefault
// ORs the later cases with | (an && there would be wrong), and the
// cumulative predicates are transitive along fallthrough chains (ORing only
// the direct predicates of earlier falling-through cases would miss
// chains). A case is
// known to fall through by reachability over all terminators from its label
// (stopping at the merge block, other labels and the switch header), never by
// terminator opcode. Case bodies with internal control flow are cloned as
// whole regions, annotations included. Breaks keep targeting the switch's
// merge block, which becomes the loop's merge; a "continue" of an enclosing
// loop becomes a multi-level exit of the new loop, which
// eliminate-multilevel-break removes. A body value used after the switch
// reaches its uses through phis (undef where no body ran); access chains are
// recomputed at their uses instead, since SPIR-V cannot merge pointers.
//
// Only switches with a fallthrough from a non-empty case body are lowered;
// switch-to-if<all> lowers every switch (the SM3 target, which has no switch
// instruction, needs that). Switches whose case bodies jump to a label other
// than the next one, or whose bodies are entered from outside the switch, are
// left alone.
var SwitchToIf = &Pass{
	Name: "switch-to-if",
	Run:  runSwitchToIf,
}

func runSwitchToIf(m *ir.Module, ctx *Context) (bool, error) {
	all := false
	switch opt := ctx.Option("switch-to-if"); opt {
	case "":
	case "all":
		all = true
	default:
		return false, fmt.Errorf("switch-to-if: unknown option %q (want switch-to-if or switch-to-if<all>)", opt)
	}
	changed := false
	for _, f := range m.Funcs {
		if f.IsDeclaration() {
			continue
		}
		c, err := lowerSwitches(f, all)
		if err != nil {
			return changed, err
		}
		changed = changed || c
	}
	return changed, nil
}

// lowerSwitches lowers the qualifying switches of f in rounds: each round
// computes the whole-function analyses once, plans every switch that is
// not nested in (or sharing blocks with) another switch planned in the
// round, and lowers them all. A nested switch is cloned with its enclosing
// case body and lowered in a later round, so the rounds number the nesting
// depth. Lowering one switch touches only its own blocks and their
// neighbours; the deleted bodies, the new layout and the uses of body
// values elsewhere are dealt with once per round (swRound), so the work is
// not quadratic in the number of switches.
func lowerSwitches(f *ir.Function, all bool) (bool, error) {
	skip := map[*ir.Instr]bool{}
	changed := false
	limit := f.NumInstrs() + 64
	for round := 0; ; round++ {
		if round > limit {
			return changed, f.Errorf("switch-to-if: no progress after %d rounds (nested switches keep multiplying?)", round)
		}
		an := newSwAnalysis(f)
		var plans []*swPlan
		region := map[*ir.Block]bool{}    // case bodies of the round's plans
		headMerge := map[*ir.Block]bool{} // their headers and merge blocks
		for _, b := range append([]*ir.Block(nil), f.Blocks...) {
			t := b.Terminator()
			if t == nil || t.Op != ir.OpSwitch || skip[t] || region[b] {
				continue
			}
			p := planSwitch(f, t, an)
			if p == nil || !(all || p.nonTrivialFallthrough()) {
				skip[t] = true
				continue
			}
			clash := false
			for x := range p.union {
				clash = clash || region[x] || headMerge[x]
			}
			if clash {
				continue // next round
			}
			for x := range p.union {
				region[x] = true
			}
			headMerge[p.h] = true
			if p.merge != nil {
				headMerge[p.merge] = true
			}
			plans = append(plans, p)
		}
		if len(plans) == 0 {
			break
		}
		rd := newSwRound(f)
		for _, p := range plans {
			rd.own(p)
		}
		for _, p := range plans {
			p.lower(rd)
		}
		rd.layout()
		rd.fixOutsideUses()
		changed = true
	}
	if changed {
		cfRepairSSA(f)
	}
	return changed, nil
}

// swAnalysis holds the whole-function analyses switch planning needs; one
// serves every switch planned in a round (lowering one switch leaves the
// others' case bodies, which share no block with it, unchanged).
type swAnalysis struct {
	f    *ir.Function
	dt   *domTree
	sg   *cfGraph       // structural CFG (branches plus merge annotations)
	sdom *graph.DomTree // structural dominators
	pg   *ir.CFG        // plain CFG and post-dominators, for unannotated switches
	pd   *graph.DomTree
}

func newSwAnalysis(f *ir.Function) *swAnalysis {
	an := &swAnalysis{f: f, dt: newDomTree(f), sg: newCFGraph(f)}
	an.sdom = an.sg.dominators()
	return an
}

// postDom returns the function's CFG and its post-dominator tree relative
// to the real exits (computed on first use).
func (an *swAnalysis) postDom() (*ir.CFG, *graph.DomTree) {
	if an.pd == nil {
		an.pg = an.f.CFG()
		an.pd = an.pg.ExitPostDom()
	}
	return an.pg, an.pd
}

// groupKind is how a label group is lowered.
type groupKind uint8

const (
	gBreak groupKind = iota // the label is the merge block: no body, no if
	gExit                   // the label leaves the switch (outer continue, ...): if (pred) branch there
	gBody                   // a case body region, cloned into an if
	gEmpty                  // a bare label that falls into the next group: only its predicate is used
)

// swGroup is one label group of the switch being lowered.
type swGroup struct {
	values    []int64
	isDefault bool
	target    *ir.Block
	kind      groupKind
	region    []*ir.Block // layout order (gBody, gEmpty)
	in        map[*ir.Block]bool
	ft        int // group this one falls into, or -1
	label     string
	is        ir.Value // base predicate
	reach     ir.Value // cumulative predicate (is, or reaches(prev) | is)

	// Filled while lowering.
	bm      map[*ir.Block]*ir.Block
	vm      map[ir.Value]ir.Value
	onEntry map[*ir.Instr]ir.Value // label phi -> its value in the copy (vm may drop it)
	check   *ir.Block              // block holding this group's if
	after   *ir.Block              // the if's merge block
	exit    *ir.Block              // gExit: then-block branching out
}

// swPlan is a switch found lowerable, with its groups classified.
type swPlan struct {
	f      *ir.Function
	sw     *ir.Instr
	h      *ir.Block // the switch's block
	merge  *ir.Block
	sel    ir.Value
	groups []*swGroup
	an     *swAnalysis
	dt     *domTree
	sg     *cfGraph          // structural CFG (branches plus merge annotations)
	sdom   *graph.DomTree    // structural dominators
	union  map[*ir.Block]int // region block -> number of regions holding it
	loop   *ir.Block         // the new loop header (set by lower)
}

// planSwitch classifies sw's label groups and checks the switch can be
// lowered; it returns nil if not.
func planSwitch(f *ir.Function, sw *ir.Instr, an *swAnalysis) *swPlan {
	p := &swPlan{f: f, sw: sw, h: sw.Block, sel: sw.Args[0], an: an, dt: an.dt, sg: an.sg, sdom: an.sdom, union: map[*ir.Block]int{}}
	if !p.dt.reachable(p.h) {
		return nil
	}
	var ok bool
	if p.merge, ok = p.findMerge(); !ok {
		return nil
	}
	// Label groups in source order; groups sharing a target are one group
	// (at the position of the first).
	byTarget := map[*ir.Block]*swGroup{}
	for _, c := range sw.Cases {
		if g := byTarget[c.Target]; g != nil {
			g.values = append(g.values, c.Values...)
			g.isDefault = g.isDefault || c.Default
			continue
		}
		g := &swGroup{values: append([]int64(nil), c.Values...), isDefault: c.Default, target: c.Target, ft: -1}
		byTarget[c.Target] = g
		p.groups = append(p.groups, g)
	}
	labels := map[*ir.Block]bool{}
	for _, g := range p.groups {
		labels[g.target] = true
		g.label = groupLabel(g)
	}
	for _, g := range p.groups {
		switch {
		case g.target == p.merge:
			g.kind = gBreak
		case g.target == p.h || !p.inside(g.target):
			g.kind = gExit
		default:
			g.kind = gBody
			p.collectRegion(g, labels)
		}
	}
	// Fallthrough: each body may only fall into the next group that is not
	// a bare break, and that group must be a body.
	for i, g := range p.groups {
		if g.kind != gBody {
			continue
		}
		next := -1
		for j := i + 1; j < len(p.groups); j++ {
			if p.groups[j].kind != gBreak {
				next = j
				break
			}
		}
		for _, x := range g.region {
			for _, s := range x.Successors() {
				if s == g.target || !labels[s] {
					continue
				}
				j := p.groupOf(s)
				if p.groups[j].kind != gBody {
					continue // a jump out of the switch, not a fallthrough
				}
				if j != next {
					return nil
				}
				g.ft = j
			}
		}
	}
	for _, g := range p.groups {
		if g.kind == gBody && g.ft >= 0 && p.isBareLabel(g) {
			g.kind = gEmpty
		}
	}
	if !p.regionsIsolated() {
		return nil
	}
	return p
}

// findMerge returns the switch's merge block: its selection_merge, else
// its immediate post-dominator. A nil block with ok set means every case
// leaves the function: lower creates an unreachable merge block.
func (p *swPlan) findMerge() (m *ir.Block, ok bool) {
	if p.sw.MergeKind == ir.MergeSelection && p.sw.Merge != nil && p.sw.Merge.Func == p.f {
		m := p.sw.Merge
		if p.dt.reachable(m) && !p.dt.dominates(p.h, m) {
			return nil, false
		}
		return m, true
	}
	g, pd := p.an.postDom()
	hi := g.Index(p.h)
	if hi < 0 || !pd.Contains(hi) {
		return nil, false // the switch never reaches an exit (infinite loop)
	}
	ip := pd.IDom(hi)
	if ip == g.Len() {
		return nil, true
	}
	m = g.Blocks[ip]
	return m, p.dt.dominates(p.h, m)
}

// prepareMerge makes sure the merge block exists and is no other header's
// merge block (an unannotated switch may share its post-dominator with an
// enclosing construct): if it is, edges from the switch go to a new block
// in front of it.
func (p *swPlan) prepareMerge(rd *swRound) {
	f := p.f
	if p.merge == nil {
		p.merge = f.NewBlock("switch.merge")
		appendInstr(p.merge, ir.NewInstr(f, ir.OpUnreachable, ir.Void, ""))
		return
	}
	// The headers naming the merge block: its structural predecessors when
	// the round began, or loops made by this round's earlier lowerings.
	shared := false
	check := func(b *ir.Block) {
		if t := b.Terminator(); !rd.dead[b] && t != nil && t != p.sw && t.MergeKind != ir.MergeNone && t.Merge == p.merge {
			shared = true
		}
	}
	if mi, ok := p.sg.idx[p.merge]; ok {
		for _, pi := range p.sg.preds[mi] {
			check(p.sg.blocks[pi])
		}
	}
	for _, l := range rd.loops {
		check(l)
	}
	if !shared {
		return
	}
	nm := cfBlockBefore(f, p.merge, "switch.merge")
	moved := map[*ir.Block]bool{}
	for _, b := range append([]*ir.Block{p.h}, p.unionBlocks()...) {
		if t := b.Terminator(); t != nil {
			for _, s := range t.Successors() {
				if s == p.merge {
					moved[b] = true
				}
			}
			t.ReplaceSuccessor(p.merge, nm)
		}
	}
	appendInstr(nm, newBr(f, p.merge))
	cfMovePhiEntries(f, p.merge, moved, nm, nil, nm)
	for _, g := range p.groups {
		if g.target == p.merge {
			g.target = nm
		}
	}
	p.merge = nm
}

// unionBlocks returns the blocks of the case bodies, each once.
func (p *swPlan) unionBlocks() []*ir.Block {
	var out []*ir.Block
	seen := map[*ir.Block]bool{}
	for _, g := range p.groups {
		for _, b := range g.region {
			if !seen[b] {
				seen[b] = true
				out = append(out, b)
			}
		}
	}
	return out
}

// groupOf returns the index of the group labelled t.
func (p *swPlan) groupOf(t *ir.Block) int {
	for i, g := range p.groups {
		if g.target == t {
			return i
		}
	}
	return -1
}

// inside reports whether b belongs to the switch's construct: the header
// structurally dominates it and the merge block does not. Structural
// dominance (merge annotations count as edges) keeps out the continue
// target of an enclosing loop, which the header may dominate.
func (p *swPlan) inside(b *ir.Block) bool {
	bi, ok := p.sg.idx[b]
	if !ok || !p.sdom.Dominates(p.sg.idx[p.h], bi) {
		return false
	}
	return p.merge == nil || !p.sdom.Dominates(p.sg.idx[p.merge], bi)
}

// collectRegion gathers the blocks of a case body: everything reachable
// from its label (through branches and merge annotations, so unreachable
// merge blocks of inner constructs come along) without entering the merge
// block, the switch header, another label, or a block outside the switch's
// construct (an exit of the switch).
func (p *swPlan) collectRegion(g *swGroup, labels map[*ir.Block]bool) {
	g.in = map[*ir.Block]bool{g.target: true}
	stack := []*ir.Block{g.target}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, si := range p.sg.succs[p.sg.idx[x]] {
			s := p.sg.blocks[si]
			if g.in[s] || s == p.merge || s == p.h || labels[s] || !p.inside(s) {
				continue
			}
			g.in[s] = true
			stack = append(stack, s)
		}
	}
	// Layout order: the analysis' indices are layout positions.
	for b := range g.in {
		g.region = append(g.region, b)
		p.union[b]++
	}
	slices.SortFunc(g.region, func(a, b *ir.Block) int { return p.sg.idx[a] - p.sg.idx[b] })
}

// isBareLabel reports a group whose body is just a branch to the next
// label, with no phi there to tell the two entries apart.
func (p *swPlan) isBareLabel(g *swGroup) bool {
	if len(g.region) != 1 || len(g.target.Instrs) != 1 {
		return false
	}
	t := g.target.Terminator()
	if t == nil || t.Op != ir.OpBr || t.MergeKind != ir.MergeNone {
		return false
	}
	return len(p.groups[g.ft].target.Phis()) == 0
}

// regionsIsolated checks that case bodies are entered only from the switch
// (labels from the header or the previous body) and that no annotation
// outside them names one of their blocks. Only the structural predecessors
// of body blocks (branches and annotations naming them) can break that.
func (p *swPlan) regionsIsolated() bool {
	entryFrom := map[*ir.Block]int{} // label -> group allowed to fall into it
	for i, g := range p.groups {
		if g.ft >= 0 {
			entryFrom[p.groups[g.ft].target] = i
		}
	}
	var cands []int
	seen := map[int]bool{}
	for x := range p.union {
		for _, pi := range p.sg.preds[p.sg.idx[x]] {
			if !seen[pi] {
				seen[pi] = true
				cands = append(cands, pi)
			}
		}
	}
	slices.Sort(cands)
	for _, ci := range cands {
		b := p.sg.blocks[ci]
		bi := p.union[b] > 0
		t := b.Terminator()
		if t == nil {
			continue
		}
		if !bi && b != p.h && t.MergeKind != ir.MergeNone {
			if p.union[t.Merge] > 0 || (t.Continue != nil && p.union[t.Continue] > 0) {
				return false
			}
		}
		for _, s := range t.Successors() {
			if p.union[s] == 0 || s == b {
				continue
			}
			gi := p.groupOf(s)
			switch {
			case b == p.h:
				// The switch itself.
			case gi >= 0:
				// Entering a label: from its own body (a loop back to the
				// label) or from the body that falls into it.
				g := p.groups[gi]
				from, ok := entryFrom[s]
				if !(g.in != nil && g.in[b]) && !(ok && p.groups[from].in[b]) {
					return false
				}
			case !bi:
				return false
			}
		}
	}
	return true
}

// nonTrivialFallthrough reports whether some case body that is more than a
// bare label falls into the next case: the switch the seed's predicate
// lowers by default.
func (p *swPlan) nonTrivialFallthrough() bool {
	for _, g := range p.groups {
		if g.kind == gBody && g.ft >= 0 {
			return true
		}
	}
	return false
}

// groupLabel names a group for its predicates: "Case0", "Case1or3",
// "Default", "Case1orDefault".
func groupLabel(g *swGroup) string {
	var parts []string
	for _, v := range g.values {
		parts = append(parts, strconv.FormatInt(v, 10))
	}
	s := ""
	if len(parts) > 0 {
		s = "Case" + strings.Join(parts, "or")
	}
	if g.isDefault {
		if s != "" {
			s += "or"
		}
		s += "Default"
	}
	return s
}

// lower rewrites the switch. The steps: build the loop and the predicates,
// build the if-chain cloning each case body, then reroute the values that
// crossed the old edges (phis of labels, the merge block and exits) and
// delete the original bodies (rd finishes the deletion and the layout).
func (p *swPlan) lower(rd *swRound) {
	f := p.f
	// Re-read the selector: lowering another switch of the same round may
	// have rerouted this switch's operand (a selector shared by CSE and
	// defined in that switch's cloned body) since the plan was made.
	p.sel = p.sw.Args[0]
	p.prepareMerge(rd)
	loop := f.NewBlock("switch.loop")
	p.loop = loop
	rd.loops = append(rd.loops, loop)
	body := f.NewBlock("switch.body")
	cont := f.NewBlock("switch.cont")
	bd := ir.NewBuilder(f)
	bd.Loc = p.sw.Loc
	bd.SetBlock(loop)
	p.predicates(bd)
	lt := newBr(f, body)
	lt.SetLoopMerge(p.merge, cont)
	lt.Loc = p.sw.Loc
	appendInstr(loop, lt)

	layout := []*ir.Block{loop, body}
	cur := body
	for _, g := range p.groups {
		switch g.kind {
		case gBreak, gEmpty:
			continue
		case gExit:
			g.check = cur
			g.exit = f.NewBlock("switch.exit")
			g.after = f.NewBlock("switch.next")
			appendInstr(g.exit, newBr(f, g.target))
			layout = append(layout, g.exit, g.after)
		case gBody:
			g.check = cur
			g.after = f.NewBlock(g.target.Name() + ".after")
			layout = append(layout, p.cloneRegion(g)...)
			layout = append(layout, g.after)
		}
		t := cfCondBr(f, g.reach, g.entry(), g.after)
		t.SetSelectionMerge(g.after)
		t.Loc = p.sw.Loc
		appendInstr(cur, t)
		cur = g.after
	}
	appendInstr(cur, newBr(f, cont))
	ct := cfCondBr(f, ir.ConstBool(ir.Bool, false), loop, p.merge)
	ct.Loc = p.sw.Loc
	appendInstr(cont, ct)
	layout = append(layout, cont)

	// The switch becomes a branch into the loop.
	br := newBr(f, loop)
	br.Loc = p.sw.Loc
	cfSetTerminator(p.h, br)

	p.rerouteValues(loop, cont, layout, rd)

	// Delete the original bodies and give sole clones their names back.
	rd.removeBlocks(p.union)
	for b, n := range p.union {
		if n != 1 {
			continue
		}
		for _, g := range p.groups {
			if c := g.bm[b]; c != nil {
				c.SetName(b.Name())
				for _, in := range b.Instrs {
					if c, ok := g.vm[in].(*ir.Instr); ok && in.HasResult() && c.Block != nil {
						c.SetRawName(in.Name())
					}
				}
			}
		}
	}
	rd.after[p.h] = layout
}

// entry returns the block a group's if branches to when taken.
func (g *swGroup) entry() *ir.Block {
	if g.kind == gExit {
		return g.exit
	}
	return g.bm[g.target]
}

// predicates emits, at bd, the base predicates of every group in source
// order, then isDefault, then the cumulative predicates.
//
// isDefault is the negation of the groups after the default label ORed
// together (lanes that selected a case before default have left through a
// break, or legitimately fall into default, before its check), plus the
// groups that branch straight to the merge block before default: those get
// no if, so their lanes would otherwise reach default's check.
//
// The cumulative predicate of a group is reaches(previous) | is(group) when
// the previous group falls into it, so it is transitive along fallthrough
// chains (reachesCase1or3 = reachesDefault | isCase1or3 includes isCase4).
// The seed's pseudocode ORs only the direct predicates of earlier
// falling-through cases, which misses chains and includes cases that fall
// elsewhere; its worked example is the transitive form implemented here.
func (p *swPlan) predicates(bd *ir.Builder) {
	valuePred := func(g *swGroup) ir.Value {
		if len(g.values) == 0 {
			return nil
		}
		var acc ir.Value
		name := "isCase"
		for i, v := range g.values {
			c := bd.Cmp(ir.PredEQ, p.sel, ir.ConstInt(p.sel.Type(), v), "isCase"+strconv.FormatInt(v, 10))
			if i == 0 {
				acc = c
				name += strconv.FormatInt(v, 10)
				continue
			}
			name += "or" + strconv.FormatInt(v, 10)
			acc = bd.Binary(ir.OpOr, acc, c, name)
		}
		return acc
	}
	def := -1
	for i, g := range p.groups {
		if g.isDefault {
			def = i
		}
		if g.kind != gBreak {
			g.is = valuePred(g)
		}
	}
	if def >= 0 && p.groups[def].kind != gBreak {
		var excluded []ir.Value
		for i, g := range p.groups {
			if i == def || !(i > def || g.kind == gBreak) || len(g.values) == 0 {
				continue
			}
			if g.is == nil {
				g.is = valuePred(g)
			}
			excluded = append(excluded, g.is)
		}
		var isDefault ir.Value = ir.ConstBool(ir.Bool, true)
		if len(excluded) > 0 {
			acc := excluded[0]
			for _, e := range excluded[1:] {
				acc = bd.Binary(ir.OpOr, acc, e, "casesAfterDefault")
			}
			isDefault = bd.Unary(ir.OpNot, acc, "isDefault")
		}
		g := p.groups[def]
		if g.is == nil {
			g.is = isDefault
		} else {
			g.is = orPred(bd, g.is, isDefault, "is"+g.label)
		}
	}
	for i, g := range p.groups {
		if g.kind == gBreak {
			continue
		}
		g.reach = g.is
		for j := i - 1; j >= 0; j-- {
			if pg := p.groups[j]; pg.ft == i {
				g.reach = orPred(bd, pg.reach, g.is, "reaches"+g.label)
				break
			}
		}
	}
}

// orPred emits a | b, folding the constant true.
func orPred(bd *ir.Builder, a, b ir.Value, name string) ir.Value {
	for _, x := range []ir.Value{a, b} {
		if c, ok := x.(*ir.Const); ok && c.Bool() {
			return c
		}
	}
	return bd.Binary(ir.OpOr, a, b, name)
}

// cloneRegion copies a case body: blocks get temporary names (the originals
// are deleted afterwards and sole copies renamed), branches to the label
// the body falls into go to the group's if-merge, and annotations keep
// naming the copies. It returns the new blocks in layout order.
func (p *swPlan) cloneRegion(g *swGroup) []*ir.Block {
	f := p.f
	g.bm = map[*ir.Block]*ir.Block{}
	g.vm = map[ir.Value]ir.Value{}
	var out []*ir.Block
	for _, x := range g.region {
		c := f.NewBlock(x.Name())
		g.bm[x] = c
		out = append(out, c)
		for _, in := range x.Instrs {
			ci := cloneInstr(f, in)
			g.vm[in] = ci
			appendInstr(c, ci)
		}
	}
	var ftLabel *ir.Block
	if g.ft >= 0 {
		ftLabel = p.groups[g.ft].target
	}
	ftTarget := g.after
	// An inner construct merging at the next label (`if (c) x(); /* falls
	// through */`) gets its own merge block on the way to the if-merge,
	// provided its header dominates every fallthrough edge.
	if ftLabel != nil {
		if h := p.innerHeaderMergingAt(g, ftLabel); h != nil {
			ft := f.NewBlock(g.target.Name() + ".ft")
			appendInstr(ft, newBr(f, g.after))
			out = append(out, ft)
			ftTarget = ft
		}
	}
	mapBlock := func(b *ir.Block) *ir.Block {
		if c := g.bm[b]; c != nil {
			return c
		}
		if b == ftLabel && ftLabel != nil {
			return ftTarget
		}
		return b
	}
	for _, x := range g.region {
		for _, in := range g.bm[x].Instrs {
			for i, a := range in.Args {
				if v, ok := g.vm[a]; ok {
					in.Args[i] = v
				}
			}
			if in.Op == ir.OpPhi {
				args, blocks := in.Args[:0:0], in.PhiBlocks[:0:0]
				for i, pb := range in.PhiBlocks {
					if g.in[pb] {
						args = append(args, in.Args[i])
						blocks = append(blocks, g.bm[pb])
					}
				}
				in.Args, in.PhiBlocks = args, blocks
			}
			for i, s := range in.Succs {
				in.Succs[i] = mapBlock(s)
			}
			for i := range in.Cases {
				in.Cases[i].Target = mapBlock(in.Cases[i].Target)
			}
			if in.MergeKind != ir.MergeNone {
				if m := mapBlock(in.Merge); m == in.Merge || m == g.after {
					// Merging outside the body (at the switch's merge):
					// give the construct an unreachable merge of its own.
					d := f.NewBlock(x.Name() + ".merge")
					appendInstr(d, ir.NewInstr(f, ir.OpUnreachable, ir.Void, ""))
					out = append(out, d)
					in.Merge = d
				} else {
					in.Merge = m
				}
				if in.Continue != nil {
					in.Continue = mapBlock(in.Continue)
				}
			}
		}
	}
	return out
}

// innerHeaderMergingAt returns a header in g's body whose merge is the
// label g falls into and which dominates every fallthrough edge, or nil.
func (p *swPlan) innerHeaderMergingAt(g *swGroup, label *ir.Block) *ir.Block {
	for _, x := range g.region {
		t := x.Terminator()
		if t == nil || t.Merge != label || t.MergeKind != ir.MergeSelection {
			continue
		}
		ok := true
		for _, y := range g.region {
			for _, s := range y.Successors() {
				if s == label && !p.dt.dominates(x, y) {
					ok = false
				}
			}
		}
		if ok {
			return x
		}
	}
	return nil
}

// rerouteValues fixes the values that flowed along edges the lowering
// replaced: phis of the labels (entered now from their if) and phis of the
// merge block and of exit targets (entered from the copies, from the
// loop's continue block, or from the exit blocks). Only the new blocks and
// the blocks the switch's edges led to are touched; the other uses of a
// value defined in a case body (now defined once per copy) are fixed for
// every switch of the round at once by swRound.fixOutsideUses.
func (p *swPlan) rerouteValues(loop, cont *ir.Block, layout []*ir.Block, rd *swRound) {
	f := p.f
	// The label phis' values are rebuilt inside the new blocks only, so
	// their predecessors suffice.
	local := map[*ir.Block][]*ir.Block{}
	seen := map[[2]*ir.Block]bool{}
	for _, b := range append([]*ir.Block{p.h}, layout...) {
		for _, s := range b.Successors() {
			if k := [2]*ir.Block{b, s}; !seen[k] {
				seen[k] = true
				local[s] = append(local[s], b)
			}
		}
	}
	mapVal := func(g *swGroup, v ir.Value) ir.Value {
		if c, ok := g.vm[v]; ok {
			return c
		}
		return v
	}

	// 1. Label phis: the value on entry is the header's incoming value for
	// lanes that selected the case, or what the previous body passed.
	type pending struct {
		u     *ssaUpdater
		g     *swGroup
		orig  *ir.Instr
		phi   *ir.Instr
		val   ir.Value
		check *ir.Block
	}
	var labelPhis []pending
	for i, g := range p.groups {
		if g.kind != gBody {
			continue
		}
		var prev *swGroup
		for _, pg := range p.groups[:i] {
			if pg.ft == i {
				prev = pg
			}
		}
		for k, phi := range g.target.Phis() {
			cp := g.bm[g.target].Instrs[k]
			u := newSSAUpdater(f, local, phi.Type(), phi.Name())
			if v := phi.Incoming(p.h); v != nil {
				u.define(loop, v)
			} else {
				u.define(loop, ir.ConstUndef(phi.Type()))
			}
			if prev != nil && prev.kind == gBody {
				for j, pb := range phi.PhiBlocks {
					if prev.in[pb] {
						u.define(prev.bm[pb], mapVal(prev, phi.Args[j]))
					}
				}
			}
			labelPhis = append(labelPhis, pending{u: u, g: g, orig: phi, phi: cp, val: u.atEnd(g.check), check: g.check})
		}
	}

	// 2. Phis outside the bodies: entries from the header move to the block
	// that now takes that edge; entries from a body block become one entry
	// per copy that still has the edge. Only the merge block, the exit
	// targets and the successors of body blocks can hold such entries.
	exitBlocks := map[*ir.Block][]*ir.Block{}
	touched := append([]*ir.Block(nil), layout...)
	isTouched := map[*ir.Block]bool{loop: true}
	for _, b := range layout {
		isTouched[b] = true
	}
	var outside []*ir.Block
	addOutside := func(b *ir.Block) {
		if b != nil && p.union[b] == 0 && !isTouched[b] {
			isTouched[b] = true
			outside = append(outside, b)
		}
	}
	addOutside(p.merge)
	for _, g := range p.groups {
		if g.kind == gExit {
			exitBlocks[g.target] = append(exitBlocks[g.target], g.exit)
			addOutside(g.target)
		}
	}
	for _, g := range p.groups {
		for _, b := range g.region {
			for _, s := range b.Successors() {
				addOutside(s)
			}
		}
	}
	for _, b := range outside {
		for _, phi := range b.Phis() {
			p.rewriteOutsidePhi(phi, b, cont, exitBlocks, p.regionsOf, mapVal)
		}
	}
	touched = append(touched, outside...)

	// A label phi whose copy has no other entry is just the value on entry:
	// drop it (the value's own phi, if one was built, takes its name).
	repl := map[ir.Value]ir.Value{}
	for _, lp := range labelPhis {
		lp.u.finish()
		v := lp.u.resolve(lp.val)
		if lp.g.onEntry == nil {
			lp.g.onEntry = map[*ir.Instr]ir.Value{}
		}
		if len(lp.phi.Args) > 0 {
			lp.phi.AddIncoming(v, lp.check)
			lp.g.onEntry[lp.orig] = lp.phi
			continue
		}
		repl[lp.phi] = v
		lp.g.onEntry[lp.orig] = v
		lp.phi.Remove()
		delete(lp.g.vm, lp.orig)
		if np, ok := v.(*ir.Instr); ok && np.Op == ir.OpPhi && np.Block != nil {
			for _, x := range lp.u.phis {
				if x == np {
					lp.g.vm[lp.orig] = np
				}
			}
		}
	}
	// The dropped copies were used only in the new blocks and in the phis
	// of step 2.
	replaceUsesIn(touched, repl)
	for k, v := range repl {
		rd.repl[k] = v
	}
}

// regionsOf returns the groups whose (cloned) region holds b.
func (p *swPlan) regionsOf(b *ir.Block) []*swGroup {
	var out []*swGroup
	for _, g := range p.groups {
		if g.in != nil && g.in[b] && g.bm != nil {
			out = append(out, g)
		}
	}
	return out
}

// copyVal returns the value that the original body value d has at the end
// of g's copy of d's block.
func (p *swPlan) copyVal(g *swGroup, d *ir.Instr) ir.Value {
	if v, ok := g.onEntry[d]; ok {
		return v
	}
	return g.vm[d]
}

// replaceUsesIn is Function.ReplaceUses restricted to the given blocks.
func replaceUsesIn(blocks []*ir.Block, repl map[ir.Value]ir.Value) {
	if len(repl) == 0 {
		return
	}
	for _, b := range blocks {
		for _, in := range b.Instrs {
			for i, a := range in.Args {
				if _, ok := repl[a]; ok {
					in.Args[i] = resolveRepl(repl, a)
				}
			}
		}
	}
}

// resolveRepl follows a replacement chain.
func resolveRepl(repl map[ir.Value]ir.Value, v ir.Value) ir.Value {
	for i := 0; i < 1<<20; i++ {
		n, ok := repl[v]
		if !ok || n == v {
			return v
		}
		v = n
	}
	return v
}

// swRound holds what the switches lowered in one round share: the
// original body values (deleted with their blocks) and the switch each
// belongs to, and the dropped label-phi copies. After every switch of the
// round is lowered, fixOutsideUses rewrites the remaining uses of body
// values in one walk over the function, with one predecessor map, so a
// round costs time linear in the function, not in the function times the
// number of switches.
type swRound struct {
	f     *ir.Function
	owner map[*ir.Instr]*swPlan
	repl  map[ir.Value]ir.Value     // dropped label-phi copies -> their values
	loops []*ir.Block               // the loop headers made so far
	dead  map[*ir.Block]bool        // deleted body blocks (still in f.Blocks until layout)
	after map[*ir.Block][]*ir.Block // header -> new blocks to place after it

	// Set by fixOutsideUses.
	preds  map[*ir.Block][]*ir.Block
	ups    map[*ir.Instr]*ssaUpdater
	order  []*ssaUpdater
	cloned []cfUse               // operands of recomputed access chains
	urepl  map[ir.Value]ir.Value // shared by the updaters: removed trivial phis
}

func newSwRound(f *ir.Function) *swRound {
	return &swRound{f: f, owner: map[*ir.Instr]*swPlan{}, repl: map[ir.Value]ir.Value{},
		dead: map[*ir.Block]bool{}, after: map[*ir.Block][]*ir.Block{}}
}

// removeBlocks deletes the original case bodies: phi entries from them go
// now, the blocks leave the layout in layout().
func (rd *swRound) removeBlocks(union map[*ir.Block]int) {
	for b := range union {
		rd.dead[b] = true
	}
	fixed := map[*ir.Block]bool{}
	for b := range union {
		for _, s := range b.Successors() {
			if rd.dead[s] || fixed[s] {
				continue
			}
			fixed[s] = true
			for _, phi := range s.Phis() {
				args, blocks := phi.Args[:0], phi.PhiBlocks[:0]
				for i, pb := range phi.PhiBlocks {
					if !rd.dead[pb] {
						args = append(args, phi.Args[i])
						blocks = append(blocks, pb)
					}
				}
				phi.Args, phi.PhiBlocks = args, blocks
			}
		}
	}
}

// layout drops the deleted blocks and places every switch's new blocks
// right after its header, in one pass over the function.
func (rd *swRound) layout() {
	f := rd.f
	moving := map[*ir.Block]bool{}
	for _, l := range rd.after {
		for _, b := range l {
			moving[b] = true
		}
	}
	out := make([]*ir.Block, 0, len(f.Blocks))
	for _, b := range f.Blocks {
		if rd.dead[b] || moving[b] {
			continue
		}
		out = append(out, b)
		out = append(out, rd.after[b]...)
	}
	f.Blocks = out
}

// own records the values defined in p's case bodies.
func (rd *swRound) own(p *swPlan) {
	for _, g := range p.groups {
		for _, b := range g.region {
			for _, in := range b.Instrs {
				if in.HasResult() {
					rd.owner[in] = p
				}
			}
		}
	}
}

// fixOutsideUses rewrites every use of an original body value left in the
// function (outside the copies, which use their own values): one
// definition per copy, undef on the path that skips every body. Access
// chains are recomputed at the use instead (SPIR-V's logical addressing
// cannot merge pointers in a phi), their non-pointer operands rerouted
// the same way.
func (rd *swRound) fixOutsideUses() {
	f := rd.f
	var uses []cfUse
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			for k, a := range in.Args {
				if d, ok := a.(*ir.Instr); ok && rd.owner[d] != nil {
					uses = append(uses, cfUse{in, k})
				}
			}
		}
	}
	if len(uses) == 0 {
		return
	}
	rd.preds = cfDistinctPreds(f)
	rd.ups = map[*ir.Instr]*ssaUpdater{}
	rd.urepl = map[ir.Value]ir.Value{}
	vals := make([]ir.Value, len(uses))
	for i, use := range uses {
		d := use.in.Args[use.arg].(*ir.Instr)
		if use.in.Op == ir.OpPhi {
			pb := use.in.PhiBlocks[use.arg]
			vals[i] = rd.valueAt(d, pb, true, pb.Terminator())
		} else {
			vals[i] = rd.valueAt(d, use.in.Block, false, use.in)
		}
	}
	// Finish the updaters until no phi turns trivial any more (an
	// updater's phis may take values of another's).
	for changed := true; changed; {
		n := len(rd.urepl)
		for _, u := range rd.order {
			u.finish()
		}
		changed = len(rd.urepl) != n
	}
	for i, use := range uses {
		use.in.Args[use.arg] = resolveRepl(rd.urepl, vals[i])
	}
	for _, use := range rd.cloned {
		use.in.Args[use.arg] = resolveRepl(rd.urepl, use.in.Args[use.arg])
	}
	for _, u := range rd.order {
		for _, phi := range u.phis {
			if phi.Block != nil {
				for k, a := range phi.Args {
					phi.Args[k] = resolveRepl(rd.urepl, a)
				}
			}
		}
	}
}

// valueAt returns the value of the original body value d at the start (or,
// with atEnd, the end) of block b; a recomputed access chain is inserted
// before `before` (an instruction of b).
func (rd *swRound) valueAt(d *ir.Instr, b *ir.Block, atEnd bool, before *ir.Instr) ir.Value {
	if d.Type().Kind == ir.KPointer && d.Op == ir.OpAccess && before != nil {
		c := cloneInstr(rd.f, d)
		for k, a := range c.Args {
			if ad, ok := a.(*ir.Instr); ok && rd.owner[ad] != nil {
				c.Args[k] = rd.valueAt(ad, b, atEnd, before)
				rd.cloned = append(rd.cloned, cfUse{c, k})
			}
		}
		insertAt(b, indexInBlock(before), c)
		return c
	}
	u := rd.updater(d)
	if atEnd {
		return u.atEnd(b)
	}
	return u.atStart(b)
}

// updater returns the SSA updater of the original body value d: undef at
// the loop header (the path that skips every body), the copy's value at
// the end of every copy of d's block.
func (rd *swRound) updater(d *ir.Instr) *ssaUpdater {
	if u := rd.ups[d]; u != nil {
		return u
	}
	p := rd.owner[d]
	u := newSSAUpdater(rd.f, rd.preds, d.Type(), d.Name())
	u.repl = rd.urepl
	rd.ups[d] = u
	rd.order = append(rd.order, u)
	u.define(p.loop, ir.ConstUndef(d.Type()))
	for _, g := range p.regionsOf(d.Block) {
		c := g.bm[d.Block]
		v := resolveRepl(rd.repl, p.copyVal(g, d))
		if vd, ok := v.(*ir.Instr); ok && rd.owner[vd] != nil {
			// The copy's value is another switch's body value (a label
			// phi's incoming value from the header).
			v = rd.valueAt(vd, c, true, c.Terminator())
		}
		u.define(c, v)
	}
	return u
}

// rewriteOutsidePhi rewrites the entries of a phi in block b (outside the
// case bodies) that came from the switch header or from a body block.
func (p *swPlan) rewriteOutsidePhi(phi *ir.Instr, b, cont *ir.Block, exitBlocks map[*ir.Block][]*ir.Block,
	regionsOf func(*ir.Block) []*swGroup, mapVal func(*swGroup, ir.Value) ir.Value) {
	args, blocks := phi.Args[:0:0], phi.PhiBlocks[:0:0]
	add := func(v ir.Value, pb *ir.Block) {
		for _, x := range blocks {
			if x == pb {
				return
			}
		}
		args = append(args, v)
		blocks = append(blocks, pb)
	}
	var fromHeader ir.Value
	for i, pb := range phi.PhiBlocks {
		v := phi.Args[i]
		switch {
		case pb == p.h:
			fromHeader = v
		case p.union[pb] > 0:
			for _, g := range regionsOf(pb) {
				c := g.bm[pb]
				for _, s := range c.Successors() {
					if s == b {
						add(mapVal(g, v), c)
						break
					}
				}
			}
		default:
			add(v, pb)
		}
	}
	if b == p.merge {
		if fromHeader == nil {
			fromHeader = ir.ConstUndef(phi.Type())
		}
		add(fromHeader, cont)
	}
	if fromHeader != nil {
		for _, e := range exitBlocks[b] {
			add(fromHeader, e)
		}
	}
	phi.Args, phi.PhiBlocks = args, blocks
}
