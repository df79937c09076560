package load

import (
	"passlens/compiler/hlsl"
	"passlens/compiler/hlsl/lower"
	"passlens/compiler/ir"
)

// compileHLSL runs the HLSL frontend and lowers the checked program to IR
// (lower.Lower). Errors of either step come back as a *DiagError whose text
// is the rendered diagnostics (file:line:col, source line and caret);
// warnings of a successful compile are dropped.
func compileHLSL(src *Source, opts Options) (*ir.Module, error) {
	o := hlslOptions(src, opts)
	prog, diags := hlsl.Frontend(src.Path, src.Text, o)
	if diags.HasErrors() {
		return nil, &DiagError{Text: renderDiags(prog, src, diags), Diags: diags}
	}
	m, ldiags := lower.Lower(prog, o)
	if ldiags.HasErrors() || m == nil {
		return nil, &DiagError{Text: renderDiags(prog, src, ldiags), Diags: ldiags}
	}
	return m, nil
}
