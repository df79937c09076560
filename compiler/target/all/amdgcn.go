package all

import (
	"passlens/compiler/ir"
	"passlens/compiler/llvm"
	"passlens/compiler/target"
)

// The target.AMDGCNLL back end writes the IR as LLVM IR for amdgcn
// (compiler/llvm.Export), for cross-checks with opt-22 -mtriple=amdgcn--.
// It has no pipeline of its own: like target.PIR it takes the IR after the
// passes the user asked for.
func init() {
	target.Register(target.AMDGCNLL, func(m *ir.Module) (*target.Output, error) {
		text, err := llvm.Export(m)
		if err != nil {
			return nil, err
		}
		return &target.Output{Text: text, Lang: "llvm", Ext: ".ll"}, nil
	})
}
