// Package passes holds passlens's IR transformations, one file per pass,
// and the pass table (registry.go) with names, descriptions, the targets
// whose default pipelines use each pass, and ordering constraints.
package passes

import (
	"passlens/compiler/ir"
	"passlens/compiler/target"
)

//go:generate go run gendoc.go

// Pass is one module transformation. Passes mutate the module in place;
// the pipeline (compiler/pipeline), not the pass, owns snapshots.
type Pass struct {
	Name string // spelled in pipeline specs, e.g. "switch-to-if"
	// Summary (one line for `passlens passes` and the pass list) and Doc
	// (the longer description: what it does and why) are not written in
	// the literal: they come from the doc comment of the pass variable,
	// "X is the n pass: <summary>.\n\n<doc>", through the generated
	// table zz_doc.go (`go generate ./compiler/passes`).
	Summary string
	Doc     string
	// Targets are the targets whose default pipelines use the pass, derived
	// from DefaultPipelines when the pass is registered (not written in the
	// literal).
	Targets []target.Name
	// Run transforms m and reports whether anything changed. An error makes
	// the step fail (later passes do not run); a panic is recovered by the
	// pipeline and reported the same way.
	Run func(m *ir.Module, ctx *Context) (changed bool, err error)
}

// Context carries per-run settings to passes.
type Context struct {
	// Target is the target the pipeline compiles for ("" for none). Passes
	// do not test it: target-specific behaviour is a pass option that the
	// target's default pipeline sets (structurize<ifs> for SM3).
	Target target.Name
	// Options are pass options from the pipeline spec, e.g.
	// "switch-to-if<all>" gives Options["switch-to-if"] = "all".
	Options map[string]string
}

// Option returns the option string given to pass name ("" if none).
func (c *Context) Option(name string) string {
	if c == nil || c.Options == nil {
		return ""
	}
	return c.Options[name]
}
