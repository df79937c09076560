package headless

import (
	"fmt"
	"io"

	"passlens/compiler/ir"
)

func writeUniformity(w io.Writer, f *ir.Function) error {
	return fmt.Errorf("uniformity analysis is not wired yet")
}

// Explain prints why a value is divergent.
func Explain(w io.Writer, m *ir.Module, fn, value string) error {
	return fmt.Errorf("uniformity analysis is not wired yet")
}
