package headless

import (
	"fmt"
	"io"
	"strings"

	"passlens/compiler/analysis"
	"passlens/compiler/ir"
	"passlens/compiler/llvm"
)

// AnalysisKinds are the analyses `passlens analyze --print=` accepts.
var AnalysisKinds = []string{"domtree", "postdomtree", "cycles", "uniformity"}

// Analyze prints the requested analyses of every defined function of m (or
// only fn) in the shapes of opt-22's print<domtree>, print<postdomtree>,
// print<cycles> and print<uniformity>, in that order per function, as opt
// prints a pass list.
func Analyze(w io.Writer, m *ir.Module, kinds []string, fn string) error {
	return AnalyzeListing(w, m, nil, kinds, fn)
}

// AnalyzeListing is Analyze for a module imported from LLVM IR with its
// listing (llvm.ImportListing; nil: passlens text): the uniformity printer
// then shows arguments and instructions in LLVM syntax, as opt-22 prints
// them, so the whole output can be diffed against opt's line by line.
func AnalyzeListing(w io.Writer, m *ir.Module, lst *llvm.Listing, kinds []string, fn string) error {
	for _, k := range kinds {
		if !validKind(k) {
			return fmt.Errorf("unknown analysis %q (want %s)", k, strings.Join(AnalysisKinds, ", "))
		}
	}
	found := false
	for _, f := range m.Funcs {
		if f.IsDeclaration() || (fn != "" && f.Name() != fn) {
			continue
		}
		found = true
		fg := analysis.NewFuncGraph(f)
		for _, k := range kinds {
			var err error
			switch k {
			case "domtree":
				err = analysis.WriteDomTree(w, f.Name(), fg.Graph, fg.CFG.Dom())
			case "postdomtree":
				err = analysis.WriteDomTree(w, f.Name(), fg.Graph, fg.CFG.PostDom())
			case "cycles":
				err = analysis.WriteCycles(w, f.Name(), fg.Graph, fg.CFG.Cycles())
			case "uniformity":
				err = writeUniformity(w, f, lst.Func(f))
			}
			if err != nil {
				return err
			}
		}
	}
	if !found {
		if fn != "" {
			return fmt.Errorf("no function @%s", fn)
		}
		return fmt.Errorf("the module defines no function")
	}
	return nil
}

func validKind(k string) bool {
	for _, x := range AnalysisKinds {
		if x == k {
			return true
		}
	}
	return false
}
