package headless

import (
	"fmt"
	"io"
	"strings"

	"passlens/compiler/analysis/uniformity"
	"passlens/compiler/ir"
)

// Explain prints why value (e.g. %x, or a block name %bb for its
// terminator) is divergent, as a chain back to a divergence source. fn
// selects the function ("" searches every function).
func Explain(w io.Writer, m *ir.Module, fn, value string) error {
	if !strings.HasPrefix(value, "%") {
		value = "%" + value
	}
	for _, f := range m.Funcs {
		if f.IsDeclaration() || (fn != "" && f.Name() != fn) {
			continue
		}
		var v ir.Value
		var blk *ir.Block
		for _, p := range f.Params {
			if p.Ref() == value {
				v = p
			}
		}
		for _, b := range f.Blocks {
			if b.Ref() == value {
				blk = b
			}
			for _, in := range b.Instrs {
				if in.HasResult() && in.Ref() == value {
					v = in
				}
			}
		}
		if v == nil && blk == nil {
			continue
		}
		u := uniformity.Uniformity(f)
		var steps []uniformity.ExplainStep
		if v != nil {
			steps = u.Explain(v)
		} else {
			steps = u.ExplainTerminator(blk)
		}
		if len(steps) == 0 {
			if v != nil {
				fmt.Fprintf(w, "%s is uniform in @%s\n", value, f.Name())
			} else {
				fmt.Fprintf(w, "the terminator of %s is uniform in @%s\n", value, f.Name())
			}
			return nil
		}
		io.WriteString(w, u.FormatExplain(steps))
		return nil
	}
	return fmt.Errorf("no value or block %s in the module", value)
}
