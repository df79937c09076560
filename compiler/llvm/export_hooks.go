package llvm

import "passlens/compiler/ir"

// RegisterExternalIntrinsic registers (or returns the existing) intrinsic
// that the exporter writes as a call of the function called name, verbatim,
// with a declaration taken from the call's types — the treatment given to
// intrinsics imported from LLVM. Back ends that emit their own LLVM
// functions (the DXIL back end's dx.op.* calls) use it so that Export
// prints them without a second LLVM printer.
func RegisterExternalIntrinsic(name string, attrs ir.Attr, nargs int) *ir.Intrinsic {
	return ir.RegisterIntrinsic(name, attrs, nargs, nargs, importedDoc+name)
}
