package ir

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
)

// Stage is a shader stage of an entry point.
type Stage uint8

const (
	StageNone Stage = iota
	StageCompute
	StagePixel
	StageVertex
)

var stageNames = [...]string{"", "compute", "pixel", "vertex"}

func (s Stage) String() string { return stageNames[s] }

// ParseStage is the inverse of Stage.String.
func ParseStage(s string) (Stage, bool) {
	for i, n := range stageNames {
		if n == s && i > 0 {
			return Stage(i), true
		}
	}
	return StageNone, false
}

// EntryPoint marks a function as a shader entry point.
type EntryPoint struct {
	Stage      Stage
	NumThreads [3]int // compute only
	// WaveSize is the wave size the shader requires ([WaveSize(n)]), 0
	// for any; the interpreter runs at it unless told otherwise.
	WaveSize int
	// RootSignature is the entry's [RootSignature("…")] in canonical
	// form (shown, not used for layout).
	RootSignature string
}

// Module is a translation unit: struct types, globals and functions.
type Module struct {
	Name    string // usually the source file name
	Structs []*Type
	Globals []*Global
	Funcs   []*Function
}

// Block is a basic block: phis first, then ordinary instructions, then
// exactly one terminator.
type Block struct {
	name   string
	Instrs []*Instr
	Func   *Function
	// Index is the block's position in Func.Blocks, its node in the
	// function's CFG (see Function.CFG). The layout methods of Function
	// (NewBlock, NewBlockAfter, RemoveBlocks, SetBlocks), the parsers and
	// Clone keep it current; Function.CFG renumbers after any other change.
	Index int
}

func (b *Block) Name() string     { return b.name }
func (b *Block) Ref() string      { return "%" + quoteName(b.name) }
func (b *Block) SetName(n string) { b.name = n }

// Terminator returns the block's last instruction if it is a terminator.
func (b *Block) Terminator() *Instr {
	if n := len(b.Instrs); n > 0 && b.Instrs[n-1].IsTerminator() {
		return b.Instrs[n-1]
	}
	return nil
}

// Successors returns the block's CFG successors (see Instr.Successors).
func (b *Block) Successors() []*Block {
	if t := b.Terminator(); t != nil {
		return t.Successors()
	}
	return nil
}

// Phis returns the leading phi instructions.
func (b *Block) Phis() []*Instr {
	n := 0
	for n < len(b.Instrs) && b.Instrs[n].Op == OpPhi {
		n++
	}
	return b.Instrs[:n]
}

// FirstNonPhi returns the index of the first non-phi instruction.
func (b *Block) FirstNonPhi() int { return len(b.Phis()) }

// Function is a function definition (Blocks non-empty; Blocks[0] is the
// entry) or a declaration (no blocks).
type Function struct {
	name   string
	Params []*Param
	Ret    *Type
	Blocks []*Block
	Entry  *EntryPoint // non-nil for shader entry points
	Module *Module

	names map[string]int // every name in use (values and blocks) -> next suffix

	cfg atomic.Pointer[CFG] // cached control-flow graph, see CFG
}

func (f *Function) Name() string        { return f.name }
func (f *Function) Ref() string         { return "@" + quoteName(f.name) }
func (f *Function) IsDeclaration() bool { return len(f.Blocks) == 0 }

// NewModule returns an empty module.
func NewModule(name string) *Module { return &Module{Name: name} }

// AddStruct registers a struct type, keeping names unique.
func (m *Module) AddStruct(t *Type) {
	for _, s := range m.Structs {
		if s == t {
			return
		}
	}
	m.Structs = append(m.Structs, t)
}

// AddGlobal adds g to the module.
func (m *Module) AddGlobal(g *Global) { m.Globals = append(m.Globals, g) }

// Global finds a global by name.
func (m *Module) Global(name string) *Global {
	for _, g := range m.Globals {
		if g.name == name {
			return g
		}
	}
	return nil
}

// SetGlobalName renames a global.
func (g *Global) SetName(n string) { g.name = n }

// Func finds a function by name.
func (m *Module) Func(name string) *Function {
	for _, f := range m.Funcs {
		if f.name == name {
			return f
		}
	}
	return nil
}

// EntryPoints returns the functions marked as entry points, in module order.
func (m *Module) EntryPoints() []*Function {
	var out []*Function
	for _, f := range m.Funcs {
		if f.Entry != nil {
			out = append(out, f)
		}
	}
	return out
}

// NewFunction adds a function with the given signature to m. Parameters get
// the given names (made unique).
func (m *Module) NewFunction(name string, ret *Type, paramNames []string, paramTypes []*Type) *Function {
	f := &Function{name: name, Ret: ret, Module: m, names: map[string]int{}}
	for i, t := range paramTypes {
		n := ""
		if i < len(paramNames) {
			n = paramNames[i]
		}
		p := &Param{typ: t, Func: f, Index: i}
		p.name = f.UniqueName(n)
		f.Params = append(f.Params, p)
	}
	if m != nil {
		m.Funcs = append(m.Funcs, f)
	}
	return f
}

// SetName renames the function (callers keep pointing at it).
func (f *Function) SetName(n string) { f.name = n }

// UniqueName reserves and returns a name based on base that no value or
// block of f uses yet: base itself, else base.1, base.2, ... An empty base
// yields t0, t1, ... Names are never reused, so names stay stable across
// passes and diffs show real change.
func (f *Function) UniqueName(base string) string {
	if f.names == nil {
		f.names = map[string]int{}
	}
	if base == "" {
		base = "t"
		for {
			n := f.names["\x00t"]
			f.names["\x00t"] = n + 1
			cand := "t" + strconv.Itoa(n)
			if _, used := f.names[cand]; !used {
				f.names[cand] = 0
				return cand
			}
		}
	}
	if _, used := f.names[base]; !used {
		f.names[base] = 0
		return base
	}
	stem := base
	// Strip an existing numeric suffix so "x.1" begets "x.2", not "x.1.1".
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		if _, err := strconv.Atoi(base[i+1:]); err == nil {
			stem = base[:i]
		}
	}
	for {
		n := f.names[stem] + 1
		f.names[stem] = n
		cand := stem + "." + strconv.Itoa(n)
		if _, used := f.names[cand]; !used {
			f.names[cand] = 0
			return cand
		}
	}
}

// ReserveName marks n as used (parsers call it for names read from text).
// It reports false if n was already used.
func (f *Function) ReserveName(n string) bool {
	if f.names == nil {
		f.names = map[string]int{}
	}
	if _, used := f.names[n]; used {
		return false
	}
	f.names[n] = 0
	return true
}

// NewBlock appends a new block named after base.
func (f *Function) NewBlock(base string) *Block {
	b := &Block{name: f.UniqueName(base), Func: f, Index: len(f.Blocks)}
	f.Blocks = append(f.Blocks, b)
	return b
}

// NewBlockAfter inserts a new block right after `after` in layout order.
func (f *Function) NewBlockAfter(after *Block, base string) *Block {
	b := &Block{name: f.UniqueName(base), Func: f}
	idx := len(f.Blocks)
	for i, x := range f.Blocks {
		if x == after {
			idx = i + 1
			break
		}
	}
	f.Blocks = append(f.Blocks, nil)
	copy(f.Blocks[idx+1:], f.Blocks[idx:])
	f.Blocks[idx] = b
	f.renumber(idx)
	return b
}

// SetBlocks replaces the block layout (a pass that reorders or drops
// blocks; the caller fixes edges and phis) and renumbers Block.Index.
func (f *Function) SetBlocks(blocks []*Block) {
	f.Blocks = blocks
	f.renumber(0)
}

// renumber sets Block.Index for the blocks from position from on.
func (f *Function) renumber(from int) {
	for i := from; i < len(f.Blocks); i++ {
		if b := f.Blocks[i]; b != nil {
			b.Index = i
		}
	}
}

// RemoveBlocks deletes the given blocks from the layout (the caller fixes
// edges and phis).
func (f *Function) RemoveBlocks(dead map[*Block]bool) {
	out := f.Blocks[:0]
	for _, b := range f.Blocks {
		if !dead[b] {
			out = append(out, b)
		}
	}
	for i := len(out); i < len(f.Blocks); i++ {
		f.Blocks[i] = nil
	}
	f.Blocks = out
	f.renumber(0)
}

// Block finds a block by name.
func (f *Function) Block(name string) *Block {
	for _, b := range f.Blocks {
		if b.name == name {
			return b
		}
	}
	return nil
}

// NumInstrs counts instructions.
func (f *Function) NumInstrs() int {
	n := 0
	for _, b := range f.Blocks {
		n += len(b.Instrs)
	}
	return n
}

// ReplaceUses rewrites every operand that is a key of repl to its value
// (following chains, so a->b, b->c rewrites a to c). One walk over f.
func (f *Function) ReplaceUses(repl map[Value]Value) {
	if len(repl) == 0 {
		return
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			for i, a := range in.Args {
				if _, ok := repl[a]; ok {
					in.Args[i] = Resolve(repl, a)
				}
			}
		}
	}
}

// Resolve follows v's chain of replacements in repl (v -> repl[v] -> ...)
// to its end, however long: a pass replacing a chain of N loads builds a
// chain of N replacements. The chain is compressed on the way (every value
// on it then maps to the end), so resolving every value of a map is linear
// in its size. A cycle is a bug of the caller and panics.
func Resolve(repl map[Value]Value, v Value) Value {
	end := v
	for steps := 0; ; steps++ {
		n, ok := repl[end]
		if !ok || n == end {
			break
		}
		if steps > len(repl) {
			panic("ir: cycle in a value replacement map")
		}
		end = n
	}
	for x := v; x != end; {
		n := repl[x]
		if n == end || n == x {
			break
		}
		repl[x] = end
		x = n
	}
	return end
}

// String prints the function in the textual IR.
func (f *Function) String() string {
	var sb strings.Builder
	NewPrinter(&sb).Function(f)
	return sb.String()
}

// String prints the module in the textual IR.
func (m *Module) String() string {
	var sb strings.Builder
	NewPrinter(&sb).Module(m)
	return sb.String()
}

// Errorf is a convenience for verifier-style messages naming a function.
func (f *Function) Errorf(format string, args ...any) error {
	return fmt.Errorf("function @%s: %s", f.name, fmt.Sprintf(format, args...))
}
