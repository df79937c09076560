package ir

import (
	"io"
	"strconv"
)

// Printer writes the textual IR (docs/ir.md). The output is deterministic
// and parses back (ParseModule) to a module that prints identically.
type Printer struct {
	w   io.Writer
	buf []byte
	// Locs prints source locations as `!loc L:C` (off by default so diffs
	// do not churn when only positions change).
	Locs bool
	// Annotate, when set, may return a comment appended to an instruction's
	// line (e.g. uniformity marks); comments are ignored by the parser.
	Annotate func(*Instr) string
}

// NewPrinter returns a printer writing to w.
func NewPrinter(w io.Writer) *Printer { return &Printer{w: w} }

func (p *Printer) s(x string) { p.buf = append(p.buf, x...) }
func (p *Printer) b(c byte)   { p.buf = append(p.buf, c) }

// ref writes v.Ref() without building the string for instruction results
// (most operands): printing a 10^6-instruction function otherwise
// allocates a string per operand.
func (p *Printer) ref(v Value) {
	if in, ok := v.(*Instr); ok && in != nil {
		p.b('%')
		p.s(quoteName(in.name))
		return
	}
	p.s(v.Ref())
}
func (p *Printer) flush() {
	if len(p.buf) > 0 {
		p.w.Write(p.buf)
		p.buf = p.buf[:0]
	}
}

// Module prints m.
func (p *Printer) Module(m *Module) {
	first := true
	sep := func() {
		if !first {
			p.b('\n')
		}
		first = false
	}
	if m.Name != "" {
		p.s("module ")
		p.s(strconv.Quote(m.Name))
		p.b('\n')
		first = false
	}
	if len(m.Structs) > 0 {
		sep()
		for _, t := range m.Structs {
			p.s("type %")
			p.s(quoteName(t.Name))
			p.s(" = {")
			for i, f := range t.Fields {
				if i > 0 {
					p.b(',')
				}
				p.b(' ')
				p.s(f.Type.String())
				p.b(' ')
				p.s(quoteName(f.Name))
				if f.Placed {
					p.s(" offset ")
					p.s(strconv.Itoa(f.Offset))
					if f.RegShift != 0 {
						p.s(" regshift ")
						p.s(strconv.Itoa(f.RegShift))
					}
				}
			}
			p.s(" }\n")
		}
	}
	if len(m.Globals) > 0 {
		sep()
		for _, g := range m.Globals {
			p.global(g)
		}
	}
	for _, f := range m.Funcs {
		sep()
		p.function(f)
	}
	p.flush()
}

// Function prints one function.
func (p *Printer) Function(f *Function) {
	p.function(f)
	p.flush()
}

func (p *Printer) global(g *Global) {
	p.s(g.Ref())
	p.s(" = global ")
	p.s(g.Space.String())
	p.b(' ')
	p.s(g.ValType.String())
	if g.Init != nil {
		p.s(" = ")
		p.s(g.Init.Literal())
	}
	if g.Semantic != "" {
		p.s(" semantic ")
		p.s(strconv.Quote(g.Semantic))
	}
	if g.Set >= 0 || g.Binding >= 0 {
		p.s(" binding ")
		p.s(strconv.Itoa(g.Set))
		p.s(", ")
		p.s(strconv.Itoa(g.Binding))
	}
	if g.VkBinding >= 0 {
		p.s(" vk_binding ")
		p.s(strconv.Itoa(g.VkSet))
		p.s(", ")
		p.s(strconv.Itoa(g.VkBinding))
	}
	if g.PushConstant {
		p.s(" push_constant")
	}
	if g.SpecID >= 0 {
		p.s(" spec_id ")
		p.s(strconv.Itoa(g.SpecID))
	}
	if g.Location >= 0 {
		p.s(" location ")
		p.s(strconv.Itoa(g.Location))
	}
	if g.ArrayLen > 0 || g.ArrayLen == UnboundedArray {
		p.s(" array ")
		p.s(strconv.Quote(g.Array))
		p.b(' ')
		p.s(strconv.Itoa(g.ArrayIndex))
		p.s(" of ")
		if g.ArrayLen == UnboundedArray {
			p.b('?')
		} else {
			p.s(strconv.Itoa(g.ArrayLen))
		}
	}
	if g.ReadOnly {
		p.s(" readonly")
	}
	if g.Flat {
		p.s(" flat")
	}
	if g.Kind != "" {
		p.s(" kind ")
		p.s(strconv.Quote(g.Kind))
	}
	if p.Locs && g.Loc != (Loc{}) {
		p.loc(g.Loc)
	}
	p.b('\n')
}

func (p *Printer) loc(l Loc) {
	p.s(" !loc ")
	p.s(strconv.Itoa(int(l.Line)))
	p.b(':')
	p.s(strconv.Itoa(int(l.Col)))
}

func (p *Printer) function(f *Function) {
	if f.IsDeclaration() {
		p.s("declare ")
	} else {
		p.s("define ")
	}
	p.s(f.Ret.String())
	p.b(' ')
	p.s(f.Ref())
	p.b('(')
	for i, a := range f.Params {
		if i > 0 {
			p.s(", ")
		}
		p.s(a.typ.String())
		if a.Uniform {
			p.s(" uniform")
		}
		p.b(' ')
		p.s(a.Ref())
	}
	p.b(')')
	if e := f.Entry; e != nil {
		p.b(' ')
		p.s(e.Stage.String())
		if e.Stage == StageCompute {
			p.s(" numthreads(")
			for i, n := range e.NumThreads {
				if i > 0 {
					p.s(", ")
				}
				p.s(strconv.Itoa(n))
			}
			p.b(')')
		}
		if e.WaveSize > 0 {
			p.s(" wavesize(")
			p.s(strconv.Itoa(e.WaveSize))
			p.b(')')
		}
		if e.RootSignature != "" {
			p.s(" rootsignature ")
			p.s(strconv.Quote(e.RootSignature))
		}
	}
	if f.IsDeclaration() {
		p.b('\n')
		return
	}
	p.s(" {\n")
	for _, b := range f.Blocks {
		p.s(quoteName(b.name))
		p.s(":\n")
		for _, in := range b.Instrs {
			p.instr(in)
		}
	}
	p.s("}\n")
}

// InstrString returns one instruction as printed (without indentation or
// newline), with its merge annotation line if any.
func InstrString(in *Instr) string {
	var p Printer
	p.instrBody(in)
	return string(p.buf)
}

func (p *Printer) instr(in *Instr) {
	switch in.MergeKind {
	case MergeSelection:
		p.s("  selection_merge ")
		p.s(in.Merge.Ref())
		p.b('\n')
	case MergeLoop:
		p.s("  loop_merge ")
		p.s(in.Merge.Ref())
		p.s(", ")
		p.s(in.Continue.Ref())
		p.b('\n')
	}
	p.s("  ")
	p.instrBody(in)
	if p.Locs && in.Loc != (Loc{}) {
		p.loc(in.Loc)
	}
	if p.Annotate != nil {
		if c := p.Annotate(in); c != "" {
			p.s(" ; ")
			p.s(c)
		}
	}
	p.b('\n')
	if len(p.buf) > 1<<16 {
		p.flush()
	}
}

// typed writes "T v".
func (p *Printer) typed(v Value) {
	p.s(v.Type().String())
	p.b(' ')
	p.ref(v)
}

func (p *Printer) ints(xs []int) {
	for i, x := range xs {
		if i > 0 {
			p.s(", ")
		}
		p.s(strconv.Itoa(x))
	}
}

// instrBody writes an instruction after its indentation: the result name,
// the mnemonic, then what the op's table entry (optable.go) says it
// carries, in the order the parser reads it back.
func (p *Printer) instrBody(in *Instr) {
	if in.HasResult() {
		p.ref(in)
		p.s(" = ")
	}
	p.s(in.Op.String())
	info := in.Op.Info()
	a := in.Args
	switch info.Aux {
	case AuxCmpPred:
		p.b(' ')
		p.s(in.Pred.String())
	case AuxAtomic:
		p.b(' ')
		p.s(in.Atomic.String())
	}
	switch info.Syntax {
	case SyntaxOperands:
		for i, x := range a {
			if i == 0 {
				p.b(' ')
			} else {
				p.s(", ")
			}
			if info.LastBare && i > 0 && i == len(a)-1 {
				p.ref(x)
			} else {
				p.typed(x)
			}
		}
		p.trailer(in, info.Aux)
	case SyntaxCast:
		p.b(' ')
		p.typed(a[0])
		p.s(" to ")
		p.s(in.typ.String())
	case SyntaxConstruct:
		p.b(' ')
		p.s(in.typ.String())
		p.s(" (")
		p.typedList(a)
		p.b(')')
	case SyntaxCall:
		p.b(' ')
		p.s(in.typ.String())
		p.b(' ')
		if info.Aux == AuxCallee {
			p.s(in.Callee.Ref())
		} else {
			p.s(in.Intr.Name)
		}
		p.b('(')
		p.typedList(a)
		p.b(')')
	case SyntaxAlloca:
		p.b(' ')
		p.s(in.typ.Elem.String())
	case SyntaxPhi:
		p.b(' ')
		p.s(in.typ.String())
		for i, x := range a {
			if i > 0 {
				p.b(',')
			}
			p.s(" [")
			p.s(x.Ref())
			p.s(", ")
			p.s(in.PhiBlocks[i].Ref())
			p.b(']')
		}
	}
}

func (p *Printer) typedList(xs []Value) {
	for i, x := range xs {
		if i > 0 {
			p.s(", ")
		}
		p.typed(x)
	}
}

// trailer writes what follows an operand list: a shuffle mask, an index
// path, branch targets or switch cases.
func (p *Printer) trailer(in *Instr, aux Aux) {
	switch aux {
	case AuxMask:
		p.s(", [")
		p.ints(in.Idx)
		p.b(']')
	case AuxPath:
		p.s(", ")
		p.ints(in.Idx)
	case AuxSuccs:
		for i, t := range in.Succs {
			if i == 0 && len(in.Args) == 0 {
				p.b(' ')
			} else {
				p.s(", ")
			}
			p.s(t.Ref())
		}
	case AuxCases:
		for _, c := range in.Cases {
			p.s(" [")
			for i, v := range c.Values {
				if i > 0 {
					p.s(", ")
				}
				if i == 0 {
					p.s("case ")
				}
				p.s(strconv.FormatInt(v, 10))
			}
			if c.Default {
				if len(c.Values) > 0 {
					p.s(", ")
				}
				p.s("default")
			}
			p.s(": ")
			p.s(c.Target.Ref())
			p.b(']')
		}
	}
}
