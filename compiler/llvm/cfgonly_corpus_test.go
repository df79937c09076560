package llvm_test

import (
	"bytes"
	"fmt"

	"passlens/compiler/load"
	"passlens/internal/headless"
)

// cfgKinds are the analyses `passlens analyze` serves from a CFG-only
// import.
var cfgKinds = []string{"domtree", "postdomtree", "cycles"}

// cfgOnlyDiff loads ll as `passlens analyze` does, fully (with the
// listing) and CFG-only (load.Options.CFGOnly, what --print=domtree,
// postdomtree,cycles uses), and describes the first difference ("" if
// none): the same error, or byte-identical printouts of the three CFG
// analyses. compareModule runs it on every module of the opt-22
// corpora, where the full import's printouts are compared with opt-22's.
func cfgOnlyDiff(label string, ll []byte) string {
	var out [2]bytes.Buffer
	var errs [2]error
	for i, cfgOnly := range []bool{false, true} {
		src := &load.Source{Name: label, Path: label, Kind: "ll", Text: ll}
		m, err := load.Module(src, load.Options{CFGOnly: cfgOnly})
		if err == nil {
			err = headless.AnalyzeListing(&out[i], m, src.Listing, cfgKinds, "")
		}
		errs[i] = err
	}
	if (errs[0] == nil) != (errs[1] == nil) || errs[0] != nil && errs[0].Error() != errs[1].Error() {
		return fmt.Sprintf("%s: full and CFG-only imports disagree: %v / %v", label, errs[0], errs[1])
	}
	if !bytes.Equal(out[0].Bytes(), out[1].Bytes()) {
		return fmt.Sprintf("%s: CFG-only analyze output differs from the full import's (%d vs %d bytes)", label, out[0].Len(), out[1].Len())
	}
	return ""
}
