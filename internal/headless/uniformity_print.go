package headless

import (
	"io"

	"passlens/compiler/analysis"
	"passlens/compiler/ir"
)

func writeUniformity(w io.Writer, f *ir.Function) error {
	return analysis.Uniformity(f).WriteOpt(w)
}
