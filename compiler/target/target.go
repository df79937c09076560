// Package target turns the final snapshot of a pipeline into target code:
// SPIR-V (compiler/target/spirv), SM3 assembly (compiler/target/sm3, through
// the SIR back-end IR) and DXIL-style scalar LLVM IR (compiler/target/dxil),
// or the passlens IR itself for target "pir".
package target

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"passlens/compiler/ir"
)

// Output is emitted target code.
type Output struct {
	Text   string // readable form (assembly / IR text)
	Binary []byte // binary form where the target has one (SPIR-V words)
	Lang   string // lexer name for the text: "pir", "spvasm", "sm3", "llvm"
	Ext    string // default file extension for the text form
	BinExt string // default file extension for the binary form

	// Stages are the back end's own intermediate forms (for SM3: SIR after
	// lowering, after each optimization and after register assignment), in
	// order, so tools can show them as steps after the IR passes.
	Stages []Stage
}

// Stage is one back-end intermediate form.
type Stage struct {
	Name    string // e.g. "sir-lower"
	Summary string // one line: what the stage did
	Text    string // the whole form after the stage
	Lang    string // lexer name for Text

	Duration time.Duration // wall time of the stage
}

// Emitter produces code for one target from a module that went through the
// target's pipeline.
type Emitter func(m *ir.Module) (*Output, error)

var (
	mu       sync.RWMutex
	emitters = map[Name]Emitter{
		PIR: func(m *ir.Module) (*Output, error) {
			return &Output{Text: m.String(), Lang: "pir", Ext: ".pir"}, nil
		},
	}
)

// Register installs the emitter for a target (back-end packages call it
// from init).
func Register(name Name, e Emitter) {
	mu.Lock()
	defer mu.Unlock()
	emitters[name] = e
}

// Emit runs the target's emitter. Every back end but "pir" (the IR as
// text, useful precisely when it is broken) first verifies the module and
// refuses one that does not verify: with --verify-each=false a pass's bad
// output would otherwise become invalid SPIR-V or LLVM IR written as if
// all was well.
func Emit(name Name, m *ir.Module) (*Output, error) {
	mu.RLock()
	e, ok := emitters[name]
	mu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("no back end for target %q (available: %v)", name, Names())
	}
	if name != PIR {
		if err := ir.Verify(m); err != nil {
			return nil, fmt.Errorf("%s: refusing to emit a module that does not verify (a pass produced invalid IR):\n%v", name, err)
		}
	}
	return e(m)
}

// Names lists targets with an emitter.
func Names() []Name {
	mu.RLock()
	defer mu.RUnlock()
	var out []Name
	for n := range emitters {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}
