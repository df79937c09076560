package llvm

// A function body is not kept as a syntax tree. The parser reads each
// instruction, records what the importer needs before lowering (an
// instStub: where the instruction is, its name, opcode and result type,
// plus the few facts pointee inference uses) and drops the instruction's
// tree. Lowering parses each instruction again from its position, lowers
// it and drops it, so that at most one instruction's tree is alive at a
// time. On a 100k-block function the whole tree was ~180 MB; a stub is 48
// bytes, and the stubs of lowered blocks are freed as lowering proceeds
// (stubList).

// instStub is one instruction of a function body between parsing and
// lowering.
type instStub struct {
	// name is the name as written ("" when unnamed) until declareFunc
	// claims names; from then on it is the value's name (numbered values
	// get their number).
	name string
	rt   *llType // result type when it follows from the LLVM types alone (resultLLType)
	// The instruction's first token (it is parsed again from there) and
	// its opcode token (locations).
	off, line, col int32
	opLine, opCol  int32
	flags          stubFlags
}

// at is the lexer state at the instruction's first token.
func (st *instStub) at() lexState { return lexState{off: int(st.off), line: st.line, col: st.col} }

type stubFlags uint8

const (
	sNamed     stubFlags = 1 << iota // written as "%x = ..."
	sNumeric                         // the name is a number
	sHasResult                       // the instruction defines a value
	sNeedAST                         // the result type needs the whole instruction (resultType)
)

func (st *instStub) has(f stubFlags) bool { return st.flags&f != 0 }

// opTok is the opcode token's position, for messages.
func (st *instStub) opTok() token { return token{kind: tIdent, line: st.opLine, col: st.opCol} }

// firstTok is the first token's position (the %name of a named value).
func (st *instStub) firstTok() token { return token{line: st.line, col: st.col} }

// stubChunk is the number of stubs in one chunk of a stubList.
const stubChunk = 4096

// stubList holds a body's stubs in fixed-size chunks, so that the chunks
// of blocks already lowered can be freed while the IR grows.
type stubList struct {
	chunks [][]instStub
	n      int
}

func (l *stubList) len() int { return l.n }

func (l *stubList) add(st instStub) {
	if l.n%stubChunk == 0 {
		l.chunks = append(l.chunks, make([]instStub, 0, stubChunk))
	}
	c := &l.chunks[len(l.chunks)-1]
	*c = append(*c, st)
	l.n++
}

// at returns stub i (not freed).
func (l *stubList) at(i int32) *instStub { return &l.chunks[i/stubChunk][i%stubChunk] }

// freeBefore frees the chunks that hold only stubs before index i.
func (l *stubList) freeBefore(i int32) {
	for k := 0; k < int(i)/stubChunk; k++ {
		l.chunks[k] = nil
	}
}

// ptrFact is what pointee inference (lowerer.inferPointees) needs of one
// instruction, recorded while parsing in layout order.
type ptrFact struct {
	inst int32   // the instruction (index into funcAST.insts)
	ty   *llType // alloca: allocated type; gep: source element type; uses: accessed type
	name string  // uses: the pointer operand (a local value)
	gep  *instAST
	// srcs are the local operands a phi, select or cast passes through.
	srcs []string
}

// addInst records a parsed instruction of f (stub and inference facts);
// the tree is the parser's scratch node, so nothing of it is kept by
// reference.
func (f *funcAST) addInst(in *instAST, first token) {
	st := instStub{name: in.name, off: int32(first.off), line: first.line, col: first.col, opLine: in.tok.line, opCol: in.tok.col}
	if in.named {
		st.flags |= sNamed
	}
	if in.numeric {
		st.flags |= sNumeric
	}
	if instHasResult(in) {
		st.flags |= sHasResult
		switch in.op {
		case "alloca", "call", "cmpxchg", "extractvalue":
			st.flags |= sNeedAST
		default:
			st.rt = resultLLType(in)
		}
	}
	idx := int32(f.insts.len())
	f.insts.add(st)

	local := func(v valRef) string {
		if v.kind == vLocal {
			return v.text
		}
		return ""
	}
	use := func(v valRef, t *llType, gep *instAST) {
		if n := local(v); n != "" {
			f.ptrUses = append(f.ptrUses, ptrFact{inst: idx, ty: t, name: n, gep: gep})
		}
	}
	flow := func(vs ...valRef) {
		var srcs []string
		for _, v := range vs {
			if n := local(v); n != "" {
				srcs = append(srcs, n)
			}
		}
		if len(srcs) > 0 {
			f.ptrFlows = append(f.ptrFlows, ptrFact{inst: idx, srcs: srcs})
		}
	}
	switch in.op {
	case "alloca":
		f.ptrDefs = append(f.ptrDefs, ptrFact{inst: idx, ty: in.ty})
	case "getelementptr":
		if len(in.args) > 0 {
			// A copy: the parser reuses the operand slice.
			g := &instAST{ty: in.ty, args: append([]typedVal(nil), in.args...)}
			f.ptrDefs = append(f.ptrDefs, ptrFact{inst: idx, gep: g})
			use(in.args[0].v, in.ty, g)
		}
	case "load":
		if len(in.args) == 1 {
			use(in.args[0].v, in.ty, nil)
		}
	case "store":
		if len(in.args) == 2 && in.args[0].ty.kind != lkPtr {
			use(in.args[1].v, in.args[0].ty, nil)
		}
	case "atomicrmw", "cmpxchg":
		use(in.args[0].v, in.ty, nil)
	case "phi":
		var srcs []string
		for _, x := range in.phis {
			if n := local(x.v); n != "" {
				srcs = append(srcs, n)
			}
		}
		if len(srcs) > 0 {
			f.ptrFlows = append(f.ptrFlows, ptrFact{inst: idx, srcs: srcs})
		}
	case "select":
		flow(in.args[1].v, in.args[2].v)
	case "addrspacecast", "bitcast", "freeze":
		flow(in.args[0].v)
	}
}

// reparser parses single instructions again from their stubs, reusing one
// token window.
type reparser struct {
	p parser
}

func newReparser(file string, src []byte, s string) *reparser {
	return &reparser{p: parser{file: file, ts: newTokStream(src, s, startOfFile)}}
}

// load parses the instruction of st.
func (rp *reparser) load(st *instStub) (*instAST, error) {
	p := &rp.p
	p.ts.reset(st.at())
	p.pos, p.depth = 0, 0
	in, err := p.parseInstr()
	if err != nil {
		return nil, err
	}
	in.span = srcSpan{line: st.line, col: st.col, endLine: p.ts.at(p.pos - 1).line}
	return in, nil
}

// opOf is the opcode of st (for messages: the stub does not keep it).
func (rp *reparser) opOf(st *instStub) string {
	if in, err := rp.load(st); err == nil {
		return in.op
	}
	return "instruction"
}
