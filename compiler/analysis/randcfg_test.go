package analysis

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestRandomFuncProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var seen struct {
		irreducible, unreachable, infinite, dupSucc, selfLoop, multiExit, switches, unreachTerm int
	}
	shapes := []Shape{ShapeMixed, ShapeReducible, ShapeIrreducible, ShapeLocal, ShapeChain, ShapeNested}
	for i := 0; i < 3000; i++ {
		shape := shapes[i%len(shapes)]
		n := 1 + rng.IntN(60)
		f := RandomFunc(rng, "f", RandOptions{Blocks: n, Shape: shape})
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
			case k == TermRet || k == TermUnreachable:
				if len(ss) != 0 {
					t.Fatalf("exit with successors")
				}
				exits++
				if k == TermUnreachable {
					seen.unreachTerm++
				}
			case k == TermBr && len(ss) != 1, k == TermCondBr && len(ss) != 2, k == TermSwitch && len(ss) == 0:
				t.Fatalf("terminator %d with %d successors", k, len(ss))
			}
			if k == TermSwitch {
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
		ci := Cycles(g)
		for c := 0; c < ci.Len(); c++ {
			if !ci.IsReducible(c) {
				if shape == ShapeReducible || shape == ShapeNested || shape == ShapeChain {
					t.Fatalf("shape %d produced an irreducible cycle: %v", shape, g.Succs)
				}
				seen.irreducible++
			}
		}
		if Dominators(g).Len() < n {
			seen.unreachable++
		}
		for _, r := range PostDominators(g).Roots() {
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
			f := RandomFunc(rng, fmt.Sprint("f", i), RandOptions{Blocks: 30})
			if err := WriteLL(&b, []*Func{f}, nil); err != nil {
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
	var funcs []*Func
	for i := 0; i < 200; i++ {
		funcs = append(funcs, RandomFunc(rng, fmt.Sprint("f", i), RandOptions{Blocks: 1 + rng.IntN(40), Shape: Shape(i % 6)}))
	}
	var b bytes.Buffer
	if err := WriteLL(&b, funcs, nil); err != nil {
		t.Fatal(err)
	}
	back, err := ReadLL(b.Bytes())
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
	f := &Func{
		Name:  "k",
		Graph: &Graph{Names: []string{"entry", "x y", "sw"}, Succs: [][]int{{1, 2}, {2}, {}}},
		Terms: []TermKind{TermSwitch, TermAuto, TermUnreachable},
	}
	var b bytes.Buffer
	opts := &EmitOptions{
		Prefix:        "void",
		Params:        "i32 %v",
		BlockPrologue: func(f *Func, n int) []string { return []string{fmt.Sprintf("; prologue %d", n)} },
		SwitchValue:   func(f *Func, n int) ([]string, string) { return []string{"%s = add i32 %v, 1"}, "%s" },
	}
	if err := WriteLL(&b, []*Func{f}, opts); err != nil {
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

	for _, bad := range []*Func{
		{Name: "e", Graph: &Graph{Succs: [][]int{{0}}}},
		{Name: "t", Graph: &Graph{Succs: [][]int{{1}, {}}}, Terms: []TermKind{TermCondBr}},
		{Name: "r", Graph: &Graph{Succs: [][]int{{1}, {}}}, Terms: []TermKind{TermRet}},
	} {
		if err := WriteLL(&b, []*Func{bad}, nil); err == nil {
			t.Errorf("WriteLL accepted %s", bad.Name)
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
		if _, err := ReadLL([]byte(src)); err == nil {
			t.Errorf("ReadLL accepted:\n%s", src)
		}
	}
	fs, err := ReadLL([]byte("declare void @g()\n\ndefine void @f() {\n  br label %1\n1:\n  ret void\n}\n"))
	if err != nil || len(fs) != 1 || fs[0].Graph.Name(0) != "0" || !slices.Equal(fs[0].Graph.Succs[0], []int{1}) {
		t.Fatalf("unlabelled entry: %v %v", fs, err)
	}
}

// TestEmitHooksAcceptedByOpt checks that IR using the emitter's hooks (phis
// in the prologue, custom conditions) is valid for opt-22.
func TestEmitHooksAcceptedByOpt(t *testing.T) {
	opt := requireOpt(t)
	rng := rand.New(rand.NewPCG(9, 9))
	f := RandomFunc(rng, "hooks", RandOptions{Blocks: 25, Shape: ShapeMixed})
	preds := f.Graph.Preds()
	opts := &EmitOptions{
		BlockPrologue: func(f *Func, n int) []string {
			if n == 0 || len(preds[n]) == 0 {
				return nil
			}
			var in []string
			for _, p := range preds[n] {
				in = append(in, fmt.Sprintf("[ %%d, %%%s ]", LLVMLocalName(f.Graph.Name(p))))
			}
			return []string{fmt.Sprintf("%%.phi%d = phi i32 %s", n, strings.Join(in, ", "))}
		},
		Cond: func(f *Func, n int) ([]string, string) {
			return []string{fmt.Sprintf("%%.k%d = icmp ult i32 %%u, %d", n, n)}, fmt.Sprintf("%%.k%d", n)
		},
	}
	var b bytes.Buffer
	if err := WriteLL(&b, []*Func{f}, opts); err != nil {
		t.Fatal(err)
	}
	out, err := runOpt(opt, b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(out), string(formatAll([]*Func{f})); got != want {
		t.Fatalf("phis changed opt's output:\n%s\nvs\n%s", got, want)
	}
}
