package headless

import (
	"io"

	"passlens/compiler/analysis/uniformity"
	"passlens/compiler/ir"
	"passlens/compiler/llvm"
)

// writeUniformity prints f's uniformity as opt-22's print<uniformity>,
// with LLVM's instruction text when fl (the function's import listing) is
// not nil.
func writeUniformity(w io.Writer, f *ir.Function, fl *llvm.FuncListing) error {
	u := uniformity.Uniformity(f)
	if fl == nil {
		return u.WriteOpt(w)
	}
	return u.WriteOptListing(w, optListing(f, fl))
}

// optListing converts an import listing into the printer's form.
func optListing(f *ir.Function, fl *llvm.FuncListing) *uniformity.OptListing {
	lst := &uniformity.OptListing{Params: make([]string, len(f.Params))}
	for i := range f.Params {
		lst.Params[i] = fl.ParamText(i)
	}
	for _, b := range fl.Blocks {
		ob := uniformity.OptBlock{Block: b.Block}
		for _, d := range b.Defs {
			ob.Defs = append(ob.Defs, uniformity.OptInstr{Instr: d.Instr, Text: fl.Text(d)})
		}
		if b.Term.Instr != nil {
			ob.Term = uniformity.OptInstr{Instr: b.Term.Instr, Text: fl.Text(b.Term)}
		}
		lst.Blocks = append(lst.Blocks, ob)
	}
	return lst
}
