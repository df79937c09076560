package llvm

import "passlens/compiler/ir"

// ImportOptions select how much of a module the import builds.
type ImportOptions struct {
	// CFGOnly builds only what the dominator, post-dominator and cycle
	// analyses read: every function, its blocks and each block's
	// terminator with its successors. Every instruction is still read and
	// checked as in a full import (syntax, names, types, the opaque
	// fallback), so a file imports in this mode exactly when it imports
	// fully, with the same error; but the instructions before each
	// terminator are dropped once checked, and a terminator's operands
	// that are instruction results become undef of the same type (its
	// successors are kept). The result is valid passlens IR whose CFG is
	// the full import's, block for block, at a fraction of the memory:
	// no ir.Instr outlives its block except the terminators.
	CFGOnly bool
}

// ImportWith is Import with options. With CFGOnly the module has the full
// import's functions, blocks and CFG and no other instructions (see
// ImportOptions); there is no listing to go with it.
func ImportWith(filename string, src []byte, opts ImportOptions) (*ir.Module, error) {
	return importModule(filename, src, nil, opts)
}

// cfgValue stands for an instruction result in a CFG-only import: what
// checking the uses of the value needs (its name and its current type) in
// 24 bytes, where the full import pre-creates a 224-byte ir.Instr. The
// instruction itself is lowered into a scratch ir.Instr that lives only
// until its block is done; the type it ends with is copied back here
// (getelementptr and extractvalue may refine the pre-computed type), so
// later uses are checked against the same type as in a full import.
type cfgValue struct {
	name string
	typ  *ir.Type
}

func (v *cfgValue) Type() *ir.Type { return v.typ }
func (v *cfgValue) Name() string   { return v.name }
func (v *cfgValue) Ref() string    { return "%" + ir.QuoteName(v.name) }

// scratchInstr is the instruction a CFG-only import lowers the definition
// of v into: the same name and type as the full import's pre-created
// instruction, with the name not reserved in f (the instruction does not
// stay in the function).
func scratchInstr(f *ir.Function, v *cfgValue, loc ir.Loc) *ir.Instr {
	it := ir.NewInstr(f, ir.OpInvalid, ir.Void, "")
	it.SetType(v.typ)
	it.SetRawName(v.name)
	it.Loc = loc
	return it
}

// keepTerminator reduces a checked block of a CFG-only import to its
// terminator. Operands that are instructions (dropped with their block)
// or stand-ins become undef of their type; parameters, globals and
// constants stay. The successors are untouched.
func keepTerminator(b *ir.Block) {
	t := b.Instrs[len(b.Instrs)-1]
	for i, a := range t.Args {
		switch a.(type) {
		case *ir.Const, *ir.Param, *ir.Global:
		default:
			t.Args[i] = ir.ConstUndef(a.Type())
		}
	}
	b.Instrs = []*ir.Instr{t}
}
