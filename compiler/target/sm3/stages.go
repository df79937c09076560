package sm3

import (
	"fmt"
	"strings"
	"time"

	"passlens/compiler/ir"
	"passlens/compiler/sir"
	"passlens/compiler/target"
)

// lowerSIR lowers the entry point to SIR and optimizes it, recording the
// SIR text after each step so the explorer can show the back end's work
// as steps after the IR passes (issue: "SIR stages appear as snapshots").
// The optimizations run as sir.Optimize runs them — fold, constant
// folding, copy-prop, CSE, mad fusion, hoisting, DCE to a fixed point,
// then register pruning — with one stage per optimization of the first
// round shown here and one for the rest.
func lowerSIR(fn *ir.Function) (*sir.Func, []target.Stage, error) {
	start := time.Now()
	f, err := sir.Lower(fn, 1)
	if err != nil {
		return nil, nil, err
	}
	var stages []target.Stage
	record := func(name, summary string) {
		d := time.Since(start)
		stages = append(stages, target.Stage{Name: name, Summary: summary, Text: f.String(), Lang: "sir", Duration: d})
		start = time.Now()
	}
	record("sir-lower", "scalarized IR → SIR: logical registers, exec ranges, SIMD groups")
	round := []struct {
		name, summary string
		run           func(*sir.Func) bool
	}{
		{"sir-fold", "fold constant operations", sir.Fold},
		{"sir-copy-prop", "forward copies into their uses", sir.CopyProp},
		{"sir-cse", "reuse identical pure instructions", sir.CSE},
		{"sir-dce", "delete instructions whose results are unused", sir.DCE},
	}
	for _, p := range round {
		p.run(f)
		record(p.name, p.summary)
	}
	// The remaining rounds to a fixed point, with mad fusion (which the
	// stages above do not show on their own), then register pruning.
	sir.Optimize(f)
	record("sir-optimize", "fold, constants, copy-prop, CSE, mad fusion, hoisting and DCE to a fixed point; prune unused registers")
	return f, stages, nil
}

// allocStage is the SIR after register assignment: each register line
// carries the SM3 register it was given.
func (e *emitter) allocStage(d time.Duration) target.Stage {
	lines := strings.Split(strings.TrimSuffix(e.f.String(), "\n"), "\n")
	for i, r := range e.f.Regs {
		if i+1 >= len(lines) {
			break
		}
		if loc, ok := e.loc[r]; ok {
			lines[i+1] = fmt.Sprintf("%-40s ; %s", lines[i+1], loc)
		}
	}
	return target.Stage{Name: "sir-regalloc", Summary: "assign SM3 registers (r#, c#, v#, o#) to logical registers", Text: strings.Join(lines, "\n") + "\n", Lang: "sir", Duration: d}
}
