package passdump

import (
	"fmt"
	"strings"
)

// SPIRVCFG reads the control-flow graph of one SPIR-V function in assembly
// ("%f = OpFunction …" through "OpFunctionEnd", as spirv-opt --print-all and
// spirv-dis print it): a block per OpLabel, successors from its terminator
// (OpBranch, OpBranchConditional true then false, OpSwitch default then the
// cases). Block names are the label ids without "%". A branch to a label the
// function does not define is an error with its line.
func SPIRVCFG(text string) (*CFG, error) {
	g := &CFG{}
	idx := map[string]int{}
	type edge struct {
		from   int
		target string
		line   int
	}
	var edges []edge
	cur := -1
	for n, l := range strings.Split(text, "\n") {
		f := strings.Fields(l)
		if len(f) == 0 || strings.HasPrefix(f[0], ";") {
			continue
		}
		if len(f) >= 3 && f[1] == "=" {
			switch f[2] {
			case "OpFunction":
				g.Func = strings.TrimPrefix(f[0], "%")
			case "OpLabel":
				name := strings.TrimPrefix(f[0], "%")
				if _, dup := idx[name]; dup {
					return nil, fmt.Errorf("line %d: label %%%s defined twice", n+1, name)
				}
				cur = len(g.Blocks)
				idx[name] = cur
				g.Blocks = append(g.Blocks, name)
				g.Succs = append(g.Succs, nil)
			}
			continue
		}
		if cur < 0 {
			continue
		}
		var targets []string
		switch f[0] {
		case "OpBranch":
			targets = f[1:min(2, len(f))]
		case "OpBranchConditional":
			if len(f) >= 4 {
				targets = f[2:4]
			}
		case "OpSwitch":
			if len(f) >= 3 {
				targets = append(targets, f[2])
				for i := 4; i < len(f); i += 2 {
					targets = append(targets, f[i])
				}
			}
		default:
			continue
		}
		for _, t := range targets {
			edges = append(edges, edge{cur, strings.TrimPrefix(t, "%"), n + 1})
		}
	}
	for _, e := range edges {
		t, ok := idx[e.target]
		if !ok {
			return nil, fmt.Errorf("line %d: branch to %%%s, which is not a label of %s", e.line, e.target, g.Func)
		}
		g.Succs[e.from] = append(g.Succs[e.from], t)
	}
	return g, nil
}
