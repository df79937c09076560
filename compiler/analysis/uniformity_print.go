package analysis

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
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("UniformityInfo for function '" + u.Func.Name() + "':\n")
	if !u.HasDivergence() {
		bw.WriteString("ALL VALUES UNIFORM\n")
		return bw.Flush()
	}
	if ps := u.DivergentParams(); len(ps) > 0 {
		bw.WriteString("DIVERGENT ARGUMENTS:\n")
		for _, a := range ps {
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

// valueText prints a value as LLVM's printer does in the temporal list: an
// instruction indented by two spaces, a parameter as "type %name".
func valueText(v ir.Value) string {
	if in, ok := v.(*ir.Instr); ok {
		return "  " + ir.InstrString(in)
	}
	return v.Type().String() + " " + v.Ref()
}
