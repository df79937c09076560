package backend

import (
	"passlens/compiler/ir"
	"passlens/tui"
)

// addUniformity fills the divergence marks and explanations of a.
func addUniformity(a *tui.Analysis, f *ir.Function) {
	a.Divergent = map[string]tui.DivKind{}
}
