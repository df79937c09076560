package load

import (
	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
)

// compileHLSL runs the HLSL frontend and lowers the checked program to IR.
func compileHLSL(src *Source, opts Options) (*ir.Module, error) {
	o := hlslOptions(src, opts)
	prog, diags := hlsl.Frontend(src.Path, src.Text, o)
	if diags.HasErrors() {
		return nil, &DiagError{Text: renderDiags(prog, src, diags), Diags: diags}
	}
	return nil, &DiagError{Text: src.Path + ": error: lowering HLSL to IR is not available yet"}
}
