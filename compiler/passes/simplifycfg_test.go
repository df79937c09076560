package passes

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"passlens/compiler/interp"
	"passlens/compiler/ir"
	"passlens/compiler/ir/irtest"
)

// constantizeBranches gives about half of m's condbr and switch
// terminators a constant condition or selector, so the CFG clean-up has
// many branches to fold.
func constantizeBranches(m *ir.Module, seed int64) {
	r := rand.New(rand.NewPCG(uint64(seed), 7))
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			t := b.Terminator()
			if t == nil || r.IntN(2) == 0 {
				continue
			}
			switch t.Op {
			case ir.OpCondBr:
				t.Args[0] = ir.ConstBool(ir.Bool, r.IntN(2) == 0)
			case ir.OpSwitch:
				if st := t.Args[0].Type(); st.IsIntegral() && st.IsScalar() {
					t.Args[0] = ir.ConstInt(st, int64(r.IntN(4)))
				}
			}
		}
	}
}

// simplifyWith runs the whole simplify pass on m with the given branch
// folder.
func simplifyWith(m *ir.Module, fold func(*ir.Function) bool) {
	for _, f := range m.Funcs {
		if !f.IsDeclaration() {
			simplifyFunctionWith(f, fold)
		}
	}
}

// foldBranchesReference is the previous foldBranches: layout order, with
// the dominator tree rebuilt after every fold.
func foldBranchesReference(f *ir.Function) bool { return foldBranchesRebuilding(f, nil) }

// TestSimplifyFoldBranchesMatchesRebuilding checks the single-tree
// foldBranches against the reference that rebuilds the dominator tree after
// every fold (the previous implementation): on random modules, structured
// and unstructured, with many constant branches, simplify must give the
// same IR with either, and that IR must verify. (The two can differ
// within one sweep: the reference skips the blocks a new `.dead` stub
// shifts past the end of its layout-order loop and leaves them to the
// next round.)
func TestSimplifyFoldBranchesMatchesRebuilding(t *testing.T) {
	t.Parallel()
	seeds := 300
	if testing.Short() {
		seeds = 60
	}
	folded, differ, ran := 0, 0, 0
	for seed := 0; seed < seeds; seed++ {
		opts := irtest.RandomOptions{Unstructured: seed%3 == 0, Blocks: 4 + seed%12}
		m := irtest.RandomModule(int64(seed), opts)
		constantizeBranches(m, int64(seed))
		src := m.String()
		parse := func() *ir.Module {
			mm, err := ir.ParseModule(fmt.Sprintf("seed%d", seed), []byte(src))
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			return mm
		}
		got, want := parse(), parse()
		simplifyWith(got, foldBranches)
		simplifyWith(want, foldBranchesReference)
		gs, ws := got.String(), want.String()
		if err := ir.Verify(got); err != nil {
			t.Fatalf("seed %d: output does not verify: %v\ninput:\n%s\noutput:\n%s", seed, err, src, gs)
		}
		if gs != src {
			folded++
		}
		if gs == ws {
			continue
		}
		// The reference decides each branch on the CFG as the folds before
		// it (in layout order) left it; foldBranches visits blocks in
		// postorder, so a selection arm's extent can be judged before a
		// fold upstream cuts another path into a block the arm breaks to.
		// Both results are valid; they must behave the same.
		differ++
		orig := parse()
		for _, ef := range orig.Funcs {
			if ef.Entry == nil {
				continue
			}
			in := &interp.Input{}
			rb, err := runCopy(orig, in, ef.Name())
			if err != nil {
				t.Logf("seed %d: entry %s not runnable: %v", seed, ef.Name(), err)
				continue
			}
			ran++
			for _, mm := range []*ir.Module{got, want} {
				r, err := runCopy(mm, in, ef.Name())
				if err != nil {
					t.Fatalf("seed %d: entry %s: %v after simplify\n%s", seed, ef.Name(), err, mm)
				}
				if ok, diff := rb.Equal(r); !ok {
					t.Fatalf("seed %d: entry %s: results differ after simplify: %s\ninput:\n%s\noutput:\n%s", seed, ef.Name(), diff, src, mm)
				}
			}
		}
	}
	t.Logf("%d modules, %d changed by simplify, %d differ in text from the reference (%d entry points of those run and agree)", seeds, folded, differ, ran)
	if differ > seeds/20 {
		t.Errorf("%d of %d modules differ from the reference: the visiting order should rarely matter", differ, seeds)
	}
	if folded < seeds/2 {
		t.Fatalf("only %d of %d modules changed: the test does not exercise folding", folded, seeds)
	}
}

// runCopy runs entry point entry ("" for the only one) of a private copy
// of m in the interpreter.
func runCopy(m *ir.Module, in *interp.Input, entry string) (*interp.Result, error) {
	c, err := ir.ParseModule("run", []byte(m.String()))
	if err != nil {
		return nil, err
	}
	return interp.Run(c, in, interp.Options{WaveSize: 4, Entry: entry})
}

// TestSimplifyFoldBranchesBuildsFewTrees folds a long chain of constant
// selections (each arm holding a nested construct, so both the plain fold
// and the dead-arm cut occur, plus loops with constant exits) and checks
// that one sweep builds a bounded number of dominator trees rather than
// one per fold, which made simplify quadratic on large shaders.
func TestSimplifyFoldBranchesBuildsFewTrees(t *testing.T) {
	t.Parallel()
	const n = 400
	var sb strings.Builder
	sb.WriteString(computeHeader + "\ndefine void @main() compute numthreads(4, 1, 1) {\nentry:\n")
	sb.WriteString("  %id = load ptr<input, <3 x u32>> @tid\n  %i = extractvalue <3 x u32> %id, 0\n  %c = icmp ult u32 %i, 2\n  br %h0\n")
	for k := 0; k < n; k++ {
		next := fmt.Sprintf("h%d", k+1)
		switch k % 3 {
		case 0: // constant selection whose live arm is plain
			fmt.Fprintf(&sb, "h%d:\n  selection_merge %%m%d\n  condbr bool %v, %%a%d, %%b%d\na%d:\n  br %%m%d\nb%d:\n  br %%m%d\nm%d:\n  br %%%s\n",
				k, k, k%2 == 0, k, k, k, k, k, k, k, next)
		case 1: // constant selection whose live arm holds a construct
			fmt.Fprintf(&sb, "h%d:\n  selection_merge %%m%d\n  condbr bool true, %%a%d, %%b%d\na%d:\n  selection_merge %%n%d\n  condbr bool %%c, %%x%d, %%n%d\nx%d:\n  br %%n%d\nn%d:\n  br %%m%d\nb%d:\n  br %%m%d\nm%d:\n  br %%%s\n",
				k, k, k, k, k, k, k, k, k, k, k, k, k, k, k, next)
		case 2: // loop whose header exits at once
			fmt.Fprintf(&sb, "h%d:\n  loop_merge %%m%d, %%l%d\n  condbr bool false, %%l%d, %%m%d\nl%d:\n  br %%h%d\nm%d:\n  br %%%s\n",
				k, k, k, k, k, k, k, k, next)
		}
	}
	fmt.Fprintf(&sb, "h%d:\n  %%p = access ptr<storage, [? x u32]> @Out, u32 %%i\n  store u32 1, ptr<storage, u32> %%p\n  ret\n}\n", n)
	src := sb.String()
	parse := func() *ir.Module {
		m, err := ir.ParseModule("chain", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if err := ir.Verify(m); err != nil {
			t.Fatalf("input does not verify: %v", err)
		}
		return m
	}
	m := parse()
	f := m.Funcs[len(m.Funcs)-1]
	changed, builds := foldBranchesCounted(f)
	t.Logf("%d dominator trees built", builds)
	if !changed {
		t.Fatal("nothing folded")
	}
	if builds > 2 {
		t.Errorf("foldBranches built %d dominator trees for %d constant branches, want at most 2", builds, n)
	}
	// Every constant branch is gone (the loops' and outer selections'),
	// and simplify's result matches the one with the rebuilding reference.
	for _, b := range f.Blocks {
		tt := b.Terminator()
		if tt != nil && tt.Op == ir.OpCondBr && liveTarget(tt) != nil && !strings.HasPrefix(b.Name(), "l") && !isUnreachableStub(tt.Succs[1]) {
			t.Errorf("block %s still ends in a foldable %v", b.Name(), tt.Op)
		}
	}
	// The whole pass gives valid IR that behaves like the input and like
	// simplify with the rebuilding reference. (The text differs: the
	// reference leaves the blocks after a new `.dead` stub to the next
	// round, by when mergeBlocks has renamed their headers.)
	got, want := parse(), parse()
	in := &interp.Input{}
	before, err := runCopy(got, in, "")
	if err != nil {
		t.Fatal(err)
	}
	simplifyWith(got, foldBranches)
	simplifyWith(want, foldBranchesReference)
	if err := ir.Verify(got); err != nil {
		t.Fatalf("output does not verify: %v", err)
	}
	for _, mm := range []*ir.Module{got, want} {
		after, err := runCopy(mm, in, "")
		if err != nil {
			t.Fatal(err)
		}
		if ok, diff := before.Equal(after); !ok {
			t.Fatalf("results differ after simplify: %s\n%s", diff, mm)
		}
	}
	if g, w := got.Funcs[len(got.Funcs)-1].NumInstrs(), want.Funcs[len(want.Funcs)-1].NumInstrs(); g != w {
		t.Errorf("simplify left %d instructions, with the reference %d", g, w)
	}
}

// computeHeader declares the buffers of the generated compute modules.
const computeHeader = `
module "t"

@Out = global storage [? x u32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"
`
