package sir

// Op is a SIR opcode. The operand type is part of the opcode (fadd vs iadd)
// because a register has only a bit size, not a type.
type Op uint8

const (
	OpInvalid Op = iota
	OpMov        // dst = src (any type, same bit size)
	OpFAdd
	OpFMul
	OpFMad // dst = a*b + c
	OpFMin
	OpFMax
	OpFRcp
	OpFRsq
	OpFFrc // fractional part
	OpFAbs
	OpFExp2
	OpFLog2
	OpFSin
	OpFCos
	OpFPow
	OpIAdd
	OpIMul
	OpAnd
	OpOr
	OpNot
	OpFCmp // dst (1-bit flag) = a <Cond> b
	OpICmp
	OpSel // dst = flag ? a : b (Srcs: flag, a, b)
	OpF2I // conversions: bit sizes of dst and src may differ
	OpI2F
	OpMovIdx  // dst = Srcs[0] read from slot Srcs[0].Elem + index (Srcs[1]) of a register array; Srcs[2]: immediate count of the slots from Srcs[0].Elem the index may reach
	OpTex     // dst = one component of a texture read (texture.go): Srcs[0] an immediate TexDesc, then the coordinate (4), ddx (3), ddy (3)
	OpFDsx    // dst = the rate of change of the operand across the 2×2 quad in x (ps_3_0 dsx; coarse in the SM3 emulator: top-right minus top-left)
	OpFDsy    // dst = the same in y (dsy; bottom-left minus top-left)
	OpDemote  // kill the channels in Exec, which keep running as helpers for their quads' derivatives (D3D's discard, ps.demote): not a terminator
	OpBr      // unconditional branch to Succs[0]
	OpBrc     // branch to Succs[0] if the flag Srcs[0] is set, else Succs[1]
	OpRet     // end of the shader
	OpDiscard // kill the channels in Exec: they end here (no successor)
	numOps
)

// opInfo describes an opcode for the printer, the validator and the
// optimizations.
type opInfo struct {
	name  string
	srcs  int  // operand count
	dst   bool // has a destination
	pure  bool // no side effects: CSE/DCE candidates
	term  bool // terminator
	conv  bool // destination and source bit sizes may differ
	flagD bool // destination is a 1-bit flag
}

var ops = [numOps]opInfo{
	OpInvalid: {name: "invalid"},
	OpMov:     {name: "mov", srcs: 1, dst: true, pure: true},
	OpFAdd:    {name: "fadd", srcs: 2, dst: true, pure: true},
	OpFMul:    {name: "fmul", srcs: 2, dst: true, pure: true},
	OpFMad:    {name: "fmad", srcs: 3, dst: true, pure: true},
	OpFMin:    {name: "fmin", srcs: 2, dst: true, pure: true},
	OpFMax:    {name: "fmax", srcs: 2, dst: true, pure: true},
	OpFRcp:    {name: "frcp", srcs: 1, dst: true, pure: true},
	OpFRsq:    {name: "frsq", srcs: 1, dst: true, pure: true},
	OpFFrc:    {name: "ffrc", srcs: 1, dst: true, pure: true},
	OpFAbs:    {name: "fabs", srcs: 1, dst: true, pure: true},
	OpFExp2:   {name: "fexp2", srcs: 1, dst: true, pure: true},
	OpFLog2:   {name: "flog2", srcs: 1, dst: true, pure: true},
	OpFSin:    {name: "fsin", srcs: 1, dst: true, pure: true},
	OpFCos:    {name: "fcos", srcs: 1, dst: true, pure: true},
	OpFPow:    {name: "fpow", srcs: 2, dst: true, pure: true},
	OpIAdd:    {name: "iadd", srcs: 2, dst: true, pure: true},
	OpIMul:    {name: "imul", srcs: 2, dst: true, pure: true},
	OpAnd:     {name: "and", srcs: 2, dst: true, pure: true},
	OpOr:      {name: "or", srcs: 2, dst: true, pure: true},
	OpNot:     {name: "not", srcs: 1, dst: true, pure: true},
	OpFCmp:    {name: "fcmp", srcs: 2, dst: true, pure: true, conv: true, flagD: true},
	OpICmp:    {name: "icmp", srcs: 2, dst: true, pure: true, conv: true, flagD: true},
	OpSel:     {name: "sel", srcs: 3, dst: true, pure: true},
	OpF2I:     {name: "f2i", srcs: 1, dst: true, pure: true, conv: true},
	OpI2F:     {name: "i2f", srcs: 1, dst: true, pure: true, conv: true},
	OpMovIdx:  {name: "movidx", srcs: 3, dst: true, pure: true},
	OpTex:     {name: "tex", srcs: TexSrcs, dst: true, pure: true},
	OpFDsx:    {name: "fdsx", srcs: 1, dst: true, pure: true},
	OpFDsy:    {name: "fdsy", srcs: 1, dst: true, pure: true},
	OpDemote:  {name: "demote"},
	OpBr:      {name: "br", term: true},
	OpBrc:     {name: "brc", srcs: 1, term: true},
	OpRet:     {name: "ret", term: true},
	OpDiscard: {name: "discard", term: true},
}

func (o Op) String() string {
	if o < numOps {
		return ops[o].name
	}
	return "op?"
}

// IsTerminator reports block-ending ops.
func (o Op) IsTerminator() bool { return o < numOps && ops[o].term }

// IsPure reports ops without side effects beyond writing their destination.
func (o Op) IsPure() bool { return o < numOps && ops[o].pure }

// NumSrcs is the operand count the op expects.
func (o Op) NumSrcs() int {
	if o < numOps {
		return ops[o].srcs
	}
	return 0
}

// numSuccs is the number of branch targets the op expects.
func (o Op) numSuccs() int {
	switch o {
	case OpBr:
		return 1
	case OpBrc:
		return 2
	}
	return 0
}

// Cond is a comparison condition.
type Cond uint8

const (
	CondNone Cond = iota
	CondEQ
	CondNE
	CondLT
	CondLE
	CondGT
	CondGE
	numConds
)

var condNames = [numConds]string{"", "eq", "ne", "lt", "le", "gt", "ge"}

func (c Cond) String() string {
	if c < numConds {
		return condNames[c]
	}
	return "cond?"
}
