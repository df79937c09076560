package llvm

// maxNesting bounds how deeply types and constants may nest in an .ll
// file: the parser recurses once per level, and a 4 MiB line of
// "[1 x [1 x ..." must end in a located error, not a stack overflow or
// minutes of work.
const maxNesting = 256

// nest enters one level of nesting; when it returns nil the caller defers
// p.depth--.
func (p *parser) nest(what string) error {
	if p.depth >= maxNesting {
		return p.errAt(p.tok(), "%s nested too deeply (more than %d levels)", what, maxNesting)
	}
	p.depth++
	return nil
}
