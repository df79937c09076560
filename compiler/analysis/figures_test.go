package analysis_test

import (
	"bytes"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"passlens/compiler/analysis/uniformity"
	"passlens/compiler/analysis/uniformity/uniformitytest"
	"passlens/compiler/ir"
	"passlens/compiler/llvm"
)

// The CFGs of the figures and tables of the seed document
// convergence-and-uniformity.rst, rebuilt from its text, with the
// divergence the text describes. Every function is also exported to LLVM
// IR and checked against opt-22's print<uniformity> (skipped without
// opt-22 unless CI=true).

// figure is a function built from a tiny spec, one block per line:
//
//	NAME: [u|d] SUCC...   [use VALUE...]
//
// u/d makes the block branch on a condition computed from the uniform
// parameter %u or the divergent %d; blocks without successors return. Every
// block defines %v.NAME = %u + k (uniform by data); a block with several
// predecessors gets %phi.NAME with a different constant per predecessor and
// %w.NAME = %phi.NAME + 1; "use X" adds %t.NAME.X = %X + 1.
type figure struct {
	f      *ir.Function
	blocks map[string]*ir.Block
	vals   map[string]ir.Value
	u      *uniformity.UniformityInfo
}

func buildFigure(t *testing.T, name, spec string) *figure {
	t.Helper()
	m := ir.NewModule(name)
	f := m.NewFunction(name, ir.Void, []string{"u", "d"}, []*ir.Type{ir.I32, ir.I32})
	f.Params[0].Uniform = true
	fg := &figure{f: f, blocks: map[string]*ir.Block{}, vals: map[string]ir.Value{"u": f.Params[0], "d": f.Params[1]}}
	type line struct {
		name  string
		cond  string
		succs []string
		uses  []string
	}
	var lines []line
	for _, l := range strings.Split(strings.TrimSpace(spec), "\n") {
		head, rest, ok := strings.Cut(strings.TrimSpace(l), ":")
		if !ok {
			t.Fatalf("bad spec line %q", l)
		}
		ln := line{name: head}
		fields := strings.Fields(rest)
		for i := 0; i < len(fields); i++ {
			switch w := fields[i]; {
			case w == "u" || w == "d":
				ln.cond = w
			case w == "use":
				ln.uses = fields[i+1:]
				i = len(fields)
			default:
				ln.succs = append(ln.succs, w)
			}
		}
		lines = append(lines, ln)
		fg.blocks[head] = f.NewBlock(head)
	}
	preds := map[string][]string{}
	for _, ln := range lines {
		for _, s := range ln.succs {
			if fg.blocks[s] == nil {
				t.Fatalf("block %s: unknown successor %s", ln.name, s)
			}
			if !slices.Contains(preds[s], ln.name) {
				preds[s] = append(preds[s], ln.name)
			}
		}
	}
	bd := ir.NewBuilder(f)
	for i, ln := range lines {
		bd.SetBlock(fg.blocks[ln.name])
		if ps := preds[ln.name]; len(ps) >= 2 {
			phi := bd.Phi(ir.I32, "phi."+ln.name)
			fg.vals[phi.Name()] = phi
			for k, p := range ps {
				phi.AddIncoming(ir.ConstInt(ir.I32, int64(k)), fg.blocks[p])
			}
			fg.vals["w."+ln.name] = bd.Binary(ir.OpAdd, phi, ir.ConstInt(ir.I32, 1), "w."+ln.name)
		}
		fg.vals["v."+ln.name] = bd.Binary(ir.OpAdd, f.Params[0], ir.ConstInt(ir.I32, int64(i)), "v."+ln.name)
	}
	// Uses and terminators once every block's values exist.
	for _, ln := range lines {
		b := fg.blocks[ln.name]
		bd.SetBlock(b)
		for _, x := range ln.uses {
			v, ok := fg.vals[x]
			if !ok {
				t.Fatalf("%s uses unknown %s", ln.name, x)
			}
			n := "t." + ln.name + "." + x
			fg.vals[n] = bd.Binary(ir.OpAdd, v, ir.ConstInt(ir.I32, 1), n)
		}
		switch len(ln.succs) {
		case 0:
			bd.Ret(nil)
		case 1:
			bd.Br(fg.blocks[ln.succs[0]])
		default:
			src := fg.vals[ln.cond]
			if src == nil {
				t.Fatalf("block %s: branch needs a u or d condition", ln.name)
			}
			c := bd.Cmp(ir.PredSLT, src, ir.ConstInt(ir.I32, 5), "c."+ln.name)
			fg.vals[c.Name()] = c
			if len(ln.succs) == 2 {
				bd.CondBr(c, fg.blocks[ln.succs[0]], fg.blocks[ln.succs[1]])
			} else {
				t.Fatalf("block %s: at most two successors", ln.name)
			}
		}
	}
	fg.u = uniformity.Uniformity(f)
	checkFigureAgainstOpt(t, fg)
	return fg
}

// checkFigureAgainstOpt exports the function and compares with opt-22.
func checkFigureAgainstOpt(t *testing.T, fg *figure) {
	t.Helper()
	opt, err := exec.LookPath("opt-22")
	if err != nil {
		return // requireOptU in the oracle tests reports this
	}
	ll, err := llvm.ExportFunction(fg.f)
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	cmd := exec.Command(opt, "-mtriple=amdgcn--", "-passes=print<uniformity>", "-disable-output", "-")
	cmd.Stdin = strings.NewReader(ll)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("opt-22: %v\n%s\n%s", err, errb.String(), ll)
	}
	sets, err := uniformitytest.ParseUniformity(&errb)
	if err != nil || len(sets) != 1 {
		t.Fatalf("parsing opt-22 output: %v (%d functions)", err, len(sets))
	}
	if d := uniformitytest.CompareUniformity(sets[0], uniformitytest.Sets(fg.u), uniformitytest.CompareUniformityOptions{Unnamed: true, Temporal: true}); len(d) > 0 {
		t.Errorf("%s differs from opt-22:\n  %s\n%s", fg.f.Name(), strings.Join(d, "\n  "), ll)
	}
}

func (fg *figure) divergent(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		if !fg.u.IsDivergent(fg.vals[n]) {
			t.Errorf("%s: %%%s should be divergent", fg.f.Name(), n)
		}
	}
}

func (fg *figure) uniform(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		if fg.u.IsDivergent(fg.vals[n]) {
			r, _ := fg.u.Reason(fg.vals[n])
			t.Errorf("%s: %%%s should be uniform (divergent: %s)", fg.f.Name(), n, fg.u.DescribeReason(r))
		}
	}
}

func (fg *figure) reason(t *testing.T, name string, kind uniformity.DivergenceKind) uniformity.Reason {
	t.Helper()
	r, ok := fg.u.Reason(fg.vals[name])
	if !ok || r.Kind != kind {
		t.Errorf("%s: %%%s: reason %v (divergent %v), want %v", fg.f.Name(), name, r.Kind, ok, kind)
	}
	return r
}

// assumed returns the cycles assumed divergent as "header: sorted blocks".
func (fg *figure) assumed() []string {
	var out []string
	for _, c := range fg.u.AssumedDivergentCycles() {
		out = append(out, fg.cycleText(c))
	}
	return out
}

func (fg *figure) exits() []string {
	var out []string
	for _, c := range fg.u.DivergentExitCycles() {
		out = append(out, fg.cycleText(c))
	}
	slices.Sort(out)
	return out
}

func (fg *figure) cycleText(c int) string {
	ci := fg.u.Cycles
	var bs []string
	for _, b := range ci.Blocks(c) {
		bs = append(bs, fg.u.CFG.Blocks[b].Name())
	}
	slices.Sort(bs)
	return fmt.Sprintf("%s: %s", fg.u.CFG.Blocks[ci.Header(c)].Name(), strings.Join(bs, " "))
}

// Figure convergence-natural-loop and its thread table: H branches to B or
// straight to L, L loops back to H or exits. Threads that diverge at H
// (thread 1 runs B1, thread 2 skips B) reconverge at L in the same
// iteration ("L1 and L2 are converged"): L's phi is divergent, the loop has
// no divergent exit and nothing is assumed divergent.
func TestFigureNaturalLoop(t *testing.T) {
	fg := buildFigure(t, "natural_loop", `
Entry: H
H: d B L
B: L
L: u H Exit
Exit: use v.L v.H`)
	fg.divergent(t, "phi.L", "w.L")
	r := fg.reason(t, "phi.L", uniformity.DivSync)
	if r.Branch != fg.blocks["H"] || r.Join != fg.blocks["L"] {
		t.Errorf("phi.L: sync reason names %v/%v, want H/L", r.Branch, r.Join)
	}
	fg.uniform(t, "phi.H", "v.L", "v.H", "t.Exit.v.L", "t.Exit.v.H")
	if a, x := fg.assumed(), fg.exits(); len(a)+len(x) > 0 {
		t.Errorf("natural loop: assumed %v, divergent exits %v; want none", a, x)
	}
	if !fg.u.IsDivergentTerminator(fg.blocks["H"]) || fg.u.IsDivergentTerminator(fg.blocks["L"]) {
		t.Errorf("terminators: H divergent %v, L divergent %v; want true, false",
			fg.u.IsDivergentTerminator(fg.blocks["H"]), fg.u.IsDivergentTerminator(fg.blocks["L"]))
	}
}

// The same loop with a divergent exit condition at L: threads leave the
// loop on different iterations ("H3 is not converged with H5"), so values
// defined in the loop are temporally divergent at their uses in Exit
// although they are uniform inside (section "Divergent Cycle Exits").
func TestFigureNaturalLoopDivergentExit(t *testing.T) {
	fg := buildFigure(t, "natural_loop_exit", `
Entry: H
H: u B L
B: L
L: d H Exit
Exit: use v.L v.H phi.H`)
	fg.uniform(t, "v.L", "v.H", "phi.L")
	fg.divergent(t, "t.Exit.v.L", "t.Exit.v.H", "t.Exit.phi.H")
	r := fg.reason(t, "t.Exit.v.L", uniformity.DivTemporal)
	if r.Value != fg.vals["v.L"] || r.Branch != fg.blocks["L"] || r.Join != fg.blocks["Exit"] {
		t.Errorf("temporal reason: value %v branch %v exit %v", r.Value, r.Branch, r.Join)
	}
	if got := fg.exits(); !slices.Equal(got, []string{"H: B H L"}) {
		t.Errorf("divergent exits %v, want [H: B H L]", got)
	}
	if a := fg.assumed(); len(a) > 0 {
		t.Errorf("assumed %v, want none", a)
	}
	steps := fg.u.Explain(fg.vals["t.Exit.v.L"])
	if len(steps) < 3 || steps[len(steps)-1].Reason.Kind != uniformity.DivSource {
		t.Errorf("explanation should end at a source:\n%s", fg.u.FormatExplain(steps))
	}
}

// Figure convergence-both-diverged-nested: Entry and Q branch divergently;
// the outer cycle has header R (entries R and P), the inner one header S.
// Paths that diverged at Entry enter the outer cycle at P and at R, so the
// whole outer cycle is assumed divergent (section "Diverged Paths reaching
// a Cycle") and every value defined in it is divergent.
func TestFigureBothDivergedNested(t *testing.T) {
	fg := buildFigure(t, "both_diverged_nested", `
Entry: d P R
P: Q
Q: d S R
R: S
S: u P Exit
Exit: use v.S`)
	if got := fg.assumed(); !slices.Equal(got, []string{"R: P Q R S"}) {
		t.Errorf("assumed %v, want [R: P Q R S]", got)
	}
	ci := fg.u.Cycles
	if ci.Len() != 2 || fg.u.CFG.Blocks[ci.Header(ci.Children(ci.TopLevel()[0])[0])].Name() != "S" {
		t.Errorf("expected the nested cycle with header S inside the one with header R")
	}
	fg.divergent(t, "v.P", "v.Q", "v.R", "v.S", "phi.S", "phi.R")
	fg.reason(t, "v.Q", uniformity.DivCycle)
	fg.uniform(t, "v.Exit")
}

// Figures convergence-divergent-inside and convergence-closed-path: the
// closed path P -> Q -> R -> S with entries P and R; Q branches divergently
// and S is its join, with diverged paths Q -> R -> S and Q -> S. R is an
// entry on a diverged path, so in some cycle hierarchy R heads a cycle
// whose child contains Q and S (the diverged entry criterion fails): the
// cycle is assumed divergent whichever header LLVM's DFS picked.
func TestFigureDivergedEntry(t *testing.T) {
	fg := buildFigure(t, "diverged_entry", `
Entry: u P R
P: Q
Q: d R S
R: S
S: u P Exit
Exit:`)
	if got := fg.assumed(); len(got) != 1 || !strings.HasSuffix(got[0], ": P Q R S") {
		t.Errorf("assumed %v, want the cycle P Q R S", got)
	}
	r := fg.reason(t, "v.R", uniformity.DivCycle)
	if r.Branch != fg.blocks["Q"] || r.Join != fg.blocks["S"] {
		t.Errorf("cycle reason names branch %v join %v, want Q and S", r.Branch, r.Join)
	}
	fg.uniform(t, "v.Exit", "v.Entry")
}

// Without the entry at R ("If R does not exist ...") the cycle is a natural
// loop with header P, which dominates the join S: threads that diverge at Q
// reconverge at S in the same iteration. Only S's phi is divergent.
func TestFigureClosedPathWithoutDivergedEntry(t *testing.T) {
	fg := buildFigure(t, "closed_path_reducible", `
Entry: P
P: Q
Q: d R S
R: S
S: u P Exit
Exit:`)
	if got := fg.assumed(); len(got) > 0 {
		t.Errorf("assumed %v, want none", got)
	}
	fg.divergent(t, "phi.S")
	fg.uniform(t, "v.R", "v.S", "phi.P")
}

// Figure convergence-divergent-outside: the divergent branch is in Entry,
// which reaches both entries P and R of the closed path. Convergence along
// the path depends on whether P or R is the header, so the cycle is
// assumed divergent even though Q is uniform.
func TestFigureDivergentOutside(t *testing.T) {
	fg := buildFigure(t, "divergent_outside", `
Entry: d P R
P: Q
Q: u R S
R: S
S: u P Exit
Exit:`)
	if got := fg.assumed(); len(got) != 1 || !strings.HasSuffix(got[0], ": P Q R S") {
		t.Errorf("assumed %v, want the cycle P Q R S", got)
	}
	fg.divergent(t, "v.P", "v.Q", "v.R", "v.S")
	fg.uniform(t, "v.Exit", "v.Entry")
}

// Section "Reducible Cycle": diverged paths from outside a reducible cycle
// can only meet at its header, and a divergent branch inside with its join
// inside is handled by the header, so no reducible cycle is ever assumed
// divergent. Entry diverges to A or B, which both enter the loop at H (H's
// phi is divergent); inside, Y diverges and rejoins at W.
func TestFigureReducibleCycle(t *testing.T) {
	fg := buildFigure(t, "reducible_cycle", `
Entry: d A B
A: H
B: H
H: Y
Y: d Z1 Z2
Z1: W
Z2: W
W: u H Exit
Exit:`)
	if got := fg.assumed(); len(got) > 0 {
		t.Errorf("assumed %v, want none", got)
	}
	fg.divergent(t, "phi.H", "phi.W")
	r := fg.reason(t, "phi.H", uniformity.DivSync)
	if r.Branch != fg.blocks["Entry"] {
		t.Errorf("phi.H should be divergent because of Entry's branch, got %v", r.Branch)
	}
	fg.uniform(t, "v.H", "v.Y", "v.W", "v.Z1")
}
