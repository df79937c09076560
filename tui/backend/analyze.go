package backend

import (
	"fmt"
	"sort"
	"strings"

	"passlens/compiler/analysis"
	"passlens/compiler/ir"
	"passlens/tui"
)

// Analyze computes everything the explorer's trees, CFG and uniformity
// views show for f.
func Analyze(f *ir.Function) *tui.Analysis {
	if len(f.Blocks) == 0 {
		a := AnalyzeCFG(f.Name(), &analysis.Graph{})
		addUniformity(a, f)
		return a
	}
	// The function's cached trees (shared with the verifier, the passes
	// and the uniformity analysis). The explorer keeps only what it shows,
	// so the cache is released afterwards: snapshots are many and
	// long-lived.
	c := f.CFG()
	a := analyzeTrees(f.Name(), c.Graph, c.Dom(), c.PostDom(), c.Cycles())
	addUniformity(a, f)
	f.InvalidateCFG()
	return a
}

// AnalyzeCFG computes the trees and the CFG view of a bare control-flow
// graph (machine IR has no SSA values: no uniformity).
func AnalyzeCFG(fn string, g *analysis.Graph) *tui.Analysis {
	return analyzeTrees(fn, g, analysis.Dominators(g), analysis.PostDominators(g), analysis.Cycles(g))
}

// analyzeTrees builds the views of g from its trees.
func analyzeTrees(fn string, g *analysis.Graph, dom, pdom *analysis.DomTree, ci *analysis.CycleInfo) *tui.Analysis {
	a := &tui.Analysis{Func: fn, BackEdges: map[[2]int]bool{}}
	for i := 0; i < g.Len(); i++ {
		a.Blocks = append(a.Blocks, g.Name(i))
		a.Succs = append(a.Succs, g.Succs[i])
	}
	a.Dom = domTree(g, dom, dom.Root(), false)
	a.PostDom = domTree(g, pdom, pdom.Root(), true)
	a.Cycles = cycleTree(g, ci)
	// Back edges: edges to a block that dominates the source (natural
	// loops) plus edges into a cycle header from inside its cycle.
	for b := 0; b < g.Len(); b++ {
		for _, s := range g.Succs[b] {
			if dom.Contains(b) && dom.Contains(s) && dom.Dominates(s, b) {
				a.BackEdges[[2]int{b, s}] = true
			}
			if c := ci.CycleOf(s); c >= 0 {
				for _, e := range ci.Entries(c) {
					if e == s && ci.Contains(c, b) {
						a.BackEdges[[2]int{b, s}] = true
					}
				}
			}
		}
	}
	a.DOT = dot(fn, g, a.BackEdges)
	return a
}

func domTree(g *analysis.Graph, t *analysis.DomTree, n int, post bool) *tui.TreeNode {
	var build func(n int) *tui.TreeNode
	build = func(n int) *tui.TreeNode {
		node := &tui.TreeNode{}
		if post && n == t.VirtualExit() {
			node.Label = "<virtual exit>"
		} else {
			node.Label = "%" + g.Name(n)
			node.Block = g.Name(n)
		}
		kids := append([]int(nil), t.Children(n)...)
		sort.Ints(kids)
		for _, c := range kids {
			node.Children = append(node.Children, build(c))
		}
		return node
	}
	if n < 0 {
		return &tui.TreeNode{Label: "(empty)"}
	}
	return build(n)
}

func cycleTree(g *analysis.Graph, ci *analysis.CycleInfo) *tui.TreeNode {
	root := &tui.TreeNode{Label: fmt.Sprintf("%d top-level cycles", len(ci.TopLevel()))}
	if len(ci.TopLevel()) == 0 {
		root.Label = "no cycles"
	}
	names := func(bs []int) string {
		var s []string
		for _, b := range bs {
			s = append(s, "%"+g.Name(b))
		}
		return strings.Join(s, " ")
	}
	var build func(c int) *tui.TreeNode
	build = func(c int) *tui.TreeNode {
		kind := "reducible"
		if !ci.IsReducible(c) {
			kind = "irreducible"
		}
		label := fmt.Sprintf("depth=%d %s header %%%s entries(%s) blocks: %s; exits: %s", ci.Depth(c), kind,
			g.Name(ci.Header(c)), names(ci.Entries(c)), names(ci.Blocks(c)), names(ci.ExitBlocks(c)))
		n := &tui.TreeNode{Label: label, Block: g.Name(ci.Header(c))}
		for _, k := range ci.Children(c) {
			n.Children = append(n.Children, build(k))
		}
		return n
	}
	for _, c := range ci.TopLevel() {
		root.Children = append(root.Children, build(c))
	}
	return root
}

// dot renders the CFG as Graphviz DOT; back edges are dashed.
func dot(fn string, g *analysis.Graph, back map[[2]int]bool) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "digraph %q {\n  node [shape=box, fontname=monospace];\n", fn)
	for i := 0; i < g.Len(); i++ {
		fmt.Fprintf(&sb, "  n%d [label=%q];\n", i, "%"+g.Name(i))
	}
	for i := 0; i < g.Len(); i++ {
		for _, s := range g.Succs[i] {
			style := ""
			if back[[2]int{i, s}] {
				style = " [style=dashed, color=red]"
			}
			fmt.Fprintf(&sb, "  n%d -> n%d%s;\n", i, s, style)
		}
	}
	sb.WriteString("}\n")
	return sb.String()
}
