// Package analysis implements the analyses passlens shows next to the IR:
// the dominator, post-dominator and cycle trees printed exactly as opt-22
// prints them, and the uniformity (divergence) analysis.
//
// The graph algorithms themselves (CFG, depth-first orders, Semi-NCA
// dominator and post-dominator trees, cycles) are in compiler/graph, the one
// CFG layer every part of the compiler uses; this package re-exports them
// under their historical names and adds the LLVM-order printing and the
// IR adapter (FuncGraph). See docs/analyses.md.
package analysis

import "passlens/compiler/graph"

// Graph is a CFG: node 0 is the entry; Succs in terminator order (see
// graph.Graph).
type Graph = graph.Graph

// DomTree is a dominator or post-dominator tree (see graph.DomTree).
type DomTree = graph.DomTree

// Order is a depth-first traversal from the entry (see graph.Order).
type Order = graph.Order

// CycleInfo is the cycle hierarchy with LLVM's semantics (see
// graph.CycleInfo).
type CycleInfo = graph.CycleInfo

// Dominators computes the dominator tree of g (see graph.Dominators).
func Dominators(g *Graph) *DomTree { return graph.Dominators(g) }

// PostDominators computes the post-dominator tree of g with LLVM's
// semantics (see graph.PostDominators).
func PostDominators(g *Graph) *DomTree { return graph.PostDominators(g) }

// Cycles computes the cycle hierarchy of g (see graph.Cycles).
func Cycles(g *Graph) *CycleInfo { return graph.Cycles(g) }
