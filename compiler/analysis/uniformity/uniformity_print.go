package uniformity

import (
	"bufio"
	"io"

	"passlens/compiler/ir"
)

// WriteOpt prints the result in the shape of
//
//	opt-22 -mtriple=amdgcn-- -passes='print<uniformity>' -disable-output
//
// with passlens instruction text:
//
//	UniformityInfo for function 'f':
//	DIVERGENT ARGUMENTS:
//	  DIVERGENT: i32 %d
//	CYCLES ASSUMED DIVERGENT:
//	  depth=1: entries(R P) S Q
//	CYCLES WITH DIVERGENT EXIT:
//	  depth=1: entries(loop)
//
//	TEMPORAL DIVERGENCE LIST:
//	Value         :  %i1 = add i32 %i, 1
//	Used by       :  %x = add i32 %i1, 1
//	Outside cycle :depth=1: entries(loop)
//
//
//	BLOCK entry
//	DEFINITIONS
//	  DIVERGENT:   %c = icmp slt i32 %d, 10
//	TERMINATORS
//	  DIVERGENT:   condbr bool %c, %then, %else
//	END BLOCK
//
// A function without any divergence prints "ALL VALUES UNIFORM" after the
// header and nothing else, as opt-22 does. Only the outermost cycles
// assumed divergent are listed (opt may also list a cycle it recorded
// before a containing one). ParseUniformity reads both opt's and this
// output into comparable sets.
func (u *UniformityInfo) WriteOpt(w io.Writer) error {
	return u.WriteOptListing(w, nil)
}

// OptListing is LLVM's own view of an imported function (built from
// compiler/llvm's Listing): the LLVM text of every argument and
// instruction, in LLVM's order, tied to the passlens values that stand for
// them. With it, WriteOptListing prints what opt-22 prints for the LLVM
// file instead of passlens's instruction text.
type OptListing struct {
	Params []string // "ptr addrspace(1) %0", by parameter index
	Blocks []OptBlock
}

// OptBlock is one LLVM block: the passlens block it became, its
// non-terminator instructions and its terminator.
type OptBlock struct {
	Block *ir.Block
	Defs  []OptInstr
	Term  OptInstr
}

// OptInstr is one LLVM instruction: its text (without indentation) and the
// passlens instruction whose divergence is its divergence.
type OptInstr struct {
	Instr *ir.Instr
	Text  string
}

// WriteOptListing is WriteOpt printing arguments and instructions from lst
// (nil: passlens text). Values that lst does not list (helpers the importer
// added) print in passlens syntax in the temporal divergence list.
func (u *UniformityInfo) WriteOptListing(w io.Writer, lst *OptListing) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("UniformityInfo for function '" + u.Func.Name() + "':\n")
	if !u.HasDivergence() {
		bw.WriteString("ALL VALUES UNIFORM\n")
		return bw.Flush()
	}
	if ps := u.DivergentParams(); len(ps) > 0 {
		bw.WriteString("DIVERGENT ARGUMENTS:\n")
		for _, a := range ps {
			if lst != nil && a.Index < len(lst.Params) {
				bw.WriteString("  DIVERGENT: " + lst.Params[a.Index] + "\n")
				continue
			}
			bw.WriteString("  DIVERGENT: " + a.Type().String() + " " + a.Ref() + "\n")
		}
	}
	if cs := u.AssumedDivergentCycles(); len(cs) > 0 {
		bw.WriteString("CYCLES ASSUMED DIVERGENT:\n")
		for _, c := range cs {
			bw.WriteString("  " + u.CycleString(c) + "\n")
		}
	}
	if cs := u.DivergentExitCycles(); len(cs) > 0 {
		bw.WriteString("CYCLES WITH DIVERGENT EXIT:\n")
		for _, c := range cs {
			bw.WriteString("  " + u.CycleString(c) + "\n")
		}
	}
	if ts := u.TemporalDivergence(); len(ts) > 0 {
		// The same instructions (typically big phis in a shared exit
		// block) recur many times in the list: print each once.
		text := map[ir.Value]string{}
		if lst != nil {
			for _, b := range lst.Blocks {
				for _, d := range b.Defs {
					text[d.Instr] = "  " + d.Text
				}
				if b.Term.Instr != nil {
					text[b.Term.Instr] = "  " + b.Term.Text
				}
			}
		}
		cyc := map[int]string{}
		get := func(v ir.Value) string {
			s, ok := text[v]
			if !ok {
				s = valueText(v)
				text[v] = s
			}
			return s
		}
		bw.WriteString("\nTEMPORAL DIVERGENCE LIST:\n")
		for _, t := range ts {
			c, ok := cyc[t.Cycle]
			if !ok {
				c = u.CycleString(t.Cycle)
				cyc[t.Cycle] = c
			}
			bw.WriteString("Value         :")
			bw.WriteString(get(t.Value))
			bw.WriteString("\nUsed by       :")
			bw.WriteString(get(t.User))
			bw.WriteString("\nOutside cycle :")
			bw.WriteString(c)
			bw.WriteString("\n\n")
		}
	}
	if lst != nil {
		for _, b := range lst.Blocks {
			bw.WriteString("\nBLOCK " + b.Block.Name() + "\n")
			bw.WriteString("DEFINITIONS\n")
			for _, d := range b.Defs {
				u.writeText(bw, d.Instr != nil && u.IsDivergent(d.Instr), d.Text)
			}
			bw.WriteString("TERMINATORS\n")
			if b.Term.Instr != nil {
				u.writeText(bw, u.IsDivergentTerminator(b.Term.Instr.Block), b.Term.Text)
			}
			bw.WriteString("END BLOCK\n")
		}
		return bw.Flush()
	}
	for _, b := range u.Func.Blocks {
		bw.WriteString("\nBLOCK " + b.Name() + "\n")
		bw.WriteString("DEFINITIONS\n")
		term := b.Terminator()
		for _, in := range b.Instrs {
			if in == term {
				break
			}
			u.writeLine(bw, u.IsDivergent(in), in)
		}
		bw.WriteString("TERMINATORS\n")
		if term != nil {
			u.writeLine(bw, u.IsDivergentTerminator(b), term)
		}
		bw.WriteString("END BLOCK\n")
	}
	return bw.Flush()
}

func (u *UniformityInfo) writeLine(bw *bufio.Writer, div bool, in *ir.Instr) {
	if div {
		bw.WriteString("  DIVERGENT: ")
	} else {
		bw.WriteString("             ")
	}
	bw.WriteString("  " + ir.InstrString(in) + "\n")
}

func (u *UniformityInfo) writeText(bw *bufio.Writer, div bool, text string) {
	if div {
		bw.WriteString("  DIVERGENT: ")
	} else {
		bw.WriteString("             ")
	}
	bw.WriteString("  " + text + "\n")
}

// valueText prints a value as LLVM's printer does in the temporal list: an
// instruction indented by two spaces, a parameter as "type %name".
func valueText(v ir.Value) string {
	if in, ok := v.(*ir.Instr); ok {
		return "  " + ir.InstrString(in)
	}
	return v.Type().String() + " " + v.Ref()
}
