package ir

import (
	"slices"
	"testing"
)

const cfgSrc = `define void @f(i32 %s, bool %c) {
entry:
  br %head
head:
  condbr bool %c, %a, %b
a:
  switch i32 %s [case 1: %b] [default: %join]
b:
  br %join
join:
  ret
}
`

// fresh returns what a from-scratch build says about f, to compare the
// cache against.
func fresh(f *Function) *CFG { return newCFG(f) }

// sameCFG reports whether two CFGs describe the same graph, predecessors
// and dominator tree.
func sameCFG(t *testing.T, what string, got, want *CFG) {
	t.Helper()
	if !slices.Equal(got.Blocks, want.Blocks) {
		t.Fatalf("%s: blocks differ", what)
	}
	for i, b := range want.Blocks {
		if b.Index != i || got.Index(b) != i {
			t.Fatalf("%s: %s has Index %d, node %d, want %d", what, b.Name(), b.Index, got.Index(b), i)
		}
		if !slices.Equal(got.Graph.Succs[i], want.Graph.Succs[i]) || got.Graph.Names[i] != want.Graph.Names[i] {
			t.Fatalf("%s: node %d: succs %v name %q, want %v %q", what, i, got.Graph.Succs[i], got.Graph.Names[i], want.Graph.Succs[i], want.Graph.Names[i])
		}
		if !slices.Equal(got.Preds(b), want.Preds(b)) {
			t.Fatalf("%s: preds of %s differ", what, b.Name())
		}
		if got.IDom(b) != want.IDom(b) {
			t.Fatalf("%s: idom of %s differs", what, b.Name())
		}
		for _, c := range want.Blocks {
			if got.Dominates(b, c) != want.Dominates(b, c) {
				t.Fatalf("%s: Dominates(%s, %s) differs", what, b.Name(), c.Name())
			}
		}
	}
}

// TestCFGCacheRefresh edits the CFG in every way passes do (the builder and
// Instr methods, direct writes of Succs, Cases and Instrs, layout edits
// through Function and directly, renames) and checks that Function.CFG
// returns the cached graph while nothing changed and a correct new one
// after each edit.
func TestCFGCacheRefresh(t *testing.T) {
	m, err := ParseModule("cfg.pir", []byte(cfgSrc))
	if err != nil {
		t.Fatal(err)
	}
	f := m.Func("f")
	blk := func(n string) *Block { return f.Block(n) }

	c0 := f.CFG()
	if f.CFG() != c0 {
		t.Fatal("unchanged function: CFG rebuilt")
	}
	// head dominates a, b and join; a does not dominate join.
	if !c0.Dominates(blk("head"), blk("join")) || c0.Dominates(blk("a"), blk("join")) || c0.IDom(blk("join")) != blk("head") {
		t.Fatal("initial dominators wrong")
	}
	if got := c0.Preds(blk("join")); !slices.Equal(got, []*Block{blk("a"), blk("b")}) {
		t.Fatalf("preds of join: %v", got)
	}
	// Adding instructions that are not terminators keeps the cache.
	NewBuilder(f).SetBlock(blk("b"))
	ins := NewInstr(f, OpAlloca, Ptr(SpaceFunction, I32), "x")
	ins.Block = blk("b")
	blk("b").Instrs = append([]*Instr{ins}, blk("b").Instrs...)
	if f.CFG() != c0 {
		t.Fatal("non-terminator edit rebuilt the CFG")
	}

	prev := c0
	step := func(what string, edit func()) {
		t.Helper()
		edit()
		got := f.CFG()
		if got == prev {
			t.Fatalf("%s: stale CFG returned", what)
		}
		sameCFG(t, what, got, fresh(f))
		if f.CFG() != got {
			t.Fatalf("%s: CFG not cached after rebuild", what)
		}
		prev = got
	}

	step("direct Succs write", func() { blk("head").Terminator().Succs[1] = blk("join") })
	if prev.IDom(blk("b")) != blk("a") || prev.IDom(blk("join")) != blk("head") {
		t.Fatal("b is now reached only through a")
	}
	step("ReplaceSuccessor", func() { blk("head").Terminator().ReplaceSuccessor(blk("join"), blk("b")) })
	step("switch case target", func() { blk("a").Terminator().Cases[0].Target = blk("join") })
	step("switch case values", func() { blk("a").Terminator().Cases[0].Values = append(blk("a").Terminator().Cases[0].Values, 7) })
	step("terminator replaced in Instrs", func() {
		b := blk("b")
		br := NewInstr(f, OpBr, Void, "")
		br.Succs = []*Block{blk("head")}
		br.Block = b
		b.Instrs[len(b.Instrs)-1] = br
	})
	if !slices.Contains(prev.Preds(blk("head")), blk("b")) {
		t.Fatal("back edge b -> head missing")
	}
	step("terminator removed", func() { blk("join").Terminator().Remove() })
	step("terminator appended by the builder", func() {
		bd := NewBuilder(f)
		bd.SetBlock(blk("join"))
		bd.Ret(nil)
	})
	step("NewBlockAfter", func() {
		nb := f.NewBlockAfter(blk("entry"), "pre")
		bd := NewBuilder(f)
		bd.SetBlock(nb)
		bd.Br(blk("head"))
		blk("entry").Terminator().ReplaceSuccessor(blk("head"), nb)
	})
	if prev.IDom(blk("head")) != blk("pre") || blk("pre").Index != 1 || blk("head").Index != 2 {
		t.Fatal("new block not in place")
	}
	step("direct layout reorder", func() {
		f.Blocks[3], f.Blocks[4] = f.Blocks[4], f.Blocks[3]
	})
	step("RemoveBlocks", func() {
		blk("a").Terminator().ReplaceSuccessor(blk("b"), blk("join"))
		blk("head").Terminator().ReplaceSuccessor(blk("b"), blk("join"))
		f.RemoveBlocks(map[*Block]bool{blk("b"): true})
	})
	step("rename", func() { blk("join").SetName("exit") })
	if prev.Graph.Names[prev.Index(blk("exit"))] != "exit" {
		t.Fatal("graph names not refreshed")
	}
}

// TestCFGSnapshotAfterLayoutEdit checks that a CFG a pass holds keeps
// answering for the graph it was built from after the layout changed (the
// blocks' Index moved on).
func TestCFGSnapshotAfterLayoutEdit(t *testing.T) {
	m, err := ParseModule("cfg.pir", []byte(cfgSrc))
	if err != nil {
		t.Fatal(err)
	}
	f := m.Func("f")
	old := f.CFG()
	join := f.Block("join")
	nb := f.NewBlockAfter(f.Block("entry"), "pre")
	if join.Index != 5 {
		t.Fatalf("Index not maintained by NewBlockAfter: %d", join.Index)
	}
	if old.Index(join) != 4 || old.Index(nb) != -1 || !old.Dominates(f.Block("head"), join) {
		t.Fatal("snapshot lost its numbering")
	}
}
