package passes

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"passlens/compiler/target"
)

// All is the pass table, in the order `passlens passes` lists them. Each
// pass lives in its own file and exports one *Pass variable; adding a
// generic pass is one line here. Passes that belong to one target live with
// its back end and append themselves with Register (sm3-lower, in
// compiler/target/sm3/sm3lower), after the generic ones.
var All = []*Pass{
	Inline,
	SROA,
	Simplify,
	Scalarize,
	SwitchToIf,
	EliminateMultilevelBreak,
	OutOfSSA,
	Structurize,
}

// OrderRule is an ordering constraint between two passes, like the
// passOrder table of Go's SSA back end: if both Before and After appear in a
// pipeline, every occurrence of Before must come before every occurrence of
// After. Rules are hard requirements (the later pass relies on, or would
// undo, the earlier one), not tuning advice.
type OrderRule struct {
	Before, After string
	Why           string
}

// Order lists the ordering constraints. Rules may name passes that are not
// registered yet; they apply once the pass exists.
var Order = []OrderRule{
	{"switch-to-if", "eliminate-multilevel-break", "switch-to-if wraps switches in one-trip loops, turning `continue`s inside them into multi-level exits that eliminate-multilevel-break removes"},
	{"inline", "out-of-ssa", "out-of-ssa leaves copies instead of phis; inlining after it would mix SSA and non-SSA code"},
	{"sroa", "out-of-ssa", "sroa builds phis, which must not appear after out-of-ssa"},
	{"simplify", "out-of-ssa", "simplify propagates copies and would undo out-of-ssa"},
	{"scalarize", "out-of-ssa", "scalarize splits phis, which must not appear after out-of-ssa"},
	{"out-of-ssa", "structurize", "the structurizer does not handle phis; it runs on copies"},
	{"structurize", "sm3-lower", "SM3 lowering needs structured control flow"},
	{"switch-to-if", "out-of-ssa", "switch-to-if rebuilds SSA form with phis (values of case bodies, fallthrough)"},
	{"eliminate-multilevel-break", "out-of-ssa", "eliminate-multilevel-break carries its break flags and rerouted values in phis"},
	{"switch-to-if", "sm3-lower", "SM3 has no switch instruction: sm3-lower rejects switches that switch-to-if<all> did not lower"},
	{"out-of-ssa", "sm3-lower", "SM3 lowering maps copies to registers and cannot lower phis"},
	{"scalarize", "sm3-lower", "SM3 lowering expects scalarized aggregates"},
}

// Targets are the code-generation targets that have a default pipeline.
var Targets = []target.Name{target.SPIRV, target.DXIL, target.SM3}

// DefaultPipelines gives each target's default pass sequence (pass names,
// optionally with `<option>`). Names of passes that are not registered
// (a target's own pass, when its back end is not linked in) are allowed
// here; the pipeline parser reports them when used. Target-specific
// behaviour of a generic pass is an option spelled here, not a test of the
// target inside the pass: SM3 has no switch instruction, so its pipeline
// asks for structurize<ifs>.
var DefaultPipelines = map[target.Name][]string{
	target.SPIRV: {"inline", "sroa", "simplify", "switch-to-if", "eliminate-multilevel-break", "simplify"},
	target.DXIL:  {"inline", "sroa", "simplify", "scalarize", "simplify"},
	target.SM3:   {"inline", "sroa", "simplify", "scalarize", "simplify", "switch-to-if<all>", "eliminate-multilevel-break", "out-of-ssa", "structurize<ifs>", "sm3-lower"},
}

// targetsUsing returns the targets whose default pipeline runs pass name,
// in the order of Targets: what Pass.Targets holds.
func targetsUsing(name string) []target.Name {
	var out []target.Name
	for _, t := range Targets {
		if slices.ContainsFunc(DefaultPipelines[t], func(step string) bool {
			bare, _, _ := strings.Cut(step, "<")
			return bare == name
		}) {
			out = append(out, t)
		}
	}
	return out
}

// Register appends a pass defined outside this package (a target's own
// pass, from its package's init) to the pass table, giving it its Summary
// and Doc from the generated table and its Targets from the default
// pipelines, like the passes in All. It panics, as a table error found at
// start-up does, when the pass is incomplete or its name is taken.
func Register(p *Pass) {
	if p == nil {
		panic("passes.Register: nil pass")
	}
	if Lookup(p.Name) != nil {
		panic(fmt.Sprintf("passes.Register: pass %q registered twice", p.Name))
	}
	All = append(All, p)
	fill(p)
	if err := checkTable(); err != nil {
		panic("passes.Register: " + err.Error())
	}
}

// Lookup finds a registered pass by name (nil if unknown).
func Lookup(name string) *Pass {
	for _, p := range All {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Names returns the registered pass names in table order.
func Names() []string {
	out := make([]string, len(All))
	for i, p := range All {
		out[i] = p.Name
	}
	return out
}

// UnknownPassError reports a pass name that is not in the table, with the
// closest registered names as suggestions.
type UnknownPassError struct {
	Name    string
	Suggest []string
}

func (e *UnknownPassError) Error() string {
	msg := fmt.Sprintf("unknown pass '%s'", e.Name)
	if len(e.Suggest) > 0 {
		msg += " (did you mean " + quoteList(e.Suggest) + "?)"
	} else {
		msg += " (known passes: " + strings.Join(Names(), ", ") + ")"
	}
	return msg
}

func quoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = "'" + x + "'"
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// Resolve returns the pass called name, or an *UnknownPassError.
func Resolve(name string) (*Pass, error) {
	if p := Lookup(name); p != nil {
		return p, nil
	}
	return nil, &UnknownPassError{Name: name, Suggest: Suggest(name)}
}

// Suggest returns registered names close to name: those within edit
// distance 2 (or a third of the length for long names), and those that
// contain name or are contained in it, best first.
func Suggest(name string) []string {
	type cand struct {
		name string
		dist int
	}
	var cs []cand
	limit := 2
	if l := len(name) / 3; l > limit {
		limit = l
	}
	for _, n := range Names() {
		d := editDistance(strings.ToLower(name), n)
		if d <= limit || (len(name) >= 3 && (strings.Contains(n, name) || strings.Contains(name, n))) {
			cs = append(cs, cand{n, d})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].dist < cs[j].dist })
	out := make([]string, 0, len(cs))
	for i, c := range cs {
		if i == 3 {
			break
		}
		out = append(out, c.name)
	}
	return out
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// OrderError is a pipeline that breaks an ordering rule.
type OrderError struct {
	Rule        OrderRule
	BeforeIndex int // position of the offending occurrence of Rule.Before
	AfterIndex  int // position of the occurrence of Rule.After it follows
}

func (e *OrderError) Error() string {
	return fmt.Sprintf("pass '%s' (step %d) must run before '%s' (step %d): %s",
		e.Rule.Before, e.BeforeIndex+1, e.Rule.After, e.AfterIndex+1, e.Rule.Why)
}

// CheckOrder reports every ordering rule that the pass sequence names
// breaks (nil if none): for each rule, an occurrence of Before that comes
// after an occurrence of After.
func CheckOrder(names []string) []error {
	var errs []error
	for _, r := range Order {
		firstAfter := -1
		for i, n := range names {
			if n == r.After && firstAfter < 0 {
				firstAfter = i
			}
		}
		if firstAfter < 0 {
			continue
		}
		for i := len(names) - 1; i > firstAfter; i-- {
			if names[i] == r.Before {
				errs = append(errs, &OrderError{Rule: r, BeforeIndex: i, AfterIndex: firstAfter})
				break
			}
		}
	}
	return errs
}

// checkTable validates the pass table itself: unique, non-empty names with
// summaries and Run functions, rules between distinct passes, and default
// pipelines that satisfy the ordering rules. It runs at start-up; a failure
// is a programming error in this package.
func checkTable() error {
	seen := map[string]bool{}
	for i, p := range All {
		if p == nil {
			return fmt.Errorf("passes.All[%d] is nil (pass variable used before initialization?)", i)
		}
		if p.Name == "" || p.Run == nil || p.Summary == "" {
			return fmt.Errorf("pass %q: Name, Summary and Run are required (Summary comes from the pass variable's doc comment: run `go generate ./compiler/passes`)", p.Name)
		}
		if seen[p.Name] {
			return fmt.Errorf("pass %q registered twice", p.Name)
		}
		seen[p.Name] = true
	}
	for _, r := range Order {
		if r.Before == r.After {
			return fmt.Errorf("ordering rule %q before itself", r.Before)
		}
	}
	for _, t := range Targets {
		names := DefaultPipelines[t]
		if len(names) == 0 {
			return fmt.Errorf("target %q has no default pipeline", t)
		}
		bare := make([]string, len(names))
		for i, n := range names {
			bare[i], _, _ = strings.Cut(n, "<")
		}
		if errs := CheckOrder(bare); len(errs) > 0 {
			return fmt.Errorf("default %s pipeline: %v", t, errs[0])
		}
	}
	return nil
}

// passDoc is one entry of the generated table passDocs (zz_doc.go).
type passDoc struct{ summary, doc string }

// fill sets a registered pass's Summary and Doc from the generated table
// and its Targets from the default pipelines. A pass registered without a
// table entry keeps what its literal says (checkTable then requires a
// Summary).
func fill(p *Pass) {
	if d, ok := passDocs[p.Name]; ok {
		p.Summary, p.Doc = d.summary, d.doc
	}
	p.Targets = targetsUsing(p.Name)
}

func init() {
	for _, p := range All {
		if p != nil {
			fill(p)
		}
	}
	if err := checkTable(); err != nil {
		panic("passes: " + err.Error())
	}
}
