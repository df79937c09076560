package analysis

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// This file prints passlens's dominator trees and cycles exactly as
//
//	opt-22 -passes='print<domtree>,print<postdomtree>,print<cycles>' -disable-output
//
// does (the CLI's analyze command and the explorer use it), and LLVM's
// spelling of local names. The tests parse opt-22's output with
// analysistest.ParseOpt and compare.

// VirtualExitName is the name under which the post-dominator tree's virtual
// exit appears in printed trees.
const VirtualExitName = "<<exit node>>"

// undefDFS is the DFS number LLVM prints while DFS numbers are invalid
// (always the case right after construction).
const undefDFS = "4294967295"

// WalkTree visits the tree in print order (preorder, children in LLVM
// order), iteratively. visit receives the node, its level and the visit
// index of its parent (-1 for the root).
func WalkTree(t *DomTree, visit func(n, level, parentIdx int)) {
	type frame struct{ n, idx, next int }
	count := 0
	visit(t.Root(), 0, -1)
	stack := []frame{{t.Root(), count, 0}}
	count++
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		ch := t.Children(top.n)
		if top.next == len(ch) {
			stack = stack[:len(stack)-1]
			continue
		}
		c := ch[top.next]
		top.next++
		parentIdx := top.idx
		visit(c, len(stack), parentIdx)
		stack = append(stack, frame{c, count, 0})
		count++
	}
}

// treeOperand returns how LLVM prints block n as an operand: %name, quoted
// if necessary, or %N for an unnamed block.
func treeOperand(g *Graph, n int) string { return "%" + LLVMLocalName(g.Name(n)) }

// cycleBlockName returns how LLVM's cycle printer names block n: the bare
// name, or the slot number for an unnamed block.
func cycleBlockName(g *Graph, n int) string { return g.Name(n) }

// WriteDomTree prints t (a dominator or post-dominator tree of g) exactly as
// opt-22's print<domtree> / print<postdomtree> does for function fn: the
// header, the tree in preorder with children in LLVM's order, DFS numbers
// shown as invalid (as they are right after construction), and the roots.
func WriteDomTree(w io.Writer, fn string, g *Graph, t *DomTree) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	kind := "Dominator"
	if t.IsPostDom() {
		kind = "PostDominator"
	}
	bw.WriteString(kind + "Tree for function: " + fn + "\n")
	bw.WriteString("=============================--------------------------------\n")
	bw.WriteString("Inorder " + kind + " Tree: DFSNumbers invalid: 0 slow queries.\n")
	var indent []byte
	WalkTree(t, func(n, level, _ int) {
		for len(indent) < 2*(level+1) {
			indent = append(indent, ' ')
		}
		bw.Write(indent[:2*(level+1)])
		bw.WriteByte('[')
		bw.WriteString(strconv.Itoa(level + 1))
		bw.WriteString("] ")
		if n == t.VirtualExit() {
			bw.WriteString(" " + VirtualExitName)
		} else {
			bw.WriteString(treeOperand(g, n))
		}
		bw.WriteString(" {" + undefDFS + "," + undefDFS + "} [")
		bw.WriteString(strconv.Itoa(level))
		bw.WriteString("]\n")
	})
	bw.WriteString("Roots: ")
	for _, r := range t.Roots() {
		bw.WriteString(treeOperand(g, r))
		bw.WriteByte(' ')
	}
	bw.WriteByte('\n')
	return bw.Flush()
}

// WriteCycles prints ci exactly as opt-22's print<cycles> does for function
// fn: the top-level cycles in LLVM's order, each followed by its nested
// cycles depth-first, indented by depth, with entries and then the
// remaining blocks in LLVM's order.
func WriteCycles(w io.Writer, fn string, g *Graph, ci *CycleInfo) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("CycleInfo for function: " + fn + "\n")
	isEntry := make(map[int]bool)
	for c := 0; c < ci.Len(); c++ {
		for d := 0; d < ci.Depth(c); d++ {
			bw.WriteString("    ")
		}
		bw.WriteString("depth=" + strconv.Itoa(ci.Depth(c)) + ": entries(")
		clear(isEntry)
		for i, e := range ci.Entries(c) {
			if i > 0 {
				bw.WriteByte(' ')
			}
			bw.WriteString(cycleBlockName(g, e))
			isEntry[e] = true
		}
		bw.WriteByte(')')
		for _, b := range ci.Blocks(c) {
			if !isEntry[b] {
				bw.WriteByte(' ')
				bw.WriteString(cycleBlockName(g, b))
			}
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// IsSlotName reports whether name denotes an unnamed value's slot number.
func IsSlotName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		if name[i] < '0' || name[i] > '9' {
			return false
		}
	}
	return true
}

// LLVMLocalName returns name as LLVM prints it after the % or @ sigil
// (printLLVMNameWithoutPrefix): unchanged if it does not start with a digit
// and consists only of letters, digits, '-', '.' and '_'; otherwise quoted,
// with non-printable characters, '"' and '\' escaped as \XX. A slot name
// (all digits) stands for an unnamed value and is printed bare.
func LLVMLocalName(name string) string {
	if IsSlotName(name) {
		return name
	}
	quote := name == "" || (name[0] >= '0' && name[0] <= '9')
	for i := 0; i < len(name) && !quote; i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_') {
			quote = true
		}
	}
	if !quote {
		return name
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 0x20 && c < 0x7f && c != '"' && c != '\\' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "\\%02X", c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
