package analysis_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"passlens/compiler/analysis"
	"passlens/compiler/analysis/analysistest"
	"slices"
	"strings"
	"testing"
)

func TestRandomFuncProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var seen struct {
		irreducible, unreachable, infinite, dupSucc, selfLoop, multiExit, switches, unreachTerm int
	}
	shapes := []analysistest.Shape{analysistest.ShapeMixed, analysistest.ShapeReducible, analysistest.ShapeIrreducible, analysistest.ShapeLocal, analysistest.ShapeChain, analysistest.ShapeNested}
	for i := 0; i < 3000; i++ {
		shape := shapes[i%len(shapes)]
		n := 1 + rng.IntN(60)
		f := analysistest.RandomFunc(rng, "f", analysistest.RandOptions{Blocks: n, Shape: shape})
		g := f.Graph
		if g.Len() != n {
			t.Fatalf("shape %d: %d blocks, want %d", shape, g.Len(), n)
		}
		if err := g.Validate(); err != nil {
			t.Fatal(err)
		}
		exits := 0
		for u, ss := range g.Succs {
			if slices.Contains(ss, 0) {
				t.Fatalf("entry has a predecessor: %v", g.Succs)
			}
			k := f.Term(u)
			switch {
			case k == analysistest.TermRet || k == analysistest.TermUnreachable:
				if len(ss) != 0 {
					t.Fatalf("exit with successors")
				}
				exits++
				if k == analysistest.TermUnreachable {
					seen.unreachTerm++
				}
			case k == analysistest.TermBr && len(ss) != 1, k == analysistest.TermCondBr && len(ss) != 2, k == analysistest.TermSwitch && len(ss) == 0:
				t.Fatalf("terminator %d with %d successors", k, len(ss))
			}
			if k == analysistest.TermSwitch {
				seen.switches++
			}
			if slices.Contains(ss, u) {
				seen.selfLoop++
			}
			for j := range ss {
				if slices.Contains(ss[:j], ss[j]) {
					seen.dupSucc++
					break
				}
			}
		}
		if exits > 1 {
			seen.multiExit++
		}
		ci := analysis.Cycles(g)
		for c := 0; c < ci.Len(); c++ {
			if !ci.IsReducible(c) {
				if shape == analysistest.ShapeReducible || shape == analysistest.ShapeNested || shape == analysistest.ShapeChain {
					t.Fatalf("shape %d produced an irreducible cycle: %v", shape, g.Succs)
				}
				seen.irreducible++
			}
		}
		if analysis.Dominators(g).Len() < n {
			seen.unreachable++
		}
		for _, r := range analysis.PostDominators(g).Roots() {
			if len(g.Succs[r]) > 0 {
				seen.infinite++
			}
		}
	}
	t.Logf("features: %+v", seen)
	for name, v := range map[string]int{
		"irreducible": seen.irreducible, "unreachable": seen.unreachable, "infinite": seen.infinite,
		"dupSucc": seen.dupSucc, "selfLoop": seen.selfLoop, "multiExit": seen.multiExit,
		"switches": seen.switches, "unreachTerm": seen.unreachTerm,
	} {
		if v < 50 {
			t.Errorf("feature %s generated only %d times", name, v)
		}
	}
}

func TestRandomFuncDeterministic(t *testing.T) {
	gen := func() string {
		rng := rand.New(rand.NewPCG(42, 7))
		var b bytes.Buffer
		for i := 0; i < 20; i++ {
			f := analysistest.RandomFunc(rng, fmt.Sprint("f", i), analysistest.RandOptions{Blocks: 30})
			if err := analysistest.WriteLL(&b, []*analysistest.Func{f}, nil); err != nil {
				t.Fatal(err)
			}
		}
		return b.String()
	}
	if first, second := gen(), gen(); first != second {
		t.Fatal("generator is not deterministic")
	}
}

func TestWriteReadLLRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var funcs []*analysistest.Func
	for i := 0; i < 200; i++ {
		funcs = append(funcs, analysistest.RandomFunc(rng, fmt.Sprint("f", i), analysistest.RandOptions{Blocks: 1 + rng.IntN(40), Shape: analysistest.Shape(i % 6)}))
	}
	var b bytes.Buffer
	if err := analysistest.WriteLL(&b, funcs, nil); err != nil {
		t.Fatal(err)
	}
	back, err := analysistest.ReadLL(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(funcs) {
		t.Fatalf("read %d functions, want %d", len(back), len(funcs))
	}
	for i, f := range funcs {
		r := back[i]
		if r.Name != f.Name || r.Graph.Len() != f.Graph.Len() {
			t.Fatalf("function %d: %s with %d blocks", i, r.Name, r.Graph.Len())
		}
		for n := 0; n < f.Graph.Len(); n++ {
			if r.Graph.Name(n) != f.Graph.Name(n) || !slices.Equal(r.Graph.Succs[n], f.Graph.Succs[n]) || r.Term(n) != f.Term(n) {
				t.Fatalf("function %s block %d differs after round trip", f.Name, n)
			}
		}
	}
}

func TestWriteLLShapes(t *testing.T) {
	f := &analysistest.Func{
		Name:  "k",
		Graph: &analysis.Graph{Names: []string{"entry", "x y", "sw"}, Succs: [][]int{{1, 2}, {2}, {}}},
		Terms: []analysistest.TermKind{analysistest.TermSwitch, analysistest.TermAuto, analysistest.TermUnreachable},
	}
	var b bytes.Buffer
	opts := &analysistest.EmitOptions{
		Prefix:        "void",
		Params:        "i32 %v",
		BlockPrologue: func(f *analysistest.Func, n int) []string { return []string{fmt.Sprintf("; prologue %d", n)} },
		SwitchValue:   func(f *analysistest.Func, n int) ([]string, string) { return []string{"%s = add i32 %v, 1"}, "%s" },
	}
	if err := analysistest.WriteLL(&b, []*analysistest.Func{f}, opts); err != nil {
		t.Fatal(err)
	}
	const want = `define void @k(i32 %v) {
entry:
  ; prologue 0
  %s = add i32 %v, 1
  switch i32 %s, label %"x y" [
    i32 0, label %sw
  ]
"x y":
  ; prologue 1
  br label %sw
sw:
  ; prologue 2
  unreachable
}
`
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}

	for _, bad := range []*analysistest.Func{
		{Name: "e", Graph: &analysis.Graph{Succs: [][]int{{0}}}},
		{Name: "t", Graph: &analysis.Graph{Succs: [][]int{{1}, {}}}, Terms: []analysistest.TermKind{analysistest.TermCondBr}},
		{Name: "r", Graph: &analysis.Graph{Succs: [][]int{{1}, {}}}, Terms: []analysistest.TermKind{analysistest.TermRet}},
	} {
		if err := analysistest.WriteLL(&b, []*analysistest.Func{bad}, nil); err == nil {
			t.Errorf("analysistest.WriteLL accepted %s", bad.Name)
		}
	}
}

func TestReadLLErrors(t *testing.T) {
	for _, src := range []string{
		"define void @f() {\nentry:\n  br label %nowhere\n}\n",
		"define void @f() {\nentry:\n  ret void\nentry:\n  ret void\n}\n",
		"define void @f() {\nentry:\n  ret void\n",
		"define void @f() {\nentry:\n  indirectbr ptr %p, [label %entry]\n}\n",
		"define void @f() {\na:\n  %x = add i32 1, 2\nb:\n  ret void\n}\n",
	} {
		if _, err := analysistest.ReadLL([]byte(src)); err == nil {
			t.Errorf("analysistest.ReadLL accepted:\n%s", src)
		}
	}
	fs, err := analysistest.ReadLL([]byte("declare void @g()\n\ndefine void @f() {\n  br label %1\n1:\n  ret void\n}\n"))
	if err != nil || len(fs) != 1 || fs[0].Graph.Name(0) != "0" || !slices.Equal(fs[0].Graph.Succs[0], []int{1}) {
		t.Fatalf("unlabelled entry: %v %v", fs, err)
	}
}

// TestEmitHooksAcceptedByOpt checks that IR using the emitter's hooks (phis
// in the prologue, custom conditions) is valid for opt-22.
func TestEmitHooksAcceptedByOpt(t *testing.T) {
	opt := requireOpt(t)
	rng := rand.New(rand.NewPCG(9, 9))
	f := analysistest.RandomFunc(rng, "hooks", analysistest.RandOptions{Blocks: 25, Shape: analysistest.ShapeMixed})
	preds := f.Graph.Preds()
	opts := &analysistest.EmitOptions{
		BlockPrologue: func(f *analysistest.Func, n int) []string {
			if n == 0 || len(preds[n]) == 0 {
				return nil
			}
			var in []string
			for _, p := range preds[n] {
				in = append(in, fmt.Sprintf("[ %%d, %%%s ]", analysis.LLVMLocalName(f.Graph.Name(p))))
			}
			return []string{fmt.Sprintf("%%.phi%d = phi i32 %s", n, strings.Join(in, ", "))}
		},
		Cond: func(f *analysistest.Func, n int) ([]string, string) {
			return []string{fmt.Sprintf("%%.k%d = icmp ult i32 %%u, %d", n, n)}, fmt.Sprintf("%%.k%d", n)
		},
	}
	var b bytes.Buffer
	if err := analysistest.WriteLL(&b, []*analysistest.Func{f}, opts); err != nil {
		t.Fatal(err)
	}
	out, err := runOpt(opt, b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(out), string(formatAll([]*analysistest.Func{f})); got != want {
		t.Fatalf("phis changed opt's output:\n%s\nvs\n%s", got, want)
	}
}
