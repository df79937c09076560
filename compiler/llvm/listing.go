package llvm

import (
	"strings"

	"passlens/compiler/ir"
)

// A Listing keeps, for every defined function of an import, LLVM's own
// view of it: each LLVM instruction's source text, in LLVM's order, tied to
// the passlens instruction that stands for it, and each argument's LLVM
// spelling ("ptr addrspace(1) %0"). Printers that imitate opt-22
// (`passlens analyze --print=uniformity`) use it to print instructions in
// LLVM syntax, so their output can be diffed against opt's line by line.
//
// The text is the instruction as written in the file (from its first
// token to the end of its last line, comments removed), with metadata and
// attribute-group numbers changed to the ones opt prints for that function
// (slots.go). opt re-prints instructions from its own IR; for input
// written by an LLVM printer (clang -S, opt -S, llvm-dis) the two are the
// same text, which is what the OpenCL corpus test checks. For hand-written
// input they may differ in spacing and in what LLVM folds or upgrades when
// it parses.
//
// A Listing is only valid for the module exactly as imported: passes that
// change the module make it stale.
type Listing struct {
	src   []byte
	lines []int32 // byte offset of each line start (built on first use)
	funcs map[*ir.Function]*FuncListing
	slots map[string]*funcSlots // opt's numbering by function name (slots.go)
}

// FuncListing is the LLVM view of one function.
type FuncListing struct {
	l      *Listing
	slots  *funcSlots
	params []string
	Blocks []BlockListing
}

// BlockListing is one LLVM basic block: its passlens block, its non-
// terminator instructions (LLVM's "definitions", phis included) and its
// terminator.
type BlockListing struct {
	Block *ir.Block
	Defs  []ListedInstr
	Term  ListedInstr
}

// ListedInstr is one LLVM instruction. Instr is the passlens instruction
// whose divergence is the LLVM instruction's: the instruction that defines
// the LLVM value (for cmpxchg, the final pair), or the lowered instruction
// itself for void ones. Helpers the importer adds (pointer casts,
// materialised constants, the selector of an opaque terminator) are not
// listed.
type ListedInstr struct {
	Instr *ir.Instr
	span  srcSpan
}

// srcSpan locates an instruction in the source (1-based line and column of
// its first token, line of its last token).
type srcSpan struct {
	line, col, endLine int32
}

// Func returns the listing of f, or nil when f is not a defined function
// of the import.
func (l *Listing) Func(f *ir.Function) *FuncListing {
	if l == nil {
		return nil
	}
	return l.funcs[f]
}

// ParamText is the LLVM spelling of the i-th argument as opt prints it in
// "DIVERGENT ARGUMENTS": its type and name ("ptr addrspace(1) %0").
func (fl *FuncListing) ParamText(i int) string { return fl.params[i] }

// Text returns the instruction as written in the source, without
// indentation or comments; an instruction spanning several lines (switch)
// keeps its line breaks and the indentation of its continuation lines, as
// LLVM's printer writes them.
func (fl *FuncListing) Text(li ListedInstr) string {
	return fl.slots.renumber(fl.l.text(li.span))
}

func (l *Listing) text(sp srcSpan) string {
	if l.lines == nil {
		l.lines = append(l.lines, 0)
		for i, c := range l.src {
			if c == '\n' {
				l.lines = append(l.lines, int32(i+1))
			}
		}
	}
	line := func(n int32) []byte {
		if n < 1 || int(n) > len(l.lines) {
			return nil
		}
		start := l.lines[n-1]
		end := int32(len(l.src))
		if int(n) < len(l.lines) {
			end = l.lines[n] - 1
		}
		return l.src[start:end]
	}
	first := line(sp.line)
	col := int(sp.col) - 1
	if col < 0 || col > len(first) {
		col = 0
	}
	var sb strings.Builder
	sb.WriteString(stripComment(first[col:]))
	for n := sp.line + 1; n <= sp.endLine; n++ {
		sb.WriteByte('\n')
		sb.WriteString(stripComment(line(n)))
	}
	return sb.String()
}

// stripComment removes a trailing "; comment" (outside quoted strings),
// trailing white space and a carriage return.
func stripComment(b []byte) string {
	inStr := false
	end := len(b)
	for i, c := range b {
		if c == '"' {
			inStr = !inStr
		} else if c == ';' && !inStr {
			end = i
			break
		}
	}
	return strings.TrimRight(string(b[:end]), " \t\r")
}

// llvmTerminators are the LLVM opcodes that end a block.
var llvmTerminators = setOf("ret", "br", "switch", "indirectbr", "invoke", "callbr", "resume",
	"unreachable", "catchswitch", "catchret", "cleanupret")

// ImportListing is Import that also returns the module's Listing.
func ImportListing(filename string, src []byte) (*ir.Module, *Listing, error) {
	lst := &Listing{src: src, funcs: map[*ir.Function]*FuncListing{}}
	m, err := importModule(filename, src, lst, ImportOptions{})
	if err != nil {
		return nil, nil, err
	}
	return m, lst, nil
}

// listFunc starts the listing of a defined function.
func (lw *lowerer) listFunc(fa *funcAST, f *ir.Function) *FuncListing {
	if lw.listing == nil {
		return nil
	}
	// Blocks is sized up front: grown by append, a 100k-block function's
	// listing left ~25 MB of garbage at the import's peak.
	fl := &FuncListing{l: lw.listing, slots: lw.listing.slots[fa.name], params: make([]string, len(fa.params)),
		Blocks: make([]BlockListing, 0, len(fa.blocks))}
	for i, p := range fa.params {
		n := f.Params[i].Name()
		if !allDigits(n) {
			n = llName(n)
		}
		fl.params[i] = p.ty.String() + " %" + n
	}
	lw.listing.funcs[f] = fl
	return fl
}

// add lists one LLVM instruction: pre is its pre-created result (nil for
// void ones), added the passlens instructions its lowering appended to the
// block.
func (bk *BlockListing) add(in *instAST, pre *ir.Instr, added []*ir.Instr) {
	li := ListedInstr{Instr: pre, span: in.span}
	if li.Instr == nil && len(added) > 0 {
		li.Instr = added[len(added)-1]
	}
	if llvmTerminators[in.op] {
		bk.Term = li
		return
	}
	bk.Defs = append(bk.Defs, li)
}
