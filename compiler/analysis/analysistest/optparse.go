package analysistest

import (
	"bufio"
	"fmt"
	"io"
	"passlens/compiler/analysis"
	"slices"
	"strconv"
	"strings"
)

// This file parses the output of
//
//	opt-22 -passes='print<domtree>,print<postdomtree>,print<cycles>' -disable-output
//
// and prints passlens's results in exactly the same shapes, so that the
// two can be compared by a script, either textually or as sets.
//
// Block names are decoded: in trees opt prints operands (%bb1, %"x y",
// %0 for an unnamed block) and the parser returns the bare name ("bb1",
// "x y", "0"); cycle lines print bare names already. Cycle lines are
// ambiguous for names containing spaces: the parser splits them at single
// spaces and rejoins adjacent words that form a block name known from the
// same function's trees (printed before the cycles). Names containing ')' or
// runs of spaces are not supported in cycle lines.

// OptFunc is everything printed for one function.
type OptFunc struct {
	Name        string
	DomTree     *OptTree   // nil if not printed
	PostDomTree *OptTree   // nil if not printed
	Cycles      *OptCycles // nil if not printed
}

// OptTree is a printed dominator or post-dominator tree.
type OptTree struct {
	Post  bool
	Nodes []OptTreeNode // in print (preorder) order; Nodes[0] is the root
	Roots []string      // the "Roots:" line
}

// OptTreeNode is one line of a printed tree.
type OptTreeNode struct {
	Name   string // bare block name, or VirtualExitName
	Level  int    // depth in the tree, 0 for the root
	Parent int    // index into Nodes, -1 for the root
}

// IDoms maps every node except the root to its immediate (post-)dominator.
func (t *OptTree) IDoms() map[string]string {
	m := make(map[string]string, len(t.Nodes))
	for _, nd := range t.Nodes {
		if nd.Parent >= 0 {
			m[nd.Name] = t.Nodes[nd.Parent].Name
		}
	}
	return m
}

// OptCycles is printed cycle info.
type OptCycles struct {
	Cycles []OptCycle // in print order
}

// OptCycle is one printed cycle.
type OptCycle struct {
	Depth   int
	Entries []string // in printed order, header first
	Blocks  []string // the non-entry blocks, in printed order
	Parent  int      // index into Cycles, -1 for top-level cycles
}

// Key returns a canonical, order-independent description of the cycle:
// depth, header, sorted entries and sorted blocks (entries included).
func (c *OptCycle) Key() string {
	es := slices.Clone(c.Entries)
	slices.Sort(es)
	bs := append(slices.Clone(c.Entries), c.Blocks...)
	slices.Sort(bs)
	return fmt.Sprintf("depth=%d header=%s entries=[%s] blocks=[%s]", c.Depth, c.Entries[0],
		strings.Join(es, " "), strings.Join(bs, " "))
}

// Set returns the keys of all cycles (with the parent's key appended, so
// nesting is compared too).
func (c *OptCycles) Set() map[string]bool {
	s := make(map[string]bool, len(c.Cycles))
	for i := range c.Cycles {
		k := c.Cycles[i].Key()
		if p := c.Cycles[i].Parent; p >= 0 {
			k += " parent{" + c.Cycles[p].Key() + "}"
		}
		s[k] = true
	}
	return s
}

// ParseOpt parses opt's printer output for any sequence of the domtree,
// postdomtree and cycles printers. Functions are returned in output order;
// consecutive sections with the same function name are merged.
func ParseOpt(r io.Reader) ([]*OptFunc, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<30)
	var (
		funcs  []*OptFunc
		tree   *OptTree
		cycles *OptCycles
		known  map[string]bool // block names of the current function's trees
		stack  []int           // tree: node index per level; cycles: cycle per depth
	)
	lineNo := 0
	fn := func(name string) *OptFunc {
		if len(funcs) > 0 && funcs[len(funcs)-1].Name == name {
			return funcs[len(funcs)-1]
		}
		f := &OptFunc{Name: name}
		funcs = append(funcs, f)
		return f
	}
	errorf := func(format string, args ...any) error {
		return fmt.Errorf("opt output line %d: "+format, append([]any{lineNo}, args...)...)
	}
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "DominatorTree for function: "),
			strings.HasPrefix(line, "PostDominatorTree for function: "):
			post := line[0] == 'P'
			f := fn(line[strings.Index(line, ": ")+2:])
			tree, cycles, stack = &OptTree{Post: post}, nil, stack[:0]
			if post {
				if f.PostDomTree != nil {
					f = &OptFunc{Name: f.Name}
					funcs = append(funcs, f)
				}
				f.PostDomTree = tree
			} else {
				if f.DomTree != nil {
					f = &OptFunc{Name: f.Name}
					funcs = append(funcs, f)
				}
				f.DomTree = tree
			}
		case strings.HasPrefix(line, "CycleInfo for function: "):
			f := fn(line[len("CycleInfo for function: "):])
			if f.Cycles != nil {
				f = &OptFunc{Name: f.Name}
				funcs = append(funcs, f)
			}
			tree, cycles, stack = nil, &OptCycles{}, stack[:0]
			f.Cycles = cycles
			known = nil
			for _, t := range []*OptTree{f.DomTree, f.PostDomTree} {
				if t == nil {
					continue
				}
				for _, nd := range t.Nodes {
					if nd.Name != analysis.VirtualExitName && strings.Contains(nd.Name, " ") {
						if known == nil {
							known = map[string]bool{}
						}
						known[nd.Name] = true
					}
				}
			}
		case tree != nil && strings.HasPrefix(line, "====="):
		case tree != nil && strings.HasPrefix(line, "Inorder "):
		case tree != nil && strings.HasPrefix(line, "Roots: "):
			roots, err := splitOperands(line[len("Roots: "):])
			if err != nil {
				return nil, errorf("%v", err)
			}
			tree.Roots = roots
			tree = nil
		case tree != nil:
			nd, err := parseTreeLine(line)
			if err != nil {
				return nil, errorf("%v", err)
			}
			depth := nd.Level + 1 // the bracketed print depth
			if depth > len(stack)+1 || (len(stack) == 0) != (depth == 1) {
				return nil, errorf("bad tree depth %d", depth)
			}
			stack = stack[:depth-1]
			nd.Parent = -1
			if depth > 1 {
				nd.Parent = stack[depth-2]
			}
			stack = append(stack, len(tree.Nodes))
			tree.Nodes = append(tree.Nodes, nd)
		case cycles != nil && strings.HasPrefix(strings.TrimLeft(line, " "), "depth="):
			c, err := parseCycleLine(line, known)
			if err != nil {
				return nil, errorf("%v", err)
			}
			if c.Depth > len(stack)+1 {
				return nil, errorf("cycle depth %d under depth %d", c.Depth, len(stack))
			}
			stack = stack[:c.Depth-1]
			c.Parent = -1
			if c.Depth > 1 {
				c.Parent = stack[c.Depth-2]
			}
			stack = append(stack, len(cycles.Cycles))
			cycles.Cycles = append(cycles.Cycles, c)
		default:
			return nil, errorf("unexpected line %q", line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if tree != nil {
		return nil, fmt.Errorf("opt output: tree without Roots line")
	}
	return funcs, nil
}

// parseTreeLine parses "  [2] %bb1 {4294967295,4294967295} [1]".
func parseTreeLine(line string) (OptTreeNode, error) {
	var nd OptTreeNode
	s := strings.TrimLeft(line, " ")
	close := strings.Index(s, "] ")
	if !strings.HasPrefix(s, "[") || close < 0 {
		return nd, fmt.Errorf("bad tree line %q", line)
	}
	depth, err := strconv.Atoi(s[1:close])
	if err != nil || len(line)-len(s) != 2*depth {
		return nd, fmt.Errorf("bad tree depth in %q", line)
	}
	s = s[close+2:]
	brace := strings.LastIndex(s, " {")
	lvlOpen := strings.LastIndex(s, "} [")
	if brace < 0 || lvlOpen < brace || !strings.HasSuffix(s, "]") {
		return nd, fmt.Errorf("bad tree line %q", line)
	}
	nd.Level, err = strconv.Atoi(s[lvlOpen+3 : len(s)-1])
	if err != nil || nd.Level != depth-1 {
		return nd, fmt.Errorf("bad tree level in %q", line)
	}
	name := s[:brace]
	if name == " "+analysis.VirtualExitName {
		nd.Name = analysis.VirtualExitName
		return nd, nil
	}
	names, err := splitOperands(name)
	if err != nil || len(names) != 1 {
		return nd, fmt.Errorf("bad block operand in %q", line)
	}
	nd.Name = names[0]
	return nd, nil
}

// splitOperands splits a space-separated list of %-operands into bare names.
func splitOperands(s string) ([]string, error) {
	var out []string
	b := []byte(s)
	for {
		for len(b) > 0 && b[0] == ' ' {
			b = b[1:]
		}
		if len(b) == 0 {
			return out, nil
		}
		if b[0] != '%' {
			return nil, fmt.Errorf("expected %%operand at %q", b)
		}
		name, rest, err := ParseLLName(b[1:])
		if err != nil {
			return nil, err
		}
		out = append(out, name)
		b = rest
	}
}

// parseCycleLine parses "        depth=2: entries(b a) c d". known holds
// the block names that contain spaces (may be nil).
func parseCycleLine(line string, known map[string]bool) (OptCycle, error) {
	var c OptCycle
	s := strings.TrimLeft(line, " ")
	indent := len(line) - len(s)
	rest, ok := strings.CutPrefix(s, "depth=")
	colon := strings.Index(rest, ": entries(")
	if !ok || colon < 0 {
		return c, fmt.Errorf("bad cycle line %q", line)
	}
	d, err := strconv.Atoi(rest[:colon])
	if err != nil || d < 1 || indent != 4*d {
		return c, fmt.Errorf("bad cycle depth in %q", line)
	}
	c.Depth = d
	rest = rest[colon+len(": entries("):]
	end := strings.Index(rest, ")")
	if end < 0 {
		return c, fmt.Errorf("bad cycle entries in %q", line)
	}
	c.Entries = splitNames(rest[:end], known)
	c.Blocks = splitNames(strings.TrimPrefix(rest[end+1:], " "), known)
	if len(c.Entries) == 0 {
		return c, fmt.Errorf("cycle without entries in %q", line)
	}
	return c, nil
}

// splitNames splits a space-separated list of bare block names, rejoining
// adjacent words that form a name in known (longest match first).
func splitNames(s string, known map[string]bool) []string {
	if s == "" {
		return nil
	}
	words := strings.Split(s, " ")
	if len(known) == 0 {
		return words
	}
	maxWords := 1
	for k := range known {
		maxWords = max(maxWords, strings.Count(k, " ")+1)
	}
	var out []string
	for i := 0; i < len(words); {
		j := min(len(words), i+maxWords)
		for ; j > i+1; j-- {
			if known[strings.Join(words[i:j], " ")] {
				break
			}
		}
		out = append(out, strings.Join(words[i:j], " "))
		i = j
	}
	return out
}

// CompareTrees compares two trees as sets: the same nodes with the same
// immediate (post-)dominators, and the same set of roots. It returns a
// description of each difference (at most limit, 0 for all).
func CompareTrees(want, got *OptTree, limit int) []string {
	var diffs []string
	add := func(format string, args ...any) {
		if limit <= 0 || len(diffs) < limit {
			diffs = append(diffs, fmt.Sprintf(format, args...))
		}
	}
	wi, gi := want.IDoms(), got.IDoms()
	for _, nd := range want.Nodes {
		if nd.Parent < 0 {
			continue
		}
		w := wi[nd.Name]
		if g, ok := gi[nd.Name]; !ok {
			add("%s: missing (want idom %s)", nd.Name, w)
		} else if g != w {
			add("%s: idom %s, want %s", nd.Name, g, w)
		}
	}
	for _, nd := range got.Nodes {
		if _, ok := wi[nd.Name]; !ok && nd.Parent >= 0 {
			add("%s: unexpected node (idom %s)", nd.Name, gi[nd.Name])
		}
	}
	if want.Nodes[0].Name != got.Nodes[0].Name {
		add("root %s, want %s", got.Nodes[0].Name, want.Nodes[0].Name)
	}
	wr, gr := slices.Clone(want.Roots), slices.Clone(got.Roots)
	slices.Sort(wr)
	slices.Sort(gr)
	if !slices.Equal(wr, gr) {
		add("roots %v, want %v", got.Roots, want.Roots)
	}
	return diffs
}

// CompareCycles compares two cycle infos as sets of (depth, header, entries,
// blocks, parent) and returns a description of each difference (at most
// limit, 0 for all).
func CompareCycles(want, got *OptCycles, limit int) []string {
	var diffs []string
	ws, gs := want.Set(), got.Set()
	for _, k := range sortedKeys(ws) {
		if !gs[k] && (limit <= 0 || len(diffs) < limit) {
			diffs = append(diffs, "missing cycle "+k)
		}
	}
	for _, k := range sortedKeys(gs) {
		if !ws[k] && (limit <= 0 || len(diffs) < limit) {
			diffs = append(diffs, "unexpected cycle "+k)
		}
	}
	return diffs
}

func sortedKeys(m map[string]bool) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// TreeOf converts t into the structure ParseOpt produces for the printed
// tree, with names from g.
func TreeOf(g *analysis.Graph, t *analysis.DomTree) *OptTree {
	ot := &OptTree{Post: t.IsPostDom()}
	name := func(n int) string {
		if n == t.VirtualExit() {
			return analysis.VirtualExitName
		}
		return g.Name(n)
	}
	analysis.WalkTree(t, func(n, level int, parentIdx int) {
		ot.Nodes = append(ot.Nodes, OptTreeNode{Name: name(n), Level: level, Parent: parentIdx})
	})
	for _, r := range t.Roots() {
		ot.Roots = append(ot.Roots, g.Name(r))
	}
	return ot
}

// CyclesOf converts ci into the structure ParseOpt produces for printed
// cycle info, with names from g.
func CyclesOf(g *analysis.Graph, ci *analysis.CycleInfo) *OptCycles {
	oc := &OptCycles{Cycles: make([]OptCycle, ci.Len())}
	for c := 0; c < ci.Len(); c++ {
		cy := OptCycle{Depth: ci.Depth(c), Parent: ci.Parent(c)}
		for _, e := range ci.Entries(c) {
			cy.Entries = append(cy.Entries, g.Name(e))
		}
		for _, b := range ci.Blocks(c) {
			if !slices.Contains(ci.Entries(c), b) {
				cy.Blocks = append(cy.Blocks, g.Name(b))
			}
		}
		oc.Cycles[c] = cy
	}
	return oc
}
