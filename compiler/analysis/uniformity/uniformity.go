package uniformity

import (
	"fmt"
	"strings"

	"passlens/compiler/analysis"
	"passlens/compiler/ir"
)

// Uniformity analysis (seed convergence-and-uniformity.rst): which values of
// a function may differ between the lanes of a wave that execute it
// together (divergent), and which branches may send lanes different ways.
//
// The result equals opt-22's print<uniformity> for -mtriple=amdgcn-- (see
// docs/analyses.md for how the two are compared and the deliberate
// differences). The analysis propagates divergence from sources to users
// and through control flow until a fixed point:
//
//   - data: a value with a divergent operand is divergent (unless it is
//     always uniform, like a wave reduction);
//   - sync: a phi in a join block of a divergent branch (a block reached by
//     disjoint paths from it) is divergent, unless all its incoming values
//     are the same value;
//   - divergent exits and temporal divergence: when a divergent branch lets
//     lanes leave a cycle on different iterations, values defined in the
//     cycle and used outside it are divergent at those uses;
//   - irreducible cycles: when diverged paths enter an irreducible cycle
//     through different entries, or rejoin inside it where no header
//     dominates the join (the diverged entry criterion), convergence in the
//     cycle depends on the DFS that chose its header, and every value
//     defined in the cycle is assumed divergent.
//
// Every divergent value and terminator carries the Reason it was found
// divergent, and Explain follows the reasons back to a source.

// DivergenceKind says why a value or terminator is divergent.
type DivergenceKind uint8

const (
	// Uniform: not divergent.
	Uniform DivergenceKind = iota
	// DivSource: divergent by itself (Reason.Source says why).
	DivSource
	// DivOperand: uses a divergent value (Reason.Value).
	DivOperand
	// DivSync: a phi in Reason.Join, a join block of the divergent
	// terminator of Reason.Branch.
	DivSync
	// DivTemporal: uses Reason.Value, defined inside cycle Reason.Cycle,
	// outside that cycle, which the divergent terminator of Reason.Branch
	// lets lanes leave on different iterations (through Reason.Join).
	DivTemporal
	// DivCycle: defined in cycle Reason.Cycle, assumed divergent because
	// paths that diverged at Reason.Branch join at Reason.Join inside it.
	DivCycle
)

var divKindNames = [...]string{"uniform", "source", "operand", "sync", "temporal", "cycle"}

func (k DivergenceKind) String() string {
	if int(k) < len(divKindNames) {
		return divKindNames[k]
	}
	return fmt.Sprintf("DivergenceKind(%d)", k)
}

// Reason is why a value or a terminator is divergent.
type Reason struct {
	Kind   DivergenceKind
	Source string    // DivSource: what makes the value a source
	Value  ir.Value  // DivOperand: the divergent operand; DivTemporal: the value from inside the cycle
	Branch *ir.Block // DivSync, DivTemporal, DivCycle: the block whose terminator is divergent
	Join   *ir.Block // DivSync, DivCycle: the join block; DivTemporal: the divergent cycle exit
	Cycle  int       // DivTemporal, DivCycle: the cycle (an index into UniformityInfo.Cycles); -1 otherwise
}

// TemporalUse is one entry of the temporal divergence list: User, outside
// Cycle, uses Value, defined inside it, after the cycle had a divergent exit.
type TemporalUse struct {
	Value ir.Value
	User  *ir.Instr
	Cycle int
}

// UniformityStats describes the work the analysis did.
type UniformityStats struct {
	Blocks    int // blocks of the function
	Branches  int // divergent terminators with two or more successor edges, in reachable blocks
	Skipped   int // of those, skipped because they could not change the result
	Pruned    int // propagated with pruning
	Fallbacks int // pruned propagations repeated without pruning
	Steps     int // blocks processed by the sync-dependence propagation
	// BudgetSpent: the propagation exceeded its step budget, after which
	// divergent exits of cycles nested in cycles assumed divergent are no
	// longer searched for (they do not affect any value; see
	// docs/analyses.md). Values, terminators and assumed cycles are exact.
	BudgetSpent bool
}

// UniformityInfo is the result of Uniformity for one function.
type UniformityInfo struct {
	Func   *ir.Function
	CFG    *analysis.FuncGraph // nil for a declaration
	Dom    *analysis.DomTree   // nil for a declaration
	Cycles *analysis.CycleInfo // nil for a declaration
	Stats  UniformityStats

	p   *uprog
	res *uresult
}

// UniformityOption configures Uniformity.
type UniformityOption func(*uniformityConfig)

type uniformityConfig struct {
	// reference, when set, replaces the fast engine: the tests' literal
	// transcription of LLVM's algorithm (WithReferenceAlgorithm in
	// uniformity_export_test.go), their oracle.
	reference  func(p *uprog, c *cfgCtx, cfg *uniformityConfig) *uresult
	noPrune    bool
	noJumps    bool
	order      branchOrder
	stepBudget int // 0: default (8 per block and edge, plus 65536)
	// allExits analyses the exits of every cycle with a divergent exit,
	// even one inside a cycle assumed divergent (tests: an upper bound of
	// the order-dependent part of LLVM's result).
	allExits bool
}

// branchOrder is the order in which the fast engine analyses divergent
// branches (the result does not depend on it; the amount of work does).
type branchOrder uint8

const (
	branchesDownstreamFirst branchOrder = iota // lowest modified post-order index first
	branchesUpstreamFirst
)

// Uniformity computes the uniformity of every parameter, instruction and
// terminator of f. It is a pure function of f (f is not modified) and does
// not fail: malformed control flow is analysed as far as it goes.
func Uniformity(f *ir.Function, opts ...UniformityOption) *UniformityInfo {
	var cfg uniformityConfig
	for _, o := range opts {
		o(&cfg)
	}
	u := &UniformityInfo{Func: f}
	if len(f.Blocks) == 0 {
		u.p = newUprog(f, &analysis.FuncGraph{Graph: &analysis.Graph{}})
		u.res = newUresult(u.p, 0)
		for i := range f.Params {
			if u.p.source[i] {
				u.res.div[i] = true
				u.res.why[i] = ureason{kind: DivSource, val: -1, branch: -1, join: -1, cycle: -1}
			}
		}
		return u
	}
	u.CFG = analysis.NewFuncGraph(f)
	u.p = newUprog(f, u.CFG)
	c := newCfgCtx(u.CFG.Graph, u.CFG.CFG.Dom(), u.CFG.CFG.Cycles())
	u.Dom, u.Cycles = c.dt, c.ci
	u.Stats.Blocks = len(f.Blocks)
	if cfg.reference != nil {
		u.res = cfg.reference(u.p, c, &cfg)
	} else {
		u.res = runEngine(u.p, c, &cfg, &u.Stats)
	}
	return u
}

// IsDivergent reports whether v may differ between converged lanes.
// Constants, globals and values of other functions are uniform.
func (u *UniformityInfo) IsDivergent(v ir.Value) bool {
	id, ok := u.p.id[v]
	return ok && u.res.div[id]
}

// IsDivergentTerminator reports whether b's terminator may send converged
// lanes different ways (or, for ret, return a divergent value).
func (u *UniformityInfo) IsDivergentTerminator(b *ir.Block) bool {
	if u.CFG == nil {
		return false
	}
	i := u.CFG.Index(b)
	return i >= 0 && u.res.divTerm[i]
}

// HasDivergence reports whether any parameter, value or terminator is
// divergent.
func (u *UniformityInfo) HasDivergence() bool {
	for _, d := range u.res.div {
		if d {
			return true
		}
	}
	for _, d := range u.res.divTerm {
		if d {
			return true
		}
	}
	return false
}

// Reason returns why v is divergent (false if it is uniform).
func (u *UniformityInfo) Reason(v ir.Value) (Reason, bool) {
	id, ok := u.p.id[v]
	if !ok || !u.res.div[id] {
		return Reason{Kind: Uniform, Cycle: -1}, false
	}
	return u.reason(u.res.why[id], id), true
}

// TerminatorReason returns why b's terminator is divergent (false if it is
// uniform).
func (u *UniformityInfo) TerminatorReason(b *ir.Block) (Reason, bool) {
	if u.CFG == nil {
		return Reason{Kind: Uniform, Cycle: -1}, false
	}
	i := u.CFG.Index(b)
	if i < 0 || !u.res.divTerm[i] {
		return Reason{Kind: Uniform, Cycle: -1}, false
	}
	return u.reason(u.res.termWhy[i], -1), true
}

func (u *UniformityInfo) reason(r ureason, id int32) Reason {
	out := Reason{Kind: r.kind, Cycle: int(r.cycle)}
	if r.kind == Uniform {
		out.Kind, out.Source = DivSource, "reference"
		return out
	}
	if r.kind == DivSource && id >= 0 {
		out.Source = u.p.sourceWhy[id]
	}
	if r.val >= 0 {
		out.Value = u.p.vals[r.val]
	}
	if r.branch >= 0 {
		out.Branch = u.CFG.Blocks[r.branch]
	}
	if r.join >= 0 {
		out.Join = u.CFG.Blocks[r.join]
	}
	return out
}

// DivergentParams returns the divergent parameters in order.
func (u *UniformityInfo) DivergentParams() []*ir.Param {
	var out []*ir.Param
	for i, a := range u.Func.Params {
		if u.res.div[i] {
			out = append(out, a)
		}
	}
	return out
}

// AssumedDivergentCycles returns the cycles assumed divergent as a whole,
// outermost ones only, in the order they were found.
func (u *UniformityInfo) AssumedDivergentCycles() []int {
	var out []int
	for _, c := range u.res.assumed {
		maximal := true
		for _, d := range u.res.assumed {
			if d != c && u.Cycles.ContainsCycle(int(d), int(c)) {
				maximal = false
				break
			}
		}
		if maximal {
			out = append(out, int(c))
		}
	}
	return out
}

// DivergentExitCycles returns the cycles with a divergent exit, in the
// order they were found.
func (u *UniformityInfo) DivergentExitCycles() []int {
	out := make([]int, len(u.res.divExit))
	for i, c := range u.res.divExit {
		out[i] = int(c)
	}
	return out
}

// DivergentExitReason returns the block whose divergent terminator gave
// cycle cy a divergent exit, and that exit (nil, nil if cy has none).
func (u *UniformityInfo) DivergentExitReason(cy int) (branch, exit *ir.Block) {
	for i, c := range u.res.divExit {
		if int(c) == cy {
			r := u.res.divExitWhy[i]
			if r.branch >= 0 {
				branch = u.CFG.Blocks[r.branch]
			}
			if r.join >= 0 {
				exit = u.CFG.Blocks[r.join]
			}
			return branch, exit
		}
	}
	return nil, nil
}

// TemporalDivergence returns the temporal divergence list: uses outside a
// cycle with a divergent exit of values defined inside it.
func (u *UniformityInfo) TemporalDivergence() []TemporalUse {
	out := make([]TemporalUse, len(u.res.temporal))
	for i, t := range u.res.temporal {
		out[i] = TemporalUse{Value: u.p.vals[t.val], User: u.p.instr(t.user), Cycle: int(t.cycle)}
	}
	return out
}

// CycleString prints cycle cy as opt does: "depth=D: entries(H E...) B...".
func (u *UniformityInfo) CycleString(cy int) string {
	return cycleString(u.CFG.Graph, u.Cycles, cy)
}

func cycleString(g *analysis.Graph, ci *analysis.CycleInfo, cy int) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "depth=%d: entries(", ci.Depth(cy))
	ents := ci.Entries(cy)
	for i, e := range ents {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(g.Name(e))
	}
	sb.WriteByte(')')
	for _, b := range ci.Blocks(cy) {
		isEntry := false
		for _, e := range ents {
			if e == b {
				isEntry = true
				break
			}
		}
		if !isEntry {
			sb.WriteByte(' ')
			sb.WriteString(g.Name(b))
		}
	}
	return sb.String()
}

// ExplainStep is one link of an explanation chain: the subject (a value,
// or the terminator of Block when Value is nil) and why it is divergent.
type ExplainStep struct {
	Value  ir.Value  // the divergent value, nil for a terminator
	Block  *ir.Block // the block of the terminator when Value is nil
	Reason Reason
}

// Explain returns the chain of reasons from v back to a divergence source:
// v's reason first, then the reason of the operand, branch or cycle it
// names, and so on. It is empty if v is uniform. Every link names something
// found divergent earlier, so the chain always ends (at a DivSource step).
func (u *UniformityInfo) Explain(v ir.Value) []ExplainStep {
	r, ok := u.Reason(v)
	if !ok {
		return nil
	}
	steps := []ExplainStep{{Value: v, Reason: r}}
	return u.explainFrom(steps)
}

// ExplainTerminator is Explain for the terminator of b.
func (u *UniformityInfo) ExplainTerminator(b *ir.Block) []ExplainStep {
	r, ok := u.TerminatorReason(b)
	if !ok {
		return nil
	}
	return u.explainFrom([]ExplainStep{{Block: b, Reason: r}})
}

func (u *UniformityInfo) explainFrom(steps []ExplainStep) []ExplainStep {
	seenV := map[ir.Value]bool{}
	seenB := map[*ir.Block]bool{}
	for len(steps) < 1<<16 {
		r := steps[len(steps)-1].Reason
		var next ExplainStep
		switch r.Kind {
		case DivOperand:
			if seenV[r.Value] {
				return steps
			}
			seenV[r.Value] = true
			nr, ok := u.Reason(r.Value)
			if !ok {
				return steps
			}
			next = ExplainStep{Value: r.Value, Reason: nr}
		case DivSync, DivTemporal, DivCycle:
			if r.Branch == nil || seenB[r.Branch] {
				return steps
			}
			seenB[r.Branch] = true
			nr, ok := u.TerminatorReason(r.Branch)
			if !ok {
				return steps
			}
			next = ExplainStep{Block: r.Branch, Reason: nr}
		default:
			return steps
		}
		steps = append(steps, next)
	}
	return steps
}

// FormatExplain renders an explanation chain, one line per step, e.g.
//
//	%a is divergent: phi at join block merge of the divergent branch in entry
//	terminator of entry is divergent: uses divergent %c
//	%c is divergent: uses divergent %d
//	%d is divergent: parameter is not uniform (not passed in a scalar register)
func (u *UniformityInfo) FormatExplain(steps []ExplainStep) string {
	var sb strings.Builder
	for _, s := range steps {
		if s.Value != nil {
			sb.WriteString(s.Value.Ref())
		} else {
			sb.WriteString("terminator of " + s.Block.Name())
		}
		sb.WriteString(" is divergent: ")
		if resourceSelect(s.Value, s.Reason) {
			// A dynamic index into a resource array (hlsl/lower's
			// select over the elements' buffers).
			sb.WriteString("selects a resource by a divergent index; ")
		}
		sb.WriteString(quadNote(s.Value, s.Reason)) // uniformity_quad.go
		sb.WriteString(u.DescribeReason(s.Reason))
		sb.WriteByte('\n')
	}
	return sb.String()
}

// DescribeReason renders a reason as a short sentence.
func (u *UniformityInfo) DescribeReason(r Reason) string {
	name := func(b *ir.Block) string {
		if b == nil {
			return "?"
		}
		return b.Name()
	}
	cyc := func(c int) string {
		if c < 0 || u.Cycles == nil {
			return "?"
		}
		return "(" + u.CycleString(c) + ")"
	}
	switch r.Kind {
	case DivSource:
		return r.Source
	case DivOperand:
		return "uses divergent " + r.Value.Ref()
	case DivSync:
		return "phi at join block " + name(r.Join) + " of the divergent branch in " + name(r.Branch)
	case DivTemporal:
		return "uses " + r.Value.Ref() + " from cycle " + cyc(r.Cycle) + " outside it, and the divergent branch in " +
			name(r.Branch) + " lets lanes leave the cycle on different iterations (exit " + name(r.Join) + ")"
	case DivCycle:
		return "defined in irreducible cycle " + cyc(r.Cycle) + ", assumed divergent because paths diverged at " +
			name(r.Branch) + " join at " + name(r.Join) + " inside it"
	}
	return "uniform"
}

// resourceSelect reports whether v selects between storage buffers on a
// condition that r says is divergent.
func resourceSelect(v ir.Value, r Reason) bool {
	in, ok := v.(*ir.Instr)
	return ok && in.Op == ir.OpSelect && r.Kind == DivOperand && len(in.Args) == 3 && in.Args[0] == r.Value &&
		in.Type().Kind == ir.KPointer && in.Type().Space == ir.SpaceStorage
}
