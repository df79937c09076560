//go:build ignore

// gendoc writes zz_doc.go, the table of pass summaries and descriptions
// taken from the doc comments of the pass variables (see
// internal/passdoc). Run it with `go generate ./compiler/passes`.
package main

import (
	"fmt"
	"os"

	"passlens/compiler/passes/internal/passdoc"
)

func main() {
	if err := passdoc.Write("zz_doc.go", passdoc.Dirs...); err != nil {
		fmt.Fprintln(os.Stderr, "gendoc:", err)
		os.Exit(1)
	}
}
