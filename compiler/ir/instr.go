package ir

// Op is an instruction opcode.
type Op uint8

const (
	OpInvalid Op = iota

	// Integer arithmetic and bitwise (operands and result of one int/uint/bool
	// scalar or vector type; and/or/xor/not also on bool).
	OpAdd
	OpSub
	OpMul
	OpSDiv
	OpUDiv
	OpSRem
	OpURem
	OpShl
	OpLShr
	OpAShr
	OpAnd
	OpOr
	OpXor
	OpNot // bitwise not (logical not on bool)
	OpNeg // integer negation

	// Float arithmetic.
	OpFAdd
	OpFSub
	OpFMul
	OpFDiv
	OpFRem
	OpFNeg

	// Comparisons: result bool with the operand's vector shape; Pred says which.
	OpICmp
	OpFCmp

	OpSelect // select cond, a, b (cond bool, or bool vector of a's shape)

	// Conversions: "op T %x to U".
	OpSIToFP
	OpUIToFP
	OpFPToSI
	OpFPToUI
	OpBitcast
	OpTrunc
	OpZExt
	OpSExt
	OpFPTrunc
	OpFPExt

	// Vectors and aggregates.
	OpConstruct    // construct T, elems...: build a vector/matrix/array/struct from its components
	OpExtractElem  // extractelement <N x T> %v, i32 %i (dynamic index)
	OpInsertElem   // insertelement <N x T> %v, T %e, i32 %i
	OpShuffle      // shuffle <N x T> %a, <M x T> %b, [mask] (swizzles)
	OpExtractValue // extractvalue T %agg, i, j, ...: constant index path
	OpInsertValue  // insertvalue T %agg, U %e, i, j, ...
	OpCopy         // copy T %x: a plain copy (out-of-SSA, SIR lowering)

	// Memory.
	OpAlloca // alloca T -> ptr<function, T>
	OpLoad   // load T, ptr %p
	OpStore  // store T %v, ptr %p
	OpAccess // access ptr %base, idx...: SPIR-V OpAccessChain (no leading pointer index)
	OpMemcpy // memcpy ptr %dst, ptr %src: copies one pointee value
	OpMemset // memset ptr %dst, u32 %byte: fills the pointee with a byte
	OpAtomic // atomic <kind> ptr %p, T %v [, T %cmp]: returns the old value

	OpCall      // call T @f(args)
	OpIntrinsic // intr T name(args)
	OpPhi

	// Terminators.
	OpBr
	OpCondBr
	OpSwitch
	OpRet
	OpDiscard
	OpUnreachable

	numOps
)

var opNames = [numOps]string{
	OpInvalid: "invalid",
	OpAdd:     "add", OpSub: "sub", OpMul: "mul", OpSDiv: "sdiv", OpUDiv: "udiv", OpSRem: "srem", OpURem: "urem",
	OpShl: "shl", OpLShr: "lshr", OpAShr: "ashr", OpAnd: "and", OpOr: "or", OpXor: "xor", OpNot: "not", OpNeg: "neg",
	OpFAdd: "fadd", OpFSub: "fsub", OpFMul: "fmul", OpFDiv: "fdiv", OpFRem: "frem", OpFNeg: "fneg",
	OpICmp: "icmp", OpFCmp: "fcmp", OpSelect: "select",
	OpSIToFP: "sitofp", OpUIToFP: "uitofp", OpFPToSI: "fptosi", OpFPToUI: "fptoui", OpBitcast: "bitcast",
	OpTrunc: "trunc", OpZExt: "zext", OpSExt: "sext", OpFPTrunc: "fptrunc", OpFPExt: "fpext",
	OpConstruct: "construct", OpExtractElem: "extractelement", OpInsertElem: "insertelement", OpShuffle: "shuffle",
	OpExtractValue: "extractvalue", OpInsertValue: "insertvalue", OpCopy: "copy",
	OpAlloca: "alloca", OpLoad: "load", OpStore: "store", OpAccess: "access", OpMemcpy: "memcpy", OpMemset: "memset",
	OpAtomic: "atomic",
	OpCall:   "call", OpIntrinsic: "intr", OpPhi: "phi",
	OpBr: "br", OpCondBr: "condbr", OpSwitch: "switch", OpRet: "ret", OpDiscard: "discard", OpUnreachable: "unreachable",
}

func (o Op) String() string {
	if o < numOps {
		return opNames[o]
	}
	return "op?"
}

// OpByName maps a mnemonic to its Op.
var OpByName = func() map[string]Op {
	m := map[string]Op{}
	for i, n := range opNames {
		m[n] = Op(i)
	}
	return m
}()

// IsTerminator reports block-ending ops.
func (o Op) IsTerminator() bool { return o >= OpBr && o <= OpUnreachable }

// IsBinary reports two-operand arithmetic/bitwise ops.
func (o Op) IsBinary() bool {
	return (o >= OpAdd && o <= OpXor) || (o >= OpFAdd && o <= OpFRem)
}

// IsUnary reports one-operand arithmetic ops.
func (o Op) IsUnary() bool { return o == OpNot || o == OpNeg || o == OpFNeg }

// IsCast reports conversion ops.
func (o Op) IsCast() bool { return o >= OpSIToFP && o <= OpFPExt }

// IsCommutative reports binary ops whose operands may be swapped.
func (o Op) IsCommutative() bool {
	switch o {
	case OpAdd, OpMul, OpAnd, OpOr, OpXor, OpFAdd, OpFMul:
		return true
	}
	return false
}

// Pred is a comparison predicate (icmp/fcmp) or an atomic operation kind.
type Pred uint8

const (
	PredNone Pred = iota
	// icmp
	PredEQ
	PredNE
	PredSLT
	PredSLE
	PredSGT
	PredSGE
	PredULT
	PredULE
	PredUGT
	PredUGE
	// fcmp (ordered and unordered)
	PredOEQ
	PredONE
	PredOLT
	PredOLE
	PredOGT
	PredOGE
	PredORD
	PredUNO
	PredUEQ
	PredUNE
	PredFULT
	PredFULE
	PredFUGT
	PredFUGE
	// atomic kinds
	AtomicAdd
	AtomicMin
	AtomicMax
	AtomicUMin
	AtomicUMax
	AtomicAnd
	AtomicOr
	AtomicXor
	AtomicXchg
	AtomicCmpXchg
	numPreds
)

var predNames = [numPreds]string{
	PredNone: "",
	PredEQ:   "eq", PredNE: "ne", PredSLT: "slt", PredSLE: "sle", PredSGT: "sgt", PredSGE: "sge",
	PredULT: "ult", PredULE: "ule", PredUGT: "ugt", PredUGE: "uge",
	PredOEQ: "oeq", PredONE: "one", PredOLT: "olt", PredOLE: "ole", PredOGT: "ogt", PredOGE: "oge",
	PredORD: "ord", PredUNO: "uno", PredUEQ: "ueq", PredUNE: "une",
	PredFULT: "ult", PredFULE: "ule", PredFUGT: "ugt", PredFUGE: "uge",
	AtomicAdd: "add", AtomicMin: "min", AtomicMax: "max", AtomicUMin: "umin", AtomicUMax: "umax",
	AtomicAnd: "and", AtomicOr: "or", AtomicXor: "xor", AtomicXchg: "xchg", AtomicCmpXchg: "cmpxchg",
}

func (p Pred) String() string {
	if p < numPreds {
		return predNames[p]
	}
	return "pred?"
}

// ParsePred finds the predicate spelled s for op (icmp, fcmp or atomic).
func ParsePred(op Op, s string) (Pred, bool) {
	lo, hi := PredEQ, PredUGE
	switch op {
	case OpFCmp:
		lo, hi = PredOEQ, PredFUGE
	case OpAtomic:
		lo, hi = AtomicAdd, AtomicCmpXchg
	}
	for p := lo; p <= hi; p++ {
		if predNames[p] == s {
			return p, true
		}
	}
	return PredNone, false
}

// MergeKind says which structured-control-flow annotation a terminator has.
type MergeKind uint8

const (
	MergeNone      MergeKind = iota
	MergeSelection           // selection_merge %m (if / switch)
	MergeLoop                // loop_merge %m, %continue (on the loop header's terminator)
)

// SwitchCase is one label group of a switch, in source order. Values are the
// case values; Default marks the group containing `default:` (it may also
// carry values, as in `case 1: default:`).
type SwitchCase struct {
	Values  []int64
	Default bool
	Target  *Block
}

// Loc is a source position (1-based; 0 means unknown).
type Loc struct {
	Line, Col int32
}

// Instr is one instruction. Which fields are used depends on Op (see the
// comments on the Op constants and docs/ir.md).
type Instr struct {
	Op   Op
	name string
	typ  *Type // result type; Void for instructions without a result

	Args []Value // operands; for switch Args[0] is the selector

	Succs     []*Block     // br: [dst]; condbr: [then, else]
	Cases     []SwitchCase // switch: label groups in source order
	PhiBlocks []*Block     // phi: incoming block of Args[i]

	Pred   Pred  // icmp/fcmp predicate; atomic kind
	Idx    []int // extractvalue/insertvalue path; shuffle mask
	Callee *Function
	Intr   *Intrinsic

	MergeKind MergeKind
	Merge     *Block // selection or loop merge block
	Continue  *Block // loop continue target

	Block *Block
	Loc   Loc

	// The verifier's scratch: its position in the layout, valid while
	// vmark is the running check's number (verify.go, verifyGen).
	vmark uint64
	vpos  ipos
}

func (in *Instr) Type() *Type { return in.typ }
func (in *Instr) Name() string {
	return in.name
}
func (in *Instr) Ref() string { return "%" + quoteName(in.name) }

// SetType changes the result type (used by passes that retype, e.g. scalarize).
func (in *Instr) SetType(t *Type) { in.typ = t }

// HasResult reports whether the instruction defines a value.
func (in *Instr) HasResult() bool { return in.typ != nil && in.typ != Void }

// Successors returns the CFG successors in LLVM order: for switch the
// default target first, then the other groups' targets in source order (one
// entry per case value, as LLVM lists them). Analyses rely on this order.
func (in *Instr) Successors() []*Block {
	switch in.Op {
	case OpBr, OpCondBr:
		return in.Succs
	case OpSwitch:
		var out []*Block
		for _, c := range in.Cases {
			if c.Default {
				out = append(out, c.Target)
			}
		}
		for _, c := range in.Cases {
			for range c.Values {
				out = append(out, c.Target)
			}
		}
		return out
	}
	return nil
}

// ReplaceSuccessor rewrites every CFG edge (and merge annotation) from old to new.
func (in *Instr) ReplaceSuccessor(old, new *Block) {
	for i, s := range in.Succs {
		if s == old {
			in.Succs[i] = new
		}
	}
	for i := range in.Cases {
		if in.Cases[i].Target == old {
			in.Cases[i].Target = new
		}
	}
}

// IsTerminator reports whether in ends its block.
func (in *Instr) IsTerminator() bool { return in.Op.IsTerminator() }

// HasSideEffects reports instructions that must not be removed when unused.
func (in *Instr) HasSideEffects() bool {
	switch in.Op {
	case OpStore, OpMemcpy, OpMemset, OpAtomic, OpCall:
		return true
	case OpIntrinsic:
		return in.Intr == nil || !in.Intr.Attrs.Has(AttrPure)
	}
	return in.Op.IsTerminator()
}

// IsConvergent reports operations whose result depends on the set of lanes
// executing them together (wave ops, barriers): they must not be moved
// across control flow or merged.
func (in *Instr) IsConvergent() bool {
	return in.Op == OpIntrinsic && in.Intr != nil && in.Intr.Attrs.Has(AttrConvergent)
}

// Incoming returns the value a phi receives from block b (nil if none).
func (in *Instr) Incoming(b *Block) Value {
	for i, pb := range in.PhiBlocks {
		if pb == b {
			return in.Args[i]
		}
	}
	return nil
}
